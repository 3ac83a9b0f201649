/**
 * find_symbol: find definitions by name path across the workspace (or one
 * file or directory), through the stage and the parse cache, so repeated
 * searches only re-parse what changed. A file whose text does not contain the
 * words of the last segment cannot define it and is not parsed (it is
 * outlined only when nothing matches, for did-you-mean names). A directory
 * search does not parse files over {@linkcode MAX_SEARCH_FILE_BYTES}, but
 * names each one that mentions the name, with its size and the call that
 * searches it (a file named by path is searched whatever its size). A search
 * reads at most {@linkcode MAX_SEARCH_FILES} files; past them the result (a
 * match or not_found) says so: what was not searched and the path that goes on.
 *
 * @module
 */
import { HEAD_CHARS } from "../syntax/grammars.ts";
import { RecoverableError, type ShownLines } from "../errors.ts";
import type { Stage } from "../fs/stage.ts";
import { decodeText } from "../fs/text.ts";
import { skippedCounts, type WalkEntry, type WalkSkipped } from "../fs/walk.ts";
import { PROJECT_LIMITS } from "../project/limits.ts";
import { openProject } from "../project/project_view.ts";
import { wordPattern } from "../project/words.ts";
import { nearestNames } from "../fs/stage.ts";
import { parseNamePath, resolveNamePath } from "../syntax/name_path.ts";
import { markdownOutlineEngine, queriesEngine, symbolsEngine } from "./_lazy.ts";
import type { SymbolInfo } from "../syntax/symbols.ts";
import type { Parsing } from "../syntax/types.ts";
import { describeRegions, type ErrorRegion, unparsedWarning } from "../syntax/error_regions.ts";
import { objectSchema } from "./_schema.ts";
import type { HandlerResult, ToolDefinition } from "./types.ts";
import { lineStart, rowOf } from "../fs/lines.ts";
import { BOOLEAN, FILE_PATH, INTEGER, shape, SKIPPED, STRING, UNREADABLE } from "./_result_schema.ts";

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

/** Most files one search reads (the project walk's `search` limits). */
export const MAX_SEARCH_FILES: number = PROJECT_LIMITS.search.files;
/** Files larger than this are skipped by a workspace search. */
export const MAX_SEARCH_FILE_BYTES: number = PROJECT_LIMITS.search.fileBytes;
/** Most lines of one match's body that find_symbol returns with include_body. */
export const MAX_BODY_LINES = 1000;
/** Most body lines of all matches together. */
export const MAX_BODY_LINES_TOTAL = 4000;
/** Whether a walked entry is a file with a grammar that has a symbol query (data languages do not). */
async function sourceFilter(ws: Parsing): Promise<(e: WalkEntry) => boolean> {
  const { symbolRules } = await queriesEngine();
  return (e) => {
    if (e.kind !== "file") return false;
    const language = ws.grammars?.languageOf(e.real);
    return language !== null && language !== undefined && !symbolRules(language).data;
  };
}

/**
 * The files under `dir` that have a grammar with a symbol query (data
 * languages skipped), walking the stage as every project-wide walk does
 * (`.gitignore` honoured, `node_modules` and version-control folders
 * skipped unless `includeIgnored`), at most `limit`.
 *
 * @param ws The workspace.
 * @param stage The stage to walk.
 * @param dir Relative directory ("" for the root).
 * @param limit Most files.
 * @param options `includeIgnored`: search ignored files and `node_modules` too.
 * @returns Real relative paths (a file reached through a link inside the root: its target's; a link that
 *   leaves the root is skipped), whether the walk stopped at the limit (and then `next`, the first file it
 *   left out), and how many entries were ignored, skipped and unreadable.
 */
export async function sourceFiles(
  ws: Parsing,
  stage: Stage,
  dir: string,
  limit = MAX_SEARCH_FILES,
  options: { includeIgnored?: boolean } = {},
): Promise<
  {
    files: string[];
    truncated: boolean;
    ignored: number;
    skipped: WalkSkipped;
    unreadable: string[];
    next?: string;
  }
