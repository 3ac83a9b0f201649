/**
 * A structural search's page: each match of the files a scan found turned into an entry (lines and columns,
 * its metavariables' ranges, its occurrence id), and the page fitted to the caller's character budget with
 * the summary and the cursor of the next page. Lines are found by bisection in the text's line starts
 * ({@linkcode LineStarts}, kept with a held text for the next search), so a file with many matches, or one
 * long match, is not scanned for line ends once per position.
 *
 * @module
 */
import type { RecoverableError } from "../errors.ts";
import { linesAfter, linesBefore, type LineStarts } from "./matched_lines.ts";
import { formatOccurrenceId } from "./occurrence_id.ts";
import { countsOf, fits, prefixThatFits } from "./result_budget.ts";
import { cursorFor } from "./text_args.ts";
import type {
  AstGrepMatch,
  FileCount,
  SearchSkipped,
  StructuralHit,
  StructuralMatch,
  StructuralMetavariable,
  StructuralQuery,
  StructuralSearchResult,
  StructuralSummary,
} from "./types.ts";

/** Characters of a match's text (and of each metavariable's) kept when the page is shortened. */
const TEXT_KEEP = 200;

/** One file's matches as a scan found them, with what their entries need. */
export interface FoundFile {
  /** The file's path. */
  path: string;
  /** Its language. */
  language: string;
  /** Its text (a BOM dropped). */
  text: string;
  /** Its version. */
  version: string;
  /** The matches, in document order. */
  hits: StructuralHit[];
  /** Where the text's lines start. */
  lines: LineStarts;
}

/** Line and 1-based column of `offset`, bisecting from a line known to start at or before it. */
function positionOf(lines: LineStarts, offset: number, from: number): { line: number; column: number } {
  const { line, start } = lines.lineAt(offset, from);
  return { line, column: offset - start + 1 };
}

/**
 * The lines around a hit, as `search_text` gives them around a matched line: `before` lines above its first
 * line (nearest last), `after` lines below its last (nearest first).
 */
function contextOf(
  found: { text: string; lines: LineStarts },
  hit: { start: number; end: number; line: number },
  context: { before: number; after: number },
): Pick<StructuralMatch, "context_before" | "context_after"> {
  const { text, lines } = found;
  const out: Pick<StructuralMatch, "context_before" | "context_after"> = {};
  if (context.before > 0) {
    out.context_before = linesBefore(text, {
      start: lines.lineAt(hit.start, hit.line).start,
      count: context.before,
    });
  }
  if (context.after > 0) {
    const lastLine = lines.lineAt(Math.max(hit.start, hit.end - 1), hit.line).start;
    const end = text.indexOf("\n", lastLine);
    out.context_after = end === -1 ? [] : linesAfter(text, { end, count: context.after });
  }
  return out;
}

/** A metavariable's entry: its text, and its range where it bound something. */
function metavariableEntry(
  b: StructuralHit["metavariables"][string],
  at: { lines: LineStarts; from: number },
): StructuralMetavariable {
  if (b.start < 0) return { text: b.text };
  const s = positionOf(at.lines, b.start, at.from);
  const e = positionOf(at.lines, b.end, s.line);
  return { text: b.text, line: s.line, column: s.column, end_line: e.line, end_column: e.column };
}

/**
 * The match entries of one file's hits in [from, to).
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { LineStarts } from "./matched_lines.ts";
 * import { matchEntries } from "./structural_page.ts";
 *
 * const text = "a;\nlog(x,\n  y);\n";
 * const hit = { start: 3, end: 14, metavariables: { A: { start: 7, end: 13, text: "x,\n  y" } } };
 * const found = { path: "a.js", language: "javascript", text, version: "f".repeat(64), hits: [hit], lines: new LineStarts(text) };
 * const [m] = matchEntries(found, { from: 0, to: 1 });
 * assert.deepEqual([m!.line, m!.column, m!.end_line, m!.end_column], [2, 1, 3, 5]);
 * assert.deepEqual(m!.metavariables["A"], { text: "x,\n  y", line: 2, column: 5, end_line: 3, end_column: 4 });
 * ```
 *
 * @param found The file and its hits.
 * @param range The hits to take.
 * @returns One entry per hit, in order.
 */
