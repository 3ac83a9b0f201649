/**
 * `POST /v1/stream/:tool`: an edit streamed in the request body, answered
 * with server-sent events as each block is decided, then the result. The
 * body is the model's text as it is generated (`apply_edits`: SEARCH/REPLACE,
 * a unified diff or `*** Begin Patch`; `apply_patch`: its envelope;
 * `edit_file` and the text editor: the JSON of the arguments as a
 * function-calling API streams them); the tool's other arguments are query
 * parameters (`?partial=true&format=udiff`, each value read as JSON when it
 * parses, else as a string), and `stop_on_refusal=true` ends the stream at
 * the first refused block (the server then stops reading the body).
 *
 * The answer is `text/event-stream`: `event: ready` once the request is
 * accepted, one event per stream event (`file`, `placed`, `refused`,
 * `replaced`, `parse_error`, `stopped`; `data:` the event's JSON), and last
 * `event: result` whose data is the ToolResult, the same object
 * `POST /v1/tools/:tool` answers for the same text. Nothing is written before
 * the body ends; a client that goes away before then aborts the stream.
 *
 * The route sits behind the app's host, origin, token and body-size checks
 * and takes the same `Graver-Session` header. The request time limit bounds
 * the whole stream, reading included (the body time limit does not apply:
 * the body arrives as the model writes it).
 *
 * @module
 */
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import { isRecoverable } from "../errors.ts";
import type { DispatchOptions } from "../tools/dispatch.ts";
import type { StreamEvent, StreamTool } from "../tools/edit_stream.ts";
import { STREAM_TOOLS } from "../tools/edit_stream.ts";
import { describeTools } from "../tools/catalogue.ts";
import type { ToolResult } from "../tools/types.ts";
import type { Workspace } from "../workspace.ts";
import type { CallRunner } from "./call_runner.ts";
import { type BodyFailure, bodyRefusalError, BodyRefused } from "./http_body_limit.ts";
import type { CallWatch } from "./http_call_watch.ts";
import { errorResponse } from "./http_errors.ts";
import { type CallSession, runInSession, type SessionTable } from "./http_sessions.ts";
import { byteSource, feedStream, isStreamTool, openServedStream, type TextSource } from "./stream_feed.ts";

/** What the stream route shares with the app's other routes. */
export interface StreamRouteHost {
  /** The served workspace. */
  workspace: Workspace;
  /** Where calls run when not on the workspace (`graver serve --isolate`). */
  runner?: CallRunner | undefined;
  /** The named sessions. */
  sessions: SessionTable;
  /** The calls in flight and stuck. */
  calls: CallWatch;
  /** The request time limit in ms (0: none): it bounds the whole stream. */
  timeoutMs: number;
  /** The body size limit, for the refusal of a body that grows past it. */
  maxBodyBytes: number;
  /**
   * Between events, an SSE comment (`: keep-alive`) every this many ms (0: none), so that proxies and clients
   * that drop an idle connection keep one whose model is still thinking.
   */
  keepAliveMs: number;
}

/** A tool as `GET /v1/tools` lists it. */
export interface ListedTool {
  /** The tool's name. */
  name: string;
  /** What it does. */
  description: string;
  /** Its arguments' JSON Schema. */
  inputSchema: unknown;
  /** Present on a tool `POST /v1/stream/:tool` can feed: it takes model-written text as it is generated. */
  streams?: true;
  /** That route's path for the tool. */
  stream_path?: string;
}

/**
 * The catalogue as `GET /v1/tools` lists it: each tool's name, description and schema, and for the tools the
 * stream route feeds, `streams: true` and the route's path.
 *
 * @returns The tools, in catalogue order.
 */
export function listedTools(): ListedTool[] {
  return describeTools().map((t) =>
    isStreamTool(t.name) ? { ...t, streams: true, stream_path: `/v1/stream/${t.name}` } : t
  );
}

/** The query parameters the route reads itself rather than passing on as the tool's arguments. */
const STREAM_PARAMS = new Set(["stop_on_refusal"]);

/** A stream request's tool, other arguments and policy, read from the URL. */
interface StreamRequest {
  tool: StreamTool;
  args: Record<string, unknown>;
  stopOnRefusal: boolean;
}

/**
 * A query value as an argument: JSON when it parses (`true`, `3`, `{"a.ts": "…"}`), else the string itself
 * (`udiff`).
 */