> {
  // One more than the limit: the file after the last one searched says where the walk stopped.
  const walked = await openProject({ stage, parsing: ws, limits: PROJECT_LIMITS.search }).list({
    under: dir,
    includeIgnored: options.includeIgnored === true,
    limit: limit + 1,
    accept: await sourceFilter(ws),
  });
  // Real paths: a file reached through a link inside the root is its target's (a link out of the root is skipped).
  const files = walked.entries.map((e) => e.real);
  const counts = { ignored: walked.ignored, skipped: walked.skipped, unreadable: walked.unreadable };
  if (files.length <= limit) return { files, truncated: false, ...counts };
  return { files: files.slice(0, limit), truncated: true, ...counts, next: files[limit]! };
}

/** What a capped search did not reach (see {@linkcode notSearched}). */
export interface NotSearched {
  /** The most files one search reads ({@linkcode MAX_SEARCH_FILES}). */
  limit: number;
  /** The first file not searched. */
  first: string;
  /**
   * What was not searched, in walk order: the first file's directory (searched up to that file) unless
   * the search began there, then the rest of each directory around it; directories end with "/". At
   * most 20.
   */
  paths: string[];
  /** How many more of them there are. */
  more: number;
  /** Those directly under the searched path (at most 20): none of their files was searched. */
  top: string[];
  /** The first directory of `paths`: the one to search next. */
  narrower?: string;
}

/** The parent of a relative path ("" at the top). */
function parentDir(rel: string): string {
  const i = rel.lastIndexOf("/");
  return i < 0 ? "" : rel.slice(0, i);
}

/**
 * What a search capped at `limit` files did not reach: from `next` (the first
 * file left out) outwards to `base`, the entries of each directory after the
 * one the walk was in, listed as the walk lists them (ignore rules applied).
 */
async function notSearched(
  ws: Parsing,
  stage: Stage,
  scope: { base: string; next: string; limit: number; includeIgnored: boolean },
): Promise<NotSearched> {
  const accept = await sourceFilter(ws);
  const own = parentDir(scope.next);
  // The first file's directory stands for the rest of it, unless the search began there.
  const rest: string[] = own === scope.base ? [] : [`${own}/`];
  let child = own === scope.base ? scope.next : own;
  let top: string[] = [];
  const project = openProject({ stage, parsing: ws, limits: PROJECT_LIMITS.search });
  for (let dir = parentDir(child);; dir = parentDir(dir)) {
    const level = await project.list({
      under: dir,
      limit: Infinity,
      recursive: false,
      includeIgnored: scope.includeIgnored,
      accept: (e) => e.kind === "dir" || accept(e),
    });
    const names = level.entries.map((e) => (e.kind === "dir" ? `${e.rel}/` : e.rel));
    const at = names.findIndex((n) => n === child || n === `${child}/`);
    top = at >= 0 ? names.slice(child === scope.next ? at : at + 1) : [];
    rest.push(...top);
    if (dir === scope.base || dir === "") break;
    child = dir;
  }
  const narrower = rest.find((p) => p.endsWith("/"))?.slice(0, -1);
  return {
    limit: scope.limit,
    first: scope.next,
    paths: rest.slice(0, 20),
    more: Math.max(0, rest.length - 20),
    top: top.slice(0, 20),
    ...(narrower !== undefined ? { narrower } : {}),
  };
}

interface Match {
  path: string;
  symbol: SymbolInfo;
  text: string;
}

