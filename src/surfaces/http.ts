/**
 * The HTTP surface: one hono app over a workspace's dispatch, served
 * unchanged by Deno.serve, Bun.serve, @hono/node-server and as a
 * Cloudflare Worker (the serving glue lives in `src/adapters/<runtime>/`).
 *
 * | route | what |
 * | --- | --- |
 * | `GET /v1/health` | `{ ok, name, version, tools }` (no token needed) |
 * | `GET /v1/tools` | `{ tools: [{ name, description, inputSchema }] }` |
 * | `POST /v1/tools/:name` | JSON args → the one ToolResult (status from {@linkcode HTTP_STATUS}) |
 * | `POST /v1/stream/:tool` | a streamed edit body → server-sent events as blocks close, then the result (`http_stream.ts`) |
 * | `GET /v1/events` | server-sent events: commits, refusals, routing and guard decisions (`?session=` filters) |
 * | `/mcp` | MCP over Streamable HTTP (POST, GET, DELETE), when an endpoint is given |
 *
 * A call's graver session (the read-ledger scope) is the `Graver-Session`
 * request header; every answer carries it back in `Graver-Session`. Without
 * one, a new session id is made and the call runs as a one-shot call (no
 * read guard, no definition gate: it has nothing to judge by, and a client
 * that drops the header could never retry), and nothing of it is kept once
 * it finishes: a session starts with the first call that sends the header.
 * Named sessions are held within bounds (a count and an idle time) by
 * {@linkcode SessionTable} (`http_sessions.ts`).
 *
 * Security, each a middleware module of its own: a bearer token (checked on
 * every route but health, `http_auth.ts`) — required by the serving glue
 * whenever the address is not loopback ({@linkcode assertServable}); a body
 * size limit judged from the declared length (413) and a time limit on
 * receiving the body (408), both in `http_body_limit.ts`; a per-request time
 * limit (504); every error is JSON with a code (`http_errors.ts`); CORS off
 * unless origins are listed, and a browser request from any other origin is
 * refused (so a web page cannot drive a local server, `http_origins.ts`); an
 * optional Host allow-list against DNS rebinding (`http_hosts.ts`); events
 * and errors never carry file contents. A call's session header and JSON
 * arguments are read by `http_session_header.ts` and `http_json_args.ts`.
 *
 * @module
 */
import { Hono } from "hono";
import type { Context } from "hono";
import denoJson from "../../deno.json" with { type: "json" };
import { RecoverableError } from "../errors.ts";
import { describeTools } from "../tools/catalogue.ts";
import type { Workspace } from "../workspace.ts";
import { type CallRunner, workspaceRunner } from "./call_runner.ts";
import { CallWatch } from "./http_call_watch.ts";
import { EventHub } from "./events.ts";
import { httpStatusOf } from "./http_status.ts";
import { bodyLimits } from "./http_body_limit.ts";
import { type EventStreamOptions, EventStreamsClosing, streamEvents } from "./http_events.ts";
import { runInSession, SessionTable, type SessionTableOptions } from "./http_sessions.ts";
import { answerError, errorResponse, routeNotFound } from "./http_errors.ts";
import { hostAllowList } from "./http_hosts.ts";
import { browserOrigins } from "./http_origins.ts";
import { bearerToken } from "./http_auth.ts";
import { sessionHeader } from "./http_session_header.ts";
import { jsonArgs } from "./http_json_args.ts";
import { listedTools, streamTool } from "./http_stream.ts";
import {
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_STREAM_KEEP_ALIVE_MS,
  DEFAULT_TIMEOUT_MS,
} from "./http_limits.ts";

export { PERSIST_HEADER, SESSION_HEADER } from "./http_sessions.ts";

export { DEFAULT_BODY_TIMEOUT_MS, DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUT_MS } from "./http_limits.ts";

