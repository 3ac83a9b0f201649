import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { EventHub } from "../../../src/surfaces/events.ts";
import {
  createMcpServer,
  DEFAULT_INSTRUCTIONS,
  mcpTools,
  toolAnnotations,
} from "../../../src/surfaces/mcp.ts";
import { TOOLS } from "../../../src/tools/catalogue.ts";
import type { PipelineStep } from "../../../src/tools/types.ts";
import { createWorkspace } from "../../../src/workspace.ts";

async function connect(options: { instructions?: string; timeoutMs?: number; steps?: PipelineStep[] } = {}) {
  const events = new EventHub();
  const workspace = await createWorkspace({
    backend: createMemoryBackend({ "/a.txt": "one\n" }),
    telemetry: events,
    steps: options.steps ?? [],
  });
  const server = createMcpServer({ workspace, session: "s1", events, ...options });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "unit", version: "1" });
  const logs: { level: string; data: Record<string, unknown> }[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n: { params: (typeof logs)[0] }) => {
    logs.push(n.params);
  });
  await client.connect(b);
  return { client, logs };
}

Deno.test("mcpTools() lists every catalogue tool with its schema and consistent annotations", () => {
  const tools = mcpTools();
  assert.deepEqual(tools.map((t) => t.name), TOOLS.map((t) => t.name));
  for (const [i, t] of tools.entries()) {
    const def = TOOLS[i]!;
    assert.equal(t.inputSchema, def.inputSchema);
    const a = t.annotations!;
    assert.equal(a.openWorldHint, false);
    if (a.readOnlyHint) assert.ok(!a.destructiveHint && a.idempotentHint, t.name);
    assert.equal(a.readOnlyHint, !def.mutates || def.previewOnly === true, t.name);
  }
  assert.equal(toolAnnotations(TOOLS.find((t) => t.name === "edit_dry_run")!).readOnlyHint, true);
  assert.equal(toolAnnotations(TOOLS.find((t) => t.name === "apply_edits")!).idempotentHint, false);
  assert.equal(toolAnnotations(TOOLS.find((t) => t.name === "write_file")!).idempotentHint, true);
});

Deno.test("createMcpServer(): default and custom instructions", async () => {
  const plain = await connect();
  assert.equal(plain.client.getInstructions(), DEFAULT_INSTRUCTIONS);
  await plain.client.close();
  const custom = await connect({ instructions: "Reminder: read before you edit." });
  assert.equal(custom.client.getInstructions(), "Reminder: read before you edit.");
  await custom.client.close();
});

Deno.test("logging notifications follow the level the client sets", async () => {
  const { client, logs } = await connect();
  await client.callTool({ name: "create_file", arguments: { path: "b.txt", content: "b\n" } });
  await client.callTool({ name: "read_file", arguments: { path: "nope.txt" } });
  assert.deepEqual(logs.map((l) => [l.level, l.data["event"]]), [
    ["info", "graver.commit"],
    ["warning", "graver.refusal"],
  ]);
  assert.equal(logs[0]!.data["session"], "s1");
  logs.length = 0;
  await client.setLoggingLevel("warning");
  await client.callTool({ name: "create_file", arguments: { path: "c.txt", content: "c\n" } });
  await client.callTool({ name: "read_file", arguments: { path: "nope.txt" } });
  assert.deepEqual(logs.map((l) => l.data["event"]), ["graver.refusal"]);
  await client.close();
});

Deno.test("a call over the time limit is an isError result with limit_exceeded", async () => {
  let release = () => {};
  const gate = new Promise<void>((r) => release = r);
  const { client } = await connect({
    timeoutMs: 30,
    steps: [{ name: "hold", stage: "guard", run: () => gate }],
  });
  const res = await client.callTool({ name: "list_files", arguments: {} });
  assert.equal(res.isError, true);
  assert.equal((res.structuredContent as { error: { code: string } }).error.code, "limit_exceeded");
  release();
  await client.close();
});

