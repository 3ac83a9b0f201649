/**
 * The text search engine (`search_text`): a linear-time, ripgrep-compatible search of a project's files
 * through the narrow {@linkcode SearchFiles} interface. Files are read a few at a time in the source's order;
 * a file with a NUL byte is counted as binary and never decoded; the pattern's literal
 * prefilter and the linear-time program find the matches (`text_scan.ts`); only files that contribute to the
 * returned page are hashed for their version. The search stops as soon as it has found one entry past the
 * page, which is how `truncated` is decided.
 *
 * @module
 */
import { type EnclosingSymbols, nameEnclosingSymbols } from "./enclosing_symbol.ts";
import { versionOf, versionOfNow } from "../fs/version.ts";
import { cursorFor } from "./text_args.ts";
import { decodedTexts } from "./decoded_texts.ts";
import { formatOccurrenceId } from "./occurrence_id.ts";
import {
  linesAfter,
  linesBefore,
  type LineStarts,
  lineText,
  type MatchedLine,
  matchedLines,
  positionAfter,
} from "./matched_lines.ts";
import { pathFilter } from "./path_filter.ts";
import { fitBudget, type PageEntries } from "./result_budget.ts";
import { compileTextPattern, type TextPattern } from "./text_pattern.ts";
import { type ScanEach, scanText, scanTextFor } from "./text_scan.ts";
import type {
  FileCount,
  FileMatch,
  LineMatch,
  SearchFile,
  SearchFiles,
  SearchSkipped,
  SearchTextQuery,
  SearchTextResult,
  Submatch,
} from "./types.ts";
import { appendAll } from "../arrays.ts";

/** Files read at once, so that the file system's latency overlaps the search. */
const READS_IN_FLIGHT = 16;

/**
 * Most texts handed on in one run: a warm search's files all come in one run, and decoding the whole run
 * before scanning any of it would keep every text the budget does not hold alive at once (100,000 files:
 * 218 MiB of strings) instead of a few hundred.
 */
const TEXTS_PER_RUN = 256;

/**
 * The version of a file's bytes: the one remembered for the array ({@linkcode decodedTexts}), the source's,
 * or a fresh hash — at once (no promise) when one of those is at hand: remembered, known to the source without
 * a wait, or hashed by a synchronous digest an adapter lent (`versionOfNow`). Bytes are never mutated in place
 * (a change is a new array), so an array's version cannot go stale.
 *
 * @param files The source (it may know the version already).
 * @param path The file.
 * @param bytes Its bytes.
 * @returns The version (SHA-256, hex), or a promise of it.
 */
export function versionOfFile(files: SearchFiles, path: string, bytes: Uint8Array): string | Promise<string> {
  const known = decodedTexts.versionOf(bytes) ?? files.version?.(path, bytes);
  if (typeof known === "string") return known;
  if (known === undefined) {
    const now = versionOfNow(bytes);
    if (now !== undefined) return remembered(bytes, now);
  }
  return Promise.resolve(known).then(async (v) => v ?? remembered(bytes, await versionOf(bytes)));
}

/** A version just hashed, remembered for its bytes' array. */
function remembered(bytes: Uint8Array, version: string): string {
  decodedTexts.rememberVersion(bytes, version);
  return version;
}

/**
 * A file's text (UTF-8, a BOM dropped, invalid bytes replaced), or null when it looks binary: held by the
 * array's identity within a budget ({@linkcode decodedTexts}), so a warm session whose source holds the bytes
 * (a stage, a read cache) does not look for a NUL byte in them or decode them on every search.
 */
function textOf(bytes: Uint8Array): string | null {
  return decodedTexts.textOf(bytes);
}

/** The line starts of a file's text, held with its text: the next search of it does not count them again. */
function lineStartsOf(bytes: Uint8Array, text: string): LineStarts {
  return decodedTexts.lineStartsOf(bytes, text);
}

/** A file read ahead: its bytes, or null when it could not be read. */
export type ReadFile = { file: SearchFile; bytes: Uint8Array | null };

/** A file being read: done (the source held it), or a read in flight. */
type Reading = ReadFile | Promise<ReadFile>;

/**
 * The files in order, in runs: a file the source holds ({@linkcode SearchFiles.readHeld}) joins the run at
 * once, without a promise; one it must read is read ahead (up to {@linkcode READS_IN_FLIGHT} at once) and
 * ends the run before it. A warm session so takes its whole tree in a few runs instead of an `await` per file.
 */