/** Options of {@linkcode createHttpApp}. */
export interface HttpAppOptions {
  /** The workspace whose dispatch runs every call. */
  workspace: Workspace;
  /**
   * The event feed of `GET /v1/events` and of MCP logging. Default: the workspace's telemetry sink when it
   * is an {@linkcode EventHub} (create the workspace with `telemetry: new EventHub()`); otherwise the
   * events route answers `not_found`.
   */
  events?: EventHub;
  /**
   * The bound on each `/v1/events` subscriber: at most 1,000 events queued unread, then it is dropped
   * with a final `graver.dropped` event (`http_events.ts`).
   */
  eventStream?: Omit<EventStreamOptions, "closing">;
  /** Bearer token required on every route but `/v1/health` (none: no check — loopback only). */
  token?: string;
  /**
   * Largest request body in bytes (default 4 MiB); larger ones get 413 `limit_exceeded`, judged from
   * `Content-Length` before the body is read.
   */
  maxBodyBytes?: number;
  /** Time to receive a whole request body in ms (default 10 000; 0: none); beyond it, 408 `limit_exceeded`. */
  bodyTimeoutMs?: number;
  /** Per-request time limit in ms (default 60 000; 0: none); beyond it, 504 `limit_exceeded`. */
  timeoutMs?: number;
  /** On `POST /v1/stream/:tool`, an SSE `: keep-alive` comment every this many ms between events (default 15 000; 0: none). */
  streamKeepAliveMs?: number;
  /**
   * Where `POST /v1/tools/:name` calls run (default: on the workspace, in this event loop). Deno's
   * `graver serve --isolate` passes a worker's runner, so that a call stuck past the time limit is stopped.
   */
  runner?: CallRunner;
  /**
   * Bounds of the named sessions held (default at most 1,000, each dropped after 30 minutes idle; see
   * `http_sessions.ts`).
   */
  sessions?: Omit<SessionTableOptions, "runner">;
  /** Origins allowed to call from a browser (CORS); default none: CORS off, browser requests refused. */
  corsOrigins?: readonly string[];
  /** Host header values accepted (e.g. `["127.0.0.1:8787", "localhost:8787"]`); default: any. */
  allowedHosts?: readonly string[];
  /**
   * The MCP endpoint mounted at `/mcp` (behind the same token, origin and body checks), e.g.
   * `new McpSessions({ workspace, events })` from `mcp_http.ts`. Default none: `/mcp` is `not_found`.
   * Passed in rather than built here so that an app without MCP does not bundle the MCP SDK (a worker
   * stays smaller).
   */
  mcp?: McpEndpoint;
}

/** What the app needs of an MCP endpoint (`McpSessions` is one). */
export interface McpEndpoint {
  /** Answer one request to `/mcp`. */
  handle(request: Request): Promise<Response>;
  /** Live sessions (reported by `/v1/health`). */
  readonly size: number;
  /** Close every session. */
  close(): Promise<void>;
}

/** The app and what it holds open. */
export interface HttpSurface {
  /** The hono app (`app.request(...)` in tests, `app.fetch` for servers). */
  readonly app: Hono;
  /** Answer one request (the app's fetch). */
  fetch(request: Request): Promise<Response>;
  /**
   * End the event streams (`graver.shutdown`), close the MCP sessions (their streams end) and drop the named
   * sessions (persisting those that asked).
   */
  close(): Promise<void>;
}

/**
 * Whether a host name is a loopback address (`localhost`, `127.0.0.0/8`, `::1`).
 *
 * @example
 * ```ts
 * import { isLoopback } from "./http.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isLoopback("127.0.0.1") && isLoopback("::1") && isLoopback("localhost"));
 * assert.ok(!isLoopback("0.0.0.0") && !isLoopback("192.168.1.2"));
 * ```
 *
 * @param hostname The address the server binds (or a Host header's name).
 * @returns True for loopback.
 */
export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Refuse to serve off loopback without a token: the serving glue calls this
 * before it binds.
 *
 * @param options The address to bind and the token, if any.
 * @throws `unauthorized` when the address is not loopback and there is no token (or an empty one).
 */
export function assertServable(options: { hostname: string; token?: string | undefined }): void {
  if (isLoopback(options.hostname)) return;
  if (options.token !== undefined && options.token.length >= 16) return;
  throw new RecoverableError(
    "unauthorized",
    `Cannot serve on "${options.hostname}" without a token: only loopback addresses may go without one`,
    {
      hint: options.token === undefined
        ? "Pass --token (at least 16 characters; e.g. from GRAVER_TOKEN) or bind 127.0.0.1"
        : "Use a token of at least 16 characters",
      details: { hostname: options.hostname },
    },
  );
}

/**
 * Build the HTTP surface over a workspace.
 *
 * @example A read through the app, no server needed
 * ```ts
 * import { createMemoryBackend, createWorkspace } from "@graver/core";
 * import { EventHub } from "./events.ts";
 * import { createHttpApp } from "./http.ts";
 * import assert from "node:assert/strict";
 *
 * const workspace = await createWorkspace({
 *   backend: createMemoryBackend({ "/a.txt": "hi\n" }),
 *   telemetry: new EventHub(),
 * });
 * const { app, close } = createHttpApp({ workspace });
 * const res = await app.request("/v1/tools/read_file", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ path: "a.txt" }),
 * });
 * assert.equal(res.status, 200);
 * assert.ok(res.headers.get("graver-session"));
 * assert.match((await res.json()).data.content, /hi/);
 * await close();
 * ```
 *
 * @param options Workspace, token, limits, CORS, MCP.
 * @returns The app.
 */