export function matchEntries(
  found: FoundFile,
  range: {
    from: number;
    to: number;
    misfits?: ReadonlyMap<StructuralHit, string>;
    /** Lines to give around each match (none by default). */
    context?: { before: number; after: number };
  },
): StructuralMatch[] {
  const { path, text, version, lines } = found;
  const out: StructuralMatch[] = [];
  let line = 1; // hits come in document order: each is looked up from the line of the one before
  for (let i = range.from; i < range.to; i++) {
    const hit = found.hits[i]!;
    const start = positionOf(lines, hit.start, line);
    line = start.line;
    const end = positionOf(lines, hit.end, line);
    const metavariables: Record<string, StructuralMetavariable> = {};
    for (const name in hit.metavariables) {
      const b = hit.metavariables[name]!;
      // A binding before the match's start (a rule's `inside`) is looked up from the first line.
      metavariables[name] = metavariableEntry(b, { lines, from: b.start >= hit.start ? line : 1 });
    }
    const entry: StructuralMatch = {
      path,
      language: found.language,
      line: start.line,
      column: start.column,
      end_line: end.line,
      end_column: end.column,
      text: text.slice(hit.start, hit.end),
      metavariables,
      version,
      id: formatOccurrenceId({ path, line: start.line, column: start.column, version }),
    };
    if (range.context) Object.assign(entry, contextOf(found, { ...hit, line }, range.context));
    if (hit.replacement !== undefined) entry.replacement = hit.replacement;
    const loses = replacementLoses(hit);
    if (loses.length > 0) entry.replacement_loses = loses;
    const misfit = range.misfits?.get(hit);
    if (misfit !== undefined) entry.replacement_does_not_fit = misfit;
    out.push(entry);
  }
  return out;
}

/** What a hit's replacement would take away, in words (`StructuralMatch.replacement_loses`). */
function replacementLoses(hit: StructuralHit): string[] {
  const short = (code: string) => {
    const flat = code.replace(/\s+/g, " ").trim();
    return flat.length > 60 ? `${flat.slice(0, 57)}…` : flat;
  };
  return [
    ...(hit.drops ?? []).map((w) => `the word \`${w}\``),
    ...(hit.tail ?? []).map((t) => `the code after the pattern's end: \`${short(t.text)}\``),
    ...(hit.comments ?? []).map((c) => `the comment \`${short(c)}\``),
  ];
}

/** What a scan counted, as the summary reports it. */
export interface PageStats {
  /** Files read and looked at. */
  scanned: number;
  /** Files parsed. */
  parsed: number;
  /** Files with matches. */
  matched: number;
  /** Files left out, by cause. */
  skipped: SearchSkipped;
  /** Of the too large, files over the parse limit. */
  overParseLimit: number;
  /** Files whose matches stopped at the matcher's bound per file. */
  capped?: string[];
  /** Languages where the pattern does not parse, with what the grammar said. */
  refused: Map<string, RecoverableError>;
  /** Languages whose grammar read the pattern only as one ERROR node, with what it saw. */
  readAsError?: Map<string, string>;
  /** Each language's reading of a code pattern. */
  readings?: Map<string, string>;
}

/** A page and where it came from: the query, whether more was left, when the search began, its counts. */
export interface PageState<T> {
  /** The query. */
  query: StructuralQuery;
  /** The entries found for the page, before the budget. */
  page: T[];
  /** Whether the scan left matches past the page. */
  truncated: boolean;
  /** `performance.now()` when the search began. */
  started: number;
  /** The scan's counts. */
  stats: PageStats;
}

/**
 * The result in ast-grep's shape: as many matches as fit the budget (never shortened), the cursor, the summary.
 *
 * @param state The page of ast-grep matches and where it came from.
 * @returns The result.
 */
export function finishAstGrep(state: PageState<AstGrepMatch>): StructuralSearchResult {
  const kept = fits(state.page, state.query.maxChars)
    ? state.page
    : prefixThatFits(state.page, state.query.maxChars);
  const truncated = state.truncated || kept.length < state.page.length;
  const { summary } = finish({ ...state, page: [], truncated });
  const result: StructuralSearchResult = { ast_grep: kept, summary };
  if (truncated) result.next_cursor = cursorFor(state.query, state.query.offset + kept.length);
  return result;
}

