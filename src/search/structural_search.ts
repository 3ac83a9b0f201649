/**
 * The structural search engine (`search_structural`, ast-grep's `run -p` inside the sandbox): over the same
 * files a text search selects (`readScopedFiles`: path, globs, types, ignore rules, size and binary checks),
 * each file of a searched language is matched with the pattern compiled for its language. Files are never
 * parsed for nothing: a file that lacks one of the texts every match must hold (the pattern's identifiers,
 * keywords and strings), or holds one of its identifiers only inside longer words, is skipped on its text;
 * the rest are parsed through the workspace's parse cache, so a second search reuses each file's tree by
 * version. The code-pattern engine itself is the structural
 * area's; it comes in as a {@linkcode StructuralMatcher}.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { astGrepMatches } from "./ast_grep_format.ts";
import { type EnclosingSymbols, nameEnclosingSymbols } from "./enclosing_symbol.ts";
import { positionAfter } from "./matched_lines.ts";
import { formatOccurrenceId } from "./occurrence_id.ts";
import { fits, prefixThatFits } from "./result_budget.ts";
import { addSourceSkipped, readScopedFiles, type ScanStats, versionOfFile } from "./search_text.ts";
import { cursorFor } from "./text_args.ts";
import type {
  AstGrepMatch,
  FileCount,
  SearchFile,
  SearchFiles,
  SearchSkipped,
  StructuralHit,
  StructuralMatch,
  StructuralMatcher,
  StructuralMetavariable,
  StructuralProgram,
  StructuralQuery,
  StructuralSearchResult,
  StructuralSummary,
} from "./types.ts";

/** Characters of a match's text (and of each metavariable's) kept when the page is shortened. */
const TEXT_KEEP = 200;

/** What a structural scan counts: a text scan's counts, the files parsed, the languages refused. */
export interface StructuralStats extends ScanStats {
  /** Files parsed (of a searched language, holding every literal of the pattern). */
  parsed: number;
  /** Languages with files in scope where the pattern does not parse: what the grammar said. */
  refused: Map<string, RecoverableError>;
  /** Languages with files in scope where the pattern parses (files of them may still hold none of its texts). */
  accepted: Set<string>;
}

/** One file with matches. */
export interface StructuralFile {
  /** The file as the source listed it. */
  file: SearchFile;
  /** Its language. */
  language: string;
  /** Its text (a BOM dropped). */
  text: string;
  /** Its version. */
  version: string;
  /** The matches, in document order. */
  hits: StructuralHit[];
}

/** The pattern compiled per language, on first need; a language where it does not parse is remembered. */
function programs(
  matcher: StructuralMatcher,
  query: StructuralQuery,
  languages: Pick<StructuralStats, "refused" | "accepted">,
): (language: string) => Promise<StructuralProgram | null> {
  const { refused, accepted } = languages;
  const compiled = new Map<string, Promise<StructuralProgram | null>>();
  const pattern: { pattern?: string; rule?: Record<string, unknown>; rewrite?: string } = query.rule
    ? { rule: query.rule }
    : { pattern: query.pattern };
  if (query.rewrite !== undefined) pattern.rewrite = query.rewrite;
  return (language) => {
    let p = compiled.get(language);
    if (p === undefined) {
      p = matcher.compile(language, pattern).then((program) => {
        accepted.add(language);
        return program;
      }, (err) => {
        // With the languages given, a pattern one of them cannot read is the caller's mistake: say so now; a
        // refusal that is not about the language (a bad rule key) is the caller's mistake in any language.
        if (
          !(err instanceof RecoverableError) || err.code !== "invalid_query" || query.languages.length > 0
        ) {
          throw err;
        }
        refused.set(language, err);
        return null;
      });
      compiled.set(language, p);
    }
    return p;
  };
}

/** Candidate files whose versions are hashed ahead while the ones before them are parsed and matched. */
const HASHES_AHEAD = 8;

/** What the listing had counted when a candidate came out of it: what a scan that stops there reports. */
interface Seen {
  scanned: number;
  skipped: SearchSkipped;
  /** How many languages had refused the pattern (the first entries of the listing's `refused`). */
  refused: number;
}

