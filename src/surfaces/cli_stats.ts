/**
 * `graver stats [--root DIR] [--path DIR] [--symbols] [--include-ignored] [--json]`:
 * what graver sees of a project — files and lines per language, which have a
 * grammar (structural tools work there), binary and non-UTF-8 files, and with
 * `--symbols` the definitions per language. Project-wide, so a progress line
 * shows on a terminal. Every file is looked at through dispatch (list_files,
 * read_file, outline), never around it. Registered at module load.
 *
 * @module
 */
import type { ToolResult } from "../tools/types.ts";
import type { Workspace } from "../workspace.ts";
import { type CliHost, EXIT, printJson, registerCliCommand, usageError, WORKSPACE_FLAGS } from "./cli.ts";
import { failureText, type Paint, painter, type Progress, startProgress } from "./cli_output.ts";

/** Most files `graver stats` looks at. */
export const MAX_STATS_FILES = 100_000;

/** One language's row of {@linkcode ProjectStats}. */
export interface LanguageStats {
  /** The grammar's language, or "(no grammar)". */
  language: string;
  /** Whether graver has a grammar for it (outline, symbol and node tools work). */
  grammar: boolean;
  /** Text files. */
  files: number;
  /** Their lines. */
  lines: number;
  /** Definitions (with `--symbols`, grammar languages only). */
  symbols?: number;
}

/** What `graver stats --json` prints. */
export interface ProjectStats {
  /** Always true (a refusal prints the ToolResult instead). */
  ok: true;
  /** The directory looked at, relative to the root ("" for the root). */
  path: string;
  /** Files looked at. */
  files: number;
  /** Lines of the text files. */
  lines: number;
  /** Per language, most lines first. */
  languages: LanguageStats[];
  /** Binary files (no text tools). */
  binary: string[];
  /** Text files that are not UTF-8. */
  not_utf8: string[];
  /** Files that could not be read, with the error code. */
  unreadable: { path: string; code: string }[];
  /** True when the project has more files than were looked at. */
  truncated: boolean;
}

const NO_GRAMMAR = "(no grammar)";

function countSymbols(nodes: { children?: unknown[] }[]): number {
  return nodes.reduce((n, s) => n + 1 + countSymbols((s.children ?? []) as { children?: unknown[] }[]), 0);
}

/** Look at every file under `path` through dispatch. */
async function collect(
  ws: Workspace,
  listed: Extract<ToolResult, { ok: true }>,
  options: { symbols: boolean; progress: Progress },
): Promise<ProjectStats> {
  const files = (listed.data["entries"] as string[]).filter((e) => !e.endsWith("/"));
  const stats: ProjectStats = {
    ok: true,
    path: String(listed.data["path"]),
    files: files.length,
    lines: 0,
    languages: [],
    binary: [],
    not_utf8: [],
    unreadable: [],
    truncated: listed.data["truncated"] === true,
  };
  const rows = new Map<string, LanguageStats>();
  for (const [i, path] of files.entries()) {
    options.progress.update(`${i + 1}/${files.length} files`);
    const read = await ws.call("read_file", { path, start_line: 1, end_line: 1 });
    if (!read.ok) {
      if (read.error.code === "binary_file") stats.binary.push(path);
      else if (read.error.code === "encoding") stats.not_utf8.push(path);
      else stats.unreadable.push({ path, code: read.error.code });
      continue;
    }
    const language = read.data["language"] as string | null;
    const lines = Number(read.data["total_lines"]);
    const row = addTo(rows, language, lines);
    stats.lines += lines;
    if (options.symbols && language !== null) {
      const outline = await ws.call("outline", { path });
      if (outline.ok) {
        const cut = outline.data["truncated"] as { total: number } | undefined;
        row.symbols = (row.symbols ?? 0) + (cut?.total ?? countSymbols(outline.data["symbols"] as []));
      }
    }
  }
  stats.languages = [...rows.values()].sort((a, b) =>
    b.lines - a.lines || a.language.localeCompare(b.language)
  );
  return stats;
}

function addTo(rows: Map<string, LanguageStats>, language: string | null, lines: number): LanguageStats {
  const key = language ?? NO_GRAMMAR;
  let row = rows.get(key);
  if (!row) rows.set(key, row = { language: key, grammar: language !== null, files: 0, lines: 0 });
  row.files++;
  row.lines += lines;
  return row;
}

