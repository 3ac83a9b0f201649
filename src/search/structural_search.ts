/**
 * The structural search engine (`search_structural`, ast-grep's `run -p` inside the sandbox): over the same
 * files a text search selects (`readScopedReads`: path, globs, types, ignore rules, size and binary checks),
 * each file of a searched language is matched with the pattern compiled for its language. Files are never
 * parsed for nothing: a file that lacks one of the texts every match must hold (the pattern's identifiers,
 * keywords and strings), or holds one of its identifiers only inside longer words, is skipped on its text;
 * the rest are parsed through the workspace's parse cache, so a second search reuses each file's tree by
 * version. A warm search (every file held: its bytes, text, version and tree) runs through a run of files
 * without an `await` per file: the scan waits only for reads, hashes and parses. The code-pattern engine
 * itself is the structural area's; it comes in as a {@linkcode StructuralMatcher}.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { astGrepMatches } from "./ast_grep_format.ts";
import { decodedTexts } from "./decoded_texts.ts";
import { type EnclosingSymbols, nameEnclosingSymbols } from "./enclosing_symbol.ts";
import { fits, prefixThatFits } from "./result_budget.ts";
import { readScopedReads, scanEnded, type ScanStats, textFile, versionOfFile } from "./search_text.ts";
import { finish, finishAstGrep, matchEntries } from "./structural_page.ts";
import { type RewriteFit, rewriteMisfits } from "./rewrite_fit.ts";
import { programs } from "./structural_programs.ts";
import { cursorFor } from "./text_args.ts";
import { mayMatch } from "./structural_candidate.ts";
import type {
  AstGrepMatch,
  FileCount,
  SearchFile,
  SearchFiles,
  SearchSkipped,
  StructuralHit,
  StructuralMatch,
  StructuralMatcher,
  StructuralProgram,
  StructuralQuery,
  StructuralSearchResult,
} from "./types.ts";
import { appendAll } from "../arrays.ts";

/** What a structural scan counts: a text scan's counts, the files parsed, the languages refused. */
export interface StructuralStats extends ScanStats {
  /** Files parsed (of a searched language, holding every literal of the pattern). */
  parsed: number;
  /** Languages with files in scope where the pattern does not parse: what the grammar said. */
  refused: Map<string, RecoverableError>;
  /** Languages with files in scope where the pattern parses (files of them may still hold none of its texts). */
  accepted: Set<string>;
  /** Of those, the languages whose grammar read the pattern only as one ERROR node: what it saw. */
  readAsError: Map<string, string>;
  /** Of those, each language's reading of a code pattern (`StructuralProgram.reading`). */
  readings: Map<string, string>;
  /** Files over the parse limit (counted in `skipped.too_large` too): `max_file_bytes` does not lift it. */
  overParseLimit: number;
  /** Files whose matches reached the program's `maxHitsPerFile` (each may hold more than it listed). */
  capped?: string[];
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
  /** Its bytes (what its text, line starts and version are remembered by). */
  bytes: Uint8Array;
  /** Set when its matches reached the program's `maxHitsPerFile`: it may hold more than those listed. */
  capped?: true;
}

/** Candidate files whose versions are hashed ahead while the ones before them are parsed and matched. */
const HASHES_AHEAD = 8;

/**
 * Most candidates handed on in one run: a warm tree's files all come in one run, and each candidate holds
 * its text until the scan reaches it.
 */
const CANDIDATES_PER_RUN = 256;

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
  bytes: Uint8Array;
  language: string;
  text: string;
  program: StructuralProgram;
  /** Its version: known (a warm file's), being hashed, or not asked for yet (the scan asks a few ahead). */
  version: string | Promise<string> | undefined;
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
  for (const [language, saw] of listing.readAsError) stats.readAsError.set(language, saw);
  for (const [language, reading] of listing.readings) stats.readings.set(language, reading);
}

/** A failure of the listing (a read, a pattern a language refuses outright), held until the scan reaches it. */
interface Failed {
  failed: unknown;
}

/** The language of a path among those searched, or null (the matcher remembers each path's answer). */
function languagesOf(matcher: StructuralMatcher, query: StructuralQuery): (path: string) => string | null {
  const wanted = query.languages.length > 0 ? new Set(query.languages) : null;
  return (path) => {
    const language = matcher.languageOf(path);
    return language !== null && wanted !== null && !wanted.has(language) ? null : language;
  };
}