function queryValue(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/**
 * The tool's other arguments from the query (a repeated parameter keeps its last value).
 *
 * @example
 * ```ts
 * import { streamArguments } from "./http_stream.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(
 *   streamArguments({ partial: ["true"], format: ["udiff"], stop_on_refusal: ["1"] }),
 *   { args: { partial: true, format: "udiff" }, stopOnRefusal: true },
 * );
 * ```
 *
 * @param query Every query parameter's values.
 * @returns The arguments and whether to stop at the first refusal.
 */
export function streamArguments(
  query: Record<string, string[]>,
): { args: Record<string, unknown>; stopOnRefusal: boolean } {
  const args: Record<string, unknown> = {};
  for (const [name, values] of Object.entries(query)) {
    const last = values[values.length - 1];
    if (last !== undefined && !STREAM_PARAMS.has(name)) args[name] = queryValue(last);
  }
  const stop = query["stop_on_refusal"]?.at(-1);
  return { args, stopOnRefusal: stop !== undefined && /^(true|1|)$/i.test(stop) };
}

/** The request's tool and arguments, or the error answer of a tool that cannot stream. */
function streamRequest(c: Context): StreamRequest | Response {
  const tool = c.req.param("tool") ?? "";
  if (!isStreamTool(tool)) {
    return errorResponse(c, {
      status: 404,
      code: "not_found",
      message: `Cannot stream ${tool.slice(0, 60)}: only the tools that take a model's text stream`,
      hint: `Stream to one of ${STREAM_TOOLS.join(", ")}, or call POST /v1/tools/${
        tool.slice(0, 60)
      } with the whole arguments`,
    });
  }
  return { tool, ...streamArguments(c.req.queries()) };
}

/** The dispatch options of a call in a session: a one-shot call is judged by no session policy. */
function sessionOptions(session: CallSession): DispatchOptions {
  return session.named
    ? { session: session.id }
    : { session: session.id, readGuard: "off" as const, gate: "off" as const };
}

/** A source that remembers why the body limit refused the body, if it did. */
function watchedBody(body: ReadableStream<Uint8Array>): TextSource & { refused(): BodyFailure | null } {
  const source = byteSource(body);
  let failure: BodyFailure | null = null;
  return {
    read: () =>
      source.read().catch((err) => {
        if (err instanceof BodyRefused) failure = err.failure;
        throw err;
      }),
    cancel: (reason) => source.cancel(reason),
    refused: () => failure,
  };
}

/** A result for a stream that ended on a thrown refusal (the time limit) or a bug, nothing written by it. */
function thrownResult(tool: string, err: unknown): ToolResult {
  if (isRecoverable(err)) return { ok: false, tool, error: err.toJSON(), reminders: [] };
  return {
    ok: false,
    tool,
    error: {
      code: "internal",
      message: `Cannot finish the ${tool} stream: ${err instanceof Error ? err.message : String(err)}`,
      hint: "This is a bug in graver; report it with the streamed text",
    },
    reminders: [],
  };
}

/**
 * Answer `POST /v1/stream/:tool` (mounted after `sessionHeader()`): read the body as it arrives into an edit
 * stream and answer its events as server-sent events, then the result.
 *
 * @param c The request's context.
 * @param host The workspace, sessions, calls and limits of the app.
 * @returns The `text/event-stream` response, or a JSON error for a request that cannot stream.
 */
export function streamTool(c: Context, host: StreamRouteHost): Response {
  const request = streamRequest(c);
  if (request instanceof Response) return request;
  const body = c.req.raw.body;
  if (!body) {
    return errorResponse(c, {
      status: 400,
      code: "invalid_args",
      message: `Cannot stream ${request.tool}: the request has no body`,
      hint: "Send the model's text as the request body, as it is generated",
    });
  }
  host.calls.assertNotStuck(request.tool);
  const session = c.get("graverSession");
  return streamSSE(c, async (sse) => {
    let writes = Promise.resolve();
    const send = (event: string, data: unknown) => {
      writes = writes.then(() => sse.writeSSE({ event, data: JSON.stringify(data) })).catch(() => {});
    };
    const source = watchedBody(body);
    const edit = openServedStream(host.workspace, host.runner, {
      tool: request.tool,
      args: request.args,
      dispatch: sessionOptions(session),
      stopOnRefusal: request.stopOnRefusal,
      // The result goes last, from end(): it may be replaced by a body or time refusal.
      onEvent: (event: StreamEvent) => event.type === "result" ? undefined : send(event.type, event),
    });
    sse.onAbort(() => {
      edit.abort("the client disconnected before the body ended");
      source.cancel("the client disconnected");
    });
    send("ready", { tool: request.tool, session: session.id, stop_on_refusal: request.stopOnRefusal });
    const beat = host.keepAliveMs > 0
      ? setInterval(() => {
        writes = writes.then(() => sse.write(": keep-alive\n\n")).then(() => {}, () => {});
      }, host.keepAliveMs)
      : undefined;
    let result: ToolResult;
    try {
      const work = runInSession(host.sessions, session, () => feedStream(edit, source));
      result = await host.calls.run(request.tool, work, host.timeoutMs);
    } catch (err) {
      edit.abort("the request time limit passed");
      source.cancel("the request time limit passed");
      result = thrownResult(request.tool, err);
    }
    clearInterval(beat);
    const refused = source.refused();
    if (refused !== null) {
      const limits = { maxBytes: host.maxBodyBytes, timeoutMs: host.timeoutMs };
      result = { ok: false, tool: request.tool, error: bodyRefusalError(refused, limits), reminders: [] };
    }
    send("result", result);
    await writes;
  });
}
