/**
 * `graver grep PATTERN [PATH]`: `search_text` with ripgrep's flag letters and output shape —
 * `path:line:column:text` per matched line (`path-line-text` for context lines), `path` per file with `-l`,
 * `path:count` with `-c`; `--json` prints the ToolResult. Exit codes as ripgrep's: 0 found, 1 nothing found,
 * 2 an error. Registered at module load.
 *
 * @module
 */
import type { ToolResult } from "../tools/types.ts";
import { printJson, registerCliCommand, usageError, WORKSPACE_FLAGS } from "./cli.ts";
import { quoteLiteral } from "../search/text_pattern.ts";
import type { Workspace } from "../workspace.ts";
import type { CliHost, CliInvocation } from "./_cli_contract.ts";
import {
  type CliScope,
  cliScopes,
  exitOfAll,
  type ScopeAnswer,
  searchEachScope,
  withShownPaths,
} from "./_cli_scope.ts";
import { COLOR_FLAG, withColorFlag } from "./_cli_display.ts";
import { failureText, type Paint, painter, searchNotesText, sizeFlag, stoppedText } from "./cli_output.ts";
import { appendAll } from "../arrays.ts";

/** What one matched line of a search_text result holds (the part printed here). */
interface PrintedMatch {
  path: string;
  line: number;
  column: number;
  text: string;
  submatches: { column: number; end_line: number; end_column: number }[];
  submatches_omitted?: number;
  context_before?: string[];
  context_after?: string[];
}

/** Flags whose value is a whole number, with the search_text argument each sets. */
const COUNTS: Readonly<Record<string, string>> = {
  "after-context": "context_after",
  "before-context": "context_before",
  context: "context",
  "max-results": "max_results",
};

/** The context flags: `-A`, `-B` and `-C`. */
const CONTEXT_FLAGS = ["after-context", "before-context", "context"];

/**
 * The context flags that stand, as ripgrep 13 (Debian's) reads them: `-A` and `-B` add up, but a `-C` given
 * after them drops both, and an `-A` or `-B` given after a `-C` drops it (`-C 1 -A 0` shows no line before,
 * `-A 0 -C 1` one on each side); of one flag given twice, the last value.
 *
 * @param order Each option given, in order.
 * @returns The context flags to take (a subset of `-A`, `-B`, `-C` by their long names).
 */
function contextFlagsThatStand(order: readonly string[]): Set<string> {
  const standing = new Set<string>();
  for (const name of order) {
    if (!CONTEXT_FLAGS.includes(name)) continue;
    if (name === "context") standing.clear();
    else standing.delete("context");
    standing.add(name);
  }
  return standing;
}

/** Boolean flags and the search_text argument each sets to true. */
const SWITCHES: Readonly<Record<string, string>> = {
  "ignore-case": "ignore_case",
  "smart-case": "smart_case",
  "word-regexp": "word",
  multiline: "multiline",
  hidden: "hidden",
  "no-ignore": "no_ignore",
};

/**
 * The pattern and PATHs of an invocation: PATTERN and then PATHs as the arguments, or, with `-e` (repeatable, as
 * rg's), the patterns from there — several are one alternation, each a fixed string with `-F` — and the
 * arguments PATHs alone.
 */
function patternAndPaths(
  positional: string[],
  given: { regexps: string[] | undefined; fixed: boolean },
): { pattern: string; literal: boolean; paths: string[] } | { problem: string } {
  const { regexps, fixed } = given;
  if (regexps === undefined || regexps.length === 0) {
    const [pattern, ...paths] = positional;
    return pattern === undefined ? { problem: "missing PATTERN" } : { pattern, literal: fixed, paths };
  }
  if (regexps.length === 1) return { pattern: regexps[0]!, literal: fixed, paths: positional };
  const alternatives = regexps.map((p) => `(?:${fixed ? quoteLiteral(p) : p})`);
  return { pattern: alternatives.join("|"), literal: false, paths: positional };
}