/**
 * The files in scope that hold every literal of the pattern compiled for their language, in runs, each
 * with the listing's counts when it came out: the files a warm source holds come in a few runs, without an
 * `await` each. A failure is handed on in its place in the order: a scan that stops before it (a full page)
 * never meets it, as it would not have without reading ahead.
 */
async function* candidateRuns(
  files: SearchFiles,
  scan: { query: StructuralQuery; matcher: StructuralMatcher; listing: StructuralStats },
): AsyncGenerator<(Candidate | Failed)[]> {
  const { query, matcher, listing: stats } = scan;
  const languageOf = languagesOf(matcher, query);
  const programOf = programs(matcher, query, stats);
  const compiled = new Map<string, StructuralProgram | null>();
  const reading = { filters: { ...query, accept: (path: string) => languageOf(path) !== null }, stats };
  // The languages asked for compile the pattern once the listing waits (a warm one on its change feed's
  // barrier), rather than after it; one without files in scope fails nothing (its compile is never awaited).
  const early = query.languages.length === 0
    ? undefined
    : setTimeout(() => query.languages.forEach((l) => programOf(l).catch(() => {})), 0);
  let run: (Candidate | Failed)[] = [];
  try {
    for await (const reads of readScopedReads(files, reading)) {
      for (const read of reads) {
        const found = textFile(read, reading); // counted as the scan reaches it
        if (found === null) continue;
        const language = languageOf(found.file.path)!;
        let program = compiled.get(language);
        if (program === undefined) compiled.set(language, program = await programOf(language));
        if (program === null || !mayMatch(program, found.text)) continue;
        const version = decodedTexts.versionOf(found.bytes); // a warm file's is known; the others are hashed later
        run.push({ ...found, language, program, version, seen: seenOf(stats) });
        if (run.length < CANDIDATES_PER_RUN) continue;
        yield run;
        run = [];
      }
      if (run.length > 0) yield run;
      run = [];
    }
  } catch (err) {
    run.push({ failed: err });
    yield run;
  } finally {
    clearTimeout(early);
  }
}

/** The version of a candidate, asked for once: it replaces the promise when it is known. */
function versionOfCandidate(files: SearchFiles, c: Candidate): string | Promise<string> {
  if (c.version !== undefined) return c.version;
  const now = versionOfFile(files, c.file.path, c.bytes);
  if (typeof now === "string") return c.version = now;
  const version = now.then((v) => c.version = v);
  version.catch(() => {}); // awaited in order by the scan; a scan that stops early leaves it unread
  return c.version = version;
}

/** A candidate (or a failure of the listing) in the read-ahead, with its match when started early. */
interface Queued {
  c: Candidate | Failed;
  hits?: Promise<StructuralHit[]>;
}

/** A candidate's match started ahead of the scan (it awaits it in the source's order). */
function startMatch(files: SearchFiles, c: Candidate): Promise<StructuralHit[]> {
  const hits = Promise.resolve(versionOfCandidate(files, c))
    .then((version) => c.program.match({ path: c.file.path, text: c.text, version }));
  hits.catch(() => {}); // a scan that stops before it (a full page) leaves it unread
  return hits;
}

/** Null, counted as too large, for a file over the parse limit; any other failure is thrown. */
function overParseLimit(err: unknown, stats: StructuralStats): null {
  // The parse limit's refusal names the limit in bytes; a match past its steps (`MAX_MATCH_STEPS`) does not,
  // and fails the search, naming the file and line.
  if (
    err instanceof RecoverableError && err.code === "limit_exceeded" &&
    err.details?.["limit_bytes"] !== undefined
  ) {
    stats.skipped.too_large++;
    stats.overParseLimit++;
    return null;
  }
  throw err;
}

/**
 * One candidate's matches: at once when its program matches it without a parse (a held tree), else a
 * promise (the match started early, if it was); null when it is over the parse limit (counted as too large,
 * as a text search does).
 */
function hitsOf(
  c: Candidate,
  at: { version: string; stats: StructuralStats; started: Promise<StructuralHit[]> | undefined },
): StructuralHit[] | null | Promise<StructuralHit[] | null> {
  at.stats.parsed++;
  let hits: StructuralHit[] | Promise<StructuralHit[]>;
  try {
    hits = at.started ?? c.program.match({ path: c.file.path, text: c.text, version: at.version });
  } catch (err) {
    return overParseLimit(err, at.stats);
  }
  return hits instanceof Promise ? hits.catch((err) => overParseLimit(err, at.stats)) : hits;
}