/** A file that holds every literal of its language's program: what matching it needs. */
interface Candidate {
  file: SearchFile;
  language: string;
  text: string;
  program: StructuralProgram;
  version: Promise<string>;
  seen: Seen;
}

/** The counts of a listing now. */
function seenOf(listing: StructuralStats): Seen {
  return { scanned: listing.scanned, skipped: { ...listing.skipped }, refused: listing.refused.size };
}

/**
 * Add what the listing had counted up to the last file the scan took to its counts: the files it read ahead
 * for hashing, and the languages it compiled for them, are not the scan's when it stopped before them.
 */
function addSeen(stats: StructuralStats, seen: Seen, listing: StructuralStats): void {
  stats.scanned += seen.scanned;
  for (const key of Object.keys(seen.skipped) as (keyof SearchSkipped)[]) {
    stats.skipped[key] += seen.skipped[key];
  }
  for (const [language, err] of [...listing.refused].slice(0, seen.refused)) stats.refused.set(language, err);
  // Whether the pattern is one some language reads does not depend on where the scan stopped.
  for (const language of listing.accepted) stats.accepted.add(language);
}

/** Whether `c` (a UTF-16 unit) is an ASCII letter, digit or `_`. */
function isWordUnit(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** Whether `word` occurs in `text` with no word character (`isWordUnit`) next to an end that is one. */
function hasWholeWord(text: string, word: string): boolean {
  const checkBefore = isWordUnit(word.charCodeAt(0));
  const checkAfter = isWordUnit(word.charCodeAt(word.length - 1));
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
    if (checkBefore && at > 0 && isWordUnit(text.charCodeAt(at - 1))) continue;
    const end = at + word.length;
    if (checkAfter && end < text.length && isWordUnit(text.charCodeAt(end))) continue;
    return true;
  }
  return false;
}

/**
 * Whether a file's text may hold a match: it has every literal, every identifier as a whole word, and the
 * program's token runs.
 */
function mayMatch(program: StructuralProgram, text: string): boolean {
  return program.literals.every((l) => text.includes(l)) &&
    (program.words ?? []).every((w) => hasWholeWord(text, w)) && (program.mayHold?.(text) ?? true);
}

/**
 * The files in scope that hold every literal of the pattern compiled for their language, each with its
 * version's hash started at once: hashing runs off the main thread in most runtimes, so the hashes of the
 * next files overlap the parse of this one.
 */
async function* listCandidates(
  files: SearchFiles,
  scan: { query: StructuralQuery; matcher: StructuralMatcher; listing: StructuralStats },
): AsyncGenerator<Candidate> {
  const { query, matcher, listing: stats } = scan;
  const wanted = query.languages.length > 0 ? new Set(query.languages) : null;
  // Asked twice per file (the scope's filter, then the file's program): once of the grammar registry.
  const known = new Map<string, string | null>();
  const languageOf = (path: string) => {
    let language = known.get(path);
    if (language === undefined) {
      language = matcher.languageOf(path);
      if (language !== null && wanted !== null && !wanted.has(language)) language = null;
      known.set(path, language);
    }
    return language;
  };
  const programOf = programs(matcher, query, stats);
  const filters = { ...query, accept: (path: string) => languageOf(path) !== null };
  for await (const { file, bytes, text } of readScopedFiles(files, { filters, stats })) {
    const language = languageOf(file.path)!;
    const program = await programOf(language);
    if (program === null || !mayMatch(program, text)) continue;
    const version = versionOfFile(files, file.path, bytes);
    version.catch(() => {}); // awaited in order below; a consumer that stops early leaves it unread
    yield { file, language, text, program, version, seen: seenOf(stats) };
  }
}

/** A failure of the listing (a read, a pattern a language refuses outright), held until the scan reaches it. */
interface Failed {
  failed: unknown;
}

/**
 * {@linkcode listCandidates}, with a failure handed on in its place in the order: a scan that stops before
 * it (a full page) never meets it, as it would not have without reading ahead.
 */