/** The search_text arguments a `graver grep` invocation stands for, or a usage problem. */
function searchArgs(
  invocation: Pick<CliInvocation, "positional" | "flags" | "values" | "counts" | "order">,
): { args: Record<string, unknown>; paths: string[] } | { problem: string } {
  const { positional, flags, values } = invocation;
  const given = patternAndPaths(positional, {
    regexps: values["regexp"],
    fixed: flags["fixed-strings"] === true,
  });
  if ("problem" in given) return given;
  // A CLI prints every match, as rg does: the page and the character budget are only a guard.
  const args: Record<string, unknown> = {
    pattern: given.pattern,
    max_results: 10_000,
    max_chars: 50_000_000,
  };
  for (const [flag, arg] of Object.entries(SWITCHES)) if (flags[flag]) args[arg] = true;
  if (given.literal) args["literal"] = true;
  // rg's -u: what .gitignore ignores too; -uu: and hidden files (-uuu's binary files are never searched here).
  const unrestricted = invocation.counts?.["unrestricted"] ?? 0;
  if (unrestricted >= 1) args["no_ignore"] = true;
  if (unrestricted >= 2) args["hidden"] = true;
  const standing = contextFlagsThatStand(
    invocation.order ?? CONTEXT_FLAGS.filter((f) => flags[f] !== undefined),
  );
  for (const [flag, arg] of Object.entries(COUNTS)) {
    const raw = flags[flag];
    if (raw === undefined || (CONTEXT_FLAGS.includes(flag) && !standing.has(flag))) continue;
    if (typeof raw !== "string" || !/^\d+$/.test(raw)) {
      return { problem: `option "--${flag}" takes a whole number, not "${String(raw)}"` };
    }
    args[arg] = Number(raw);
  }
  if (values["glob"]) args["glob"] = values["glob"];
  if (values["type"]) args["type"] = values["type"];
  if (flags["files-with-matches"]) args["output_mode"] = "files_with_matches";
  if (flags["count"]) args["output_mode"] = "count";
  const size = sizeFlag(flags, "max-filesize");
  if (typeof size === "object") return size;
  if (size !== undefined) args["max_file_bytes"] = size;
  const sort = flags["sort"];
  if (sort !== undefined && sort !== "path" && sort !== "none") {
    return {
      problem: `--sort takes "path" or "none" (files are printed in path order), not "${String(sort)}"`,
    };
  }
  const perFile = flags["max-count"];
  if (perFile !== undefined && (typeof perFile !== "string" || !/^\d+$/.test(perFile))) {
    return { problem: `option "--max-count" takes a whole number, not "${String(perFile)}"` };
  }
  // rg's -q: the answer is the exit code; the first file with a match settles it.
  if (flags["quiet"]) Object.assign(args, { output_mode: "files_with_matches", max_results: 1 });
  return { args, paths: given.paths };
}

/**
 * ripgrep's options `graver grep` does not take, as written, with what to do instead (`CliCommand.foreign`).
 */
const RG_OPTIONS_NOT_TAKEN: Readonly<Record<string, string>> = (() => {
  const invert =
    "graver grep prints the lines that match; search for what the other lines hold, or read the " +
    "file (graver read PATH)";
  const files =
    `to list files, run graver call list_files '{"path": ""}'; for the files holding a pattern, ` +
    "graver grep -l PATTERN";
  const follow = "links inside the workspace root are followed already; a link leading out of it never is " +
    "(the sandbox), so there is nothing to turn on";
  const pcre = "patterns run on RE2 (linear time, as rg's default engine): write the pattern without " +
    "look-around or backreferences";
  const text = "binary files (a NUL byte in their first 8 KiB) are never searched";
  return {
    "-v": invert,
    "--invert-match": invert,
    "--files": files,
    "-L": follow,
    "--follow": follow,
    "-P": pcre,
    "--pcre2": pcre,
    "-a": text,
    "--text": text,
  };
})();

/** A result with at most `n` matched lines per file (rg's `-m`): in its matches, and in its counts. */
function withMaxCount(data: Record<string, unknown>, n: number): Record<string, unknown> {
  const seen = new Map<string, number>();
  const matches = (data["matches"] as { path: string }[] | undefined)?.filter((m) => {
    const k = (seen.get(m.path) ?? 0) + 1;
    seen.set(m.path, k);
    return k <= n;
  });
  const counts = (data["counts"] as { path: string; count: number }[] | undefined)
    ?.map((c) => ({ ...c, count: Math.min(c.count, n) }));
  return { ...data, ...(matches ? { matches } : {}), ...(counts ? { counts } : {}) };
}

