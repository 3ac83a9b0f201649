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
import type { ShownLines } from "../errors.ts";
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
  /** With one line: the first column to show (1-based, UTF-16 code units), for a line longer than a read. */
  start_column?: number;
  /** With one line: the last column to show (inclusive). */
  end_column?: number;
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
    "Read a text file. Returns numbered lines ('  12\\tcode'), the file's version (pass it as expected_version to edits), the total line count, and the file's line endings (eol: lf, crlf or mixed) and BOM, which write_file keeps. Use start_line/end_line for large files: a read is capped (2000 lines, about 15k tokens); then `notice` names the lines left out and the definitions they contain, and `next_call` reads on. A line longer than that (minified code) is read in slices: start_column/end_column, with line_length and next_call. Refused: a binary or non-UTF-8 file (binary_file, encoding: replace it whole with write_file), a directory (call list_files). To see a file's definitions first, call outline; to find one across files, find_symbol.",
  inputSchema: objectSchema({
    path: PATH,
    start_line: { type: "integer", minimum: 1, description: "First line to return (1-based)" },
    end_line: { type: "integer", minimum: 1, description: "Last line to return (inclusive)" },
    numbered: { type: "boolean", description: "Prefix lines with their numbers (default true)" },
    start_column: {
      type: "integer",
      minimum: 1,
      description: "Read one line from this column (1-based): for a line too long for one read",
    },
    end_column: { type: "integer", minimum: 1, description: "Read one line up to this column (inclusive)" },
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
    start_column: INTEGER,
    end_column: INTEGER,
    line_length: INTEGER,
    next_call: shape({ tool: STRING, args: { type: "object" } }),
  }, ["path", "version", "content", "start_line", "end_line", "total_lines"]),
  aliases: { file_path: "path" },
  async handler(args, { stage, workspace }) {
    const rel = await stage.resolve(args.path);
    const file = await readAsText(stage, rel);
    prefetchParse(workspace, rel, file.text, file.version); // the edit after a read finds its tree
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
    const sliced = args.start_column !== undefined || args.end_column !== undefined ||
      (workspace.readBudget?.countTokens ?? estimateTokens)(candidate[0] ?? "") >
        (workspace.readBudget?.tokens ?? DEFAULT_READ_TOKENS);
    const language = workspace.grammars?.languageOf(rel, file.text.slice(0, HEAD_CHARS)) ?? null;
    if (sliced) {
      const at = { rel, file, line: start, text: candidate[0] ?? "", numbered, total, language };
      return lineSlice(at, args, workspace.readBudget);
    }
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
      language,
      eol: eolStyle(file.text),
      bom: file.bom,
    };
    if (end < last) {
      data["truncated"] = true;
      data["next_call"] = { tool: "read_file", args: { path: rel, start_line: end + 1 } };
      // Say exactly what was left out and which definitions it holds, so the next read can aim.
      const span = { start: end + 1, end: last };
      const { omittedNotice, summarizeSpan } = await lineSummaryEngine();
      const summary = await summarizeSpan(workspace, rel, { text: file.text, version: file.version }, span);
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

/** Where a slice of one line starts and ends (1-based, inclusive), a surrogate pair never cut in two. */
function sliceBounds(text: string, from: number, to: number | undefined, width: number): [number, number] {
  let end = Math.min(text.length, to ?? from + width - 1);
  const code = text.charCodeAt(end - 1);
  if (end < text.length && code >= 0xd800 && code <= 0xdbff) end++;
  return [from, end];
}

/**
 * A read of part of one line: a line longer than a read's budget (a minified bundle, a data line), or the
 * columns the call asked for. The notice says how long the line is and how to read on.
 */
function lineSlice(
  at: {
    rel: string;
    file: { text: string; version: string; bom: boolean };
    line: number;
    text: string;
    numbered: boolean;
    total: number;
    language: string | null;
  },
  args: ReadFileArgs,
  budget: ReadBudget | undefined,
): { data: Record<string, unknown>; shown: ShownLines[] } {
  const { rel, file, line, text } = at;
  const from = args.start_column ?? 1;
  if (args.end_line !== undefined && args.end_line !== line) {
    throw new RecoverableError(
      "invalid_args",
      `Cannot read columns of "${rel}" across lines ${line}–${args.end_line}`,
      {
        hint:
          "start_column and end_column read part of one line: pass start_line alone (or end_line equal to it)",
        details: { path: rel },
      },
    );
  }
  if (from > Math.max(text.length, 1) || (args.end_column !== undefined && args.end_column < from)) {
    throw new RecoverableError(
      "invalid_args",
      `Cannot read "${rel}" line ${line} from column ${from} to ${
        args.end_column ?? "its end"
      }: the line has ${text.length} characters`,
      {
        hint: `Pass 1 <= start_column <= end_column <= ${text.length}`,
        details: { path: rel, line, line_length: text.length },
      },
    );
  }
  const width = (budget?.tokens ?? DEFAULT_READ_TOKENS) * 4;
  const [start, end] = sliceBounds(text, from, args.end_column, width);
  const piece = text.slice(start - 1, end);
  const data: Record<string, unknown> = {
    path: rel,
    version: file.version,
    content: at.numbered ? numberLines([piece], line)[0]! : piece,
    start_line: line,
    end_line: line,
    total_lines: at.total,
    language: at.language,
    start_column: start,
    end_column: end,
    line_length: text.length,
    eol: eolStyle(file.text),
    bom: file.bom,
  };
  if (end < text.length) {
    data["truncated"] = true;
    data["next_call"] = { tool: "read_file", args: { path: rel, start_line: line, start_column: end + 1 } };
    data["notice"] = `Line ${line} has ${text.length} characters; columns ${start}–${end} are shown. ` +
      `Read on with start_column: ${end + 1}, or find what you need in it with search_text.`;
  }
  // The line counts as seen: an edit of an exact text in it is judged as after any read of it.
  return {
    data,
    shown: [{ path: rel, version: file.version, lines: [{ start_line: line, end_line: line }] }],
  };
}
