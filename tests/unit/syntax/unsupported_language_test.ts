import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend, createWorkspace, Grammars, isRecoverable } from "../../../src/mod.ts";
import { readUnsupported, structuralUnsupported } from "../../../src/syntax/unsupported_language.ts";
import { findTool } from "../../../src/tools/catalogue.ts";
import { snapshot } from "../../_helpers.ts";

const VERSION = "a".repeat(64);

Deno.test("structuralUnsupported() names the tool, the path and a missing grammar", () => {
  const err = structuralUnsupported("src/a.zig", { tool: "outline", language: "zig", version: VERSION });
  assert.ok(isRecoverable(err, "unsupported_language"));
  assert.equal(err.message, 'Cannot run outline on "src/a.zig": the zig grammar is not available here');
  assert.deepEqual(err.details, { path: "src/a.zig", language: "zig", fallback: "edit_safe_text_patch" });
  assert.equal(err.suggestedCall?.tool, "edit_safe_text_patch");
  assert.equal(err.suggestedCall?.args["path"], "src/a.zig");
  assert.equal(err.suggestedCall?.args["expected_hash"], VERSION);
});

Deno.test("structuralUnsupported() says no grammar applies, or the given reason", () => {
  const none = structuralUnsupported("notes.txt", { tool: "find_symbol" });
  assert.match(none.message, /: no grammar applies to this file type$/);
  assert.equal(none.details?.["language"], null);
  assert.equal("expected_hash" in none.suggestedCall!.args, false);
  const why = structuralUnsupported("a.ts", {
    tool: "outline",
    language: "typescript",
    reason: "it is busy",
  });
  assert.match(why.message, /: it is busy$/);
});

Deno.test("structuralUnsupported() suggests a call the catalogue's edit_safe_text_patch schema names", () => {
  const err = structuralUnsupported("a.txt", { tool: "outline", version: VERSION });
  const tool = findTool(err.suggestedCall!.tool);
  assert.ok(tool, "the suggested tool exists");
  const props = Object.keys(tool.inputSchema["properties"] as Record<string, unknown>);
  for (const arg of Object.keys(err.suggestedCall!.args)) assert.ok(props.includes(arg), arg);
});

Deno.test("a structural tool on a file without grammar refuses, and its suggested fallback works", async () => {
  const backend = createMemoryBackend({ "/notes.txt": "alpha\nbeta\n" });
  const ws = await createWorkspace({ backend, grammars: new Grammars(createWasmLoader()) });
  const r = await ws.call("remove_symbol", { path: "notes.txt", name_path: "alpha" });
  assert.ok(!r.ok && r.error.code === "unsupported_language", JSON.stringify(r));
  const call = r.error.suggested_call!;
  assert.equal(call.tool, "edit_safe_text_patch");
  const args = { ...call.args, hunks: [{ old_text: "beta", new_text: "gamma" }] };
  const fixed = await ws.call(call.tool, args);
  assert.ok(fixed.ok, JSON.stringify(fixed));
  assert.equal((await snapshot(backend))["/notes.txt"], "alpha\ngamma\n");
});

Deno.test("a structural tool in a workspace without grammars says it was opened without them", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({ "/a.ts": "export const a = 1;\n" }) });
  const r = await ws.call("remove_symbol", { path: "a.ts", name_path: "a" });
  assert.ok(!r.ok && r.error.code === "unsupported_language", JSON.stringify(r));
  assert.match(r.error.message, /^Cannot run remove_symbol on "a.ts": .*opened without grammars/);
  assert.equal(r.error.suggested_call?.tool, "edit_safe_text_patch");
});

Deno.test("outline in a workspace opened without grammars says so, naming the tool", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({ "/a.ts": "export const a = 1;\n" }) });
  const res = await ws.call("outline", { path: "a.ts" });
  assert.ok(!res.ok && res.error.code === "unsupported_language");
  assert.match(res.error.message, /^Cannot run outline on "a.ts": the workspace was opened without grammars/);
  assert.deepEqual(res.error.suggested_call, { tool: "read_file", args: { path: "a.ts" } });
});

Deno.test("readUnsupported() suggests read_file with arguments the catalogue's schema names, none for a directory", () => {
  const err = readUnsupported("Dockerfile", { tool: "outline" });
  assert.ok(isRecoverable(err, "unsupported_language"));
  assert.equal(err.message, 'Cannot run outline on "Dockerfile": no grammar applies to this file type');
  assert.deepEqual(err.suggestedCall, { tool: "read_file", args: { path: "Dockerfile" } });
  assert.deepEqual(err.details, { path: "Dockerfile", language: null, fallback: "read_file" });
  const tool = findTool("read_file")!;
  const props = Object.keys(tool.inputSchema["properties"] as Record<string, unknown>);
  for (const arg of Object.keys(err.suggestedCall!.args)) assert.ok(props.includes(arg), arg);
  const dir = readUnsupported("src", { tool: "find_symbol", directory: true, reason: "no grammars" });
  assert.equal(dir.suggestedCall, undefined);
  assert.match(dir.message, /: no grammars$/);
});