/**
 * The lines of a file to print around its matches, as ripgrep prints them: a context line once, even where
 * two matches' contexts meet, and never a matched line as context (`lines` of a match: from the first line
 * after what was printed, up to the line before the next match of the same file).
 */
interface Window {
  /** The first line number this match may print as context before it. */
  from: number;
  /** The last line number it may print as context after it. */
  until: number;
}

/** One matched line in ripgrep's shape, its matches painted (with `-o`, each match alone). */
function matchLines(
  m: PrintedMatch,
  print: { paint: Paint; onlyMatching: boolean; window: Window },
): string[] {
  const { paint, onlyMatching, window } = print;
  const out: string[] = [];
  const before = m.context_before ?? [];
  before.forEach((text, i) => {
    const line = m.line - before.length + i;
    if (line >= window.from) out.push(`${paint.cyan(m.path)}-${line}-${text}`);
  });
  let text = "";
  let at = 0;
  for (const s of m.submatches) {
    const end = s.end_line === m.line ? s.end_column - 1 : m.text.length;
    text += m.text.slice(at, s.column - 1) + paint.bold(paint.red(m.text.slice(s.column - 1, end)));
    at = end;
  }
  text += m.text.slice(at);
  if (onlyMatching) {
    // rg -o: each match on a line of its own, at its own column (a match that runs on: up to the line's end).
    for (const s of m.submatches) {
      const end = s.end_line === m.line ? s.end_column - 1 : m.text.length;
      const part = paint.bold(paint.red(m.text.slice(s.column - 1, end)));
      out.push(`${paint.cyan(m.path)}:${paint.green(String(m.line))}:${s.column}:${part}`);
    }
  } else out.push(`${paint.cyan(m.path)}:${paint.green(String(m.line))}:${m.column}:${text}`);
  (m.context_after ?? []).forEach((t, i) => {
    if (m.line + 1 + i <= window.until) out.push(`${paint.cyan(m.path)}-${m.line + 1 + i}-${t}`);
  });
  return out;
}

/**
 * The matched lines with their context as ripgrep prints them: each context line once, and `--` between
 * groups of lines that do not follow one another (within a file and between files) when context was asked.
 */
function matchesText(
  matches: readonly PrintedMatch[],
  print: { paint: Paint; onlyMatching: boolean },
): string[] {
  const withContext = matches.some((m) => m.context_before !== undefined || m.context_after !== undefined);
  const lines: string[] = [];
  let last: { path: string; line: number } | null = null;
  matches.forEach((m, i) => {
    const next = matches[i + 1];
    const from = last?.path === m.path ? last.line + 1 : 1;
    const until = next?.path === m.path ? next.line - 1 : Infinity;
    const first = Math.min(m.line, Math.max(from, m.line - (m.context_before?.length ?? 0)));
    if (withContext && last !== null && (last.path !== m.path || first > last.line + 1)) lines.push("--");
    appendAll(lines, matchLines(m, { ...print, window: { from, until } }));
    last = { path: m.path, line: Math.max(m.line, Math.min(until, m.line + (m.context_after?.length ?? 0))) };
  });
  return lines;
}

/**
 * With `-o`, the lines whose matches were not all listed (`submatches_omitted`: at most 100 a line), for
 * stderr: rg prints every one; here the rest of such a line is counted.
 */
function omittedText(data: Record<string, unknown>): string {
  const cut = ((data["matches"] as PrintedMatch[] | undefined) ?? []).filter((m) => m.submatches_omitted);
  if (cut.length === 0) return "";
  const first = cut[0]!;
  return `graver grep: -o lists at most 100 matches a line; ${cut.length} line(s) hold more (${first.path}:` +
    `${first.line}: ${first.submatches_omitted} more); search a narrower pattern to see them\n`;
}

/** The result as ripgrep would print it. */
function resultText(data: Record<string, unknown>, print: { paint: Paint; onlyMatching: boolean }): string {
  const { paint, onlyMatching } = print;
  const lines = matchesText((data["matches"] as PrintedMatch[] | undefined) ?? [], { paint, onlyMatching });
  for (const f of (data["files"] as { path: string }[] | undefined) ?? []) lines.push(paint.cyan(f.path));
  for (const c of (data["counts"] as { path: string; count: number }[] | undefined) ?? []) {
    lines.push(`${paint.cyan(c.path)}:${c.count}`);
  }
  return lines.length > 0 ? lines.join("\n") + "\n" : "";
}

