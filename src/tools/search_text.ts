/**
 * search_text: grep inside the sandbox. A linear-time (RE2), ripgrep-compatible text search over the one
 * project walk; every match carries its file's version and an occurrence id, so the next call can be a
 * guarded edit of exactly what was found. The engine is `src/search/` (docs/search.md).
 *
 * @module
 */
import { SEARCH_TEXT_ALIASES } from "../search/text_aliases.ts";
import { lazyEngine } from "./_lazy.ts";
import { objectSchema } from "./_schema.ts";
import { BOOLEAN, FILE_PATH, INTEGER, shape, STRING, VERSION } from "./_result_schema.ts";
import type { ShownLines } from "../errors.ts";
import type { LineMatch } from "../search/types.ts";
import type { ToolDefinition } from "./types.ts";
import { maxOf } from "../arrays.ts";

const searchEngine = lazyEngine("the text search", async () => (await import("./_engines_search.ts")).search);

const GLOBS = {
  anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }],
} as const;
const COUNT = { type: "integer", minimum: 0 } as const;

/** What one matched line looks like in a result. */
const LINE_MATCH = shape({
  path: FILE_PATH,
  line: INTEGER,
  column: INTEGER,
  text: STRING,
  submatches: {
    type: "array",
    items: shape({ column: INTEGER, end_line: INTEGER, end_column: INTEGER, text: STRING, id: STRING }),
  },
  version: VERSION,
  symbol: STRING,
  context_before: { type: "array", items: STRING },
  context_after: { type: "array", items: STRING },
}, ["path", "line", "column", "text", "submatches", "version"]);