async function* readInRuns(
  files: SearchFiles,
  listed: AsyncIterable<SearchFile[]>,
): AsyncGenerator<ReadFile[]> {
  if (files.readMany) {
    yield* readInBatches(files, listed);
    return;
  }
  const queue: Reading[] = [];
  let run: ReadFile[] = [];
  for await (const group of listed) {
    for (const file of group) {
      const held = files.readHeld?.(file.path);
      queue.push(
        held !== undefined
          ? { file, bytes: held }
          : files.read(file.path).then((bytes) => ({ file, bytes }), () => ({ file, bytes: null })),
      );
      while (queue.length > 0 && !(queue[0] instanceof Promise)) run.push(queue.shift() as ReadFile);
      if (queue.length < READS_IN_FLIGHT) continue;
      if (run.length > 0) yield run;
      run = [await queue.shift()!];
    }
  }
  for (const reading of queue) {
    if (!(reading instanceof Promise)) {
      run.push(reading);
      continue;
    }
    if (run.length > 0) yield run;
    run = [await reading];
  }
  if (run.length > 0) yield run;
}

/**
 * Files in the first batch of a source that reads many at once; each next batch is twice as large, up to
 * {@linkcode READ_BATCH_MOST}.
 */
const READ_BATCH_FIRST = 32;

/**
 * Files in a batch at most: a search that stops early (a full page) has read at most twice this many past it
 * (the batch it stopped in and the one read ahead).
 */
const READ_BATCH_MOST = 256;

/**
 * {@linkcode readInRuns} for a source that reads many files in one call ({@linkcode SearchFiles.readMany}: the
 * disk reads those on local file systems synchronously): the files in order, in batches, each one run — the
 * files the source holds taken as they are, the others read in one call. The next batch is asked for before
 * this one is handed on, so that reads that wait (a network mount's) overlap the search of the files before
 * them, as the one-at-a-time reads do; batches start small and double, so that a search that stops early has
 * not read far past where it stopped.
 */
async function* readInBatches(
  files: SearchFiles,
  listed: AsyncIterable<SearchFile[]>,
): AsyncGenerator<ReadFile[]> {
  let size = READ_BATCH_FIRST;
  let ahead: ReadFile[] | Promise<ReadFile[]> | null = null;
  for await (const group of listed) {
    for (let at = 0; at < group.length; at += size, size = Math.min(2 * size, READ_BATCH_MOST)) {
      const next = readBatch(files, group.slice(at, at + size));
      if (ahead !== null) yield ahead instanceof Promise ? await ahead : ahead;
      ahead = next;
    }
  }
  if (ahead !== null) yield ahead instanceof Promise ? await ahead : ahead;
}

/**
 * One batch of files read: those the source holds at once (no promise when it holds them all), the rest in one
 * call.
 */
function readBatch(files: SearchFiles, batch: SearchFile[]): ReadFile[] | Promise<ReadFile[]> {
  const read: ReadFile[] = [];
  const unread: number[] = [];
  for (const file of batch) {
    const held = files.readHeld?.(file.path);
    if (held === undefined) unread.push(read.length);
    read.push({ file, bytes: held ?? null });
  }
  if (unread.length === 0) return read;
  return files.readMany!(unread.map((i) => read[i]!.file.path)).then(
    (got) => {
      unread.forEach((i, k) => read[i]!.bytes = got[k] ?? null);
      return read;
    },
    () => read, // the batch could not be read: each of its files counts as unreadable
  );
}

/**
 * The files the filters keep and the size limit allows, in groups (the source's whole list at once where it
 * has one); the others counted in `skipped`.
 */
async function* inScope(
  query: FileFilters,
  files: SearchFiles,
  skipped: SearchSkipped,
): AsyncGenerator<SearchFile[]> {
  const byPath = pathFilter(query);
  const accept = query.accept;
  const keep = accept === undefined ? byPath : (path: string) => byPath(path) && accept(path);
  const kept = (file: SearchFile): boolean => {
    if (!keep(file.path)) skipped.ignored++;
    else if (file.size !== undefined && file.size > query.maxFileBytes) skipped.too_large++;
    else return true;
    return false;
  };
  if (files.listRuns) {
    for await (const run of files.listRuns(query.scope)) yield run.filter(kept);
    return;
  }
  if (files.list) {
    yield (await files.list(query.scope)).filter(kept);
    return;
  }
  for await (const file of files.files(query.scope)) if (kept(file)) yield [file];
}