/** A searched file with regions its grammar could not parse. */
interface Unparsed {
  rel: string;
  regions: ErrorRegion[];
  /** The first line inside a region that mentions the name searched, and that region. */
  name_line?: number;
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
interface Skipped {
  rel: string;
  text: string;
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
interface Search {
  args: FindSymbolArgs;
  /** Words a file must contain to define the name (empty: no prefilter). */
  words: string[];
  matches: Match[];
  misses: SymbolInfo[][];
  skipped: Skipped[];
  unparsed: Unparsed[];
  large: LargeFile[];
}

/** A size in MiB (or KiB) for a message: "2.8 MiB". */
function sizeLabel(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  if (mib < 1) return `${Math.ceil(bytes / 1024)} KiB`;
  return `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB`;
}

/** The call that searches one file a workspace search left out. */
function searchOneFile(args: FindSymbolArgs, path: string): { tool: string; args: Record<string, unknown> } {
  const out: Record<string, unknown> = { name_path: args.name_path, path };
  if (args.substring) out["substring"] = true;
  return { tool: "find_symbol", args: out };
}

/** One line per large file left out, with its size and the call that searches it. */
function largeFileNotes(args: FindSymbolArgs, large: LargeFile[]): string[] {
  const limit = sizeLabel(MAX_SEARCH_FILE_BYTES);
  return large.map((f) =>
    `Did not parse "${f.path}" (${sizeLabel(f.bytes)}, over the ${limit} a search of a directory parses), ` +
    `though it mentions "${lastSegment(args.name_path)}": find_symbol ${
      JSON.stringify(searchOneFile(args, f.path).args)
    } searches it`
  );
}

/** The last segment's name of a name path (unescaped, without an overload index). */
function lastSegment(namePath: string): string {
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

/** Where a search looked: the path asked for, the files walked, the entries ignored, what the cap left out. */
interface Scope {
  base: string;
  files: string[];
  ignored: number;
  capped?: NotSearched;
  /** Entries the walk skipped (links out of the root, special files, unreadable folders), by cause. */
  skipped?: Record<string, number>;
  /** Folders that could not be read. */
  unreadable?: string[];
}

/** What a result says of the walk's skipped entries and unreadable folders. */
function walkNotes(scope: Scope): Record<string, unknown> {
  return {
    ...(scope.skipped ? { skipped: scope.skipped } : {}),
    ...(scope.unreadable && scope.unreadable.length > 0 ? { unreadable: scope.unreadable } : {}),
  };
}

/** The call that searches what a capped search did not reach, or none when no path narrows it. */
function narrowerCall(args: FindSymbolArgs, capped: NotSearched) {
  return capped.narrower === undefined ? undefined : searchOneFile(args, capped.narrower);
}

/** What a capped search did not reach and the call that searches (part of) it. */
function cappedNote(args: FindSymbolArgs, capped: NotSearched): string {
  const shown = [...new Set([capped.paths[0]!, ...capped.top.slice(0, 4)])];
  const total = capped.paths.length + capped.more;
  const call = narrowerCall(args, capped);
  return `The search stopped at ${capped.limit} files (the most one search reads) before "${capped.first}"; ` +
    `not searched: ${shown.map((p) => `"${p}"`).join(", ")}${
      total > shown.length ? ` (${total} in all)` : ""
    }. ` +
    `Narrow it with path${
      call ? `: find_symbol ${JSON.stringify(call.args)} goes on from there` : " (a subdirectory or a file)"
    }, or pass the path of the directory you expect it in`;
}

/** Why an unparsed file may hold the name, for the not_found message. */
function unreadableNote(unparsed: Unparsed[], last: string): string {
  if (unparsed.length === 0) return "";
  const listed = unparsed.slice(0, 3).map((u) =>
    u.region
      ? `"${u.rel}" ${describeRegions([u.region])} (line ${u.name_line} mentions "${last}")`
      : `"${u.rel}" ${describeRegions(u.regions, 2)}`
  ).join(", ");
  const more = unparsed.length > 3 ? ` and ${unparsed.length - 3} more files` : "";
  return `; ${listed}${more} could not be parsed, so it may be there`;
}

/** The hint of a not_found answer: the files left out first (for size, then by the cap), then unparsed regions, then near names. */
function notFoundHint(search: Search, near: string[], scope: Scope): string {
  const { ignored, capped } = scope;
  const { unparsed, large } = search;
  if (large.length > 0) return largeFileNotes(search.args, large.slice(0, 3)).join("; ");
  if (capped) return cappedNote(search.args, capped);
  if (unparsed.length > 0) {
    const u = unparsed[0]!;
    const r = u.region ?? u.regions[0]!;
    return `The grammar may not support some syntax in ${
      unparsed.length === 1 ? "that file" : "those files"
    }: read_file {"path": "${u.rel}", "start_line": ${r.start_line}, "end_line": ${r.end_line}} to look there, or search the text with grep`;
  }
  const orIgnored = ignored > 0 ? ", or include_ignored: true to search ignored files and node_modules" : "";
  return near.length > 0
    ? `Did you mean ${near.map((n) => `"${n}"`).join(", ")}? Or pass substring: true${orIgnored}`
    : `Check the spelling, pass substring: true${orIgnored}, or call outline on the file you expect it in`;
}

/** The call a not_found answer suggests: search a file left out for size, what the cap left out, or a near name. */
function nextCall(search: Search, near: string[], capped: NotSearched | undefined) {
  if (search.large.length > 0) return searchOneFile(search.args, search.large[0]!.path);
  if (capped) return narrowerCall(search.args, capped);
  return near.length > 0 ? { tool: "find_symbol", args: { name_path: near[0]! } } : undefined;
}

/** The not_found refusal: what was searched, what was left out and why, and the call to make next. */
async function notFound(ws: Parsing, search: Search, scope: Scope): Promise<RecoverableError> {
  const { flattenSymbols, outlineOf } = await symbolsEngine();
  const { args, misses, unparsed, large } = search;
  // Only now outline the files the prefilter skipped: their names feed did-you-mean.
  for (const f of search.skipped) misses.push((await outlineOf(ws, f.rel, f.text, f.version)).symbols);
  const names = new Set<string>();
  for (const symbols of misses) for (const s of flattenSymbols(symbols)) names.add(s.name);
  const last = lastSegment(args.name_path);
  const near = nearestNames(last, [...names], 5);
  const searched = scope.files.length - large.length;
  const left = large.length === 0
    ? ""
    : `, ${large.length} left out for size though ${
      large.length === 1 ? "it mentions" : "they mention"
    } "${last}": ${large.slice(0, 3).map((f) => `"${f.path}" ${sizeLabel(f.bytes)}`).join(", ")}${
      large.length > 3 ? ", …" : ""
    }`;
  const suggestedCall = nextCall(search, near, scope.capped);
  return new RecoverableError(
    "not_found",
    `Cannot find symbol "${args.name_path}" in ${
      scope.base === "" ? "the workspace" : `"${scope.base}"`
    } (${searched} file${searched === 1 ? "" : "s"} searched${left}${
      scope.capped
        ? `, then the search stopped at its cap: "${scope.capped.first}" and what follows not searched`
        : ""
    })${unreadableNote(unparsed, last)}`,
    {
      hint: notFoundHint(search, near, scope),
      ...(suggestedCall ? { suggestedCall } : {}),
      details: {
        name_path: args.name_path,
        path: scope.base,
        did_you_mean: near,
        files_searched: searched,
        ...(large.length > 0 ? { skipped_large: large.slice(0, 20) } : {}),
        ...(scope.capped ? { capped: scope.capped } : {}),
        ...walkNotes(scope),
        ...(unparsed.length > 0 ? { unparsed: unparsed.slice(0, 20) } : {}),
      },
    },
  );
}

/**
 * Where a match's body text starts: at its first line's start when only
 * indentation precedes the definition there, so that every line keeps its
 * own indentation (the first line is not the only one stripped); else at the
 * definition itself.
 */
function bodyStart(text: string, start: number): number {
  const from = lineStart(text, start);
  return /^[ \t]*$/.test(text.slice(from, start)) ? from : start;
}

/** The matches of a search, with bodies when asked (capped one by one and together). */
function matchRows(search: Search, warnings: string[], shown: ShownLines[]): Record<string, unknown>[] {
  const { args, matches } = search;
  let budget = MAX_BODY_LINES_TOTAL;
  return matches.slice(0, args.max_results ?? 50).map((m) => {
    const r = m.symbol.full_range;
    const out: Record<string, unknown> = {
      path: m.path,
      name_path: m.symbol.name_path,
      kind: m.symbol.kind,
      start_line: r.start_line,
      end_line: r.end_line,
    };
    if (!args.include_body) return out;
    // Bodies are capped (one and all together) so that a model's answer stays readable.
    const lines = m.text.slice(bodyStart(m.text, r.start_utf16), r.end_utf16).split("\n");
    const room = Math.min(lines.length, MAX_BODY_LINES, budget);
    budget -= room;
    if (room === 0) {
      out["body_omitted"] = true;
    } else {
      out["body"] = lines.slice(0, room).join("\n");
      if (room < lines.length) out["body_truncated"] = { shown_lines: room, total_lines: lines.length };
      const end = room < lines.length ? r.start_line + room - 1 : r.end_line;
      shown.push({ path: m.path, lines: [{ start_line: r.start_line, end_line: end }] });
    }
    if (room < lines.length) {
      warnings.push(
        `${
          room === 0 ? "Omitted" : "Cut"
        } the body of ${m.symbol.name_path} in ${m.path} (${lines.length} lines): ` +
          `read_file {"path": "${m.path}", "start_line": ${
            r.start_line + room
          }, "end_line": ${r.end_line}} gives the rest`,
      );
    }
    return out;
  });
}

/** The result of a search that found something: matches, counts, and what was left out. */
function foundResult(search: Search, scope: Scope): HandlerResult {
  const { matches, unparsed, large } = search;
  matches.sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : a.symbol.range.start_utf16 - b.symbol.range.start_utf16
  );
  const warnings: string[] = [];
  /** The bodies displayed: the ledger counts their lines as read. */
  const shown: ShownLines[] = [];
  const data: Record<string, unknown> = {
    matches: matchRows(search, warnings, shown),
    count: matches.length,
    files_searched: scope.files.length - large.length,
  };
  if (matches.length > (search.args.max_results ?? 50) || scope.capped) data["truncated"] = true;
  Object.assign(data, walkNotes(scope));
  if (scope.capped) {
    data["capped"] = scope.capped;
    warnings.push(cappedNote(search.args, scope.capped));
  }
  if (large.length > 0) {
    data["skipped_large"] = large.slice(0, 20);
    warnings.push(...largeFileNotes(search.args, large.slice(0, 3)));
    if (large.length > 3) warnings.push(`${large.length - 3} more large files mention it (skipped_large)`);
  }
  for (const u of unparsed.slice(0, 3)) warnings.push(unparsedWarning(u.rel, u.regions));
  if (unparsed.length > 3) {
    warnings.push(`${unparsed.length - 3} more searched files could not be parsed in places`);
  }
  return { data, ...(warnings.length > 0 ? { warnings: warnings.slice(0, 10) } : {}), shown };
}

/** The find_symbol tool. */
export const findSymbol: ToolDefinition<FindSymbolArgs> = {
  name: "find_symbol",
  description:
    "Find definitions by name path across the workspace (or under path): 'name' at any depth, 'Outer/inner', '/Top/level', 'f[1]' for the second overload, '\\/' for a slash in a name; substring lets the last segment match part of a name. Returns each match's path, name path, kind and lines, and its source with include_body. What .gitignore ignores and node_modules are searched only with include_ignored. A directory search does not parse files over 2 MiB; those that mention the name are listed in skipped_large, and naming one as path searches it. One search reads at most 5000 files; past that, capped says what was not searched and which path goes on. To list one file's definitions, call outline instead; to change a match, pass its path and name_path to replace_symbol, remove_symbol or insert_code.",
  inputSchema: objectSchema({
    name_path: {
      type: "string",
      minLength: 1,
      description: 'Name path, e.g. "Class/method", "/Top", "f[1]"',
    },
    path: { type: "string", description: "A file or directory to search (default: the whole workspace)" },
    include_body: { type: "boolean", description: "Include each match's source text (default false)" },
    substring: { type: "boolean", description: "Let the last segment match part of a name (default false)" },
    max_results: {
      type: "integer",
      minimum: 1,
      maximum: 1000,
      description: "Most matches returned (default 50)",
    },
    include_ignored: {
      type: "boolean",
      description: "Also search what .gitignore ignores and node_modules (default false)",
    },
  }, ["name_path"]),
  kind: "read",
  mutates: false,
  resultData: shape({
    matches: {
      type: "array",
      items: shape({
        path: FILE_PATH,
        name_path: STRING,
        kind: STRING,
        start_line: INTEGER,
        end_line: INTEGER,
        body: STRING,
      }, ["path", "name_path", "kind", "start_line", "end_line"]),
    },
    count: INTEGER,
    files_searched: INTEGER,
    truncated: BOOLEAN,
    skipped_large: {
      type: "array",
      description: "Files over 2 MiB a directory search did not parse though they mention the name",
      items: shape({ path: FILE_PATH, bytes: INTEGER }, ["path", "bytes"]),
    },
    capped: shape({
      limit: INTEGER,
      first: { ...FILE_PATH, description: "The first file the search did not reach" },
      paths: { type: "array", items: STRING, description: "What was not searched (directories end with /)" },
      more: INTEGER,
      top: { type: "array", items: STRING },
      narrower: { ...FILE_PATH, description: "The directory to pass as path to go on" },
    }, ["limit", "first", "paths", "more", "top"]),
    skipped: SKIPPED,
    unreadable: UNREADABLE,
  }, ["matches", "count"]),
  async handler(args, { workspace, stage }) {
    const { unsupportedLanguage } = await symbolsEngine();
    const base = (await stage.sandbox.resolve(stage.fs, args.path ?? "", { allowRoot: true })).rel;
    const kind = base === "" ? "dir" : await stage.fs.kind(stage.sandbox.abs(base));
    if (kind === null) throw await stage.notFound(base);
    const { isMarkdownPath } = await markdownOutlineEngine();
    if (!workspace.grammars) {
      throw unsupportedLanguage(base, null, {
        tool: "find_symbol",
        noGrammars: true,
        read: kind === "dir" ? "directory" : true,
      });
    }
    let files: string[];
    let ignored = 0;
    let capped: NotSearched | undefined;
    let walked: Pick<Scope, "skipped" | "unreadable"> = {};
    if (kind === "dir") {
      const includeIgnored = args.include_ignored === true;
      let next: string | undefined;
      let skipped: WalkSkipped;
      let unreadable: string[];
      ({ files, ignored, next, skipped, unreadable } = await sourceFiles(
        workspace,
        stage,
        base,
        MAX_SEARCH_FILES,
        {
          includeIgnored,
        },
      ));
      const counts = skippedCounts(skipped);
      walked = { ...(counts ? { skipped: counts } : {}), unreadable };
      if (next !== undefined) {
        capped = await notSearched(workspace, stage, { base, next, limit: MAX_SEARCH_FILES, includeIgnored });
      }
    } else {
      if (!workspace.grammars.languageOf(base) && !isMarkdownPath(base)) {
        const head = (await stage.readText(base)).text.slice(0, HEAD_CHARS);
        if (!workspace.grammars.languageOf(base, head)) {
          throw unsupportedLanguage(base, null, { tool: "find_symbol", read: true });
        }
      }
      files = [base];
    }
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
      // A file named by path is searched whatever its size: the caller asked for it.
      await Promise.all(
        files.slice(i, i + BATCH).map((f) => searchFile(workspace, stage, f, search, kind === "dir")),
      );
    }
    // Files that mention the name inside an unparsed region come first: the symbol is most likely there.
    search.unparsed.sort((a, b) =>
      (a.name_line === undefined ? 1 : 0) - (b.name_line === undefined ? 1 : 0) ||
      (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0)
    );
    search.large.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const scope: Scope = { base, files, ignored, ...(capped ? { capped } : {}), ...walked };
    if (search.matches.length === 0) throw await notFound(workspace, search, scope);
    return foundResult(search, scope);
  },
};
