import assert from "node:assert/strict";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { applyWithReflection } from "../../../src/surfaces/reflection.ts";
import { createWorkspace } from "../../../src/workspace.ts";

const block = (search: string, replace: string) =>
  `a.js\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n`;

async function open() {
  return await createWorkspace({
    backend: createMemoryBackend({ "/a.js": "function f() {\n  return 1;\n}\n" }),
  });
}

Deno.test("applyWithReflection() feeds a miss back with the did-you-mean hint and succeeds on the retry", async () => {
  const ws = await open();
  const seen: (string | null)[] = [];
  const out = await applyWithReflection({
    workspace: ws,
    propose(feedback) {
      seen.push(feedback);
      return feedback === null
        ? block("function g() {\n  return 1;", "x")
        : block("  return 1;", "  return 2;");
    },
  });
  assert.ok(out.ok);
  assert.equal(out.reflections, 1);
  assert.equal(out.attempts.length, 2);
  assert.equal(seen[0], null);
  assert.match(seen[1]!, /matches no lines/);
  assert.match(seen[1]!, /Did you mean lines 1-2/);
  assert.match(seen[1]!, /\+1 \| function f\(\) \{/);
  assert.equal(out.attempts[1]!.feedback, undefined);
});

Deno.test("applyWithReflection() feeds a malformed parse back", async () => {
  const ws = await open();
  const out = await applyWithReflection({
    workspace: ws,
    propose: (feedback) =>
      feedback === null ? "a.js\n<<<<<<< SEARCH\nx\n" : block("  return 1;", "  return 2;"),
  });
  assert.ok(out.ok);
  assert.match(out.attempts[0]!.feedback!, /input line 2/);
});

Deno.test("applyWithReflection() runs verify after a full apply and reflects its error", async () => {
  const ws = await open();
  let verified = 0;
  const out = await applyWithReflection({
    workspace: ws,
    propose: (_f, history) =>
      history.length === 0 ? block("  return 1;", "  return 2;") : block("  return 2;", "  return 3;"),
    verify() {
      verified++;
      return verified === 1 ? "test failed: expected 3, got 2" : null;
    },
  });
  assert.ok(out.ok);
  assert.equal(out.reflections, 1);
  assert.equal(out.attempts[0]!.verifyError, "test failed: expected 3, got 2");
  assert.match(out.attempts[0]!.feedback!, /verification failed/);
  assert.match(new TextDecoder().decode((await ws.fs.read("/a.js"))!), /return 3;/);
});

Deno.test("applyWithReflection() stops after maxReflections and returns the whole history", async () => {
  const ws = await open();
  const out = await applyWithReflection({
    workspace: ws,
    maxReflections: 2,
    propose: () => block("nothing here", "x"),
  });
  assert.ok(!out.ok);
  assert.equal(out.attempts.length, 3);
  assert.equal(out.reflections, 2);
  assert.ok(!out.final.ok);
  assert.equal(out.final.error.code, "no_match");
});

Deno.test("applyWithReflection() in a named session is unguarded unless asked; asked, auto-expand lets the resend land", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({ "/a.py": "x = 1\ny = 2\n" }) });
  const edits = "a.py\n<<<<<<< SEARCH\ny = 2\n=======\ny = 3\n>>>>>>> REPLACE\n";
  const plain = await applyWithReflection({ workspace: ws, session: "s", propose: () => edits });
  assert.ok(plain.ok && plain.reflections === 0);
  const back = "a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 0\n>>>>>>> REPLACE\n";
  const guarded = await applyWithReflection({
    workspace: ws,
    session: "s",
    readGuard: "refuse",
    propose: () => back,
  });
  assert.ok(guarded.ok);
  assert.equal(guarded.reflections, 1);
  assert.match(guarded.attempts[0]!.feedback!, /line 1 was not read/);
  assert.match(guarded.attempts[0]!.feedback!, /\na\.py:\n1\tx = 1$/, "the unread line, shown");
});
