import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { MemoryTelemetry } from "../../../src/telemetry.ts";
import { definitionGate, type DefinitionGateMode } from "../../../src/tools/definition_gate_step.ts";
import type { ToolResult } from "../../../src/tools/types.ts";
import { createWorkspace, type Workspace } from "../../../src/workspace.ts";

const SOURCE = [
  "class Store:",
  "    def get(self, key):",
  "        value = self.items[key]",
  "        return value",
  "",
  "    def put(self, key, value):",
  "        self.items[key] = value",
  "        return value",
  "",
].join("\n");

const README = "# Store\n\ndef get(self, key):\n    pass\n";

async function workspace(
  mode: DefinitionGateMode,
  telemetry = new MemoryTelemetry(),
): Promise<Workspace> {
  return await createWorkspace({
    backend: createMemoryBackend({ "/store.py": SOURCE, "/README.md": README }),
    wasm: createWasmLoader(),
    telemetry,
    steps: [definitionGate({ mode })],
  });
}

async function read(ws: Workspace, path: string): Promise<string> {
  return new TextDecoder().decode((await ws.fs.read(`/${path}`))!);
}

function refused(res: ToolResult): NonNullable<ToolResult & { ok: false }>["error"] {
  assert.ok(!res.ok, `expected a refusal, got ${JSON.stringify(res)}`);
  assert.equal(res.error.code, "definition_gate", JSON.stringify(res.error));
  return res.error;
}

const REMOVE_PUT = {
  path: "store.py",
  old_string: "\n    def put(self, key, value):\n        self.items[key] = value\n        return value\n",
  new_string: "",
};

Deno.test("definitionGate() refuses edit_file removing a method, names remove_symbol, writes nothing and counts it", async () => {
  const telemetry = new MemoryTelemetry();
  const ws = await workspace("refuse", telemetry);
  const err = refused(await ws.call("edit_file", REMOVE_PUT));
  assert.deepEqual(err.suggested_call, {
    tool: "remove_symbol",
    args: { path: "store.py", name_path: "Store/put" },
  });
  assert.match(err.message, /^Cannot edit "store\.py" with edit_file: lines 6–8 remove method "Store\/put"/);
  assert.equal(await read(ws, "store.py"), SOURCE);
  assert.equal(
    telemetry.total("graver.guard.triggered", { reason: "definition_gate", language: "python" }),
    1,
  );
  // the suggested call succeeds
  const done = await ws.call(err.suggested_call!.tool, err.suggested_call!.args);
  assert.ok(done.ok, JSON.stringify(done));
  assert.ok(!(await read(ws, "store.py")).includes("def put"));
});

Deno.test("definitionGate() lets edits inside bodies through edit_file, with their header quoted as context", async () => {
  const ws = await workspace("refuse");
  const res = await ws.call("edit_file", {
    path: "store.py",
    old_string: "    def get(self, key):\n        value = self.items[key]\n        return value",
    new_string: "    def get(self, key):\n        value = self.items.get(key)\n        return value or None",
  });
  assert.ok(res.ok, JSON.stringify(res));
  assert.match(await read(ws, "store.py"), /self\.items\.get\(key\)/);
});

Deno.test("definitionGate() refuses a one-line rename through edit_file", async () => {
  const ws = await workspace("refuse");
  const err = refused(
    await ws.call("edit_file", {
      path: "store.py",
      old_string: "def get(self, key):",
      new_string: "def fetch(self, key):",
    }),
  );
  assert.match(err.message, /line 2 renames method "Store\/get" to "fetch"/);
  assert.deepEqual(err.suggested_call, {
    tool: "edit_rename_symbol",
    args: { path: "store.py", name_path: "Store/get", new_name: "fetch" },
  });
  // The suggested call does the rename.
  const done = await ws.call(err.suggested_call!.tool, err.suggested_call!.args);
  assert.ok(done.ok && done.status === "applied", JSON.stringify(done));
  const text = new TextDecoder().decode((await ws.fs.read("/store.py"))!);
  assert.match(text, /def fetch\(self, key\):/);
});

