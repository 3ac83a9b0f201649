/**
 * The MCP surface: one `@modelcontextprotocol/sdk` server per MCP session,
 * over any transport (stdio through {@linkcode StreamTransport}, Streamable
 * HTTP through `mcp_http.ts`). Its tools are the catalogue's, with their
 * JSON Schemas and annotations; a call goes through the workspace's
 * dispatch with the MCP session as the graver session, and its events
 * (commits, refusals, guard and routing decisions of that session) arrive as
 * logging notifications before the result.
 *
 * Validation is graver's (dispatch, eval-free); the SDK is given the
 * @cfworker/json-schema validator so nothing in the server generates code at
 * run time — it runs in workerd.
 *
 * @module
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type LoggingLevel,
  SetLevelRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import denoJson from "../../deno.json" with { type: "json" };
import { isRecoverable } from "../errors.ts";
import { catalogueEntries, exportCatalogue } from "../tools/export_formats.ts";
import { DEFAULT_RESULT_CHARS, fitResult } from "../tools/result_fit.ts";
import type { ToolDefinition, ToolResult } from "../tools/types.ts";
import type { Workspace } from "../workspace.ts";
import { withTimeLimit } from "./_time_limit.ts";
import { type CallRunner, workspaceRunner } from "./call_runner.ts";
import type { EventHub, FeedEvent } from "./events.ts";
import { type StreamNotification, streamsOverMcp, streamToolCall } from "./mcp_stream.ts";
import { resultText } from "./result_text.ts";

/** What session-start instructions say when the embedder gives none. */
export const DEFAULT_INSTRUCTIONS: string =
  "graver edits files in a sandboxed workspace: every change is staged, syntax-checked and committed " +
  "all-or-nothing. Read a file (read_file) before editing it and pass the version it returned as " +
  "expected_version; prefer the structural tools (replace_symbol, insert_code, remove_symbol) for whole " +
  "definitions and edit_file/apply_edits for small text changes. A refused call wrote nothing: its error " +
  "has a code, a hint saying what to call next, and often a suggested_call.";

/**
 * The MCP annotations of a tool — the catalogue's (`src/tools/export_formats.ts`): read-only when it cannot
 * write (or only previews), destructive when it can overwrite or remove, idempotent when a repeat changes
 * nothing more; never open-world (the workspace is closed).
 *
 * @example
 * ```ts
 * import { toolAnnotations } from "./mcp.ts";
 * import { findTool } from "../tools/catalogue.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(toolAnnotations(findTool("read_file")!).readOnlyHint, true);
 * assert.equal(toolAnnotations(findTool("delete_file")!).destructiveHint, true);
 * assert.equal(toolAnnotations(findTool("create_file")!).destructiveHint, false);
 * ```
 *
 * @param tool A catalogue entry.
 * @returns The annotations.
 */
export function toolAnnotations(tool: ToolDefinition): NonNullable<Tool["annotations"]> {
  return catalogueEntries({ tools: [tool] })[0]!.annotations;
}

/**
 * The catalogue as MCP tools (the catalogue's `mcp` export): name, title, description, the JSON Schema
 * of the arguments, the result's schema as `outputSchema`, annotations.
 *
 * @returns One entry per tool, in catalogue order.
 */
export function mcpTools(): Tool[] {
  return exportCatalogue("mcp") as unknown as Tool[];
}

/** The share of a result's budget its text may take; `structuredContent` has the rest. */
const TEXT_SHARE = 0.6;

/** The characters of a response around its text and structured result (keys, `isError`, the JSON-RPC frame). */
const ENVELOPE = 200;

/**
 * A ToolResult as an MCP tool result: a compact text for the model (`result_text.ts`: status, changed files
 * with lines and versions, diffs, data texts, or the refusal's code, message, hint and suggested call), the
 * result itself as `structuredContent`, and `isError` when graver refused. What the client receives stays
 * within `chars` (the workspace's result budget): the text takes at most 60% of it, and when the text and
 * the result together are over it, the structured result is fitted into the rest (`fitResult`: diffs
 * summarised, the longest data texts cut, each cut named in a warning).
 *
 * @param result The dispatch result.
 * @param options `chars`: the budget of the whole response (default 100,000).
 * @returns The MCP result.
 */
export function mcpResult(result: ToolResult, options: { chars?: number } = {}): CallToolResult {
  const chars = options.chars ?? DEFAULT_RESULT_CHARS;
  const text = resultText(result, { chars: Math.floor(chars * TEXT_SHARE) });
  // Sizes as the client receives them: JSON, where a tab or a quote of the text takes two characters.
  const rest = chars - JSON.stringify(text).length - ENVELOPE;
  const whole = JSON.stringify(result).length <= rest;
  const structured = whole ? result : fitResult(result, { chars: rest, fullDiff: false });
  return {
    content: [{ type: "text", text }],
    structuredContent: structured as unknown as Record<string, unknown>,
    isError: !result.ok,
  };
}

/** The logging level of a feed event. */
function levelOf(event: FeedEvent): LoggingLevel {
  if (event.name === "graver.refusal") return "warning";
  if (event.name === "graver.internal_error" || event.name === "graver.step.failed") return "error";
  return "info";
}