/**
 * The one loop over a project's files that a structural search and a structural rewrite share, pulled one
 * file with matches at a time: {@linkcode StructuralScan.next} answers at once (no promise) when every step
 * to the next such file is synchronous — a warm tree's files, their versions known and their trees held —
 * and otherwise waits only for what it must (a run of reads, a hash, a parse). Candidates are read (and
 * hashed) ahead; a program that matches in a pool of workers has several of them in flight, and the scan
 * still takes their results in order and counts only the files it reached, so a scan that stops early (a
 * full page) counts and yields what a scan one file at a time would.
 */
class StructuralScan {
  readonly #files: SearchFiles;
  readonly #stats: StructuralStats;
  readonly #listing = structuralStats();
  readonly #source: AsyncGenerator<(Candidate | Failed)[]>;
  /** The read-ahead: the queue from `#head` on. */
  #ahead: Queued[] = [];
  #head = 0;
  /** How far ahead to read: the hashes' window, or a pool's files in flight. */
  #reach = HASHES_AHEAD;
  #done = false;
  #seen: Seen;
  #closed = false;

  /**
   * @param files Where the files come from.
   * @param scan The query, the matcher, and the counters to update (once the scan is closed).
   */
  constructor(
    files: SearchFiles,
    scan: { query: StructuralQuery; matcher: StructuralMatcher; stats: StructuralStats },
  ) {
    this.#files = files;
    this.#stats = scan.stats;
    this.#seen = seenOf(this.#listing);
    this.#source = candidateRuns(files, { query: scan.query, matcher: scan.matcher, listing: this.#listing });
  }

  /**
   * The next file with matches, or null at the end: at once when nothing on the way needs waiting for.
   *
   * @returns The file, null, or a promise of either.
   */
  next(): StructuralFile | null | Promise<StructuralFile | null> {
    for (;;) {
      const step = this.#step();
      if (step instanceof Promise) return step.then((found) => found === undefined ? this.next() : found);
      if (step !== undefined) return step;
    }
  }

