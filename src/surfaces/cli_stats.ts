/**
 * `graver stats [--root DIR] [--path DIR] [--symbols] [--include-ignored] [--max-files N] [--json]`: what
 * graver sees of a project — files and lines per language, which have a grammar (structural tools work
 * there), binary and non-UTF-8 files, and with `--symbols` the definitions per language. The directory is
 * checked through dispatch (list_files: its refusals, its did-you-mean), then walked with the project's one
 * walk, files only, and each file read once, read-only (`_stats.ts`); `--symbols` outlines through
 * dispatch. At most `--max-files` files are counted (directories are not): a capped result names the
 * first file left out, the entries not counted and the `--path` that narrows the count. Project-wide, so a
 * progress line shows on a terminal. Registered at module load.
 *
 * @module
 */
import type { WalkSkipped } from "../fs/walk.ts";
import type { ToolResult } from "../tools/types.ts";
import type { Workspace } from "../workspace.ts";
import { type CliHost, EXIT, printJson, registerCliCommand, usageError, WORKSPACE_FLAGS } from "./cli.ts";
import { failureText, integerFlag, type Paint, painter, type Progress, startProgress } from "./cli_output.ts";
import { maxOf } from "../arrays.ts";

/** Most files `graver stats` counts unless `--max-files` says (directories are not counted). */
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

/** What a count stopped at its cap did not count, and how to count it. */
export interface StatsCap {
  /** The most files counted (`--max-files`, default {@linkcode MAX_STATS_FILES}). */
  max_files: number;
  /** The first file not counted (files after it in walk order were not counted either). */
  first_not_counted: string;
  /**
   * The entries directly under the counted directory from the one holding that file on (directories end
   * with "/"): not counted, the first of them in part. At most 20.
   */
  not_counted: string[];
  /** How many more such entries there are. */
  more: number;
  /** The command that counts the first directory left out (absent when the cut fell among top files). */
  narrower?: string;
  /** The same count with the cap doubled. */
  raise: string;
}

/** What `graver stats --json` prints. */
export interface ProjectStats {
  /** Always true (a refusal prints the ToolResult instead). */
  ok: true;
  /** The directory looked at, relative to the root ("" for the root). */
  path: string;
  /** Files looked at (directories are not counted). */
  files: number;
  /** Lines of the text files. */
  lines: number;
  /** Per language, most lines first. */
  languages: LanguageStats[];
  /** Binary files (no text tools). */
  binary: string[];
  /** Text files that are not UTF-8. */
  not_utf8: string[];
  /** Files that could not be read, with the error code, and directories that could not be listed ("dir/"). */
  unreadable: { path: string; code: string }[];
  /** Entries `.gitignore` (or the `node_modules` rule) left out, their contents not looked at. */
  ignored: number;
  /**
   * What the walk's rules left out (only when any): links whose target leaves the root (`outside_root`),
   * FIFOs, sockets and devices (`special_file`), directories it may not read (`unreadable`).
   */
  skipped?: Partial<WalkSkipped>;
  /** True when the project has more files than were looked at (`capped` says which). */
  truncated: boolean;
  /** What the cap left out and the call that narrows the count (only when truncated). */
  capped?: StatsCap;
}

/** Options of one count. */
interface StatsOptions {
  /** Directory relative to the root, as list_files resolved it. */
  dir: string;
  symbols: boolean;
  includeIgnored: boolean;
  maxFiles: number;
  progress: Progress;
  /** `--root` as given (the narrower command repeats it). */
  root?: string;
}

const NO_GRAMMAR = "(no grammar)";

/** Files between two progress updates (each one redraws the line on the terminal). */
const PROGRESS_EVERY = 250;

/** Entries of a cap's `not_counted`. */
const NOT_COUNTED_NAMED = 20;

function countSymbols(nodes: { children?: unknown[] }[]): number {
  return nodes.reduce((n, s) => n + 1 + countSymbols((s.children ?? []) as { children?: unknown[] }[]), 0);
}