/** Whether the search found anything. */
function found(data: Record<string, unknown>): boolean {
  return ["matches", "files", "counts"].some((k) => ((data[k] as unknown[] | undefined)?.length ?? 0) > 0);
}

registerCliCommand({
  name: "grep",
  synopsis:
    "grep PATTERN [PATH]... | -e PATTERN... [PATH]... [-i] [-S] [-w] [-F] [-U] [-o] [-u] [-g GLOB]... [-t TYPE]... [-A N] [-B N] [-C N] [-l] [-c] [--json]",
  summary: "Search the project's files (search_text) with ripgrep's flags and output",
  details: `
PATTERN is a regular expression in RE2 syntax (ripgrep's), or a fixed string with -F; -e PATTERN may
repeat (any of them matches), and the arguments are then PATHs alone. PATH narrows the search to a folder
or file, written as rg takes it (relative to the current folder or absolute; outside the root it is
searched as a workspace of its own unless --root is given); several PATHs are searched one after another,
as rg does (with --json, one result each). .gitignore is honoured and hidden and binary
files are skipped, as rg does (--hidden, --no-ignore; -u lifts the ignore files, -uu hidden files too).
-g GLOB may repeat ("!" excludes; the later glob wins); -t TYPE may repeat.
Output: path:line:column:text per matched line (-n, -H, --column and --no-heading are accepted and change
nothing: that is always the shape); -o prints each match alone; -l prints the files; -c prints
path:count; --json prints the search_text ToolResult (each match with its file's version and occurrence
id, for a guarded edit next). Exit codes as rg: 0 found, 1 nothing found, 2 an error.`,
  flags: {
    ...WORKSPACE_FLAGS,
    "ignore-case": { kind: "boolean", short: "i", help: "match regardless of case" },
    "smart-case": {
      kind: "boolean",
      short: "S",
      help: "ignore case unless PATTERN has an upper-case letter",
    },
    "word-regexp": { kind: "boolean", short: "w", help: "only whole-word matches" },
    "fixed-strings": { kind: "boolean", short: "F", help: "take PATTERN as a fixed string" },
    multiline: { kind: "boolean", short: "U", help: "let a match span lines" },
    glob: {
      kind: "string",
      short: "g",
      value: "GLOB",
      help: "include (or with ! exclude) paths; repeatable",
    },
    type: {
      kind: "string",
      short: "t",
      value: "TYPE",
      help: "only files of this type (ts, py, go …); repeatable",
    },
    "after-context": { kind: "string", short: "A", value: "N", help: "lines after each match" },
    "before-context": { kind: "string", short: "B", value: "N", help: "lines before each match" },
    context: { kind: "string", short: "C", value: "N", help: "lines before and after each match" },
    "files-with-matches": { kind: "boolean", short: "l", help: "print only the files that match" },
    count: { kind: "boolean", short: "c", help: "print matched lines per file" },
    hidden: { kind: "boolean", help: "also search hidden files and folders" },
    "no-ignore": { kind: "boolean", help: "also search what .gitignore ignores" },
    "max-results": { kind: "string", value: "N", help: "stop after N entries (default 10000)" },
    "max-filesize": {
      kind: "string",
      value: "SIZE",
      help: "skip larger files (bytes, or 50K, 10M, 1G; default 16M)",
    },
    json: { kind: "boolean", help: "print the search_text ToolResult as JSON" },
    regexp: {
      kind: "string",
      short: "e",
      value: "PATTERN",
      help: "a pattern (repeatable: any of them); the arguments are then PATH alone",
    },
    "only-matching": { kind: "boolean", short: "o", help: "print each match alone, at its column" },
    unrestricted: {
      kind: "boolean",
      short: "u",
      help: "-u: also what .gitignore ignores; -uu: and hidden files",
    },
    "line-number": {
      kind: "boolean",
      short: "n",
      help: "accepted as rg takes it: lines are always numbered",
    },
    column: { kind: "boolean", help: "accepted as rg takes it: columns are always printed" },
    "with-filename": {
      kind: "boolean",
      short: "H",
      help: "accepted as rg takes it: paths are always printed",
    },
    "no-heading": {
      kind: "boolean",
      help: "accepted as rg takes it: matches are never grouped under headings",
    },
    color: COLOR_FLAG,
    quiet: { kind: "boolean", short: "q", help: "print nothing; exit 0 when something matches (rg's -q)" },
    "max-count": {
      kind: "string",
      short: "m",
      value: "N",
      help: "at most N matched lines per file (rg's -m)",
    },
    sort: {
      kind: "string",
      value: "path",
      help: "accepted as rg takes --sort path (or none): files are always printed in path order",
    },
  },
  foreign: RG_OPTIONS_NOT_TAKEN,
  maxPositional: Infinity,
  async run({ flags, values, counts, order, positional, host: givenHost, open }) {
    const host = withColorFlag(givenHost, flags);
    if ("problem" in host) return usageError(givenHost, "grep", { message: host.problem });
    const given = searchArgs({
      positional,
      flags,
      values,
      counts: counts ?? {},
      ...(order ? { order } : {}),
    });
    if ("problem" in given) return usageError(host, "grep", { message: given.problem });
    const scopes = await cliScopes(host, { root: flags["root"] as string | undefined, paths: given.paths });
    if ("problem" in scopes) return usageError(host, "grep", { message: scopes.problem });
    // ripgrep's lines name no symbol: only --json, which prints the whole result, has them parsed for.
    if (!flags["json"]) given.args["symbols"] = false;
    const printed = { any: false };
    const search = (scope: CliScope, call: { ws: Workspace; args: Record<string, unknown> }) =>
      grepScope({ host, flags, printed }, { scope, ...call });
    return exitOfAll(await searchEachScope(scopes, { open, args: given.args, search }));
  },
});

