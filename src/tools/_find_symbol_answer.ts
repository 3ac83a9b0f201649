/**
 * find_symbol's answer: the matches (each body capped, and all of them
 * together), or the `not_found` refusal with did-you-mean names; both say
 * what the search left out (files too large to parse, what the cap did not
 * reach, regions the grammar could not parse) and the call that goes on.
 *
 * @module
 */
import { RecoverableError, type ShownLines } from "../errors.ts";
import { lineStart } from "../fs/lines.ts";
import { sizeText } from "../fs/size_text.ts";
import { nearestNames } from "../fs/stage.ts";
import { describeRegions, unparsedWarning } from "../syntax/error_regions.ts";
import type { Parsing } from "../syntax/types.ts";
import { symbolsEngine } from "./_lazy.ts";
import type { HandlerResult } from "./types.ts";
import { MAX_SEARCH_FILE_BYTES, type NotSearched, type Scope, walkNotes } from "./_find_symbol_scope.ts";
import {
  type FindSymbolArgs,
  type LargeFile,
  lastSegment,
  type Search,
  type Unparsed,
} from "./_find_symbol_search.ts";

/** Most lines of one match's body that find_symbol returns with include_body. */
export const MAX_BODY_LINES = 1000;
/** Most body lines of all matches together. */
export const MAX_BODY_LINES_TOTAL = 4000;

/** The call that searches one file a workspace search left out. */
function searchOneFile(args: FindSymbolArgs, path: string): { tool: string; args: Record<string, unknown> } {
  const out: Record<string, unknown> = { name_path: args.name_path, path };
  if (args.substring) out["substring"] = true;
  return { tool: "find_symbol", args: out };
}

/** One line per large file left out, with its size and the call that searches it. */
function largeFileNotes(args: FindSymbolArgs, large: LargeFile[]): string[] {
  const limit = sizeText(MAX_SEARCH_FILE_BYTES);
  return large.map((f) =>
    `Did not parse "${f.path}" (${sizeText(f.bytes)}, over the ${limit} a search of a directory parses), ` +
    `though it mentions "${lastSegment(args.name_path)}": find_symbol ${
      JSON.stringify(searchOneFile(args, f.path).args)
    } searches it`
  );
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
export async function notFound(ws: Parsing, search: Search, scope: Scope): Promise<RecoverableError> {
  const { flattenSymbols, outlineOf } = await symbolsEngine();
  const { args, misses, unparsed, large } = search;
  // Only now outline the files the prefilter skipped: their names feed did-you-mean.
  for (const f of search.skipped) {
    misses.push((await outlineOf(ws, f.rel, { text: f.text, version: f.version })).symbols);
  }
  const names = new Set<string>();
  for (const symbols of misses) for (const s of flattenSymbols(symbols)) names.add(s.name);
  const last = lastSegment(args.name_path);
  const near = nearestNames(last, [...names], 5);
  const searched = scope.files.length - large.length;
  const left = large.length === 0
    ? ""
    : `, ${large.length} left out for size though ${
      large.length === 1 ? "it mentions" : "they mention"
    } "${last}": ${large.slice(0, 3).map((f) => `"${f.path}" ${sizeText(f.bytes)}`).join(", ")}${
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
export function foundResult(search: Search, scope: Scope): HandlerResult {
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
