/**
 * find_symbol: find definitions by name path across the workspace (or one
 * file or directory), through the stage and the parse cache, so repeated
 * searches only re-parse what changed. A file whose text does not contain the
 * words of the last segment cannot define it and is not parsed (it is
 * outlined only when nothing matches, for did-you-mean names).
 *
 * @module
 */
import { HEAD_CHARS } from "../syntax/grammars.ts";
import { RecoverableError } from "../errors.ts";
import type { Stage } from "../fs/stage.ts";
import { decodeText } from "../fs/text.ts";
import { skippedCounts, walkProject, type WalkSkipped } from "../fs/walk.ts";
import { nearestNames } from "../fs/stage.ts";
import { parseNamePath, resolveNamePath } from "../syntax/name_path.ts";
import { queriesEngine, symbolsEngine } from "./_lazy.ts";
import type { SymbolInfo } from "../syntax/symbols.ts";
import type { Parsing } from "../syntax/types.ts";
import { describeRegions, type ErrorRegion, unparsedWarning } from "../syntax/error_regions.ts";
import { objectSchema } from "./_schema.ts";
import type { ToolDefinition } from "./types.ts";
import { rowOf } from "../fs/lines.ts";

/** Arguments of find_symbol. */
export interface FindSymbolArgs {
  /** Name path to find ("name", "Outer/inner", "/Top", "f[1]"). */
  name_path: string;
  /** A file or directory to search (default: the whole workspace). */
  path?: string;
  /** Include each match's source text (default false). */
  include_body?: boolean;
  /** Let the last segment match part of a name (default false). */
  substring?: boolean;
  /** Most matches returned (default 50). */
  max_results?: number;
  /** Also search what `.gitignore` ignores and `node_modules` (default false). */
  include_ignored?: boolean;
}

/** Most files one search reads. */
export const MAX_SEARCH_FILES = 5000;
/** Files larger than this are skipped by a workspace search. */
export const MAX_SEARCH_FILE_BYTES = 2 * 1024 * 1024;
/** Most lines of one match's body that find_symbol returns with include_body. */
export const MAX_BODY_LINES = 1000;
/** Most body lines of all matches together. */
export const MAX_BODY_LINES_TOTAL = 4000;
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
 *   leaves the root is skipped), whether the walk stopped at the limit, and how many entries were ignored
 *   and skipped.
 */
export async function sourceFiles(
  ws: Parsing,
  stage: Stage,
  dir: string,
  limit = MAX_SEARCH_FILES,
  options: { includeIgnored?: boolean } = {},
): Promise<
  { files: string[]; truncated: boolean; ignored: number; skipped: WalkSkipped; unreadable: string[] }
