import assert from "node:assert/strict";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { McpSessions } from "../../../src/surfaces/mcp_http.ts";
import { createWorkspace } from "../../../src/workspace.ts";

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

function initialize(id = 1): Request {
  return new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "unit", version: "1" } },
    }),
  });
}

Deno.test("McpSessions opens a session per initialize, refuses unknown ids and id-less GETs as JSON", async () => {
  const workspace = await createWorkspace({ backend: createMemoryBackend() });
  const sessions = new McpSessions({ workspace, maxSessions: 2 });
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await sessions.handle(initialize());
    assert.equal(res.status, 200);
    ids.push(res.headers.get("mcp-session-id")!);
    await res.body?.cancel();
  }
  assert.equal(new Set(ids).size, 3);
  assert.equal(sessions.size, 2, "the least recently used session was closed");
  const gone = await sessions.handle(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { ...HEADERS, "mcp-session-id": ids[0]! },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    }),
  );
  assert.equal(gone.status, 404);
  const body = await gone.json();
  assert.equal(body.error.data.code, "not_found");
  const get = await sessions.handle(new Request("http://127.0.0.1/mcp", { headers: HEADERS }));
  assert.equal(get.status, 400);
  assert.equal((await get.json()).error.data.code, "invalid_args");
  // a POST that is not an initialize opens nothing
  const stray = await sessions.handle(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" }),
    }),
  );
  assert.equal(stray.status, 400);
  await stray.body?.cancel();
  assert.equal(sessions.size, 2);
  await sessions.close();
  assert.equal(sessions.size, 0);
});

Deno.test("an MCP session that is evicted or closed leaves no ledger behind in the workspace", async () => {
  const workspace = await createWorkspace({ backend: createMemoryBackend({ "/a.txt": "hi\n" }) });
  const sessions = new McpSessions({ workspace, maxSessions: 1 });
  const opened = await sessions.handle(initialize());
  const id = opened.headers.get("mcp-session-id")!;
  await opened.body?.cancel();
  const read = await sessions.handle(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { ...HEADERS, "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "read_file", arguments: { path: "a.txt" } },
      }),
    }),
  );
  assert.equal(read.status, 200);
  await read.text();
  assert.ok(workspace.readGuard.ledgers.has(id), "the session read through its ledger");
  const next = await sessions.handle(initialize(3));
  const second = next.headers.get("mcp-session-id")!;
  await next.body?.cancel();
  assert.equal(workspace.readGuard.ledgers.has(id), false, "evicted: its ledger is forgotten");
  await sessions.close();
  assert.equal(workspace.readGuard.ledgers.has(second), false);
  assert.equal(workspace.sessionCount, 0);
});