  /**
   * Stop: close the listing (as a for-await loop would) and add what the scan reached to the counts.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.#source.return(undefined);
    } finally {
      addSeen(this.#stats, this.#seen, this.#listing);
    }
  }

  /**
   * One step: a file with matches, null at the end, undefined to go on (a candidate without matches), or a
   * promise of one of those when the step waits (for a run of candidates, a version or a match).
   */
  #step(): StructuralFile | null | undefined | Promise<StructuralFile | null | undefined> {
    if (!this.#done && this.#ahead.length - this.#head < this.#reach) return this.#pull();
    if (this.#head === this.#ahead.length) {
      this.#seen = seenOf(this.#listing); // the whole listing was taken
      return null;
    }
    this.#startEarly();
    const q = this.#ahead[this.#head]!;
    const c = q.c;
    if ("failed" in c) throw c.failed;
    const version = versionOfCandidate(this.#files, c);
    if (version instanceof Promise) return version.then(() => undefined);
    this.#head++;
    this.#seen = c.seen;
    const hits = hitsOf(c, { version, stats: this.#stats, started: q.hits });
    if (hits instanceof Promise) return hits.then((h) => this.#found(c, { version, hits: h }));
    return this.#found(c, { version, hits });
  }

  /** The candidate as a file with matches, counted; undefined when it has none. */
  #found(
    c: Candidate,
    matched: { version: string; hits: StructuralHit[] | null },
  ): StructuralFile | undefined {
    const { version, hits } = matched;
    if (hits === null || hits.length === 0) return undefined;
    this.#stats.matched++;
    const found: StructuralFile = {
      file: c.file,
      language: c.language,
      text: c.text,
      version,
      hits,
      bytes: c.bytes,
    };
    if (hits.length >= (c.program.maxHitsPerFile ?? Infinity)) {
      found.capped = true;
      (this.#stats.capped ??= []).push(c.file.path);
    }
    return found;
  }

  /** Read the next run of candidates into the queue (the queue's taken part dropped first). */
  async #pull(): Promise<undefined> {
    const next = await this.#source.next();
    if (next.done) {
      this.#done = true;
      return undefined;
    }
    if (this.#head > 0) {
      this.#ahead = this.#ahead.slice(this.#head);
      this.#head = 0;
    }
    for (const c of next.value) {
      this.#ahead.push({ c });
      if (!("failed" in c)) this.#reach = Math.max(this.#reach, c.program.inFlight ?? 0);
    }
    // The run's hashes and a pool's matches start now, while the listing reads on to fill the window: a pool
    // waiting for a full window would sit idle through the reads of a search with few candidates.
    this.#startEarly();
    return undefined;
  }

  /**
   * Within the window from the head of the queue: ask for the versions of the candidates (hashed off the
   * main thread in most runtimes, so they overlap the parse of the ones before), and start the matches of
   * those whose program runs several at once (`inFlight`, each within its own window); the others start
   * when the scan reaches them.
   */
  #startEarly(): void {
    const end = Math.min(this.#ahead.length, this.#head + this.#reach);
    for (let i = this.#head; i < end; i++) {
      const q = this.#ahead[i]!;
      if ("failed" in q.c) continue;
      if (q.hits === undefined && i - this.#head < (q.c.program.inFlight ?? 0)) {
        q.hits = startMatch(this.#files, q.c);
      } else versionOfCandidate(this.#files, q.c);
    }
  }
}

/**
 * The files in the query's scope with matches, in the source's order (see {@linkcode StructuralScan}): what
 * a structural rewrite takes one by one.
 *
 * @param files Where the files come from.
 * @param scan The query, the matcher, and the counters to update.
 * @returns Each file with matches, as it is found.
 */
export async function* scanStructural(
  files: SearchFiles,
  scan: { query: StructuralQuery; matcher: StructuralMatcher; stats: StructuralStats },
): AsyncGenerator<StructuralFile> {
  const scanning = new StructuralScan(files, scan);
  try {
    for (;;) {
      const next = scanning.next();
      const found = next instanceof Promise ? await next : next;
      if (found === null) return;
      yield found;
    }
  } finally {
    await scanning.close();
  }
}

/**
 * Hand each file with matches to `take`, in the source's order, until it answers false (the scan then
 * counts only the files up to that one); a warm run of files goes through without an `await` each, as long
 * as `take` answers at once too.
 */
async function eachStructuralFile(
  files: SearchFiles,
  scan: { query: StructuralQuery; matcher: StructuralMatcher; stats: StructuralStats },
  take: (found: StructuralFile) => boolean | Promise<boolean>,
): Promise<void> {
  const scanning = new StructuralScan(files, scan);
  try {
    for (;;) {
      const next = scanning.next();
      const found = next instanceof Promise ? await next : next;
      if (found === null) return;
      const more = take(found);
      if (!(more instanceof Promise ? await more : more)) return;
    }
  } finally {
    await scanning.close();
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
    readAsError: new Map(),
    readings: new Map(),
    overParseLimit: 0,
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

/** What a structural search needs besides the files: the pattern engine, and the enclosing-symbol lookup. */
export interface SearchStructuralOptions {
  /** The structural area's pattern engine (`patternMatcherOf`). */
  matcher: StructuralMatcher;
  /** Names the enclosing symbol of matches (`enclosing_symbol.ts`); without it, matches name none. */
  enclosing?: EnclosingSymbols;
  /** With a `rewrite`: which sites' new code would not fit (`rewrite_fit.ts`); without it, none is marked. */
  fit?: RewriteFit;
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
  await eachStructuralFile(files, { query, matcher: options.matcher, stats }, (found) => {
    const before = units;
    units += found.hits.length;
    const more = units <= want; // one past the page: there is more
    const from = Math.max(0, query.offset - before);
    const to = Math.min(found.hits.length, want - before);
    if (from >= to) return more;
    if (query.outputFormat === "ast-grep") {
      appendAll(asAstGrep, astGrepMatches({ ...found, path: found.file.path }, found.hits.slice(from, to)));
      return more;
    }
    const lines = decodedTexts.lineStartsOf(found.bytes, found.text);
    const take = (misfits?: ReadonlyMap<StructuralHit, string>) => {
      const entries = matchEntries({ ...found, path: found.file.path, lines }, {
        from,
        to,
        ...(query.context ? { context: query.context } : {}),
        ...(misfits ? { misfits } : {}),
      });
      appendAll(page, entries);
      if (options.enclosing === undefined) return more;
      return nameEnclosingSymbols(entries, found, options.enclosing).then(() => more);
    };
    if (query.rewrite === undefined || options.fit === undefined) return take();
    return rewriteMisfits({ ...found, path: found.file.path }, options.fit).then(take);
  });
  await scanEnded(files, stats.skipped);
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
  await eachStructuralFile(files, { query, matcher: options.matcher, stats }, (found) => {
    if (seen >= query.offset && seen < want) {
      page.push({ path: found.file.path, count: found.hits.length, version: found.version });
    }
    return ++seen <= want; // one past the page: there is more
  });
  await scanEnded(files, stats.skipped);
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
