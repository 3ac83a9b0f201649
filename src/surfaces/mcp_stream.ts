/**
 * A streamed tool call over MCP: a `tools/call` of `apply_edits`,
 * `apply_patch`, `edit_file` or the text editor whose request carries
 * `_meta.progressToken` runs through an edit stream (the path
 * `POST /v1/stream/:tool` takes), and each event of it reaches the client as
 * a `notifications/progress` before the result: `progress` counts the events
 * so far, `message` is the event's one-line text ("block 2 placed at
 * a.ts:10-14 (exact)"). MCP's arguments arrive whole, so the text is fed line
 * by line (for `edit_file` and the text editor: the arguments' JSON, one
 * property a line); the result is the one the same call without a progress
 * token gives. When the session set its logging level to `debug`, each event
 * is also a `notifications/message` (logger `graver.stream`) without file
 * contents (no diff, no did-you-mean lines).
 *
 * @module
 */
import type { LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import { type StreamEvent, type StreamTool, TEXT_ARGUMENT } from "../tools/edit_stream.ts";
import type { ToolResult } from "../tools/types.ts";
import type { Workspace } from "../workspace.ts";
import type { CallRunner } from "./call_runner.ts";
import {
  describeStreamEvent,
  feedStream,
  isStreamTool,
  lineSource,
  openServedStream,
} from "./stream_feed.ts";

/** The notifications a streamed call sends. */
export type StreamNotification =
  | {
    method: "notifications/progress";
    params: { progressToken: string | number; progress: number; message: string };
  }
  | {
    method: "notifications/message";
    params: { level: LoggingLevel; logger: string; data: unknown };
  };

/** One streamed MCP call. */
export interface McpStreamCall {
  /** The served workspace. */
  workspace: Workspace;
  /** Where the server's calls run, when not on the workspace (`graver serve --isolate`). */
  runner?: CallRunner | undefined;
  /** The graver session of the MCP session. */
  session: string;
  /** The tool. */
  tool: StreamTool;
  /** The call's arguments, whole. */
  args: Record<string, unknown>;
  /** The request's `_meta.progressToken`. */
  progressToken: string | number;
  /** Send a notification related to the request (the SDK's `extra.sendNotification`). */
  notify(notification: StreamNotification): Promise<void>;
  /** Whether the session's logging level lets debug messages through. */
  debugLogging: boolean;
}

/**
 * Whether a tools/call runs as a stream: a tool that takes a model's text, and a progress token to report
 * on.
 *
 * @example
 * ```ts
 * import { streamsOverMcp } from "./mcp_stream.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(streamsOverMcp("apply_edits", 7));
 * assert.ok(!streamsOverMcp("apply_edits", undefined) && !streamsOverMcp("read_file", 7));
 * ```
 *
 * @param tool The called tool.
 * @param progressToken The request's `_meta.progressToken`, if any.
 * @returns True when the call should stream.
 */
export function streamsOverMcp(tool: string, progressToken: unknown): tool is StreamTool {
  return isStreamTool(tool) && (typeof progressToken === "string" || typeof progressToken === "number");
}

/** The streamed text and the other arguments, or null when the text argument is not a string. */
function splitArguments(
  tool: StreamTool,
  args: Record<string, unknown>,
): { text: string; rest: Record<string, unknown> } | null {
  const field = TEXT_ARGUMENT[tool];
  if (field === null) return { text: JSON.stringify(args, null, 1), rest: {} };
  const { [field]: text, ...rest } = args;
  return typeof text === "string" ? { text, rest } : null;
}

/** An event as a debug log's data: what was decided, where, without file contents. */
function logData(event: StreamEvent): Record<string, unknown> {
  const data: Record<string, unknown> = { event: `graver.stream.${event.type}`, ...event };
  delete data["type"];
  delete data["diff"];
  if ("error" in event) {
    data["error"] = { code: event.error.code, message: event.error.message, hint: event.error.hint };
  }
  return data;
}

/**
 * Run a tools/call as an edit stream, reporting each event as progress (and as a debug log when the session
 * asked for them), and give its result.
 *
 * @example
 * ```ts
 * import { createMemoryBackend, createWorkspace } from "@graver/core";
 * import { type StreamNotification, streamToolCall } from "./mcp_stream.ts";
 * import assert from "node:assert/strict";
 *
 * const workspace = await createWorkspace({ backend: createMemoryBackend({ "a.txt": "one\ntwo\n" }) });
 * await workspace.call("read_file", { path: "a.txt" }, { session: "s1" }); // the read guard judges the session
 * const sent: StreamNotification[] = [];
 * const result = await streamToolCall({
 *   workspace,
 *   session: "s1",
 *   tool: "apply_edits",
 *   args: { text: "a.txt\n<<<<<<< SEARCH\ntwo\n=======\n2\n>>>>>>> REPLACE\n" },
 *   progressToken: 1,
 *   notify: (n) => {
 *     sent.push(n);
 *     return Promise.resolve();
 *   },
 *   debugLogging: false,
 * });
 * assert.equal(result.ok && result.status, "applied");
 * assert.ok(sent.every((n) => n.method === "notifications/progress"));
 * ```
 *
 * @param call The workspace, session, tool, arguments, progress token and the way to notify.
 * @returns The call's result.
 */
export async function streamToolCall(call: McpStreamCall): Promise<ToolResult> {
  const { tool, progressToken } = call;
  const split = splitArguments(tool, call.args);
  const runner = call.runner;
  if (split === null) {
    // No text to stream (a missing or mistyped argument): the whole call gives the refusal that names it.
    return runner
      ? runner.call(tool, call.args, { session: call.session })
      : call.workspace.call(tool, call.args, {
        session: call.session,
      });
  }
  const sent: Promise<void>[] = [];
  let progress = 0;
  const onEvent = (event: StreamEvent) => {
    if (event.type === "result") return;
    progress++;
    const message = describeStreamEvent(event);
    sent.push(
      call.notify({ method: "notifications/progress", params: { progressToken, progress, message } }).catch(
        () => {},
      ),
    );
    if (call.debugLogging) {
      sent.push(
        call.notify({
          method: "notifications/message",
          params: { level: "debug", logger: "graver.stream", data: logData(event) },
        }).catch(() => {}),
      );
    }
  };
  const stream = openServedStream(call.workspace, runner, {
    tool,
    args: split.rest,
    dispatch: { session: call.session },
    onEvent,
  });
  const result = await feedStream(stream, lineSource(split.text));
  await Promise.all(sent);
  return result;
}