export function createHttpApp(options: HttpAppOptions): HttpSurface {
  const { workspace } = options;
  const runner = options.runner ?? workspaceRunner(workspace);
  const served: Served = {
    options,
    events: options.events ?? (workspace.telemetry instanceof EventHub ? workspace.telemetry : undefined),
    runner,
    sessions: new SessionTable(workspace, { ...options.sessions, runner }),
    calls: new CallWatch(),
    closing: new EventStreamsClosing(),
  };
  const app = new Hono();
  app.onError(answerError);
  app.notFound(routeNotFound);
  // Host allow-list (DNS rebinding), then browser origins and CORS, then the token, then the body's bounds.
  if (options.allowedHosts) app.use("*", hostAllowList(options.allowedHosts));
  app.use("*", browserOrigins(options.corsOrigins ?? []));
  if (options.token !== undefined) app.use("*", bearerToken(options.token, { open: ["/v1/health"] }));
  app.use(
    "*",
    bodyLimits({
      maxBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      timeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    }),
  );
  app.get("/v1/health", (c) => health(c, served));
  app.get("/v1/tools", (c) => c.json({ tools: listedTools() }));
  app.post("/v1/tools/:name", sessionHeader(), jsonArgs(), (c) => callTool(c, served));
  app.post("/v1/stream/:tool", sessionHeader(), (c) =>
    streamTool(c, {
      workspace,
      runner: options.runner,
      sessions: served.sessions,
      calls: served.calls,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      keepAliveMs: options.streamKeepAliveMs ?? DEFAULT_STREAM_KEEP_ALIVE_MS,
    }));
  app.get("/v1/events", (c) => eventFeed(c, served));
  const mcp = options.mcp;
  if (mcp) app.all("/mcp", (c) => mcp.handle(c.req.raw));
  return {
    app,
    fetch: (request) => Promise.resolve(app.fetch(request)),
    close: async () => {
      served.closing.close();
      await mcp?.close();
      await served.sessions.close();
    },
  };
}

/** What the routes of one app share: its options and what it holds. */
interface Served {
  options: HttpAppOptions;
  events: EventHub | undefined;
  runner: CallRunner;
  sessions: SessionTable;
  calls: CallWatch;
  closing: EventStreamsClosing;
}

/**
 * `GET /v1/health`. It touches no workspace: it answers while a call runs, and says 503 while one is stuck
 * past its limit.
 */
function health(c: Context, { options, events, sessions, calls }: Served): Response {
  const stuck = calls.stuck();
  const mcp = options.mcp;
  return c.json({
    ok: stuck.length === 0,
    name: "graver",
    version: denoJson.version,
    tools: describeTools().length,
    sessions: sessions.size,
    calls_in_flight: calls.inFlight,
    ...(events ? { event_subscribers: events.subscribers } : {}),
    ...(stuck.length > 0 ? { stuck_calls: stuck } : {}),
    ...(mcp ? { mcp_sessions: mcp.size } : {}),
  }, stuck.length === 0 ? 200 : 503);
}

/** `POST /v1/tools/:name`: one call in the request's session, its ToolResult with the status of its code. */
async function callTool(c: Context, { options, runner, sessions, calls }: Served): Promise<Response> {
  const session = c.get("graverSession");
  const args = c.get("graverArgs");
  const name = c.req.param("name")!;
  // A call that names no session is a one-shot call: the policies judge the calls that send one back.
  const callOptions = session.named
    ? { session: session.id }
    : { session: session.id, readGuard: "off" as const, gate: "off" as const };
  calls.assertNotStuck(name);
  const work = runInSession(sessions, session, () => runner.call(name, args, callOptions));
  // A runner that stops calls at the time limit answers it itself; nothing is left running past it.
  const result = await calls.run(name, work, runner.stopsCalls ? 0 : options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  return c.json(result, (result.ok ? 200 : httpStatusOf(result.error.code)) as 200);
}

/** `GET /v1/events`: the event feed as server-sent events, or `not_found` when the workspace has none. */
function eventFeed(c: Context, { options, events, closing }: Served): Response | Promise<Response> {
  if (!events) {
    return errorResponse(c, {
      status: 404,
      code: "not_found",
      message: "Cannot stream events: this server's workspace has no event feed",
      hint: "Create the workspace with telemetry: new EventHub() (graver serve does)",
    });
  }
  return streamEvents(c, events, { ...options.eventStream, closing });
}