async function* candidates(
  files: SearchFiles,
  scan: { query: StructuralQuery; matcher: StructuralMatcher; listing: StructuralStats },
): AsyncGenerator<Candidate | Failed> {
  try {
    yield* listCandidates(files, scan);
  } catch (err) {
    yield { failed: err };
  }
}

/** A candidate (or a failure of the listing) in the read-ahead, with its match when started early. */
interface Queued {
  c: Candidate | Failed;
  hits?: Promise<StructuralHit[]>;
}

/** Start a candidate's match once its version is known; the scan awaits it in the source's order. */
function startMatch(c: Candidate): Promise<StructuralHit[]> {
  const hits = c.version.then((version) => c.program.match({ path: c.file.path, text: c.text, version }));
  hits.catch(() => {}); // a scan that stops before it (a full page) leaves it unread
  return hits;
}

/**
 * Start the matches of the queued candidates whose program runs several at once (`inFlight`), each within
 * its program's window from the head of the queue; the others start when the scan reaches them.
 */
function startEarly(ahead: Queued[]): void {
  ahead.forEach((q, i) => {
    if (q.hits === undefined && !("failed" in q.c) && i < (q.c.program.inFlight ?? 0)) {
      q.hits = startMatch(q.c);
    }
  });
}

/**
 * The files in the query's scope with matches, in the source's order: the one loop over a project's files
 * that a structural search and a structural rewrite share. Candidates are read (and hashed) ahead; a program
 * that matches in a pool of workers has several of them in flight, and the scan still takes their results in
 * order and counts only the files it reached, so a scan that stops early (a full page) counts and yields
 * what a scan one file at a time would.
 *
 * @param files Where the files come from.
 * @param scan The query, the matcher, and the counters to update.
 * @returns Each file with matches, as it is found.
 */
export async function* scanStructural(
  files: SearchFiles,
  scan: { query: StructuralQuery; matcher: StructuralMatcher; stats: StructuralStats },
): AsyncGenerator<StructuralFile> {
  const { stats } = scan;
  const ahead: Queued[] = [];
  let reach = HASHES_AHEAD;
  const listing = structuralStats();
  let seen = seenOf(listing);
  const source = candidates(files, { ...scan, listing });
  try {
    for (let done = false; !done || ahead.length > 0;) {
      while (!done && ahead.length < reach) {
        const next = await source.next();
        if (next.done) done = true;
        else ahead.push({ c: next.value });
        if (!next.done && !("failed" in next.value)) {
          reach = Math.max(reach, next.value.program.inFlight ?? 0);
        }
      }
      startEarly(ahead);
      const q = ahead.shift();
      if (q === undefined) continue;
      const c = q.c;
      if ("failed" in c) throw c.failed;
      seen = c.seen;
      const version = await c.version;
      const hits = await hitsOf(c, { version, stats, started: q.hits });
      if (hits === null || hits.length === 0) continue;
      stats.matched++;
      yield { file: c.file, language: c.language, text: c.text, version, hits };
    }
    seen = seenOf(listing);
  } finally {
    // A consumer that stops early (a full page) closes the listing, as a for-await loop would.
    await source.return(undefined);
    addSeen(stats, seen, listing);
  }
}

/**
 * One candidate's matches (awaiting the match started early, if it was); null when it is over the parse limit
 * (counted as too large, as a text search does).
 */
async function hitsOf(
  c: Candidate,
  at: { version: string; stats: StructuralStats; started: Promise<StructuralHit[]> | undefined },
): Promise<StructuralHit[] | null> {
  at.stats.parsed++;
  try {
    return await (at.started ?? c.program.match({ path: c.file.path, text: c.text, version: at.version }));
  } catch (err) {
    if (err instanceof RecoverableError && err.code === "limit_exceeded") {
      at.stats.skipped.too_large++;
      return null;
    }
    throw err;
  }
}

/** Fresh counters. */
export function structuralStats(): StructuralStats {
  return {
    scanned: 0,
    matched: 0,
    parsed: 0,
    skipped: { ignored: 0, binary: 0, too_large: 0, unreadable: 0 },
    refused: new Map(),
    accepted: new Set(),
  };
}