Deno.test("createMcpServer(): the compass's enabled session-start reminders follow graver's instructions", async () => {
  const workspace = await createWorkspace({
    backend: createMemoryBackend({ "/a.ts": "export const a = 1;\n" }),
    compass: { mode: "suggest", reminders: { providers: { compass_ast_edits: true } } },
  });
  const server = createMcpServer({ workspace, session: "s1" });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "unit", version: "1" });
  await client.connect(b);
  const text = client.getInstructions() ?? "";
  assert.ok(text.startsWith(DEFAULT_INSTRUCTIONS));
  assert.match(text, /edit_rename_symbol/, "the standing reminder names graver's tools");
  await client.close();
  const plain = await createWorkspace({ backend: createMemoryBackend({}) });
  const quiet = createMcpServer({ workspace: plain, session: "s2" });
  const [c, d] = InMemoryTransport.createLinkedPair();
  await quiet.connect(c);
  const other = new Client({ name: "unit", version: "1" });
  await other.connect(d);
  assert.equal(other.getInstructions(), DEFAULT_INSTRUCTIONS, "opt-in: off unless enabled");
  await other.close();
});

Deno.test("MCP text is a compact rendering for the model; the whole response stays within the result budget", async () => {
  // 5,000 lines of real-looking code: a read of it, and a rewrite of every line, are each over half the budget.
  const lines = Array.from(
    { length: 5000 },
    (_, i) => `export const value${i} = compute(${i}, "item-${i}");`,
  );
  const workspace = await createWorkspace({
    backend: createMemoryBackend({ "/big.js": lines.join("\n") + "\n", "/a.ts": "export const a = 1;\n" }),
    readGuard: "off",
  });
  const server = createMcpServer({ workspace, session: "s1" });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "unit", version: "1" });
  await client.connect(b);
  const call = async (name: string, args: Record<string, unknown>) => {
    const res = await client.callTool({ name, arguments: args });
    const received = JSON.stringify(res).length;
    assert.ok(received <= 100_000, `${name}: the client received ${received} characters`);
    const text = (res.content as { type: string; text: string }[])[0]!.text;
    return { text, structured: res.structuredContent as Record<string, unknown>, isError: res.isError };
  };

  await call("read_file", { path: "a.ts" });
  const small = await call("edit_file", { path: "a.ts", old_string: "a = 1", new_string: "a = 2" });
  assert.equal(small.isError, false, small.text);
  const version = (small.structured["changes"] as { after_version: string }[])[0]!.after_version;
  assert.ok(!small.text.startsWith("{"), "not the JSON again");
  assert.match(
    small.text,
    /^edit_file: applied, 1 file changed\na\.ts: edited, lines 1 \(version [0-9a-f]{64}\)/,
  );
  assert.ok(small.text.includes(version));
  assert.match(small.text, /^-export const a = 1;$/m);
  assert.match(small.text, /^\+export const a = 2;$/m);
  assert.ok(small.text.length < JSON.stringify(small.structured).length);

  const refused = await call("edit_file", { path: "a.ts", old_string: "a = 9", new_string: "a = 3" });
  assert.equal(refused.isError, true);
  assert.match(refused.text, /^edit_file refused \(no_match\): Cannot apply old_string to "a\.ts"/);
  assert.match(refused.text, /^hint: Call read_file/m);
  assert.match(refused.text, /^Nothing was written\.$/m);
  // A refusal that knows the call to make next says it as JSON the model can send as it is.
  const unparsed = await call("outline", { path: "a.ts" });
  const error = unparsed.structured["error"] as { code: string; suggested_call: unknown };
  assert.ok(error.suggested_call);
  assert.ok(unparsed.text.includes(`suggested_call: ${JSON.stringify(error.suggested_call)}`), unparsed.text);

  const read = await call("read_file", { path: "big.js" });
  assert.match(read.text, /^ *1\texport const value0 = compute\(0, "item-0"\);$/m);
  assert.equal((read.structured["data"] as { path: string }).path, "big.js");

  // A rewrite of the first 800 lines: a diff the result keeps whole (under the budget) but too long for the text.
  const rewritten = lines.map((l, i) => i < 800 ? l.replace("compute", "evaluate") : l).join("\n") + "\n";
  const whole = await call("write_file", { path: "big.js", content: rewritten });
  assert.equal(whole.isError, false, whole.text);
  assert.match(whole.text, /^big\.js: edited, lines 1–803 \(version [0-9a-f]{64}\)$/m);
  assert.match(whole.text, /^-export const value0 = compute/m);
  assert.match(whole.text, /^\+export const value0 = evaluate/m);
  assert.match(whole.text, /more characters not shown here; the whole result is in structuredContent/);
  await client.close();
});