/** Count every file under the directory, at most `maxFiles` of them. */
async function collect(ws: Workspace, options: StatsOptions): Promise<ProjectStats> {
  // The project walk of the stats loads with `graver stats`, not with every other command.
  const { factsOfAll, walkFiles } = await import("./_stats.ts");
  const walked = await walkFiles(ws, {
    ...options,
    found: (n) => {
      if (n === 1 || n % PROGRESS_EVERY === 0) {
        options.progress.update(`walking, ${n} file${n === 1 ? "" : "s"} found`);
      }
    },
  });
  const files = walked.files;
  const stats: ProjectStats = {
    ok: true,
    path: options.dir,
    files: files.length,
    lines: 0,
    languages: [],
    binary: [],
    not_utf8: [],
    unreadable: walked.unreadableDirs.map((d) => ({ path: `${d}/`, code: "permission_denied" })),
    ignored: walked.ignored,
    truncated: walked.firstLeftOut !== undefined,
  };
  if (walked.skipped) stats.skipped = walked.skipped;
  const facts = await factsOfAll(ws, files, (n) => {
    if (n === 1 || n % PROGRESS_EVERY === 0 || n === files.length) {
      options.progress.update(`reading ${n}/${files.length} files`);
    }
  });
  const rows = new Map<string, LanguageStats>();
  for (const [i, path] of files.entries()) {
    const fact = facts[i]!;
    if (fact.kind === "binary") stats.binary.push(path);
    else if (fact.kind === "not_utf8") stats.not_utf8.push(path);
    else if (fact.kind === "unreadable") stats.unreadable.push({ path, code: fact.code });
    else {
      const row = addTo(rows, fact.language, fact.lines);
      stats.lines += fact.lines;
      if (options.symbols && fact.language !== null) {
        row.symbols = (row.symbols ?? 0) + await symbolsOf(ws, path);
      }
    }
  }
  stats.languages = [...rows.values()].sort((a, b) =>
    b.lines - a.lines || a.language.localeCompare(b.language)
  );
  if (walked.firstLeftOut !== undefined) stats.capped = await capOf(ws, options, walked.firstLeftOut);
  return stats;
}

/** The definitions of one file, outlined through dispatch (0 when it cannot be outlined). */
async function symbolsOf(ws: Workspace, path: string): Promise<number> {
  const outline = await ws.call("outline", { path });
  if (!outline.ok) return 0;
  const cut = outline.data["truncated"] as { total: number } | undefined;
  return cut?.total ?? countSymbols(outline.data["symbols"] as []);
}

/** What a capped count left out and the command that counts its first directory. */
async function capOf(ws: Workspace, options: StatsOptions, firstLeftOut: string): Promise<StatsCap> {
  const { leftOutAt } = await import("./_stats.ts");
  const left = await leftOutAt(ws, { ...options, firstLeftOut });
  const dir = left.find((e) => e.endsWith("/"))?.slice(0, -1);
  const cap: StatsCap = {
    max_files: options.maxFiles,
    first_not_counted: firstLeftOut,
    not_counted: left.slice(0, NOT_COUNTED_NAMED),
    more: Math.max(0, left.length - NOT_COUNTED_NAMED),
    raise: statsCommand(options.dir, { ...options, maxFiles: options.maxFiles * 2 }),
  };
  if (dir !== undefined) cap.narrower = statsCommand(dir, options);
  return cap;
}