/**
 * Refuse a search no language could read the pattern in: every language with files in scope refused it (a
 * language that reads it, even where no file holds the pattern's texts, makes it a search that found nothing).
 *
 * @param stats The scan's counts.
 * @throws RecoverableError the first language's `invalid_query`, naming every language tried.
 */
export function refuseUnreadPattern(stats: StructuralStats): void {
  if (stats.parsed > 0 || stats.accepted.size > 0 || stats.refused.size === 0) return;
  const [first] = stats.refused.values();
  const tried = [...stats.refused.keys()];
  throw new RecoverableError(first!.code, `${first!.message} (tried ${tried.join(", ")})`, {
    hint: `${first!.hint ?? ""}; or pass "language" to say which grammar should read it`,
    details: {
      ...(first!.details ?? {}),
      languages_tried: Object.fromEntries([...stats.refused].map(([l, e]) => [l, e.message])),
    },
  });
}

/** The match entries of one file's hits in [from, to). */
function matchEntries(found: StructuralFile, range: { from: number; to: number }): StructuralMatch[] {
  const { text, version } = found;
  const path = found.file.path;
  const out: StructuralMatch[] = [];
  let at = { line: 1, start: 0 };
  for (const hit of found.hits.slice(range.from, range.to)) {
    const start = positionAfter(text, at, hit.start);
    at = { line: start.line, start: hit.start - start.column + 1 };
    const end = positionAfter(text, at, hit.end);
    const metavariables: Record<string, StructuralMetavariable> = {};
    for (const [name, b] of Object.entries(hit.metavariables)) {
      if (b.start < 0) {
        metavariables[name] = { text: b.text };
        continue;
      }
      const from = b.start >= hit.start ? at : { line: 1, start: 0 };
      const s = positionAfter(text, from, b.start);
      const e = positionAfter(text, from, b.end);
      metavariables[name] = {
        text: b.text,
        line: s.line,
        column: s.column,
        end_line: e.line,
        end_column: e.column,
      };
    }
    out.push({
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
      ...(hit.replacement !== undefined ? { replacement: hit.replacement } : {}),
    });
  }
  return out;
}

/** What a structural search needs besides the files: the pattern engine, and the enclosing-symbol lookup. */
export interface SearchStructuralOptions {
  /** The structural area's pattern engine (`patternMatcherOf`). */
  matcher: StructuralMatcher;
  /** Names the enclosing symbol of matches (`enclosing_symbol.ts`); without it, matches name none. */
  enclosing?: EnclosingSymbols;
}

/**
 * Search the files for a code pattern.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryBackend, createWorkspace } from "../mod.ts";
 * import { createWasmLoader } from "../adapters/deno/mod.ts";
 * import { patternMatcherOf } from "../structural/search/mod.ts";
 * import { normalizeStructuralArgs } from "./structural_args.ts";
 * import { searchStructural } from "./structural_search.ts";
 *
 * const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
 * const texts: Record<string, string> = { "a.ts": "log(1);\nlog(a, b);\n", "b.ts": "x();\n" };
 * const files = {
 *   async *files() { for (const path of Object.keys(texts)) yield { path }; },
 *   read: async (path: string) => new TextEncoder().encode(texts[path]),
 * };
 * const query = normalizeStructuralArgs({ pattern: "log($$$A)" });
 * const result = await searchStructural(files, query, { matcher: patternMatcherOf(ws) });
 * assert.deepEqual(result.matches!.map((m) => [m.path, m.line, m.metavariables["A"]!.text]), [["a.ts", 1, "1"], ["a.ts", 2, "a, b"]]);
 * assert.equal(result.summary.files_parsed, 1); // b.ts has no "log": not parsed
 * ```
 *
 * @param files Where the files come from.
 * @param query The normalized query (`normalizeStructuralArgs`).
 * @param options The pattern engine and the enclosing-symbol lookup.
 * @returns The page of matches and a summary.
 * @throws RecoverableError `invalid_query` when the pattern parses in none of the languages searched.
 */
