import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { EventHub } from "../../../src/surfaces/events.ts";
import { assertServable, createHttpApp, isLoopback } from "../../../src/surfaces/http.ts";
import { McpSessions } from "../../../src/surfaces/mcp_http.ts";
import { RecoverableError } from "../../../src/errors.ts";
import type { PipelineStep } from "../../../src/tools/types.ts";
import { createWorkspace } from "../../../src/workspace.ts";
import { runHttpSuite } from "../../surfaces/http_suite.ts";

const TOKEN = "unit-test-token-0123456789";

async function surface(
  options: Partial<Parameters<typeof createHttpApp>[0]> = {},
  steps: PipelineStep[] = [],
) {
  const events = new EventHub();
  const workspace = await createWorkspace({
    backend: createMemoryBackend(),
    wasm: createWasmLoader(),
    telemetry: events,
    steps,
  });
  return createHttpApp({ workspace, token: TOKEN, mcp: new McpSessions({ workspace, events }), ...options });
}

Deno.test("the HTTP suite passes against the hono app in-process (app.request)", async () => {
  const s = await surface();
  const results = await runHttpSuite({
    token: TOKEN,
    fetch: async (path, init) => await s.app.request(path, init),
  });
  await s.close();
  assert.deepEqual(results.filter((r) => r.error), []);
  assert.ok(results.length >= 10);
});

Deno.test("a call over the time limit is 504 limit_exceeded, JSON with a hint", async () => {
  let release = () => {};
  const gate = new Promise<void>((r) => release = r);
  // A real pipeline step that holds the call until released: the time limit answers first.
  const slow: PipelineStep = { name: "hold", stage: "guard", run: () => gate };
  const s = await surface({ timeoutMs: 50 }, [slow]);
  const res = await s.app.request("/v1/tools/list_files", {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: "{}",
  });
  assert.equal(res.status, 504);
  const body = await res.json();
  assert.equal(body.error.code, "limit_exceeded");
  assert.match(body.error.hint, /may still complete/);
  release();
  await s.close();
});

Deno.test("CORS is off by default and answers allowed origins when configured", async () => {
  const s = await surface({ corsOrigins: ["https://ide.example"] });
  const pre = await s.app.request("/v1/tools/read_file", {
    method: "OPTIONS",
    headers: {
      origin: "https://ide.example",
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization,content-type,graver-session",
    },
  });
  assert.equal(pre.status, 204);
  assert.equal(pre.headers.get("access-control-allow-origin"), "https://ide.example");
  const ok = await s.app.request("/v1/tools", {
    headers: { origin: "https://ide.example", authorization: `Bearer ${TOKEN}` },
  });
  assert.equal(ok.status, 200);
  assert.match(ok.headers.get("access-control-expose-headers") ?? "", /Graver-Session/i);
  const other = await s.app.request("/v1/tools", {
    headers: { origin: "https://evil.example", authorization: `Bearer ${TOKEN}` },
  });
  assert.equal(other.status, 403);
  await s.close();
  const off = await surface();
  const pre2 = await off.app.request("/v1/tools", {
    method: "OPTIONS",
    headers: { origin: "https://ide.example" },
  });
  assert.equal(pre2.status, 403);
  assert.equal(pre2.headers.get("access-control-allow-origin"), null);
  await off.close();
});

Deno.test("a Host allow-list refuses other Host headers (DNS rebinding)", async () => {
  const s = await surface({ allowedHosts: ["127.0.0.1:8787"] });
  const good = await s.app.request("http://127.0.0.1:8787/v1/health");
  assert.equal(good.status, 200);
  const bad = await s.app.request("http://attacker.example:8787/v1/health");
  assert.equal(bad.status, 403);
  assert.equal((await bad.json()).error.code, "unauthorized");
  await s.close();
});

Deno.test("without a token every route is open (loopback use); with one, only health", async () => {
  const workspace = await createWorkspace({ backend: createMemoryBackend() });
  const s = createHttpApp({ workspace });
  assert.equal((await s.app.request("/v1/tools")).status, 200);
  await s.close();
});

Deno.test("assertServable() refuses a non-loopback address without a token of 16+ characters", () => {
  assert.ok(isLoopback("127.0.0.1") && isLoopback("[::1]") && isLoopback("LOCALHOST"));
  assert.ok(!isLoopback("0.0.0.0") && !isLoopback("::") && !isLoopback("10.0.0.1"));
  assertServable({ hostname: "127.0.0.1" });
  assertServable({ hostname: "0.0.0.0", token: "x".repeat(16) });
  for (const token of [undefined, "", "short"]) {
    assert.throws(
      () => assertServable({ hostname: "0.0.0.0", token }),
      (e) => e instanceof RecoverableError && e.code === "unauthorized" && /0\.0\.0\.0/.test(e.message),
    );
  }
});

Deno.test("without an event feed /v1/events is not_found, with a hint", async () => {
  const workspace = await createWorkspace({ backend: createMemoryBackend() });
  const s = createHttpApp({ workspace });
  const res = await s.app.request("/v1/events");
  assert.equal(res.status, 404);
  assert.match((await res.json()).error.hint, /EventHub/);
  await s.close();
});

Deno.test("/mcp is served only when an MCP endpoint is given, behind the token", async () => {
  const s = await surface();
  const anonymous = await s.app.request("/mcp", { method: "POST", body: "{}" });
  assert.equal(anonymous.status, 401);
  const init = await s.app.request("/mcp", {
    method: "POST",
    headers: {
      authorization: `Bearer ${TOKEN}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "unit", version: "1" } },
    }),
  });
  assert.equal(init.status, 200);
  assert.ok(init.headers.get("mcp-session-id"));
  await init.body?.cancel();
  const health = await (await s.app.request("/v1/health")).json();
  assert.equal(health.mcp_sessions, 1);
  await s.close();
  const workspace = await createWorkspace({ backend: createMemoryBackend() });
  const none = createHttpApp({ workspace });
  assert.equal((await none.app.request("/mcp", { method: "POST", body: "{}" })).status, 404);
  await none.close();
});

Deno.test("a call without Graver-Session is one-shot; sending the session back puts it under the session's policies", async () => {
  const workspace = await createWorkspace({
    backend: createMemoryBackend({ "/a.py": "def f():\n    return 1\n\n\ndef g():\n    return 2\n" }),
    wasm: createWasmLoader(),
  });
  const { app, close } = createHttpApp({ workspace, token: TOKEN });
  const call = (name: string, args: unknown, session?: string) =>
    app.request(`/v1/tools/${name}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${TOKEN}`,
        "content-type": "application/json",
        ...(session ? { "graver-session": session } : {}),
      },
      body: JSON.stringify(args),
    });
  // No header: an edit of a file nobody read lands (as a one-shot CLI call does), and a session is made.
  const first = await call("edit_file", { path: "a.py", old_string: "return 1", new_string: "return 10" });
  assert.equal(first.status, 200);
  const session = first.headers.get("graver-session")!;
  assert.ok(session);
  // With it: the session read nothing of g, so an edit there is refused, then lands on the identical retry.
  const edit = { path: "a.py", old_string: "return 2", new_string: "return 20" };
  const refused = await call("edit_file", edit, session);
  assert.equal(refused.status >= 400, true);
  assert.equal((await refused.json()).error.code, "unread_range");
  const retried = await call("edit_file", edit, session);
  assert.equal(retried.status, 200, JSON.stringify(await retried.clone().json()));
  await close();
});
