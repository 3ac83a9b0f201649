/**
 * One find_symbol search: its arguments, what it gathers file by file
 * (matches, files whose outline missed, files the word prefilter skipped,
 * files with unparsed regions, files too large to parse), and the search of
 * one file (parsed and resolved only when its text can hold the name).
 *
 * @module
 */
import type { Stage } from "../fs/stage.ts";
import { decodeText } from "../fs/text.ts";
import { rowOf } from "../fs/lines.ts";
import { wordPattern } from "../project/words.ts";
import type { ErrorRegion } from "../syntax/error_regions.ts";
import { parseNamePath, resolveNamePath } from "../syntax/name_path.ts";
import type { SymbolInfo } from "../syntax/symbols.ts";
import type { Parsing } from "../syntax/types.ts";
import { markdownOutlineEngine } from "./_lazy.ts";
import { MAX_SEARCH_FILE_BYTES } from "./_find_symbol_scope.ts";

/** Arguments of find_symbol. */
export interface FindSymbolArgs {
  /** Name path to find ("name", "Outer/inner", "/Top", "f[1]"). */
  name_path: string;
  /** A file or directory to search (default: the whole workspace). */
  path?: string;
  /** Include each match's source text, its lines as in the file (default false). */
  include_body?: boolean;
  /** Let the last segment match part of a name (default false). */
  substring?: boolean;
  /** Most matches returned (default 50). */
  max_results?: number;
  /** Also search what `.gitignore` ignores and `node_modules` (default false). */
  include_ignored?: boolean;
}

/** A definition found: its file, its symbol and the file's text (for its body). */
export interface Match {
  /** Relative path. */
  path: string;
  /** The definition. */
  symbol: SymbolInfo;
  /** The file's text. */
  text: string;
}

/** A searched file with regions its grammar could not parse. */
export interface Unparsed {
  /** Relative path. */
  rel: string;
  /** The regions its grammar could not parse. */
  regions: ErrorRegion[];
  /** The first line inside a region that mentions the name searched, and that region. */
  name_line?: number;
  /** The region of `name_line`. */
  region?: ErrorRegion;
}

