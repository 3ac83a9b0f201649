import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { versionOf } from "../../../src/fs/version.ts";
import { createWorkspace } from "../../../src/workspace.ts";
import { fixtureUrl } from "../../_helpers.ts";

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

const STRING_JS = await Deno.readTextFile(new URL("../../fixtures/text/string.js", import.meta.url));
const IDB_TS = await Deno.readTextFile(new URL("../../fixtures/text/idb-keyval.ts", import.meta.url));

Deno.test("apply_edits applies an aider-style response: prose, fenced blocks on two files, a new file", async () => {
  const ws = await open({ "lib/string.js": STRING_JS, "lib/idb-keyval.ts": IDB_TS });
  const text = [
    "I'll rename the helper and add a test.",
    "",
    "lib/string.js",
    "```javascript",
    "<<<<<<< SEARCH",
    "export function longestCommonPrefix(str1, str2) {",
    "    let i;",
    "=======",
    "export function commonPrefix(str1, str2) {",
    "    let i;",
    ">>>>>>> REPLACE",
    "```",
    "",
    "Then the store:",
    "",
    "./lib/idb-keyval.ts",
    "```typescript",
    "<<<<<<< SEARCH",
    "function getDefaultStore() {",
    "  if (!store) store = new Store();",
    "=======",
    "function getDefaultStore(): Store {",
    "  if (!store) store = new Store();",
    ">>>>>>> REPLACE",
    "```",
    "",
    "lib/new_test.js",
    "```javascript",
    "<<<<<<< SEARCH",
    "=======",
    "import { commonPrefix } from './string.js';",
    ">>>>>>> REPLACE",
    "```",
  ].join("\n");
  const res = await ws.call("apply_edits", { text });
  assert.ok(res.ok, JSON.stringify(res));
  assert.deepEqual(res.changes.map((c) => c.path), ["lib/idb-keyval.ts", "lib/new_test.js", "lib/string.js"]);
  assert.match(
    new TextDecoder().decode((await ws.fs.read("/lib/string.js"))!),
    /^export function commonPrefix\(/m,
  );
  assert.match(
    new TextDecoder().decode((await ws.fs.read("/lib/idb-keyval.ts"))!),
    /getDefaultStore\(\): Store/,
  );
});

Deno.test("apply_edits applies a model diff with wrong @@ numbers and function context", async () => {
  const ws = await open({ "lib/string.js": STRING_JS });
  const text = [
    "```diff",
    "--- a/lib/string.js",
    "+++ b/lib/string.js",
    "@@ -100,7 +100,7 @@ export function replacePrefix(string, oldPrefix, newPrefix) {",
    " export function replaceSuffix(string, oldSuffix, newSuffix) {",
    "     if (!oldSuffix) {",
    "-        return string + newSuffix;",
    "+        return `${string}${newSuffix}`;",
    "     }",
    "```",
  ].join("\n");
  const res = await ws.call("apply_edits", { text });
  assert.ok(res.ok, JSON.stringify(res));
  const blocks = res.data["blocks"] as { tier: string; lines: { start: number } }[];
  assert.equal(blocks[0]!.tier, "exact");
  assert.equal(blocks[0]!.lines.start, 31);
});

const REFUSALS: { name: string; files: Record<string, string>; text: string; code: string }[] = [
  {
    name: "edit of a missing file",
    files: { "a.ts": TS },
    text: "b.ts\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n",
    code: "not_found",
  },
  {
    name: "diff creating a file that exists",
    files: { "a.ts": TS },
    text: "--- /dev/null\n+++ b/a.ts\n@@ -0,0 +1 @@\n+other\n",
    code: "already_exists",
  },
  {
    name: "*** Add File with the content already there",
    files: { "a.ts": TS },
    text: `*** Begin Patch\n*** Add File: a.ts\n${
      TS.trimEnd().split("\n").map((l) => `+${l}`).join("\n")
    }\n*** End Patch\n`,
    code: "already_applied",
  },
  {
    name: "delete of a missing file",
    files: { "a.ts": TS },
    text: "*** Begin Patch\n*** Delete File: gone.ts\n*** End Patch\n",
    code: "not_found",
  },
  {
    name: "path escaping the root",
    files: { "a.ts": TS },
    text: "../etc/passwd\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n",
    code: "sandbox_violation",
  },
  {
    name: "edit text over the size limit",
    files: { "a.ts": TS },
    text: "a.ts\n<<<<<<< SEARCH\n" + "x".repeat(9 * 1024 * 1024) + "\n=======\ny\n>>>>>>> REPLACE\n",
    code: "limit_exceeded",
  },
];

for (const r of REFUSALS) {
  Deno.test(`apply_edits refuses with ${r.code}: ${r.name}`, async () => {
    const ws = await open(r.files);
    const res = await ws.call("apply_edits", { text: r.text });
    assert.ok(!res.ok, JSON.stringify(res).slice(0, 400));
    assert.equal(res.error.code, r.code);
    assert.equal(new TextDecoder().decode((await ws.fs.read("/a.ts"))!), TS);
  });
}

// A real file (tree-sitter-css's scanner.c) and a stale block: the model wrote its SEARCH against an older
// version of lines 42-50, where the loop returned `true` on ';' (a real token, not whitespace).
const SCANNER = await Deno.readTextFile(fixtureUrl("text", "scanner.c"));
const LINES = SCANNER.split("\n");
const STALE = LINES.slice(41, 50).map((l) => l.replace("return false;", "return true;"));
const STALE_EDIT = `scanner.c\n<<<<<<< SEARCH\n${STALE.join("\n")}\n=======\n${
  STALE.map((l) => l.replace("return true;", "return 1;")).join("\n")
}\n>>>>>>> REPLACE\n`;

Deno.test("apply_edits never writes a low-confidence (fuzzy) match unasked: no_match with the window and a diff", async () => {
  const ws = await open({ "scanner.c": SCANNER });
  const res = await ws.call("apply_edits", { text: STALE_EDIT });
  assert.ok(!res.ok, JSON.stringify(res));
  assert.equal(res.error.code, "no_match");
  assert.match(res.error.message, /the closest, lines 42-50 \(similarity 0\.9\d\), differs in real tokens/);
  assert.match(res.error.hint, /pass fuzzy: true/);
  const dym = res.error.details!["did_you_mean"] as { start_line: number; end_line: number; diff: string };
  assert.deepEqual([dym.start_line, dym.end_line], [42, 50]);
  assert.match(dym.diff, /^-\s+\|\s+return true;$/m);
  assert.match(dym.diff, /^\+45 \|\s+return false;$/m);
  assert.deepEqual(res.error.suggested_call, {
    tool: "read_file",
    args: { path: "scanner.c", start_line: 39, end_line: 53 },
  });
  assert.equal(new TextDecoder().decode((await ws.fs.read("/scanner.c"))!), SCANNER);
});

Deno.test("apply_edits writes a fuzzy match with fuzzy: true, or when the workspace opts in", async () => {
  const ws = await open({ "scanner.c": SCANNER });
  const res = await ws.call("apply_edits", { text: STALE_EDIT, fuzzy: true });
  assert.ok(res.ok, JSON.stringify(res));
  assert.equal((res.data["blocks"] as { tier: string }[])[0]!.tier, "fuzzy");
  assert.match(res.warnings.join("\n"), /fuzzy matching/);
  const opted = () =>
    createWorkspace({
      backend: createMemoryBackend({ "/scanner.c": SCANNER }),
      wasm: createWasmLoader(),
      fuzzy: true,
    });
  assert.ok((await (await opted()).call("apply_edits", { text: STALE_EDIT })).ok);
  const refused = await (await opted()).call("apply_edits", { text: STALE_EDIT, fuzzy: false });
  assert.ok(!refused.ok && refused.error.code === "no_match");
});

Deno.test("edit_file never writes a fuzzy match unasked; fuzzy: true opts in", async () => {
  const ws = await open({ "scanner.c": SCANNER });
  const args = {
    path: "scanner.c",
    old_string: STALE.join("\n"),
    new_string: STALE.map((l) => l.replace("return true;", "return 1;")).join("\n"),
  };
  const res = await ws.call("edit_file", args);
  assert.ok(!res.ok);
  assert.equal(res.error.code, "no_match");
  assert.match(res.error.message, /old_string matches no lines exactly; the closest, lines 42-50/);
  assert.equal(new TextDecoder().decode((await ws.fs.read("/scanner.c"))!), SCANNER);
  const ok = await ws.call("edit_file", { ...args, fuzzy: true });
  assert.ok(ok.ok, JSON.stringify(ok));
  assert.equal((ok.data["block"] as { tier: string }).tier, "fuzzy");
});

/** Apply `args` twice; the second answer. */
async function twice(tool: string, args: Record<string, unknown>, files: Record<string, string>) {
  const ws = await open(files);
  const first = await ws.call(tool, args);
  assert.ok(first.ok, JSON.stringify(first));
  const again = await ws.call(tool, args);
  assert.ok(!again.ok, JSON.stringify(again));
  return again.error;
}

const OLD = LINES.slice(46, 50);
const NEW = OLD.map((l) => l.replace("'}'", "')'"));

Deno.test("re-applying an applied SEARCH/REPLACE block is already_applied, with and without fuzzy", async () => {
  const text = `scanner.c\n<<<<<<< SEARCH\n${OLD.join("\n")}\n=======\n${NEW.join("\n")}\n>>>>>>> REPLACE\n`;
  for (const fuzzy of [false, true]) {
    const err = await twice("apply_edits", { text, fuzzy }, { "scanner.c": SCANNER });
    assert.equal(err.code, "already_applied", JSON.stringify(err));
    assert.match(err.message, /the REPLACE text is already at lines 47-50/);
  }
});

Deno.test("re-applying an applied unified diff hunk is already_applied", async () => {
  const text = `--- a/scanner.c\n+++ b/scanner.c\n@@ -46,5 +46,5 @@\n ${LINES[45]}\n${
    OLD.map((l) => `-${l}`).join("\n")
  }\n${NEW.map((l) => `+${l}`).join("\n")}\n`;
  const err = await twice("apply_edits", { text }, { "scanner.c": SCANNER });
  assert.equal(err.code, "already_applied", JSON.stringify(err));
});

Deno.test("re-applying an applied *** Begin Patch chunk is already_applied", async () => {
  const text = `*** Begin Patch\n*** Update File: scanner.c\n@@\n ${LINES[45]}\n${
    OLD.map((l) => `-${l}`).join("\n")
  }\n${NEW.map((l) => `+${l}`).join("\n")}\n*** End Patch\n`;
  const err = await twice("apply_edits", { text }, { "scanner.c": SCANNER });
  assert.equal(err.code, "already_applied", JSON.stringify(err));
});

Deno.test("re-applying an applied edit_file (str_replace) edit is already_applied on whole lines, no_match inside one", async () => {
  const lines = { path: "scanner.c", old_string: OLD.join("\n"), new_string: NEW.join("\n") };
  const err = await twice("edit_file", lines, { "scanner.c": SCANNER });
  assert.equal(err.code, "already_applied", JSON.stringify(err));
  // Part of a line proves nothing (issue 27, item 8): the agent is sent to re-read, not told to drop the edit.
  const inside = {
    path: "scanner.c",
    old_string: "lexer->lookahead == '}' ||",
    new_string: "lexer->lookahead == ')' ||",
  };
  const err2 = await twice("edit_file", inside, { "scanner.c": SCANNER });
  assert.equal(err2.code, "no_match", JSON.stringify(err2));
});
