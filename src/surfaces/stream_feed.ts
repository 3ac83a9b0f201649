/**
 * What every surface does with an edit stream ({@linkcode EditStream}): take
 * the model's text from wherever it arrives (a request body, stdin, a tool
 * call's argument cut into lines), write it chunk by chunk, stop reading as
 * soon as the stream stops (`stop_on_refusal`), abort when the source fails
 * (a client gone, a pipe broken: nothing is written), and give the one
 * result; plus the one-line human text of each event that MCP progress
 * messages, the CLI's live view and the playground's status list show.
 *
 * @module
 */
import { Stage } from "../fs/stage.ts";
import type { EditStream, EditStreamOptions, StreamEvent, StreamTool } from "../tools/edit_stream.ts";
import { openEditStream, STREAM_TOOLS } from "../tools/edit_stream.ts";
import type { ToolResult } from "../tools/types.ts";
import type { Workspace } from "../workspace.ts";
import type { CallRunner } from "./call_runner.ts";

/** Text arriving in pieces: `read` gives the next piece or null at the end; `cancel` stops the source. */
export interface TextSource {
  /** The next piece of text, or null when the source has ended. Rejects when the source fails. */
  read(): Promise<string | null>;
  /** Stop the source (a pending `read` then resolves null); nothing more is read from it. */
  cancel(reason?: string): void;
}

/**
 * A byte stream (a request body, stdin) as text pieces, decoded as UTF-8 as they arrive (a character split
 * across two chunks is held until its last byte comes).
 *
 * @example
 * ```ts
 * import { byteSource } from "./stream_feed.ts";
 * import assert from "node:assert/strict";
 *
 * const bytes = new TextEncoder().encode("é!");
 * const body = new ReadableStream<Uint8Array>({
 *   start(c) {
 *     c.enqueue(bytes.subarray(0, 1)); // half of "é"
 *     c.enqueue(bytes.subarray(1));
 *     c.close();
 *   },
 * });
 * const source = byteSource(body);
 * let text = "";
 * for (let piece = await source.read(); piece !== null; piece = await source.read()) text += piece;
 * assert.equal(text, "é!");
 * ```
 *
 * @param body The bytes.
 * @returns The source (reading locks the stream; `cancel` cancels it).
 */
export function byteSource(body: ReadableStream<Uint8Array>): TextSource {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let ended = false;
  return {
    async read() {
      while (!ended) {
        const { value, done } = await reader.read();
        if (done) {
          ended = true;
          const rest = decoder.decode();
          return rest === "" ? null : rest;
        }
        const text = decoder.decode(value, { stream: true });
        if (text !== "") return text;
      }
      return null;
    },
    cancel(reason) {
      ended = true;
      reader.cancel(reason).catch(() => {});
    },
  };
}

/**
 * A whole text as a source of its lines (each with its line break), so that a stream fed from a complete
 * argument (MCP's tool arguments arrive whole) still decides block by block.
 *
 * @example
 * ```ts
 * import { lineSource } from "./stream_feed.ts";
 * import assert from "node:assert/strict";
 *
 * const source = lineSource("a\r\nb\nc");
 * assert.deepEqual([await source.read(), await source.read(), await source.read(), await source.read()], [
 *   "a\r\n",
 *   "b\n",
 *   "c",
 *   null,
 * ]);
 * ```
 *
 * @param text The text.
 * @returns The source.
 */
export function lineSource(text: string): TextSource {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  let next = 0;
  return {
    read: () => Promise.resolve(next < lines.length ? lines[next++]! : null),
    cancel() {
      next = lines.length;
    },
  };
}

/**
 * Feed a source into an edit stream until the source ends or the stream stops (`stop_on_refusal`, or
 * aborted from outside), then end the stream. A source that fails (a read rejects: the client went away)
 * aborts the stream first, so nothing is written. Once the stream stops, the source is cancelled and not
 * read further.
 *
 * @example
 * ```ts
 * import { createMemoryBackend, createWorkspace } from "@graver/core";
 * import { feedStream, lineSource } from "./stream_feed.ts";
 * import assert from "node:assert/strict";
 *
 * const ws = await createWorkspace({ backend: createMemoryBackend({ "a.txt": "one\ntwo\n" }) });
 * const text = "a.txt\n<<<<<<< SEARCH\ntwo\n=======\n2\n>>>>>>> REPLACE\n";
 * const result = await feedStream(ws.stream({ tool: "apply_edits" }), lineSource(text));
 * assert.equal(result.ok && result.status, "applied");
 * ```
 *
 * @param stream The open edit stream.
 * @param source Where its text comes from.
 * @returns The stream's result.
 */