/** Where `name` is written inside one of `regions` of `text` (whole word; any case and part for a substring search). */
function mentionIn(
  text: string,
  regions: ErrorRegion[],
  name: string,
  substring: boolean,
): { line: number; region: ErrorRegion } | null {
  if (name === "") return null;
  const re = substring
    ? new RegExp(name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"), "giu")
    : wordPattern(name, "g");
  let line = 1;
  let at = 0;
  for (const m of text.matchAll(re)) {
    line += rowOf(text, m.index, at);
    at = m.index;
    const region = regions.find((r) => r.start_line <= line && line <= r.end_line);
    if (region) return { line, region };
  }
  return null;
}

/** A file that was not searched because its text cannot hold the name. */
export interface Skipped {
  /** Relative path. */
  rel: string;
  /** Its text (outlined for did-you-mean names when nothing matches). */
  text: string;
  /** Its version. */
  version: string;
}

/**
 * The words a file must contain to define a symbol answering to `namePath`'s
 * last segment (a symbol's name, alias or header is written in the file).
 *
 * @param namePath The name path searched.
 * @param substring Whether the last segment may be part of a name.
 * @returns Words to look for (lower-cased for a substring search); empty: no prefilter.
 */
export function prefilterWords(namePath: string, substring: boolean): string[] {
  const segments = parseNamePath(namePath).segments;
  const last = segments[segments.length - 1]?.name ?? "";
  const words = last.match(/[\p{L}\p{N}_$]+/gu) ?? [];
  return substring ? words.map((w) => w.toLowerCase()) : words;
}

/** A file a workspace search did not parse because of its size, though its text may define the name. */
export interface LargeFile {
  /** Relative path. */
  path: string;
  /** Its size in bytes (over {@linkcode MAX_SEARCH_FILE_BYTES}). */
  bytes: number;
}

/** What one search gathers, file by file. */
export interface Search {
  /** The tool's arguments. */
  args: FindSymbolArgs;
  /** Words a file must contain to define the name (empty: no prefilter). */
  words: string[];
  /** The definitions found. */
  matches: Match[];
  /** The outline of each file searched that holds no match (for did-you-mean names). */
  misses: SymbolInfo[][];
  /** Files the word prefilter left out. */
  skipped: Skipped[];
  /** Files with regions their grammar could not parse. */
  unparsed: Unparsed[];
  /** Files left out for their size though they mention the name. */
  large: LargeFile[];
}

/** The last segment's name of a name path (unescaped, without an overload index). */
export function lastSegment(namePath: string): string {
  const segments = parseNamePath(namePath).segments;
  return segments[segments.length - 1]?.name ?? "";
}

/**
 * Search one file: parse it and resolve the name path in its outline, unless
 * its text cannot hold the name (kept for did-you-mean) or, in a directory
 * search (`capSize`), it is over {@linkcode MAX_SEARCH_FILE_BYTES} (reported
 * when its text mentions the name).
 */
async function searchFile(ws: Parsing, stage: Stage, rel: string, search: Search, capSize: boolean) {
  const { args, words } = search;
  const file = await stage.read(rel);
  if (!file) return;
  let text: string;
  try {
    text = decodeText(file.bytes, rel).text;
  } catch {
    return;
  }
  const haystack = args.substring ? text.toLowerCase() : text;
  const mentions = words.every((w) => haystack.includes(w));
  if (capSize && file.bytes.length > MAX_SEARCH_FILE_BYTES) {
    if (mentions) search.large.push({ path: rel, bytes: file.bytes.length });
    return;
  }
  if (!mentions) {
    search.skipped.push({ rel, text, version: file.version });
    return;
  }
  const { readOutline } = await markdownOutlineEngine();
  const outline = await readOutline(ws, rel, { text, version: file.version, tool: "find_symbol" });
  if (outline.error_regions) {
    const u: Unparsed = { rel, regions: outline.error_regions };
    const mention = mentionIn(text, u.regions, lastSegment(args.name_path), args.substring === true);
    if (mention) {
      u.name_line = mention.line;
      u.region = mention.region;
    }
    search.unparsed.push(u);
  }
  const res = resolveNamePath(outline.symbols, args.name_path, {
    substring: args.substring === true,
    suggest: false,
  });
  if (res.status === "unique") search.matches.push({ path: rel, symbol: res.symbol, text });
  else if (res.status === "ambiguous") {
    for (const s of res.candidates) search.matches.push({ path: rel, symbol: s, text });
  } else search.misses.push(outline.symbols);
}

/**
 * Search `files` (sixteen at a time) for `args.name_path`; files with the name inside an unparsed region come
 * first among the unparsed, large files by path.
 *
 * @param ws The workspace.
 * @param stage The stage to read.
 * @param options `args`: the tool's arguments; `files`: the files to search; `capSize`: skip (and report)
 *   files over {@linkcode MAX_SEARCH_FILE_BYTES} (a directory search).
 * @returns What the search gathered.
 */
export async function searchFiles(
  ws: Parsing,
  stage: Stage,
  { args, files, capSize }: { args: FindSymbolArgs; files: readonly string[]; capSize: boolean },
): Promise<Search> {
  const search: Search = {
    args,
    words: prefilterWords(args.name_path, args.substring === true),
    matches: [],
    misses: [],
    skipped: [],
    unparsed: [],
    large: [],
  };
  const BATCH = 16;
  for (let i = 0; i < files.length; i += BATCH) {
    await Promise.all(files.slice(i, i + BATCH).map((f) => searchFile(ws, stage, f, search, capSize)));
  }
  // Files that mention the name inside an unparsed region come first: the symbol is most likely there.
  search.unparsed.sort((a, b) =>
    (a.name_line === undefined ? 1 : 0) - (b.name_line === undefined ? 1 : 0) ||
    (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0)
  );
  search.large.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return search;
}
