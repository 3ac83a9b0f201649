import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend, createWorkspace, Grammars, type Workspace } from "../../../src/mod.ts";

// How many parses the syntax guard pays, on real files (tests/fixtures/real/, copied from npm packages).
const GRAMMARS = new Grammars(createWasmLoader());
const PY = await Deno.readTextFile(new URL("../../fixtures/real/MSVSUserFile.py", import.meta.url));
const TS = await Deno.readTextFile(new URL("../../fixtures/symbols/context.d.ts", import.meta.url));

function open(): Promise<Workspace> {
  return createWorkspace({
    backend: createMemoryBackend({ "/user.py": PY, "/deref.ts": TS }),
    grammars: GRAMMARS,
  });
}

/** Full and incremental parses the workspace's cache has done so far. */
function parses(ws: Workspace): { full: number; incremental: number } {
  return { full: ws.trees!.fullParses, incremental: ws.trees!.incrementalParses };
}

/** A SEARCH/REPLACE block for `path` that replaces the first `from` with `to`. */
function block(path: string, from: string, to: string): string {
  return `${path}\n<<<<<<< SEARCH\n${from}\n=======\n${to}\n>>>>>>> REPLACE\n`;
}

const PY_LINE = "        self.name = name";
const PY_EDIT = block("user.py", PY_LINE, `${PY_LINE}\n    self.extra = 1`);

Deno.test("syntax guard: a clean edit on a new workspace costs one full parse of the new text, nothing else", async () => {
  assert.ok(PY.includes(`${PY_LINE}\n`), "fixture has the line");
  const ws = await open();
  const r = await ws.call("apply_edits", { text: PY_EDIT });
  assert.ok(r.ok, JSON.stringify(r));
  assert.deepEqual(parses(ws), { full: 1, incremental: 0 });
  // The tree of what was written is cached: outlining it now parses nothing.
  const o = await ws.call("outline", { path: "user.py" });
  assert.ok(o.ok);
  assert.deepEqual(parses(ws), { full: 1, incremental: 0 });
  await ws.close();
});

Deno.test("syntax guard: after an outline, an edit re-parses incrementally and never from scratch", async () => {
  const ws = await open();
  assert.ok((await ws.call("outline", { path: "user.py" })).ok);
  const before = parses(ws);
  assert.ok((await ws.call("apply_edits", { text: PY_EDIT })).ok);
  assert.deepEqual(parses(ws), { full: before.full, incremental: before.incremental + 1 });
  await ws.close();
});

Deno.test("syntax guard: read_file warms the parse cache when the host is idle, so the edit after it is incremental", async () => {
  const ws = await open();
  const read = await ws.call("read_file", { path: "user.py" });
  assert.ok(read.ok);
  await ws.trees!.settled();
  assert.deepEqual(parses(ws), { full: 1, incremental: 0 }, "the read's file was parsed once");
  assert.ok((await ws.call("apply_edits", { text: PY_EDIT })).ok);
  assert.deepEqual(parses(ws), { full: 1, incremental: 1 });
  await ws.close();
});

Deno.test("syntax guard: a read's warm-up is dropped when a call parses the file first, and by close()", async () => {
  const ws = await open();
  assert.ok((await ws.call("read_file", { path: "deref.ts" })).ok);
  // The outline runs before the idle warm-up: one parse, not two.
  assert.ok((await ws.call("outline", { path: "deref.ts" })).ok);
  await ws.trees!.settled();
  assert.deepEqual(parses(ws), { full: 1, incremental: 0 });
  assert.ok((await ws.call("read_file", { path: "user.py" })).ok);
  await ws.close();
  await ws.trees!.settled();
  assert.equal(ws.trees!.size, 0, "nothing parsed after close()");
});

Deno.test("syntax guard: a breaking edit on a new workspace is refused as before, the old state re-parsed from the new one", async () => {
  const ws = await open();
  const r = await ws.call("apply_edits", { text: block("user.py", PY_LINE, "        self.name = (name") });
  assert.ok(!r.ok);
  assert.equal(r.error.code, "syntax_error");
  // One full parse (the new text), one incremental (the old text, from it): the old state's errors are known.
  assert.deepEqual(parses(ws), { full: 1, incremental: 1 });
  const files = (r.error.details as { files: { errors_before: number; path: string }[] }).files;
  assert.deepEqual(files.map((f) => [f.path, f.errors_before]), [["user.py", 0]]);
  await ws.close();
});

Deno.test("syntax guard: emptying a Python body on a new workspace is refused (the empty-body rule needs the old state)", async () => {
  const ws = await open();
  // AddConfig's docstring and statement deleted: the `def` keeps its header and nothing under it.
  const body = /( {4}def AddConfig\(self, name\):\n)[\s\S]*?( {8}self\.configurations\[name\][^\n]*\n)/.exec(
    PY,
  );
  assert.ok(body, "the fixture has AddConfig");
  const r = await ws.call("apply_edits", {
    text: `user.py\n<<<<<<< SEARCH\n${body[0]}=======\n${body[1]}>>>>>>> REPLACE\n`,
  });
  assert.ok(!r.ok);
  assert.equal(r.error.code, "syntax_error");
  assert.match(r.error.hint ?? "", /pass/);
  await ws.close();
});