function render(s: ProjectStats, paint: Paint, symbols: boolean): string {
  const header = ["language", "files", "lines", ...(symbols ? ["definitions"] : [])];
  const rows = s.languages.map((l) => [
    l.language,
    String(l.files),
    String(l.lines),
    ...(symbols ? [l.grammar ? String(l.symbols ?? 0) : "-"] : []),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)).join("  ").trimEnd();
  const out = [paint.bold(line(header)), ...rows.map(line)];
  out.push(paint.dim(`${s.files} files, ${s.lines} lines in ${s.path === "" ? "the root" : s.path}`));
  const withGrammar = s.languages.filter((l) => l.grammar).reduce((n, l) => n + l.files, 0);
  out.push(
    paint.dim(
      `${withGrammar} files have a grammar: outline, find_symbol and the structural tools work there`,
    ),
  );
  if (s.binary.length > 0) {
    out.push(paint.yellow(`${s.binary.length} binary (whole-file tools only): ${listed(s.binary)}`));
  }
  if (s.not_utf8.length > 0) out.push(paint.yellow(`${s.not_utf8.length} not UTF-8: ${listed(s.not_utf8)}`));
  for (const u of s.unreadable) out.push(paint.red(`unreadable ${u.path}: ${u.code}`));
  if (s.truncated) out.push(paint.yellow(`only the first ${s.files} files were looked at`));
  return out.join("\n") + "\n";
}

registerCliCommand({
  name: "stats",
  synopsis: "stats [--path DIR] [--symbols] [--include-ignored] [--root DIR] [--json]",
  summary: "Summarise what graver sees of the project: files and lines per language, grammar support",
  details: `
Walks the project as list_files does (.gitignore'd files and node_modules left out unless --include-ignored)
and reads every file through read_file: files and lines per language, which languages have a grammar (the
structural tools work there), binary and non-UTF-8 files. --symbols also outlines every file with a grammar
and counts its definitions (slower). On a terminal a progress line shows while files are read.`,
  flags: {
    ...WORKSPACE_FLAGS,
    path: { kind: "string", value: "DIR", help: "look only under this directory" },
    symbols: { kind: "boolean", help: "count definitions per language (outlines every file)" },
    "include-ignored": { kind: "boolean", help: "also look at what .gitignore ignores and node_modules" },
    json: { kind: "boolean", help: "print one JSON object" },
  },
  maxPositional: 0,
  async run({ flags, host, open }) {
    // A project count reads no file for a session: --session is accepted and changes nothing.
    if (flags["guard"] !== undefined || flags["gate"] !== undefined) {
      return usageError(host, "stats", "stats makes no edit: --guard and --gate do not apply");
    }
    const ws = await open(flags["root"] as string | undefined);
    const progress = startProgress(host, "graver stats: reading");
    let result: ProjectStats | Extract<ToolResult, { ok: false }>;
    try {
      const listArgs: Record<string, unknown> = { recursive: true, max_entries: MAX_STATS_FILES };
      if (flags["path"] !== undefined) listArgs["path"] = flags["path"];
      if (flags["include-ignored"]) listArgs["include_ignored"] = true;
      const listed = await ws.call("list_files", listArgs);
      result = listed.ok
        ? await collect(ws, listed, { symbols: flags["symbols"] === true, progress })
        : listed;
    } finally {
      progress.stop();
    }
    return report(host, result, { json: flags["json"] === true, symbols: flags["symbols"] === true });
  },
});

function report(
  host: CliHost,
  result: ProjectStats | Extract<ToolResult, { ok: false }>,
  options: { json: boolean; symbols: boolean },
): number {
  const paint = painter(host);
  if (options.json) printJson(host, result);
  else host.stdout(result.ok ? render(result, paint, options.symbols) : failureText(result, paint));
  return result.ok ? EXIT.ok : EXIT.failed;
}

/** Paths a human line names before it counts the rest (`--json` lists them all). */
const LISTED = 8;

/** The first paths of a list, then how many more (all of them are in `--json`). */
function listed(paths: readonly string[]): string {
  const more = paths.length - LISTED;
  return paths.slice(0, LISTED).join(", ") + (more > 0 ? ` … and ${more} more (--json lists them all)` : "");
}