/** The search_text tool. */
export const searchTextTool: ToolDefinition<Record<string, unknown>> = {
  name: "search_text",
  description:
    "Search the project's files for a regular expression (RE2 syntax, as ripgrep takes it) or, with literal: true, a fixed string. Honours .gitignore, skips hidden and binary files (lift with hidden / no_ignore); narrow with path, glob (ripgrep -g: \"!\" excludes, the later glob wins) and type (ts, py, go, rust …). output_mode: content (default: path, 1-based line and column, the line, submatches, context), files_with_matches or count. Every match carries the file's version (pass it as expected_version to an edit), an occurrence id (edit_replace_text takes ids) and, where the file has a grammar, its enclosing symbol's name path (symbol). Results are paged (max_results, then next_cursor as cursor) and shortened to fit max_chars; summary says what was scanned and skipped. Look-around and backreferences are refused: RE2 runs in linear time. To find a definition by name, find_symbol is more precise; to find every use of a symbol, find_references.",
  inputSchema: objectSchema({
    pattern: {
      type: "string",
      description: "Regular expression (RE2 syntax), or the text itself with literal",
    },
    literal: { type: "boolean", description: "Take pattern as a fixed string (default false)" },
    ignore_case: { type: "boolean", description: "Match regardless of case" },
    smart_case: { type: "boolean", description: "Ignore case unless the pattern holds an upper-case letter" },
    word: { type: "boolean", description: "Only whole-word matches" },
    multiline: { type: "boolean", description: "Let a match span lines" },
    path: { type: "string", description: 'A folder or file to search (default "": everything)' },
    glob: { ...GLOBS, description: 'ripgrep -g globs, in order: "!" excludes, the later one wins' },
    paths_include_glob: { ...GLOBS, description: "Only files matching these globs" },
    paths_exclude_glob: { ...GLOBS, description: "Leave out files matching these globs" },
    type: { ...GLOBS, description: "File types (ts, js, py, go, rust …): a file must be of one of them" },
    output_mode: { type: "string", enum: ["content", "files_with_matches", "count"] },
    context_before: { ...COUNT, description: "Lines shown before each matched line" },
    context_after: { ...COUNT, description: "Lines shown after each matched line" },
    context: { ...COUNT, description: "Lines shown before and after each matched line" },
    max_results: {
      ...COUNT,
      description: "Most entries in one page (default 100); 0 for no limit but max_chars (at most 10,000)",
    },
    offset: { ...COUNT, description: "Entries to skip before the page starts" },
    cursor: { type: "string", description: "next_cursor of the previous page of the same search" },
    max_chars: {
      ...COUNT,
      description: "Characters of entries before the page is shortened (default 30000)",
    },
    max_file_bytes: { ...COUNT, description: "Larger files are skipped as too_large (default 16 MiB)" },
    hidden: { type: "boolean", description: "Also search files and folders whose name starts with '.'" },
    no_ignore: { type: "boolean", description: "Also search what .gitignore ignores and node_modules" },
    symbols: {
      type: "boolean",
      description: "Name each match's enclosing symbol (default true; false is faster: no file is parsed)",
    },
    "-n": { type: "boolean", description: "Accepted and ignored: line numbers are always given" },
  }, ["pattern"]),
  // Claude Code's Grep, ripgrep's flag letters and Serena's search_for_pattern name the same arguments.
  aliases: SEARCH_TEXT_ALIASES,
  kind: "read",
  mutates: false,
  resultData: shape({
    output_mode: STRING,
    matches: { type: "array", items: LINE_MATCH },
    files: { type: "array", items: shape({ path: FILE_PATH, version: VERSION }, ["path", "version"]) },
    counts: {
      type: "array",
      items: shape({ path: FILE_PATH, count: INTEGER, version: VERSION }, ["path", "count", "version"]),
    },
    next_cursor: STRING,
    summary: shape({
      files_scanned: INTEGER,
      files_matched: INTEGER,
      skipped: shape({ ignored: INTEGER, binary: INTEGER, too_large: INTEGER, unreadable: INTEGER }),
      truncated: BOOLEAN,
      shortened: STRING,
      elapsed_ms: { type: "number" },
    }, ["files_scanned", "files_matched", "skipped", "truncated"]),
  }, ["output_mode", "summary"]),
  async handler(args, { workspace, stage }) {
    const { enclosingSymbolsOf, normalizeSearchTextArgs, searchText, skippedWarnings, walkSearchFiles } =
      await searchEngine();
    const query = normalizeSearchTextArgs(args);
    // Staged bytes for a file an earlier op of a plan wrote, else straight from the backend: a search hashes
    // only the files its page returns.
    // A read-only search reuses the bytes of files whose stat is unchanged since the session read them.
    const files = walkSearchFiles(stage, { cache: "session" });
    const result = await searchText(files, query, { enclosing: enclosingSymbolsOf(workspace) });
    const warnings = result.summary ? skippedWarnings(result.summary.skipped, query) : [];
    return { data: result as unknown as Record<string, unknown>, shown: shownLines(result), warnings };
  },
};

/**
 * The lines a page of matches displayed in full (each matched line, the lines a multi-line match runs
 * over, and the context), at the version each file was searched at: the read ledger counts them as seen,
 * so an edit of a line the agent found by searching is judged as if read. A page whose lines were cut
 * short to fit the budget displayed no line whole, and counts for nothing.
 */
function shownLines(
  result: { matches?: LineMatch[]; summary: { shortened: string } },
): ShownLines[] {
  if (!result.matches || result.summary.shortened !== "none") return [];
  const byFile = new Map<string, ShownLines & { lines: { start_line: number; end_line: number }[] }>();
  for (const m of result.matches) {
    const key = `${m.path}\0${m.version}`;
    const entry = byFile.get(key) ?? { path: m.path, version: m.version, lines: [] };
    byFile.set(key, entry);
    const last = Math.max(m.line, maxOf(m.submatches.map((s) => s.end_line)));
    entry.lines.push({
      start_line: m.line - (m.context_before?.length ?? 0),
      end_line: last + (m.context_after?.length ?? 0),
    });
  }
  return [...byFile.values()];
}