/** A word as a POSIX shell reads it back: bare when safe, else single-quoted. */
function shellWord(word: string): string {
  return /^[\w./@+=:-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** The `graver stats` command line that counts `dir` ("" for the root) with the same options. */
function statsCommand(dir: string, options: StatsOptions): string {
  const words = ["graver stats", ...(dir === "" ? [] : ["--path", shellWord(dir)])];
  if (options.includeIgnored) words.push("--include-ignored");
  if (options.symbols) words.push("--symbols");
  if (options.maxFiles !== MAX_STATS_FILES) words.push("--max-files", String(options.maxFiles));
  if (options.root !== undefined) words.push("--root", shellWord(options.root));
  return words.join(" ");
}

function addTo(rows: Map<string, LanguageStats>, language: string | null, lines: number): LanguageStats {
  const key = language ?? NO_GRAMMAR;
  let row = rows.get(key);
  if (!row) rows.set(key, row = { language: key, grammar: language !== null, files: 0, lines: 0 });
  row.files++;
  row.lines += lines;
  return row;
}

/** The lines saying what a capped count left out and how to count it. */
function capLines(s: ProjectStats, cap: StatsCap): string[] {
  const more = cap.more > 0 ? ` … and ${cap.more} more` : "";
  const out = [
    `only the first ${s.files} files were counted (at most ${cap.max_files}; directories are not counted): ` +
    `"${cap.first_not_counted}" and the files after it were not`,
    `not counted (the first in part): ${cap.not_counted.join(", ")}${more}`,
  ];
  out.push(
    cap.narrower !== undefined
      ? `narrow the count: ${cap.narrower} (or raise the cap: ${cap.raise})`
      : `raise the cap to count them: ${cap.raise}`,
  );
  return out;
}

/** What the walk's rules left out, in one line, or null when nothing. */
function leftOutLine(s: ProjectStats): string | null {
  const parts: string[] = [];
  if (s.ignored > 0) {
    parts.push(`${s.ignored} ignored by .gitignore or node_modules (--include-ignored counts them)`);
  }
  const outside = s.skipped?.outside_root ?? 0;
  if (outside > 0) parts.push(`${outside} link${outside === 1 ? "" : "s"} leading out of the root`);
  const special = s.skipped?.special_file ?? 0;
  if (special > 0) parts.push(`${special} special file${special === 1 ? "" : "s"} (FIFO, socket, device)`);
  return parts.length > 0 ? `not counted: ${parts.join("; ")}` : null;
}

function render(s: ProjectStats, paint: Paint, symbols: boolean): string {
  const header = ["language", "files", "lines", ...(symbols ? ["definitions"] : [])];
  const rows = s.languages.map((l) => [
    l.language,
    String(l.files),
    String(l.lines),
    ...(symbols ? [l.grammar ? String(l.symbols ?? 0) : "-"] : []),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, maxOf(rows.map((r) => r[i]!.length))));
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
  const left = leftOutLine(s);
  if (left !== null) out.push(paint.dim(left));
  if (s.capped) out.push(...capLines(s, s.capped).map(paint.yellow));
  return out.join("\n") + "\n";
}

registerCliCommand({
  name: "stats",
  synopsis: "stats [--path DIR] [--symbols] [--include-ignored] [--max-files N] [--root DIR] [--json]",
  summary: "Summarise what graver sees of the project: files and lines per language, grammar support",
  details: `
Walks the project as list_files does (.gitignore'd files and node_modules left out unless --include-ignored)
and reads every file once, as read_file reads it: files and lines per language, which languages have a
grammar (the structural tools work there), binary and non-UTF-8 files. --symbols also outlines every file
with a grammar and counts its definitions (slower). At most --max-files files are counted (default
${MAX_STATS_FILES}; directories are not counted); a capped count names the first file left out and the
--path that narrows it. On a terminal a progress line shows while files are read.`,
  flags: {
    ...WORKSPACE_FLAGS,
    path: { kind: "string", value: "DIR", help: "look only under this directory" },
    symbols: { kind: "boolean", help: "count definitions per language (outlines every file)" },
    "include-ignored": { kind: "boolean", help: "also look at what .gitignore ignores and node_modules" },
    "max-files": { kind: "string", value: "N", help: `most files counted (default ${MAX_STATS_FILES})` },
    json: { kind: "boolean", help: "print one JSON object" },
  },
  maxPositional: 0,
  async run({ flags, host, open }) {
    // A project count reads no file for a session: --session is accepted and changes nothing.
    if (flags["guard"] !== undefined || flags["gate"] !== undefined) {
      return usageError(host, "stats", { message: "stats makes no edit: --guard and --gate do not apply" });
    }
    const maxFiles = integerFlag(flags, "max-files") ?? MAX_STATS_FILES;
    if (typeof maxFiles === "object") return usageError(host, "stats", { message: maxFiles.problem });
    const ws = await open(flags["root"] as string | undefined);
    const progress = startProgress(host, "graver stats:");
    let result: ProjectStats | Extract<ToolResult, { ok: false }>;
    try {
      const includeIgnored = flags["include-ignored"] === true;
      // The directory is checked as list_files checks it: the same refusals and did-you-mean.
      const checkArgs: Record<string, unknown> = { max_entries: 1, include_ignored: includeIgnored };
      if (flags["path"] !== undefined) checkArgs["path"] = flags["path"];
      const checked = await ws.call("list_files", checkArgs);
      result = checked.ok
        ? await collect(ws, {
          dir: String(checked.data["path"]),
          symbols: flags["symbols"] === true,
          includeIgnored,
          maxFiles,
          progress,
          ...(flags["root"] !== undefined ? { root: String(flags["root"]) } : {}),
        })
        : checked;
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