/**
 * Matches listed on one line at most (`LineMatch.submatches`); the rest are counted (`submatches_omitted`).
 * `graver grep x` over a 15 MB file of 150 lines of 100,000 `x`s built 15 million of them and ran out of
 * memory (4 GB, after 100 s; rg prints it in 0.1 s).
 */
export const MAX_SUBMATCHES_PER_LINE = 100;

/** The content entries of one file's matched lines. */
function lineEntries(
  path: string,
  file: { text: string; version: string; lines: MatchedLine[] },
  query: SearchTextQuery,
): LineMatch[] {
  const { text, version } = file;
  return file.lines.map((l) => {
    const submatches: Submatch[] = [];
    const listed = Math.min(l.spans.length, 2 * MAX_SUBMATCHES_PER_LINE);
    for (let k = 0; k < listed; k += 2) {
      const s = l.spans[k]!;
      const e = l.spans[k + 1]!;
      const column = s - l.start + 1;
      const end = positionAfter(text, { line: l.line, start: l.start }, e);
      const id = formatOccurrenceId({ path, line: l.line, column, version });
      submatches.push({ column, end_line: end.line, end_column: end.column, text: text.slice(s, e), id });
    }
    const entry: LineMatch = {
      path,
      line: l.line,
      column: submatches[0]!.column,
      text: lineText(text, l.start, l.end),
      submatches,
      version,
    };
    if (listed < l.spans.length) entry.submatches_omitted = (l.spans.length - listed) / 2;
    if (query.contextBefore > 0) {
      entry.context_before = linesBefore(text, { start: l.start, count: query.contextBefore });
    }
    if (query.contextAfter > 0) {
      entry.context_after = linesAfter(text, { end: l.end, count: query.contextAfter });
    }
    return entry;
  });
}

/** One file with matches: its bytes, its text and the matches' offsets (`scanText`). */
export interface ScannedFile {
  /** The file as the source listed it. */
  file: SearchFile;
  /** Its bytes. */
  bytes: Uint8Array;
  /** Its text (UTF-8, a BOM dropped). */
  text: string;
  /** Start and end offsets of each match, flat. */
  hits: number[];
}

/** What a scan counts as it goes. */
export interface ScanStats {
  /** Files read and looked at. */
  scanned: number;
  /** Files with at least one match. */
  matched: number;
  /** Files left out, by cause. */
  skipped: SearchSkipped;
}

/** The filters that decide which files a scan reads: the search's scope, globs, types and size limit. */
export type FileFilters = Pick<SearchTextQuery, "scope" | "globs" | "types" | "maxFileBytes"> & {
  /** A further test of paths (e.g. "has a grammar"); a file it refuses is counted as ignored, never read. */
  accept?: (path: string) => boolean;
};

/** A file a scan read: in scope, readable, within the size limit and not binary. */
export interface ReadTextFile {
  /** The file as the source listed it. */
  file: SearchFile;
  /** Its bytes. */
  bytes: Uint8Array;
  /** Its text (UTF-8, a BOM dropped). */
  text: string;
}

/**
 * A file read, as the scan takes it: counted, and its text when it is within the size limit and not binary.
 * A scan calls it as it reaches each file of a run ({@linkcode readScopedReads}), so that a scan that stops
 * early has counted the files before the stop and none after.
 *
 * @param read The file and its bytes (null: unreadable).
 * @param scan The filters (the size limit) and the counters to update.
 * @returns The file with its text, or null when it is skipped.
 */
export function textFile(
  read: ReadFile,
  scan: { filters: FileFilters; stats: ScanStats },
): ReadTextFile | null {
  const { file, bytes } = read;
  const { skipped } = scan.stats;
  if (bytes === null) {
    skipped.unreadable++;
    return null;
  }
  if (bytes.length > scan.filters.maxFileBytes) {
    skipped.too_large++;
    return null;
  }
  scan.stats.scanned++;
  const text = textOf(bytes);
  if (text === null) skipped.binary++;
  return text === null ? null : { file, bytes, text };
}