Deno.test("definitionGate() refuses apply_edits SEARCH/REPLACE blocks and diff hunks that rewrite a header", async () => {
  const ws = await workspace("refuse");
  const blocks = [
    "store.py",
    "<<<<<<< SEARCH",
    "    def get(self, key):",
    "        value = self.items[key]",
    "=======",
    "    def get(self, key, default=None):",
    "        value = self.items.get(key, default)",
    ">>>>>>> REPLACE",
    "",
  ].join("\n");
  const err = refused(await ws.call("apply_edits", { text: blocks }));
  assert.equal(err.suggested_call?.tool, "replace_symbol");
  assert.equal(err.suggested_call?.args["name_path"], "Store/get");
  const udiff = [
    "--- a/store.py",
    "+++ b/store.py",
    "@@ -5,4 +5,8 @@",
    " ",
    "     def put(self, key, value):",
    "         self.items[key] = value",
    "         return value",
    "+",
    "+    def drop(self, key):",
    "+        del self.items[key]",
    "+        return None",
    "",
  ].join("\n");
  const add = refused(await ws.call("apply_edits", { text: udiff }));
  assert.equal(add.suggested_call?.tool, "insert_code");
  assert.deepEqual(
    { name_path: add.suggested_call?.args["name_path"], position: add.suggested_call?.args["position"] },
    { name_path: "Store/put", position: "after" },
  );
  assert.equal(await read(ws, "store.py"), SOURCE);
  // a body-only block passes
  const body = [
    "store.py",
    "<<<<<<< SEARCH",
    "        self.items[key] = value",
    "        return value",
    "=======",
    "        self.items[key] = value",
    "        self.count += 1",
    "        return value",
    ">>>>>>> REPLACE",
    "",
  ].join("\n");
  const ok = await ws.call("apply_edits", { text: body });
  assert.ok(ok.ok, JSON.stringify(ok));
});

Deno.test("definitionGate() leaves edit_safe_text_patch, write_file and the structural tools alone", async () => {
  const ws = await workspace("refuse");
  const patch = await ws.call("edit_safe_text_patch", {
    path: "store.py",
    hunks: [{ old_text: "    def get(self, key):", new_text: "    def fetch(self, key):" }],
  });
  assert.ok(patch.ok, JSON.stringify(patch));
  const write = await ws.call("write_file", { path: "store.py", content: "class Other:\n    pass\n" });
  assert.ok(write.ok, JSON.stringify(write));
  const insert = await ws.call("insert_code", {
    path: "store.py",
    name_path: "Other",
    position: "after",
    code: "def helper():\n    return 1",
  });
  assert.ok(insert.ok, JSON.stringify(insert));
  // Markdown has no grammar: definitions there are prose
  const md = await ws.call("edit_file", {
    path: "README.md",
    old_string: "def get(self, key):\n    pass\n",
    new_string: "def fetch(self, key):\n    return 1\n",
  });
  assert.ok(md.ok, JSON.stringify(md));
});

Deno.test("definitionGate() in warn mode applies the edit with a warning; off does not look", async () => {
  const telemetry = new MemoryTelemetry();
  const warn = await workspace("warn", telemetry);
  const res = await warn.call("edit_file", REMOVE_PUT);
  assert.ok(res.ok, JSON.stringify(res));
  assert.ok(
    res.warnings.some((w) => /remove method "Store\/put".*warn mode/.test(w)),
    res.warnings.join("\n"),
  );
  assert.equal(telemetry.total("graver.guard.triggered", { reason: "definition_gate", mode: "warn" }), 1);
  assert.equal(telemetry.total("graver.guard.triggers", { reason: "definition_gate", outcome: "warned" }), 1);
  const off = await workspace("off");
  const applied = await off.call("edit_file", REMOVE_PUT);
  assert.ok(applied.ok && applied.warnings.length === 0, JSON.stringify(applied));
});

Deno.test("definitionGate() judges the ops of an edit_dry_run plan too", async () => {
  const ws = await workspace("refuse");
  const plan = await ws.call("edit_dry_run", { plan: [{ tool: "edit_file", args: REMOVE_PUT }] });
  assert.ok(!plan.ok, JSON.stringify(plan));
  assert.match(JSON.stringify(plan.error), /definition_gate/);
});

Deno.test("the workspace's built-in gate judges calls of a named session, and others only when they ask", async () => {
  const open = (definitionGate?: DefinitionGateMode) =>
    createWorkspace({
      backend: createMemoryBackend({ "/store.py": SOURCE }),
      wasm: createWasmLoader(),
      readGuard: "off",
      ...(definitionGate ? { definitionGate } : {}),
    });
  const removal = {
    path: "store.py",
    old_string: "\n    def put(self, key, value):\n        self.items[key] = value\n        return value\n",
    new_string: "\n",
  };
  const named = await open();
  const refused = await named.call("edit_file", removal, { session: "agent-1" });
  assert.ok(!refused.ok && refused.error.code === "definition_gate", JSON.stringify(refused));
  assert.equal(refused.error.suggested_call?.tool, "remove_symbol");
  const oneShot = await named.call("edit_file", { ...removal, dry_run: true });
  assert.ok(oneShot.ok, "a call without a session is not gated");
  const asked = await named.call("edit_file", { ...removal, dry_run: true }, { gate: "refuse" });
  assert.ok(!asked.ok && asked.error.code === "definition_gate", "a call that asks is gated");
  const relaxed = await named.call("edit_file", { ...removal, dry_run: true }, {
    session: "agent-1",
    gate: "off",
  });
  assert.ok(relaxed.ok, "a session's call may turn it off");
  const off = await open("off");
  assert.ok((await off.call("edit_file", { ...removal, dry_run: true }, { session: "agent-1" })).ok);
});
