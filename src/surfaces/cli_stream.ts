/**
 * `graver apply - --stream`: the model's response read from stdin as it
 * comes (a model's output piped straight in), each block reported as soon
 * as it is decided, the edit committed all or nothing when stdin closes.
 * With `--json` every event is one JSON line (`{"type": "placed", …}`) as it
 * is decided and the last line is the result (`{"type": "result", "result":
 * {…}}`); without it, one human line per event ("✓ block 1 placed at
 * a.ts:10-14 (exact)", "✗ block 2 refused in a.ts: no_match: …") and then
 * apply's summary. `--stop-on-refusal` stops reading at the first refused
 * block (a harness can then cancel the generation). Exit codes are apply's.
 *
 * @module
 */
import type { DispatchOptions } from "../tools/dispatch.ts";
import type { StreamEvent, StreamTool } from "../tools/edit_stream.ts";
import type { ToolResult } from "../tools/types.ts";
import type { Workspace } from "../workspace.ts";
import { type CliHost, exitCodeOf, usageError } from "./cli.ts";
import { type Paint, painter } from "./cli_output.ts";
import { byteSource, describeStreamEvent, feedStream, lineSource, type TextSource } from "./stream_feed.ts";

/** One streamed apply. */
export interface CliStreamApply {
  /** The runtime. */
  host: CliHost;
  /** The open workspace. */
  ws: Workspace;
  /** The tool the text is for (`apply_edits`). */
  tool: StreamTool;
  /** The tool's other arguments (`format`, `partial`, `fuzzy`). */
  args: Record<string, unknown>;
  /** Session and dry run. */
  dispatch: DispatchOptions;
  /** Stop at the first refused block. */
  stopOnRefusal: boolean;
  /** One JSON line per event instead of the human view. */
  json: boolean;
  /** The text when it is not read from stdin (a FILE); default: stdin as it arrives. */
  text?: string;
  /** Apply's human summary of the result (printed after the events without `--json`). */
  summarize(result: ToolResult, paint: Paint): string;
}

/** The mark of an event in the human view. */
function markOf(event: StreamEvent, paint: Paint): string {
  switch (event.type) {
    case "placed":
      return paint.green("✓");
    case "refused":
    case "parse_error":
      return paint.red("✗");
    case "stopped":
      return paint.yellow("■");
    case "replaced":
      return paint.cyan("±");
    default:
      return paint.dim("·");
  }
}

/**
 * One line of the human view for an event.
 *
 * @example
 * ```ts
 * import { humanEventLine } from "./cli_stream.ts";
 * import { painter } from "./cli_output.ts";
 * import assert from "node:assert/strict";
 *
 * const line = humanEventLine({
 *   type: "placed",
 *   block: 1,
 *   path: "a.ts",
 *   lines: { start: 10, end: 14 },
 *   tier: "exact",
 *   input_line: 3,
 * }, painter({ color: false }));
 * assert.equal(line, "✓ block 1 placed at a.ts:10-14 (exact)\n");
 * ```
 *
 * @param event The event.
 * @param paint The styles.
 * @returns The line, with its line break.
 */
export function humanEventLine(event: StreamEvent, paint: Paint): string {
  return `${markOf(event, paint)} ${describeStreamEvent(event)}\n`;
}

/** stdin as it arrives when the host can give it so, else all of it at once, fed line by line. */
async function stdinSource(host: CliHost): Promise<TextSource> {
  if (host.stdinStream) return byteSource(host.stdinStream());
  return lineSource(await host.readStdin());
}

/** A source that remembers whether any non-blank text came through it. */
function noticingText(source: TextSource): TextSource & { sawText(): boolean } {
  let seen = false;
  return {
    read: async () => {
      const piece = await source.read();
      if (piece !== null && piece.trim() !== "") seen = true;
      return piece;
    },
    cancel: (reason) => source.cancel(reason),
    sawText: () => seen,
  };
}

/**
 * Run a streamed apply: print each event as it is decided, then the result; answer apply's exit code
 * (an input with nothing but blanks is a usage error, as for apply).
 *
 * @param run The workspace, the tool and its arguments, the output mode.
 * @returns The exit code.
 */
export async function runStreamApply(run: CliStreamApply): Promise<number> {
  const { host, json } = run;
  const paint = painter(host);
  const source = noticingText(run.text !== undefined ? lineSource(run.text) : await stdinSource(host));
  const stream = run.ws.stream({
    tool: run.tool,
    args: run.args,
    dispatch: run.dispatch,
    stopOnRefusal: run.stopOnRefusal,
    onEvent: (event) => {
      if (event.type === "result") return;
      host.stdout(json ? `${JSON.stringify(event)}\n` : humanEventLine(event, paint));
    },
  });
  const result = await feedStream(stream, source);
  if (!source.sawText()) {
    return usageError(host, "apply", {
      message: `the input from ${run.text !== undefined ? "the file" : "stdin"} is empty`,
      hint:
        'Give it a model\'s edit response: SEARCH/REPLACE blocks, a unified diff or a "*** Begin Patch" envelope, as FILE or on stdin',
    });
  }
  host.stdout(json ? `${JSON.stringify({ type: "result", result })}\n` : run.summarize(result, paint));
  return exitCodeOf(result);
}