/**
 * The files in a query's scope as read, in the source's order and in runs, not yet counted nor decoded: the
 * files a warm source holds come as one run, without an `await` each, and the scan takes each with
 * {@linkcode textFile} as it reaches it (files the filters or the listing's sizes leave out are counted in
 * `stats.skipped` as they are listed).
 *
 * @param files Where the files come from.
 * @param scan The filters and the counters to update.
 * @returns Runs of files with their bytes, as they are read.
 */
export async function* readScopedReads(
  files: SearchFiles,
  scan: { filters: FileFilters; stats: ScanStats },
): AsyncGenerator<ReadFile[]> {
  decodedTexts.newScan(); // what this scan decodes is not pushed out by what it decodes later
  yield* readInRuns(files, inScope(scan.filters, files, scan.stats.skipped));
}

/**
 * The text files in a query's scope, in the source's order and in runs: filtered by path, size and binary
 * content (each counted in `stats`, and every file read counted as scanned), read a few at a time ahead; the
 * files a warm source holds come as one run, without an `await` each, handed on a few hundred at a time.
 *
 * @param files Where the files come from.
 * @param scan The filters and the counters to update.
 * @returns Runs of readable text files, as they are read.
 */
export async function* readScopedRuns(
  files: SearchFiles,
  scan: { filters: FileFilters; stats: ScanStats },
): AsyncGenerator<ReadTextFile[]> {
  for await (const run of readScopedReads(files, scan)) {
    let texts: ReadTextFile[] = [];
    for (const read of run) {
      const text = textFile(read, scan);
      if (text === null) continue;
      texts.push(text);
      if (texts.length < TEXTS_PER_RUN) continue;
      yield texts;
      texts = [];
    }
    if (texts.length > 0) yield texts;
  }
}

/**
 * The files in the query's scope that hold a match, in the source's order (`readScopedRuns`): a file without
 * one costs no `await` when the source holds it.
 *
 * @param files Where the files come from.
 * @param scan The query, its compiled pattern, and the counters to update.
 * @returns Each file with matches, as it is found.
 */
export async function* scanFiles(
  files: SearchFiles,
  scan: { query: SearchTextQuery; pattern: TextPattern; stats: ScanStats; each?: ScanEach },
): AsyncGenerator<ScannedFile> {
  const { query, pattern, stats, each = "match" } = scan;
  for await (const run of readScopedRuns(files, { filters: query, stats })) {
    for (const { file, bytes, text } of run) {
      const hits = each === "match" ? scanText(pattern, text) : scanTextFor(pattern, text, each);
      if (hits.length === 0) continue;
      stats.matched++;
      yield { file, bytes, text, hits };
    }
  }
}

/**
 * A scan of `files` is over: add what the source's own listing left out (ignored, unreadable) to the counts,
 * and tell the source ({@linkcode SearchFiles.finished}).
 */
export async function scanEnded(files: SearchFiles, skipped: SearchSkipped): Promise<void> {
  await files.finished?.(); // a listing still going on (a scan that stopped early) ends first
  const left = files.skipped?.();
  skipped.ignored += left?.ignored ?? 0;
  skipped.unreadable += left?.unreadable ?? 0;
}

/** What one page collects, by output mode. */
interface Page {
  matches: LineMatch[];
  files: FileMatch[];
  counts: FileCount[];
}

/** What a search may add to its matches beyond the text. */
export interface SearchTextOptions {
  /** Names the enclosing symbol of matched lines (`enclosing_symbol.ts`); without it, matches name none. */
  enclosing?: EnclosingSymbols;
}

/** Add a matched file's entries that fall in the page [offset, offset + maxResults); returns the units it has. */
async function collect(
  page: Page,
  found: { path: string; bytes: Uint8Array; text: string; hits: number[]; before: number },
  context: { query: SearchTextQuery; files: SearchFiles; options: SearchTextOptions },
): Promise<number> {
  const { query } = context;
  // Matched lines are listed for a page of content only; a count needs the first match of each line alone.
  const lines = query.outputMode === "content"
    ? matchedLines(found.text, found.hits, { lines: lineStartsOf(found.bytes, found.text) })
    : null;
  const units = lines?.length ?? 1;
  const from = Math.max(0, query.offset - found.before);
  const to = Math.min(units, query.offset + query.maxResults - found.before);
  if (from >= to) return units;
  const version = await versionOfFile(context.files, found.path, found.bytes);
  if (query.outputMode === "files_with_matches") page.files.push({ path: found.path, version });
  else if (query.outputMode === "count") {
    page.counts.push({ path: found.path, count: found.hits.length / 2, version }); // one match a line
  } else {
    const entries = lineEntries(
      found.path,
      { text: found.text, version, lines: lines!.slice(from, to) },
      query,
    );
    const enclosing = query.symbols === false ? undefined : context.options.enclosing;
    await nameEnclosingSymbols(entries, { text: found.text, version }, enclosing);
    appendAll(page.matches, entries);
  }
  return units;
}

