/**
 * read_file: numbered lines of a text file plus its version.
 *
 * @module
 */
import { isRecoverable, RecoverableError } from "../errors.ts";
import { lineWindow, numberLines } from "../fs/lines.ts";
import { eolStyle } from "../fs/text.ts";
import { lineSummaryEngine } from "./_lazy.ts";
import { prefetchParse } from "../syntax/trees.ts";
import { HEAD_CHARS } from "../syntax/grammars.ts";
import { objectSchema, PATH } from "./_schema.ts";
import type { Stage } from "../fs/stage.ts";
import type { ReadBudget, ToolDefinition } from "./types.ts";
import { BOOLEAN, FILE_PATH, INTEGER, shape, STRING, VERSION } from "./_result_schema.ts";

/** Arguments of read_file. */
export interface ReadFileArgs {
  /** Relative path. */
  path: string;
  /** First line (1-based, default 1). */
  start_line?: number;
  /** Last line, inclusive (default: start_line + max_lines - 1). */
  end_line?: number;
  /** Prefix each line with its number (default true). */
  numbered?: boolean;
}

/** Most lines one read returns; larger ranges are truncated with a follow-up call. */
export const MAX_READ_LINES = 2000;

/** Tokens one read returns by default (about 60,000 characters at the default estimate). */
export const DEFAULT_READ_TOKENS = 15_000;

/** The default token estimate: characters / 4, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * How many of `shown` fit in the budget (always at least one): lines are
 * counted as they are returned, one after another.
 */
function fitting(shown: readonly string[], budget: ReadBudget | undefined): number {
  const max = budget?.tokens ?? DEFAULT_READ_TOKENS;
  const count = budget?.countTokens ?? estimateTokens;
  let used = 0;
  for (let i = 0; i < shown.length; i++) {
    used += count(shown[i]! + "\n");
    if (used > max) return Math.max(1, i);
  }
  return shown.length;
}

/** Decode a file for reading; binary and non-UTF-8 files are refused as reads (not edits). */
async function readAsText(stage: Stage, rel: string): Promise<Awaited<ReturnType<Stage["readText"]>>> {
  try {
    return await stage.readText(rel);
  } catch (err) {
    if (!isRecoverable(err) || (err.code !== "binary_file" && err.code !== "encoding")) throw err;
    if (err.details?.["file_type"] !== undefined) throw err; // a FIFO, socket or device: its own message
    const what = err.code === "binary_file" ? "binary file" : "not valid UTF-8";
    const options: ConstructorParameters<typeof RecoverableError>[2] = {
      hint: err.code === "binary_file"
        ? "read_file shows text only; list it with list_files, or replace, move or delete it whole (write_file, move_file, delete_file)"
        : "read_file shows UTF-8 text only; convert the file to UTF-8, or replace it whole with write_file",
      cause: err,
    };
    if (err.details) options.details = err.details;
    throw new RecoverableError(err.code, `Cannot read "${rel}" as text: ${what}`, options);
  }
}

/** The read_file tool. */
export const readFile: ToolDefinition<ReadFileArgs> = {
  name: "read_file",
  description:
    "Read a text file. Returns numbered lines ('  12\\tcode'), the file's version (pass it as expected_version to edits), the total line count, and the file's line endings (eol: lf, crlf or mixed) and BOM, which write_file keeps. Use start_line/end_line for large files: a read is capped (2000 lines, about 15k tokens); then `notice` names the lines left out and the definitions they contain, and `next_call` reads on. Refused: a binary or non-UTF-8 file (binary_file, encoding: replace it whole with write_file), a directory (call list_files). To see a file's definitions first, call outline; to find one across files, find_symbol.",
  inputSchema: objectSchema({
    path: PATH,
    start_line: { type: "integer", minimum: 1, description: "First line to return (1-based)" },
    end_line: { type: "integer", minimum: 1, description: "Last line to return (inclusive)" },
    numbered: { type: "boolean", description: "Prefix lines with their numbers (default true)" },
  }, ["path"]),
  kind: "read",
  mutates: false,
  // Claude Code's Read names the file file_path.
  resultData: shape({
    path: FILE_PATH,
    version: VERSION,
    content: { ...STRING, description: "The lines, each as 'N<TAB>text' unless numbered is false" },
    start_line: INTEGER,
    end_line: INTEGER,
    total_lines: INTEGER,
    language: { type: ["string", "null"] },
    eol: { enum: ["lf", "crlf", "mixed"] },
    bom: BOOLEAN,
    truncated: BOOLEAN,
    next_call: shape({ tool: STRING, args: { type: "object" } }),
  }, ["path", "version", "content", "start_line", "end_line", "total_lines"]),
  aliases: { file_path: "path" },
  async handler(args, { stage, workspace }) {
    const rel = await stage.resolve(args.path);
    const file = await readAsText(stage, rel);
    prefetchParse(workspace, rel, { text: file.text, version: file.version }); // the edit after a read finds its tree
    const start = args.start_line ?? 1;
    const wanted = args.end_line ?? Infinity;
    // One scan for the line count; only the lines a read can show are copied (not every line of a big file).
    const { lines: candidate, total } = lineWindow(
      file.text,
      start,
      Math.min(wanted, start + MAX_READ_LINES - 1),
    );
    if (start > Math.max(total, 1)) {
      throw new RecoverableError(
        "limit_exceeded",
        `Cannot read "${rel}" from line ${start}: the file has ${total} line${total === 1 ? "" : "s"}`,
        {
          hint: `Call read_file with start_line between 1 and ${Math.max(total, 1)}`,
          suggestedCall: { tool: "read_file", args: { path: rel, start_line: Math.max(1, total - 49) } },
          details: { path: rel, total_lines: total },
        },
      );
    }
    if (args.end_line !== undefined && args.end_line < start) {
      throw new RecoverableError(
        "invalid_args",
        `Cannot read "${rel}": end_line ${args.end_line} is before start_line ${start}`,
        {
          hint: "Pass end_line >= start_line",
          details: { path: rel },
        },
      );
    }
    const last = Math.min(wanted, total);
    const numbered = args.numbered !== false;
    let shown = numbered ? numberLines(candidate, start) : candidate;
    const keep = fitting(shown, workspace.readBudget);
    const end = start + keep - 1;
    if (keep < shown.length) {
      shown = numbered ? numberLines(candidate.slice(0, keep), start) : shown.slice(0, keep);
    }
    const content = shown.join("\n");
    const data: Record<string, unknown> = {
      path: rel,
      version: file.version,
      content,
      start_line: start,
      end_line: end,
      total_lines: total,
      language: workspace.grammars?.languageOf(rel, file.text.slice(0, HEAD_CHARS)) ?? null,
      eol: eolStyle(file.text),
      bom: file.bom,
    };
    if (end < last) {
      data["truncated"] = true;
      data["next_call"] = { tool: "read_file", args: { path: rel, start_line: end + 1 } };
      // Say exactly what was left out and which definitions it holds, so the next read can aim.
      const span = { start: end + 1, end: last };
      const { omittedNotice, summarizeSpan } = await lineSummaryEngine();
      const summary = await summarizeSpan(workspace, rel, {
        file: { text: file.text, version: file.version },
        span,
      });
      data["not_shown"] = { start_line: span.start, end_line: span.end, ...summary };
      data["notice"] = omittedNotice(span, summary);
    }
    // The lines displayed count as read (an empty file: all of it).
    return {
      data,
      shown: [{ path: rel, version: file.version, lines: [{ start_line: start, end_line: end }] }],
    };
  },
};
