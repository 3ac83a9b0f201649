import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { versionOf } from "../../../src/fs/version.ts";
import { createWorkspace } from "../../../src/workspace.ts";

const TS = "export function add(a: number, b: number): number {\n  return a + b;\n}\n";
const BROKEN = "a.ts\n<<<<<<< SEARCH\n  return a + b;\n=======\n  return (a + b;\n>>>>>>> REPLACE\n";

async function open(files: Record<string, string>) {
  const init: Record<string, string> = {};
  for (const [k, v] of Object.entries(files)) init[`/${k}`] = v;
  return await createWorkspace({ backend: createMemoryBackend(init), wasm: createWasmLoader() });
}

Deno.test("apply_edits refuses an edit that introduces a syntax error, naming the line", async () => {
  const ws = await open({ "a.ts": TS });
  const res = await ws.call("apply_edits", { text: BROKEN });
  assert.ok(!res.ok);
  assert.equal(res.error.code, "syntax_error");
  assert.match(res.error.message, /"a\.ts" line/);
  assert.equal(new TextDecoder().decode((await ws.fs.read("/a.ts"))!), TS);
});

Deno.test("apply_edits with syntax_guard warn applies and warns", async () => {
  const ws = await open({ "a.ts": TS });
  const res = await ws.call("apply_edits", { text: BROKEN, syntax_guard: "warn" });
  assert.ok(res.ok, JSON.stringify(res));
  assert.match(res.warnings.join("\n"), /introduces syntax errors/);
  assert.match(new TextDecoder().decode((await ws.fs.read("/a.ts"))!), /return \(a \+ b;/);
});

Deno.test("apply_edits lets pre-existing syntax errors through and passes files without a grammar", async () => {
  const ws = await open({ "a.ts": TS + "const = ;\n", "notes.unknownext": "x\n" });
  const res = await ws.call("apply_edits", {
    text: "a.ts\n<<<<<<< SEARCH\n  return a + b;\n=======\n  return b + a;\n>>>>>>> REPLACE\n" +
      "notes.unknownext\n<<<<<<< SEARCH\nx\n=======\n(((\n>>>>>>> REPLACE\n",
  });
  assert.ok(res.ok, JSON.stringify(res));
  assert.equal(res.changes.length, 2);
});

Deno.test("apply_edits dry_run returns the diff and writes nothing", async () => {
  const ws = await open({ "a.ts": TS });
  const res = await ws.call("apply_edits", {
    text: "a.ts\n<<<<<<< SEARCH\n  return a + b;\n=======\n  return b + a;\n>>>>>>> REPLACE\n",
    dry_run: true,
  });
  assert.ok(res.ok);
  assert.equal(res.status, "dry_run");
  assert.match(res.changes[0]!.diff, /^\+ {2}return b \+ a;$/m);
  assert.equal(new TextDecoder().decode((await ws.fs.read("/a.ts"))!), TS);
});

Deno.test("apply_edits refuses a stale expected version", async () => {
  const ws = await open({ "a.ts": TS });
  const res = await ws.call("apply_edits", {
    text: "a.ts\n<<<<<<< SEARCH\n  return a + b;\n=======\n  return b + a;\n>>>>>>> REPLACE\n",
    expected_versions: { "a.ts": await versionOf(new TextEncoder().encode("other")) },
  });
  assert.ok(!res.ok);
  assert.equal(res.error.code, "stale_base");
});

Deno.test("apply_edits reports malformed input as invalid_args with the input line", async () => {
  const ws = await open({ "a.ts": TS });
  const res = await ws.call("apply_edits", { text: "a.ts\n<<<<<<< SEARCH\nx\n=======\ny\n" });
  assert.ok(!res.ok);
  assert.equal(res.error.code, "invalid_args");
  assert.match(res.error.message, /input line 2/);
  const forced = await ws.call("apply_edits", {
    text: "a.ts\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n",
    format: "udiff",
  });
  assert.ok(!forced.ok);
  assert.equal(forced.error.code, "invalid_args");
});

Deno.test("apply_edits reports the tier, lines and confidence of each block", async () => {
  const ws = await open({ "a.ts": TS });
  const res = await ws.call("apply_edits", {
    text: "a.ts\n<<<<<<< SEARCH\nreturn a + b;\n=======\nreturn b + a;\n>>>>>>> REPLACE\n",
  });
  assert.ok(res.ok, JSON.stringify(res));
  assert.deepEqual(res.data["blocks"], [{
    block: 1,
    path: "a.ts",
    input_line: 2,
    status: "applied",
    tier: "indentation",
    confidence: "high",
    lines: { start: 2, end: 2 },
    new_lines: { start: 2, end: 2 },
  }]);
  assert.equal(new TextDecoder().decode((await ws.fs.read("/a.ts"))!), TS.replace("a + b", "b + a"));
});
