/**
 * A search result's character budget, met by shortening in stages rather than overflowing: first each
 * matched line is cut to a window around its first match and context lines are dropped
 * (`truncated_lines`); if that is still too long, the page becomes a count of matched lines per file
 * (`counts`); a list that is still too long ends early, and the cursor then starts the next page where it
 * ended. Each stage says so in the summary, so the model knows to narrow the search or page on.
 *
 * @module
 */
import type { FileCount, FileMatch, LineMatch, SearchSummary } from "./types.ts";

/** Characters of a matched line kept around its first match when lines are truncated. */
export const LINE_WINDOW = 200;
/** Characters of a submatch's text kept when lines are truncated. */
const SUBMATCH_KEEP = 100;

/** A page before the budget: the entries of one output mode. */
export type PageEntries =
  | { kind: "content"; matches: LineMatch[] }
  | { kind: "files_with_matches"; files: FileMatch[] }
  | { kind: "count"; counts: FileCount[] };

/** A page after the budget. */
export interface BudgetedPage {
  /** The entries, possibly in another shape (content shortened to counts). */
  entries: PageEntries;
  /** How it was shortened. */
  shortened: SearchSummary["shortened"];
  /** How many of the page's units (lines, or files) the entries still cover. */
  kept: number;
}

/** `text` cut to a window of {@linkcode LINE_WINDOW} characters from a little before `column`. */
function windowOf(text: string, column: number): string {
  if (text.length <= LINE_WINDOW) return text;
  const from = Math.max(0, Math.min(column - 1 - 40, text.length - LINE_WINDOW));
  return `${from > 0 ? "…" : ""}${text.slice(from, from + LINE_WINDOW)}${
    from + LINE_WINDOW < text.length ? "…" : ""
  }`;
}

/** A matched line shortened: its window, short submatch texts, no context. */
function truncatedLine(m: LineMatch): LineMatch {
  const { context_before: _b, context_after: _a, ...rest } = m;
  return {
    ...rest,
    text: windowOf(m.text, m.column),
    submatches: m.submatches.map((s) =>
      s.text.length > SUBMATCH_KEEP ? { ...s, text: `${s.text.slice(0, SUBMATCH_KEEP)}…` } : s
    ),
  };
}

/**
 * Entries per file, in page order (matched lines of a text search, matches of a structural one).
 *
 * @param matches The page's entries, a file's together.
 * @returns Each file with its count and version.
 */
export function countsOf(matches: readonly { path: string; version: string }[]): FileCount[] {
  const out: FileCount[] = [];
  for (const m of matches) {
    const last = out[out.length - 1];
    if (last?.path === m.path) last.count++;
    else out.push({ path: m.path, count: 1, version: m.version });
  }
  return out;
}

/**
 * The longest prefix of `items` whose JSON fits in `budget` characters (at least one item).
 *
 * @param items The entries, in page order.
 * @param budget Most characters of JSON.
 * @returns The prefix.
 */
export function prefixThatFits<T>(items: T[], budget: number): T[] {
  let used = 2;
  for (let i = 0; i < items.length; i++) {
    used += JSON.stringify(items[i]).length + 1;
    if (used > budget) return items.slice(0, Math.max(1, i));
  }
  return items;
}

/**
 * Whether the entries' JSON fits.
 *
 * @param items The entries.
 * @param budget Most characters of JSON.
 * @returns True when it fits.
 */
export function fits(items: unknown[], budget: number): boolean {
  // A page far under its budget (a caller asking for everything) is known to fit without writing it out.
  if (jsonLengthAtMost(items) <= budget) return true;
  // Else entry by entry, stopping past the budget: the page's whole JSON may be longer than a string can be
  // (10,000 matches each with its line of 2 MB).
  let used = 1 + Math.max(1, items.length); // the brackets and the commas
  for (const item of items) {
    used += JSON.stringify(item)?.length ?? 4; // an entry with no JSON is written null
    if (used > budget) return false;
  }
  return true;
}

/** The longest JSON of a finite number: `-1.2345678901234567e-308`. */
const NUMBER_CHARS = 24;

/**
 * A bound on the length of a value's JSON, found without writing it: each character of a string counts 6
 * (`\u001f`, the longest escape), each number {@linkcode NUMBER_CHARS}.
 *
 * @param value Plain data (what a search result holds).
 * @returns A length the JSON does not exceed.
 */
export function jsonLengthAtMost(value: unknown): number {
  switch (typeof value) {
    case "string":
      return 2 + 6 * value.length;
    case "number":
      return NUMBER_CHARS;
    case "object":
      if (value !== null) break;
      return 5;
    default:
      return 5; // true, false, null; undefined is left out
  }
  let n = 2;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) n += jsonLengthAtMost(value[i]) + 1;
    return n;
  }
  // Inherited keys are not written out: counting them too (plain data has none) keeps it a bound.
  const record = value as Record<string, unknown>;
  for (const key in record) n += 6 * key.length + 4 + jsonLengthAtMost(record[key]);
  return n;
}

/**
 * Fit a page into a character budget.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { fitBudget } from "./result_budget.ts";
 *
 * const m = { path: "a.ts", line: 1, column: 1, text: "x".repeat(5000), version: "v",
 *   submatches: [{ column: 1, end_line: 1, end_column: 2, text: "x", id: "a.ts:1:1@v" }] };
 * const page = fitBudget({ kind: "content", matches: [m, { ...m, line: 2 }] }, 1000);
 * assert.equal(page.shortened, "truncated_lines");
 * ```
 *
 * @param entries The page.
 * @param budget Most characters of JSON for the entries.
 * @returns The page as it fits, how it was shortened, and how many units it still covers.
 */
export function fitBudget(entries: PageEntries, budget: number): BudgetedPage {
  if (entries.kind === "files_with_matches") {
    const files = fits(entries.files, budget) ? entries.files : prefixThatFits(entries.files, budget);
    return { entries: { kind: entries.kind, files }, shortened: "none", kept: files.length };
  }
  if (entries.kind === "count") {
    const counts = fits(entries.counts, budget) ? entries.counts : prefixThatFits(entries.counts, budget);
    return { entries: { kind: entries.kind, counts }, shortened: "none", kept: counts.length };
  }
  const all = entries.matches;
  if (fits(all, budget)) return { entries, shortened: "none", kept: all.length };
  const short = all.map(truncatedLine);
  if (fits(short, budget)) {
    return { entries: { kind: "content", matches: short }, shortened: "truncated_lines", kept: all.length };
  }
  const counts = prefixThatFits(countsOf(all), budget);
  const kept = counts.reduce((n, c) => n + c.count, 0);
  return { entries: { kind: "count", counts }, shortened: "counts", kept };
}