const SEVERITY: readonly LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/** The part of a tools/call request the handler reads. */
interface CallRequest {
  params: { name: string; arguments?: Record<string, unknown>; _meta?: { progressToken?: string | number } };
}

/** The part of the SDK's request context the handler uses. */
interface CallExtra {
  sendNotification(notification: StreamNotification): Promise<void>;
}

/** Options of {@linkcode createMcpServer}. */
export interface McpServerOptions {
  /** The workspace whose dispatch runs the calls. */
  workspace: Workspace;
  /** The graver session of this MCP session (its read ledger scope). */
  session: string;
  /**
   * The workspace's event feed (give the same hub to `createWorkspace({ telemetry })`): this session's
   * events become logging notifications. Without it, no notifications.
   */
  events?: EventHub;
  /**
   * Session-start instructions for the model (the MCP `instructions` of initialize), e.g. the compass's
   * enabled reminders. Default: {@linkcode DEFAULT_INSTRUCTIONS}.
   */
  instructions?: string;
  /** Per-call time limit in ms (default 60 000; 0: none). */
  timeoutMs?: number;
  /**
   * Where the calls run (default: on `workspace`, in this event loop). `graver serve --isolate` passes its
   * worker's runner: a call stuck in synchronous work is then stopped at the time limit, as on `/v1`.
   */
  runner?: CallRunner;
}

/**
 * graver's own instructions followed by the compass's enabled session-start
 * reminders (e.g. `compass_ast_edits` when a persona or the config turns it on).
 *
 * @param workspace The workspace whose compass speaks.
 * @returns The instructions text.
 */
export function sessionInstructions(workspace: Workspace): string {
  const reminders = workspace.compass.instructions();
  return reminders === "" ? DEFAULT_INSTRUCTIONS : `${DEFAULT_INSTRUCTIONS}\n\n${reminders}`;
}

/**
 * Build the MCP server of one session. Connect it to one transport
 * (`await server.connect(transport)`); a second session needs a second
 * server.
 *
 * @example List the tools and call one, in memory
 * ```ts
 * import { createMemoryBackend, createWorkspace } from "@graver/core";
 * import { Client } from "@modelcontextprotocol/sdk/client/index.js";
 * import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
 * import { createMcpServer } from "./mcp.ts";
 * import assert from "node:assert/strict";
 *
 * const workspace = await createWorkspace({ backend: createMemoryBackend({ "/a.txt": "hi\n" }) });
 * const server = createMcpServer({ workspace, session: "s1" });
 * const [a, b] = InMemoryTransport.createLinkedPair();
 * await server.connect(a);
 * const client = new Client({ name: "doc", version: "1" });
 * await client.connect(b);
 * assert.ok((await client.listTools()).tools.some((t: { name: string }) => t.name === "read_file"));
 * const res = await client.callTool({ name: "read_file", arguments: { path: "a.txt" } });
 * assert.equal((res.structuredContent as { ok: boolean }).ok, true);
 * await client.close();
 * ```
 *
 * @param options Workspace, session, events, instructions, time limit.
 * @returns The server (not yet connected).
 */
export function createMcpServer(options: McpServerOptions): Server {
  const { workspace, session, events } = options;
  const runner = options.runner ?? workspaceRunner(workspace);
  const limit = runner.stopsCalls ? 0 : options.timeoutMs ?? 60_000;
  const server = new Server(
    { name: "graver", version: denoJson.version },
    {
      capabilities: { tools: {}, logging: {} },
      instructions: options.instructions ?? sessionInstructions(workspace),
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    },
  );
  let threshold: LoggingLevel = "info";
  // (The SDK's request types come from zod and reach Deno's checker as `any`: the shapes are spelled out.)
  server.setRequestHandler(SetLevelRequestSchema, (request: { params: { level: LoggingLevel } }) => {
    threshold = request.params.level;
    return {};
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: mcpTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (request: CallRequest, extra: CallExtra) => {
    const { name, arguments: args } = request.params;
    const sent: Promise<void>[] = [];
    const sub = events?.subscribe((event) => {
      const level = levelOf(event);
      if (SEVERITY.indexOf(level) < SEVERITY.indexOf(threshold)) return;
      sent.push(
        extra.sendNotification({
          method: "notifications/message",
          params: { level, logger: "graver", data: { event: event.name, ...event.attributes } },
        }).catch(() => {}),
      );
    }, { session });
    try {
      // A runner that stops calls at the time limit answers it itself; nothing is left running past it.
      // A text-taking tool called with a progress token streams: each block's decision is a progress report.
      const progressToken = request.params._meta?.progressToken;
      const work = progressToken !== undefined && streamsOverMcp(name, progressToken)
        ? streamToolCall({
          workspace,
          runner: options.runner,
          session,
          tool: name,
          args: args ?? {},
          progressToken,
          notify: (n) => extra.sendNotification(n),
          debugLogging: threshold === "debug",
        })
        : runner.call(name, args ?? {}, { session });
      const result = await withTimeLimit(work, limit, name);
      await Promise.all(sent);
      return mcpResult(result, { chars: workspace.resultChars });
    } catch (err) {
      if (!isRecoverable(err)) throw err;
      return mcpResult({ ok: false, tool: name, error: err.toJSON(), reminders: [] }, {
        chars: workspace.resultChars,
      });
    } finally {
      sub?.close();
    }
  });
  return server;
}