/** A match shortened to fit a budget: its text and metavariables' cut to {@linkcode TEXT_KEEP} characters. */
function shortened(m: StructuralMatch): StructuralMatch {
  const cut = (t: string) => t.length > TEXT_KEEP ? `${t.slice(0, TEXT_KEEP)}…` : t;
  const metavariables = Object.fromEntries(
    Object.entries(m.metavariables).map(([k, v]) => [k, { ...v, text: cut(v.text) }]),
  );
  const { context_before: _b, context_after: _a, ...rest } = m; // shortened, a match gives no context
  return { ...rest, text: cut(m.text), metavariables };
}

/** The page fitted to the budget: as it is, with texts cut, or as counts per file. */
function fitted(
  page: StructuralMatch[],
  budget: number,
): {
  matches?: StructuralMatch[];
  counts?: FileCount[];
  shortened: StructuralSummary["shortened"];
  kept: number;
} {
  if (fits(page, budget)) return { matches: page, shortened: "none", kept: page.length };
  const short = page.map(shortened);
  if (fits(short, budget)) return { matches: short, shortened: "truncated_text", kept: page.length };
  const counts = prefixThatFits(countsOf(page), budget);
  return { counts, shortened: "counts", kept: counts.reduce((n, c) => n + c.count, 0) };
}

/**
 * The result: the page fitted to the budget, the cursor of the next page, the summary.
 *
 * @param state The page of matches and where it came from.
 * @returns The result.
 */
export function finish(state: PageState<StructuralMatch>): StructuralSearchResult {
  const { query, stats } = state;
  const fit = fitted(state.page, query.maxChars);
  const truncated = state.truncated || fit.kept < state.page.length;
  const summary: StructuralSummary = {
    files_scanned: stats.scanned,
    files_parsed: stats.parsed,
    files_matched: stats.matched,
    skipped: stats.skipped,
    truncated,
    shortened: fit.shortened,
    elapsed_ms: Math.round((performance.now() - state.started) * 10) / 10,
  };
  if (stats.overParseLimit > 0) summary.files_over_parse_limit = stats.overParseLimit;
  if (stats.capped !== undefined) summary.files_capped = stats.capped.slice(0, 20);
  if (stats.refused.size > 0) {
    summary.languages_refused = Object.fromEntries([...stats.refused].map(([l, e]) => [l, e.message]));
  }
  if (stats.readAsError?.size) summary.pattern_read_as_error = Object.fromEntries(stats.readAsError);
  if (query.debugQuery && stats.readings?.size) summary.pattern_readings = Object.fromEntries(stats.readings);
  const kept = state.page.slice(0, fit.kept);
  const losesCode = kept.filter((m) => m.replacement_loses).length;
  const doesNotFit = kept.filter((m) => m.replacement_does_not_fit !== undefined).length;
  if (losesCode + doesNotFit > 0) {
    summary.rewrite_refuses = { loses_code: losesCode, does_not_fit: doesNotFit };
  }
  const result: StructuralSearchResult = { summary };
  if (fit.matches) result.matches = fit.matches;
  if (fit.counts) result.counts = fit.counts;
  if (truncated) result.next_cursor = cursorFor(query, query.offset + fit.kept);
  return result;
}

/**
 * A warning per language whose grammar read the pattern only as one ERROR node (`pattern_read_as_error`):
 * what it saw, what such a pattern matches, and how to say what was meant.
 *
 * @param readAs Language -> what its grammar saw.
 * @returns The warnings (none when the pattern parsed whole everywhere).
 */
export function readAsErrorWarnings(readAs: Record<string, string> | undefined): string[] {
  const languagesBySaw = new Map<string, string[]>(); // TypeScript and TSX read a pattern alike
  for (const [language, saw] of Object.entries(readAs ?? {})) {
    languagesBySaw.set(saw, [...languagesBySaw.get(saw) ?? [], language]);
  }
  return [...languagesBySaw].map(([saw, languages]) => {
    const grammars = languages.length === 1
      ? `${languages[0]} grammar reads`
      : `${languages.join(" and ")} grammars read`;
    return `The ${grammars} the pattern only as one ERROR node: ${saw}. It matches nodes of any kind whose ` +
      `children match these, as ast-grep's patterns do, which may be more or fewer than meant: to match one kind, ` +
      `write a complete ${
        languages[0]
      } construct (e.g. a quoted "$B" where a string goes) or add "kind" in a rule`;
  });
}