/** What a `graver grep` run prints by: its host, its flags, and whether an earlier PATH printed lines. */
interface GrepRun {
  host: CliHost;
  flags: Record<string, unknown>;
  printed: { any: boolean };
}

/** One PATH's search, printed as rg prints it; its exit code and result. */
async function grepScope(
  run: GrepRun,
  search: { scope: CliScope; ws: Workspace; args: Record<string, unknown> },
): Promise<ScopeAnswer> {
  const { scope, ws, args } = search;
  // A terminal gets every line whole, as ripgrep prints it: no result budget cuts a long line.
  const called: ToolResult = await ws.call("search_text", args, { resultChars: Infinity });
  const code = printGrep(run, { scope, args, called });
  return { code, result: called };
}

/** A PATH's result printed as rg prints it (`-m`, `-q` applied); its exit code. */
function printGrep(
  run: GrepRun,
  got: { scope: CliScope; args: Record<string, unknown>; called: ToolResult },
): number {
  const { host, flags } = run;
  const { scope, args, called } = got;
  const perFile = flags["max-count"] === undefined ? undefined : Number(flags["max-count"]);
  const result = called.ok && perFile !== undefined
    ? { ...called, data: withMaxCount(called.data, perFile) }
    : called;
  const quiet = flags["quiet"] === true;
  if (flags["json"] && !quiet) printJson(host, result);
  const paint = painter(host);
  if (!result.ok) {
    if (!flags["json"]) host.stderr(failureText(result, paint));
    return 2;
  }
  if (!flags["json"] && !quiet) {
    const onlyMatching = flags["only-matching"] === true;
    const text = resultText(withShownPaths(result.data, scope.shown), { paint, onlyMatching });
    // rg's `--` between the groups of lines of two files, when context is printed: here, of two PATHs.
    const context = ["context", "context_before", "context_after"].some((k) => Number(args[k] ?? 0) > 0);
    if (text !== "" && run.printed.any && context) host.stdout("--\n");
    run.printed.any ||= text !== "";
    host.stdout(text);
    if (onlyMatching) host.stderr(omittedText(result.data));
  }
  if (quiet) return found(result.data) ? 0 : 1;
  // What the search could not look into (a file over the size limit), as rg reports its errors: on stderr.
  if (!flags["json"]) host.stderr(searchNotesText(result, paint));
  if (!flags["json"]) host.stderr(stoppedText("graver grep", result, args));
  return found(result.data) ? 0 : 1;
}
