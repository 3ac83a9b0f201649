import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { createMcpServer } from "../../../src/surfaces/mcp.ts";
import { createWorkspace } from "../../../src/workspace.ts";

const SOURCE = [
  "export function total(items: { price: number }[]): number {",
  "  let sum = 0;",
  "  for (const item of items) sum += item.price;",
  "  return sum;",
  "}",
  "",
  "export function label(n: number): string {",
  "  return `${n} items`;",
  "}",
  "",
].join("\n");

const EDIT = [
  "src/total.ts",
  "<<<<<<< SEARCH",
  "  let sum = 0;",
  "  for (const item of items) sum += item.price;",
  "  return sum;",
  "=======",
  "  return items.reduce((s, i) => s + i.price, 0);",
  ">>>>>>> REPLACE",
  "",
  "src/total.ts",
  "<<<<<<< SEARCH",
  "  return `${n} items`;",
  "=======",
  "  return `${n} item(s)`;",
  ">>>>>>> REPLACE",
  "",
].join("\n");

/** A real SDK client connected to graver's MCP server over a fresh in-memory workspace. */
async function connect() {
  const workspace = await createWorkspace({
    backend: createMemoryBackend({ "/src/total.ts": SOURCE }),
    wasm: createWasmLoader(),
  });
  const server = createMcpServer({ workspace, session: "mcp-stream" });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "stream-test", version: "1" });
  const logs: { level: string; logger?: string; data: Record<string, unknown> }[] = [];
  client.setNotificationHandler(
    LoggingMessageNotificationSchema,
    (n: { params: { level: string; logger?: string; data: Record<string, unknown> } }) =>
      void logs.push(n.params),
  );
  await client.connect(b);
  // The session reads the file first, as an agent does: the read guard judges its edits.
  await client.callTool({ name: "read_file", arguments: { path: "src/total.ts" } });
  return { client, logs, workspace, close: () => client.close() };
}

async function fileText(workspace: Awaited<ReturnType<typeof createWorkspace>>): Promise<string> {
  const read = await workspace.call("read_file", { path: "src/total.ts", numbered: false });
  assert.ok(read.ok);
  return String(read.data["content"]);
}

Deno.test("MCP: apply_edits with a progress token reports the stream's events as progress, and gives the result the plain call gives", async () => {
  const streamed = await connect();
  const progress: { progress: number; message?: string }[] = [];
  const res = await streamed.client.callTool({ name: "apply_edits", arguments: { text: EDIT } }, undefined, {
    onprogress: (p: { progress: number; message?: string }) => void progress.push(p),
  });
  const result = res.structuredContent as Record<string, unknown>;
  assert.equal(result["ok"], true, JSON.stringify(result));
  assert.match(await fileText(streamed.workspace), /items\.reduce/);
  // Progress counts the events so far, each with its one-line text.
  assert.deepEqual(progress.map((p) => p.progress), progress.map((_, i) => i + 1));
  assert.ok(progress.every((p) => typeof p.message === "string" && p.message.length > 0));
  const messages = progress.map((p) => p.message);
  assert.ok(messages.includes("block 1 placed at src/total.ts:2-4 (exact)"), messages.join("\n"));
  // Block 2 is placed in the file as block 1 left it (three lines became one).
  assert.ok(messages.includes("block 2 placed at src/total.ts:6-6 (exact)"), messages.join(" / "));
  assert.ok(
    messages.some((m) => m?.startsWith("block 1 replaced in src/total.ts (+1 -3)")),
    messages.join("\n"),
  );
  await streamed.close();

  const plain = await connect();
  const whole = await plain.client.callTool({ name: "apply_edits", arguments: { text: EDIT } });
  assert.deepEqual(whole.structuredContent, result);
  assert.equal(await fileText(plain.workspace), await fileText(streamed.workspace));
  await plain.close();
});

Deno.test("MCP: a streamed edit_file and a refused streamed apply_edits give what the plain calls give", async () => {
  const a = await connect();
  const b = await connect();
  const messages: string[] = [];
  const onprogress = (p: { message?: string }) => void messages.push(p.message ?? "");
  const calls: [string, Record<string, unknown>][] = [
    ["edit_file", { path: "src/total.ts", old_string: "`${n} items`", new_string: "`${n} things`" }],
    ["apply_edits", { text: "src/total.ts\n<<<<<<< SEARCH\nnot in the file\n=======\nx\n>>>>>>> REPLACE\n" }],
    ["apply_edits", { text: 42 }],
  ];
  for (const [name, args] of calls) {
    const streamed = await a.client.callTool({ name, arguments: args }, undefined, { onprogress });
    const plain = await b.client.callTool({ name, arguments: args });
    assert.deepEqual(streamed.structuredContent, plain.structuredContent, name);
    assert.equal(streamed.isError, plain.isError, name);
  }
  assert.equal(await fileText(a.workspace), await fileText(b.workspace));
  assert.ok(messages.some((m) => /^block 1 placed at src\/total\.ts:8-8/.test(m)), messages.join("\n"));
  assert.ok(
    messages.some((m) => /^block 1 refused in src\/total\.ts: no_match: /.test(m)),
    messages.join("\n"),
  );
  await a.close();
  await b.close();
});

Deno.test("MCP: a session that set its logging level to debug also gets each stream event as a log, without contents", async () => {
  const c = await connect();
  await c.client.setLoggingLevel("debug");
  const res = await c.client.callTool({ name: "apply_edits", arguments: { text: EDIT } }, undefined, {
    onprogress: () => {},
  });
  assert.equal((res.structuredContent as { ok: boolean }).ok, true);
  const stream = c.logs.filter((l) => l.logger === "graver.stream");
  assert.ok(
    stream.some((l) => l.data["event"] === "graver.stream.placed" && l.data["block"] === 1),
    "placed",
  );
  assert.ok(stream.every((l) => l.level === "debug" && String(l.data["event"]).startsWith("graver.stream.")));
  assert.ok(!JSON.stringify(stream).includes("reduce"), "no file contents in the logs");
  await c.close();
});