export async function feedStream(stream: EditStream, source: TextSource): Promise<ToolResult> {
  try {
    while (!stream.stopped) {
      const piece = await source.read();
      if (piece === null) break;
      await stream.write(piece);
    }
  } catch (err) {
    stream.abort(`its text stopped arriving: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (stream.stopped) source.cancel("the edit stream stopped");
  return await stream.end();
}

/**
 * Open an edit stream for a server: on the workspace, or, when the server's calls run elsewhere (a worker
 * under `graver serve --isolate`, which holds the sessions' ledgers), with the stream's one dispatch call
 * sent there too, so that the read guard judges the stream as it judges the session's other calls.
 *
 * @param workspace The served workspace (its files are what blocks are placed against).
 * @param runner Where the server's calls run, when not on the workspace itself.
 * @param options The stream's tool, arguments and policy.
 * @returns The open stream.
 */
export function openServedStream(
  workspace: Workspace,
  runner: CallRunner | undefined,
  options: EditStreamOptions,
): EditStream {
  if (runner === undefined) return workspace.stream(options);
  return openEditStream({
    call: (tool, args, dispatch) => runner.call(tool, args, dispatch ?? {}),
    openStage: () => new Stage(workspace.fs, workspace.sandbox),
    fuzzy: workspace.fuzzy,
  }, options);
}

/**
 * Whether a tool name is one an edit stream can feed.
 *
 * @example
 * ```ts
 * import { isStreamTool } from "./stream_feed.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(isStreamTool("apply_edits") && !isStreamTool("read_file"));
 * ```
 *
 * @param name A tool name.
 * @returns True for the {@linkcode STREAM_TOOLS}.
 */
export function isStreamTool(name: string): name is StreamTool {
  return (STREAM_TOOLS as readonly string[]).includes(name);
}

/** The `+`/`-` lines of a unified diff (not its `+++`/`---` headers). */
function diffCounts(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.split("\n")) {
    if (line.startsWith("+") && !line.startsWith("+++")) added++;
    else if (line.startsWith("-") && !line.startsWith("---")) removed++;
  }
  return { added, removed };
}

/** One line of a result: what it did, or the refusal's code and message. */
function describeResult(result: ToolResult): string {
  if (!result.ok) return `refused (${result.error.code}): ${result.error.message}`;
  const files = result.changes.length;
  return `${result.status.replace("_", " ")}: ${files} file${files === 1 ? "" : "s"} changed`;
}

/**
 * One line of human text for an event, e.g. `block 2 placed at a.ts:10-14 (exact)` — what MCP progress
 * notifications, the CLI's live view and the playground's status list show.
 *
 * @example
 * ```ts
 * import { describeStreamEvent } from "./stream_feed.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   describeStreamEvent({
 *     type: "placed",
 *     block: 2,
 *     path: "a.ts",
 *     lines: { start: 10, end: 14 },
 *     tier: "exact",
 *     input_line: 7,
 *   }),
 *   "block 2 placed at a.ts:10-14 (exact)",
 * );
 * ```
 *
 * @param event The event.
 * @returns The line (no line break).
 */
export function describeStreamEvent(event: StreamEvent): string {
  switch (event.type) {
    case "file":
      return `file ${event.path} (${event.op}) at input line ${event.input_line}`;
    case "placed":
      return `block ${event.block} placed at ${event.path}:${event.lines.start}-${event.lines.end} (${event.tier})`;
    case "refused":
      return `block ${event.block} refused in ${event.path}: ${event.error.code}: ${event.error.message}`;
    case "replaced": {
      const { added, removed } = diffCounts(event.diff);
      return `block ${event.block} replaced in ${event.path} (+${added} -${removed})`;
    }
    case "parse_error":
      return `the edit text cannot be parsed: ${event.error.code}: ${event.error.message}`;
    case "stopped":
      return `stopped early (${event.reason}${
        event.block !== undefined ? ` at block ${event.block}` : ""
      }): the generation can be cancelled`;
    case "result":
      return `result: ${describeResult(event.result)}`;
    default:
      return `event ${(event as { type: string }).type}`;
  }
}

/**
 * Whether an event reports something that will not land (a refused block, a parse error, a refused result).
 *
 * @param event The event.
 * @returns True for a refusal.
 */
export function isRefusalEvent(event: StreamEvent): boolean {
  return event.type === "refused" || event.type === "parse_error" ||
    (event.type === "result" && !event.result.ok);
}