/**
 * Search the files for a pattern.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeSearchTextArgs } from "./text_args.ts";
 * import { searchText } from "./search_text.ts";
 *
 * const texts: Record<string, string> = { "a.ts": "const x = 1;\nlet y = x;\n", "b.md": "x marks\n" };
 * const files = {
 *   async *files() { for (const path of Object.keys(texts)) yield { path }; },
 *   read: async (path: string) => new TextEncoder().encode(texts[path]),
 * };
 * const result = await searchText(files, normalizeSearchTextArgs({ pattern: "\\bx\\b", type: "ts" }));
 * assert.deepEqual(result.matches!.map((m) => [m.path, m.line, m.column]), [["a.ts", 1, 7], ["a.ts", 2, 9]]);
 * assert.equal(result.summary.skipped.ignored, 1);
 * ```
 *
 * @param files Where the files come from.
 * @param query The normalized query (`normalizeSearchTextArgs`).
 * @param options What to add to matches (their enclosing symbols).
 * @returns The page of results and a summary.
 * @throws RecoverableError `invalid_args` for a pattern the linear-time engine refuses or an unknown type.
 */
export async function searchText(
  files: SearchFiles,
  query: SearchTextQuery,
  options: SearchTextOptions = {},
): Promise<SearchTextResult> {
  const started = performance.now();
  const pattern = await compileTextPattern(query);
  const skipped: SearchSkipped = { ignored: 0, binary: 0, too_large: 0, unreadable: 0 };
  const page: Page = { matches: [], files: [], counts: [] };
  const want = query.offset + query.maxResults;
  const stats = { scanned: 0, matched: 0, skipped };
  let units = 0;
  const each: ScanEach = query.outputMode === "content"
    ? "match"
    : query.outputMode === "count"
    ? "line"
    : "file";
  for await (const { file, bytes, text, hits } of scanFiles(files, { query, pattern, stats, each })) {
    units += await collect(page, { path: file.path, bytes, text, hits, before: units }, {
      query,
      files,
      options,
    });
    if (units > want) break; // one past the page: there is more
  }
  await scanEnded(files, skipped);
  return finish({ query, page, truncated: units > want, started, stats });
}

/** The result: the page fitted to the budget, the cursor of the next page, the summary. */
function finish(state: {
  query: SearchTextQuery;
  page: Page;
  truncated: boolean;
  started: number;
  stats: { scanned: number; matched: number; skipped: SearchSkipped };
}): SearchTextResult {
  const { query, page } = state;
  const entries: PageEntries = query.outputMode === "content"
    ? { kind: "content", matches: page.matches }
    : query.outputMode === "files_with_matches"
    ? { kind: "files_with_matches", files: page.files }
    : { kind: "count", counts: page.counts };
  const fitted = fitBudget(entries, query.maxChars);
  const pageUnits = query.outputMode === "content"
    ? page.matches.length
    : Math.max(page.files.length, page.counts.length);
  const truncated = state.truncated || fitted.kept < pageUnits;
  const result: SearchTextResult = {
    output_mode: query.outputMode,
    summary: {
      files_scanned: state.stats.scanned,
      files_matched: state.stats.matched,
      skipped: state.stats.skipped,
      truncated,
      shortened: fitted.shortened,
      elapsed_ms: Math.round((performance.now() - state.started) * 10) / 10,
    },
  };
  const e = fitted.entries;
  if (e.kind === "content") result.matches = e.matches;
  else if (e.kind === "files_with_matches") result.files = e.files;
  else result.counts = e.counts;
  if (truncated) result.next_cursor = cursorFor(query, query.offset + fitted.kept);
  return result;
}
