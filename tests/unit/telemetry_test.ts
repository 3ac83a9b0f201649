import assert from "node:assert/strict";
import { createWasmLoader } from "../../src/adapters/deno/mod.ts";
import { createMemoryBackend, createWorkspace } from "../../src/mod.ts";
import { MemoryTelemetry, NOOP_TELEMETRY } from "../../src/telemetry.ts";

Deno.test("MemoryTelemetry.total() sums a counter over all attributes, 0 when never counted", () => {
  const t = new MemoryTelemetry();
  t.counter("graver.tool.calls", 1, { tool: "read_file" });
  t.counter("graver.tool.calls", 2, { tool: "write_file" });
  t.counter("graver.commit.files", 3, { tool: "write_file" });
  assert.equal(t.total("graver.tool.calls"), 3);
  assert.equal(t.total("graver.commit.files"), 3);
  assert.equal(t.total("graver.never"), 0);
  assert.deepEqual(t.events, []);
});

Deno.test("MemoryTelemetry.event() records events oldest first with their attributes", () => {
  const t = new MemoryTelemetry();
  t.event("graver.commit", { tool: "write_file", files: 1 });
  t.event("graver.internal_error", { tool: "x", message: "boom" });
  assert.deepEqual(t.events, [
    { name: "graver.commit", attributes: { tool: "write_file", files: 1 } },
    { name: "graver.internal_error", attributes: { tool: "x", message: "boom" } },
  ]);
});

Deno.test("MemoryTelemetry counts calls, refusals and commits of real workspace calls", async () => {
  const telemetry = new MemoryTelemetry();
  const backend = createMemoryBackend({ "/a.ts": "export const a = 1;\n" });
  const ws = await createWorkspace({ backend, telemetry, wasm: createWasmLoader() });
  assert.ok((await ws.call("read_file", { path: "a.ts" })).ok);
  assert.ok(!(await ws.call("read_file", { path: "missing.ts" })).ok);
  assert.ok(!(await ws.call("no_such_tool", {})).ok);
  assert.ok((await ws.call("write_file", { path: "b.ts", content: "export {};\n", dry_run: true })).ok);
  assert.ok((await ws.call("write_file", { path: "a.ts", content: "export const a = 2;\n" })).ok);
  assert.ok(!(await ws.call("write_file", { path: "a.ts", content: "export const = ;\n" })).ok);
  assert.equal(telemetry.total("graver.tool.calls"), 6); // every call, the unknown tool included
  assert.equal(telemetry.total("graver.tool.refusals"), 3);
  assert.equal(telemetry.total("graver.commit.files"), 1);
  assert.equal(telemetry.total("graver.tool.internal_errors"), 0);
  // refusals are events too (tool, code, session: never the arguments)
  assert.deepEqual(telemetry.events, [
    { name: "graver.refusal", attributes: { tool: "read_file", code: "not_found", session: "default" } },
    { name: "graver.refusal", attributes: { tool: "no_such_tool", code: "not_found", session: "default" } },
    { name: "graver.commit", attributes: { tool: "write_file", files: 1, session: "default" } },
    { name: "graver.refusal", attributes: { tool: "write_file", code: "syntax_error", session: "default" } },
  ]);
});

Deno.test("NOOP_TELEMETRY drops everything and is a workspace's default sink", async () => {
  assert.equal(NOOP_TELEMETRY.counter("graver.tool.calls", 1, {}), undefined);
  assert.equal(NOOP_TELEMETRY.event("graver.commit", {}), undefined);
  const ws = await createWorkspace({ backend: createMemoryBackend({ "/a.txt": "a" }) });
  assert.equal(ws.telemetry, NOOP_TELEMETRY);
  assert.ok((await ws.call("write_file", { path: "a.txt", content: "b" })).ok);
});

Deno.test("MemoryTelemetry.total() filters by attributes", () => {
  const t = new MemoryTelemetry();
  t.counter("graver.tool.refusals", 1, { tool: "edit_file", code: "no_match" });
  t.counter("graver.tool.refusals", 1, { tool: "edit_file", code: "ambiguous" });
  t.counter("graver.tool.refusals", 1, { tool: "read_file", code: "not_found" });
  assert.equal(t.total("graver.tool.refusals", { tool: "edit_file" }), 2);
  assert.equal(t.total("graver.tool.refusals", { tool: "edit_file", code: "ambiguous" }), 1);
  assert.equal(t.total("graver.tool.refusals", { code: "stale_base" }), 0);
});