export async function searchStructural(
  files: SearchFiles,
  query: StructuralQuery,
  options: SearchStructuralOptions,
): Promise<StructuralSearchResult> {
  const started = performance.now();
  if (query.outputMode !== undefined) return await searchFilesWithMatches(files, query, options);
  const stats = structuralStats();
  const page: StructuralMatch[] = [];
  const asAstGrep: AstGrepMatch[] = [];
  const want = query.offset + query.maxResults;
  let units = 0;
  for await (const found of scanStructural(files, { query, matcher: options.matcher, stats })) {
    const before = units;
    units += found.hits.length;
    const from = Math.max(0, query.offset - before);
    const to = Math.min(found.hits.length, want - before);
    if (from < to && query.outputFormat === "ast-grep") {
      asAstGrep.push(...astGrepMatches({ ...found, path: found.file.path }, found.hits.slice(from, to)));
    } else if (from < to) {
      const entries = matchEntries(found, { from, to });
      await nameEnclosingSymbols(entries, found, options.enclosing);
      page.push(...entries);
    }
    if (units > want) break; // one past the page: there is more
  }
  addSourceSkipped(files, stats.skipped);
  refuseUnreadPattern(stats);
  if (query.outputFormat === "ast-grep") {
    return finishAstGrep({ query, page: asAstGrep, truncated: units > want, started, stats });
  }
  return finish({ query, page, truncated: units > want, started, stats });
}

/**
 * {@linkcode searchStructural} with `output_mode` `count` or `files_with_matches`: a page of files (each with
 * its version, and its count of matches), as many as fit the budget; no match is built.
 */
async function searchFilesWithMatches(
  files: SearchFiles,
  query: StructuralQuery,
  options: SearchStructuralOptions,
): Promise<StructuralSearchResult> {
  const started = performance.now();
  const stats = structuralStats();
  const page: FileCount[] = [];
  const want = query.offset + query.maxResults;
  let seen = 0;
  for await (const found of scanStructural(files, { query, matcher: options.matcher, stats })) {
    if (seen >= query.offset && seen < want) {
      page.push({ path: found.file.path, count: found.hits.length, version: found.version });
    }
    if (++seen > want) break; // one past the page: there is more
  }
  addSourceSkipped(files, stats.skipped);
  refuseUnreadPattern(stats);
  const kept = fits(page, query.maxChars) ? page : prefixThatFits(page, query.maxChars);
  const truncated = seen > want || kept.length < page.length;
  const { summary } = finish({ query, page: [], truncated, started, stats });
  const result: StructuralSearchResult = { summary };
  if (query.outputMode === "count") result.counts = kept;
  else result.files = kept.map(({ path, version }) => ({ path, version }));
  if (truncated) result.next_cursor = cursorFor(query, query.offset + kept.length);
  return result;
}

/** The result in ast-grep's shape: as many matches as fit the budget (never shortened), the cursor, the summary. */
function finishAstGrep(state: {
  query: StructuralQuery;
  page: AstGrepMatch[];
  truncated: boolean;
  started: number;
  stats: StructuralStats;
}): StructuralSearchResult {
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
  return { ...m, text: cut(m.text), metavariables };
}

/** Matches per file, in page order. */
function countsOf(matches: StructuralMatch[]): FileCount[] {
  const out: FileCount[] = [];
  for (const m of matches) {
    const last = out[out.length - 1];
    if (last?.path === m.path) last.count++;
    else out.push({ path: m.path, count: 1, version: m.version });
  }
  return out;
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

/** The result: the page fitted to the budget, the cursor of the next page, the summary. */
function finish(state: {
  query: StructuralQuery;
  page: StructuralMatch[];
  truncated: boolean;
  started: number;
  stats: StructuralStats;
}): StructuralSearchResult {
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
  if (stats.refused.size > 0) {
    summary.languages_refused = Object.fromEntries([...stats.refused].map(([l, e]) => [l, e.message]));
  }
  const result: StructuralSearchResult = { summary };
  if (fit.matches) result.matches = fit.matches;
  if (fit.counts) result.counts = fit.counts;
  if (truncated) result.next_cursor = cursorFor(query, query.offset + fit.kept);
  return result;
}
