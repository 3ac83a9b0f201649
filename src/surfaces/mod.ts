/**
 * The served surfaces over the one dispatch: the HTTP API (one hono app, any
 * runtime's `fetch` server or a worker), the MCP server (stdio or Streamable
 * HTTP) and the event feed they share. Serving glue per runtime lives in the
 * adapters (`@graver/core/adapters/<runtime>`).
 *
 * ```ts
 * import { createMemoryBackend, createWorkspace } from "@graver/core";
 * import { createHttpApp } from "@graver/core/surfaces";
 * import assert from "node:assert/strict";
 *
 * const workspace = await createWorkspace({ backend: createMemoryBackend({ "/a.txt": "hi\n" }) });
 * const { app } = createHttpApp({ workspace });
 * const res = await app.request("/v1/tools/read_file", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ path: "a.txt" }),
 * });
 * assert.equal(res.status, 200);
 * assert.equal((await res.json()).ok, true);
 * ```
 *
 * @module
 */
export {
  assertServable,
  createHttpApp,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_TIMEOUT_MS,
  isLoopback,
  SESSION_HEADER,
} from "./http.ts";
export type { HttpAppOptions, HttpSurface, McpEndpoint } from "./http.ts";
export { HTTP_STATUS, httpStatusOf } from "./http_status.ts";
export { createMcpServer, DEFAULT_INSTRUCTIONS, mcpTools, sessionInstructions } from "./mcp.ts";
export type { McpServerOptions } from "./mcp.ts";
export { McpSessions } from "./mcp_http.ts";
export type { McpSessionsOptions } from "./mcp_http.ts";
export { StreamTransport } from "./stream_transport.ts";
export { EventHub, publicAttributes } from "./events.ts";
export type { EventHubOptions, FeedEvent, Subscription } from "./events.ts";