> {
  const { symbolRules } = await queriesEngine();
  const walked = await walkProject(stage, dir, {
    includeIgnored: options.includeIgnored === true,
    limit,
    accept(e) {
      if (e.kind !== "file") return false;
      const language = ws.grammars?.languageOf(e.real);
      return language !== null && language !== undefined && !symbolRules(language).data;
    },
  });
  return {
    files: walked.entries.map((e) => e.real),
    truncated: walked.truncated,
    ignored: walked.ignored,
    skipped: walked.skipped,
    unreadable: walked.unreadable,
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
  const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const re = substring
    ? new RegExp(escaped, "giu")
    : new RegExp(`(?<![\\p{L}\\p{N}_$])${escaped}(?![\\p{L}\\p{N}_$])`, "gu");
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

async function searchFile(
  ws: Parsing,
  stage: Stage,
  rel: string,
  args: FindSymbolArgs,
  out: Match[],
  misses: SymbolInfo[][],
  skipped: Skipped[],
  words: string[],
  unparsed: Unparsed[],
) {
  const file = await stage.read(rel);
  if (!file || file.bytes.length > MAX_SEARCH_FILE_BYTES) return;
  let text: string;
  try {
    text = decodeText(file.bytes, rel).text;
  } catch {
    return;
  }
  if (words.length > 0) {
    const haystack = args.substring ? text.toLowerCase() : text;
    if (!words.every((w) => haystack.includes(w))) {
      skipped.push({ rel, text, version: file.version });
      return;
    }
  }
  const { outlineOf } = await symbolsEngine();
  const outline = await outlineOf(ws, rel, text, file.version);
  if (outline.error_regions) {
    const u: Unparsed = { rel, regions: outline.error_regions };
    const segments = parseNamePath(args.name_path).segments;
    const mention = mentionIn(
      text,
      u.regions,
      segments[segments.length - 1]?.name ?? "",
      args.substring === true,
    );
    if (mention) {
      u.name_line = mention.line;
      u.region = mention.region;
    }
    unparsed.push(u);
  }
  const res = resolveNamePath(outline.symbols, args.name_path, {
    substring: args.substring === true,
    suggest: false,
  });
  if (res.status === "unique") out.push({ path: rel, symbol: res.symbol, text });
  else if (res.status === "ambiguous") {
    for (const s of res.candidates) out.push({ path: rel, symbol: s, text });
  } else misses.push(outline.symbols);
}

/** The find_symbol tool. */
export const findSymbol: ToolDefinition<FindSymbolArgs> = {
  name: "find_symbol",
  description:
    "Find definitions by name path across the workspace (or under path): 'name' at any depth, 'Outer/inner', '/Top/level', 'f[1]' for the second overload, '\\/' for a slash in a name; substring lets the last segment match part of a name. Returns each match's path, name path, kind and lines, and its source with include_body. What .gitignore ignores and node_modules are searched only with include_ignored. To list one file's definitions, call outline instead; to change a match, pass its path and name_path to replace_symbol, remove_symbol or insert_code.",
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
  mutates: false,
  async handler(args, { workspace, stage }) {
    const { flattenSymbols, outlineOf, unsupportedLanguage } = await symbolsEngine();
    const base = (await stage.sandbox.resolve(stage.fs, args.path ?? "", { allowRoot: true })).rel;
    const kind = base === "" ? "dir" : await stage.fs.kind(stage.sandbox.abs(base));
    if (kind === null) throw await stage.notFound(base);
    if (!workspace.grammars) throw unsupportedLanguage(base, null, { tool: "find_symbol", noGrammars: true });
    let files: string[];
    let truncated = false;
    let ignored = 0;
    let walkSkipped: WalkSkipped | null = null;
    let unreadableDirs: string[] = [];
    if (kind === "dir") {
      ({ files, truncated, ignored, skipped: walkSkipped, unreadable: unreadableDirs } = await sourceFiles(
        workspace,
        stage,
        base,
        MAX_SEARCH_FILES,
        {
          includeIgnored: args.include_ignored === true,
        },
      ));
    } else {
      if (!workspace.grammars.languageOf(base)) {
        const head = (await stage.readText(base)).text.slice(0, HEAD_CHARS);
        if (!workspace.grammars.languageOf(base, head)) {
          throw unsupportedLanguage(base, null, { tool: "find_symbol" });
        }
      }
      files = [base];
    }
    const matches: Match[] = [];
    const misses: SymbolInfo[][] = [];
    const skipped: Skipped[] = [];
    const unparsed: Unparsed[] = [];
    const words = prefilterWords(args.name_path, args.substring === true);
    const BATCH = 16;
    for (let i = 0; i < files.length; i += BATCH) {
      await Promise.all(
        files.slice(i, i + BATCH).map((f) =>
          searchFile(workspace, stage, f, args, matches, misses, skipped, words, unparsed)
        ),
      );
    }
    // Files that mention the name inside an unparsed region come first: the symbol is most likely there.
    unparsed.sort((a, b) =>
      (a.name_line === undefined ? 1 : 0) - (b.name_line === undefined ? 1 : 0) ||
      (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0)
    );
    if (matches.length === 0) {
      // Only now outline the files the prefilter skipped: their names feed did-you-mean.
      for (const f of skipped) misses.push((await outlineOf(workspace, f.rel, f.text, f.version)).symbols);
      const names = new Set<string>();
      for (const symbols of misses) for (const s of flattenSymbols(symbols)) names.add(s.name);
      const last = args.name_path.split("/").pop() ?? args.name_path;
      const near = nearestNames(last.replace(/\[\d+\]$/, ""), [...names], 5);
      const unreadable = unparsed.length === 0
        ? ""
        : `; ${
          unparsed.slice(0, 3).map((u) =>
            u.region
              ? `"${u.rel}" ${describeRegions([u.region])} (line ${u.name_line} mentions "${last}")`
              : `"${u.rel}" ${describeRegions(u.regions, 2)}`
          ).join(", ")
        }${
          unparsed.length > 3 ? ` and ${unparsed.length - 3} more files` : ""
        } could not be parsed, so it may be there`;
      throw new RecoverableError(
        "not_found",
        `Cannot find symbol "${args.name_path}" in ${
          base === "" ? "the workspace" : `"${base}"`
        } (${files.length} file${files.length === 1 ? "" : "s"} searched)${unreadable}`,
        {
          hint: unparsed.length > 0
            ? `The grammar may not support some syntax in ${
              unparsed.length === 1 ? "that file" : "those files"
            }: read_file {"path": "${unparsed[0]!.rel}", "start_line": ${
              (unparsed[0]!.region ?? unparsed[0]!.regions[0]!).start_line
            }, "end_line": ${
              (unparsed[0]!.region ?? unparsed[0]!.regions[0]!).end_line
            }} to look there, or search the text with grep`
            : near.length > 0
            ? `Did you mean ${near.map((n) => `"${n}"`).join(", ")}? Or pass substring: true${
              ignored > 0 ? ", or include_ignored: true to search ignored files and node_modules" : ""
            }`
            : `Check the spelling, pass substring: true${
              ignored > 0 ? ", pass include_ignored: true to search ignored files and node_modules" : ""
            }, or call outline on the file you expect it in`,
          ...(near.length > 0
            ? { suggestedCall: { tool: "find_symbol", args: { name_path: near[0]! } } }
            : {}),
          details: {
            name_path: args.name_path,
            path: base,
            did_you_mean: near,
            files_searched: files.length,
            ...(walkSkipped && skippedCounts(walkSkipped) ? { skipped: skippedCounts(walkSkipped) } : {}),
            ...(unreadableDirs.length > 0 ? { unreadable: unreadableDirs } : {}),
            ...(unparsed.length > 0 ? { unparsed: unparsed.slice(0, 20) } : {}),
          },
        },
      );
    }
    matches.sort((a, b) =>
      a.path < b.path ? -1 : a.path > b.path ? 1 : a.symbol.range.start_utf16 - b.symbol.range.start_utf16
    );
    const max = args.max_results ?? 50;
    let budget = MAX_BODY_LINES_TOTAL;
    const warnings: string[] = [];
    const data: Record<string, unknown> = {
      matches: matches.slice(0, max).map((m) => {
        const r = m.symbol.full_range;
        const out: Record<string, unknown> = {
          path: m.path,
          name_path: m.symbol.name_path,
          kind: m.symbol.kind,
          start_line: r.start_line,
          end_line: r.end_line,
        };
        if (args.include_body) {
          // Bodies are capped (one and all together) so that a model's answer stays readable.
          const lines = m.text.slice(r.start_utf16, r.end_utf16).split("\n");
          const room = Math.min(lines.length, MAX_BODY_LINES, budget);
          budget -= room;
          if (room === 0) {
            out["body_omitted"] = true;
          } else {
            out["body"] = lines.slice(0, room).join("\n");
            if (room < lines.length) out["body_truncated"] = { shown_lines: room, total_lines: lines.length };
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
        }
        return out;
      }),
      count: matches.length,
      files_searched: files.length,
    };
    if (matches.length > max || truncated) data["truncated"] = true;
    const notSearched = walkSkipped && skippedCounts(walkSkipped);
    if (notSearched) data["skipped"] = notSearched;
    if (unreadableDirs.length > 0) data["unreadable"] = unreadableDirs;
    for (const u of unparsed.slice(0, 3)) warnings.push(unparsedWarning(u.rel, u.regions));
    if (unparsed.length > 3) {
      warnings.push(`${unparsed.length - 3} more searched files could not be parsed in places`);
    }
    return warnings.length > 0 ? { data, warnings: warnings.slice(0, 10) } : { data };
  },
};
