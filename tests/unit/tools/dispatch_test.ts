import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace, MemoryTelemetry } from "../../../src/mod.ts";

Deno.test("dispatch() refuses bad args with the schema's property list", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({ "/a.txt": "a" }) });
  const r = await ws.call("read_file", { paht: "a.txt" });
  assert.ok(!r.ok);
  assert.equal(r.error.code, "invalid_args");
  assert.match(r.error.message, /unknown property "paht"/);
  assert.match(r.error.hint, /path \(required\)/);
  const r2 = await ws.call("read_file", "a.txt");
  assert.ok(!r2.ok && r2.error.code === "invalid_args");
});

Deno.test("dispatch() names an unknown property of a nested object, and a top-level one put inside it", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({ "/a.ts": "f(1);\n" }) });
  const r = await ws.call("edit_apply_node", {
    path: "a.ts",
    selector: { pattern: "f($X)", select: "all", colour: "red" },
    new_text: "g()",
  });
  assert.ok(!r.ok);
  assert.equal(r.error.code, "invalid_args");
  assert.match(r.error.message, /unknown property "selector\/select": "select" belongs at the top level/);
  assert.match(r.error.message, /unknown property "selector\/colour"/);
  assert.doesNotMatch(r.error.message, /colour" belongs/);
});

Deno.test("dispatch() names the known tools for an unknown one, and counts it as a call and a refusal", async () => {
  const telemetry = new MemoryTelemetry();
  const ws = await createWorkspace({ backend: createMemoryBackend({}), telemetry });
  const r = await ws.call("reed_file", { path: "a.txt" });
  assert.ok(!r.ok && r.error.code === "not_found" && r.error.hint.includes("read_file"));
  assert.match(r.error.message, /did you mean read_file/);
  assert.deepEqual(r.error.suggested_call, { tool: "read_file", args: { path: "a.txt" } });
  assert.equal(telemetry.total("graver.tool.calls", { tool: "reed_file" }), 1);
  assert.equal(telemetry.total("graver.tool.refusals", { tool: "reed_file" }), 1);
});

Deno.test("dispatch() turns an unexpected exception into `internal` and writes nothing", async () => {
  const backend = createMemoryBackend({ "/a.txt": "a" });
  const broken = { ...backend, rename: () => Promise.reject(new TypeError("disk on fire")) };
  const telemetry = new MemoryTelemetry();
  const ws = await createWorkspace({ backend: broken, telemetry });
  const r = await ws.call("write_file", { path: "a.txt", content: "b" });
  assert.ok(!r.ok && r.error.code === "internal" && r.error.message.includes("disk on fire"));
  assert.equal(new TextDecoder().decode(await backend.readFile("/a.txt") as Uint8Array), "a");
  assert.equal(telemetry.total("graver.tool.internal_errors"), 1);
});
