/**
 * The plan of a text replacement across files (`edit_replace_text`): every occurrence of a search's pattern
 * in the files it selects — or only the occurrences an earlier search named by id — with the text that
 * replaces each (capture groups expanded, `replace_template.ts`). The plan changes nothing: the tool stages
 * the new texts, and the dispatch pipeline commits them all or none. Files are found by the same scan as
 * `search_text` (`scanFiles`), so a replacement changes exactly what the same search shows.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { PositionCursor } from "./matched_lines.ts";
import { formatOccurrenceId, type Occurrence, occurrenceIsCurrent } from "./occurrence_id.ts";
import {
  expandTemplate,
  parseTemplate,
  type PatternGroups,
  type ReplaceTemplate,
} from "./replace_template.ts";
import { scanEnded, scanFiles, type ScanStats, versionOfFile } from "./search_text.ts";
import { compileTextPattern, type TextPattern } from "./text_pattern.ts";
import { scanText } from "./text_scan.ts";
import type { SearchFiles, SearchTextQuery } from "./types.ts";

/** What to replace, and with what. */
export interface TextReplaceQuery {
  /** The search that selects the occurrences (its paging and output arguments are not used). */
  query: SearchTextQuery;
  /** The replacement: a template (`$1`, `${name}`, `$$`) unless `literalReplacement`. */
  replacement: string;
  /** Take the replacement as it is (also the case when the search pattern is literal). */
  literalReplacement: boolean;
  /** Only these occurrences (ids from an earlier search), or null: every occurrence. */
  ids: readonly Occurrence[] | null;
}

/** One occurrence and what replaces it. */
export interface ReplacedSite {
  /** 1-based line where the occurrence starts. */
  line: number;
  /** 1-based column (UTF-16 code units) where it starts. */
  column: number;
  /** Line of its end. */
  end_line: number;
  /** Column just past its end. */
  end_column: number;
  /** The text replaced. */
  before: string;
  /** The text that replaces it. */
  after: string;
  /** Its occurrence id (as `search_text` gives it, for the file's version before the change). */
  id: string;
}

/** One file's replacements. */
export interface FileReplacement {
  /** File path relative to the root. */
  path: string;
  /** The file's version before the change. */
  version: string;
  /** Its text before (a BOM dropped). */
  text: string;
  /** Its text after. */
  newText: string;
  /** The occurrences replaced, in order. */
  sites: ReplacedSite[];
  /**
   * A structural rewrite's: the language its sites were matched in, and each site as an edit of the old text
   * (offsets in UTF-16 code units), in the order of `sites`.
   */
  structural?: { language: string; edits: { start: number; end: number; text: string }[] };
}

/** The plan: every file that changes, and what the scan counted. */
export interface TextReplacePlan {
  /** Files with at least one replaced occurrence, in the walk's order. */
  files: FileReplacement[];
  /** Occurrences replaced, over all files. */
  sites: number;
  /** Files read, files with a match, files left out by cause. */
  stats: ScanStats;
  /** A warning for the caller (e.g. `\1` in a replacement, which is literal text here), if any. */
  warnings: string[];
}

/** The groups of a compiled pattern, as the caller's pattern numbers them (the `word` wrapper's own left out). */
function patternGroups(p: TextPattern): PatternGroups {
  const names: Record<string, number> = {};
  const re = p.re!; // asked for (`program: true`)
  for (const [name, index] of Object.entries(re.namedGroups())) names[name] = index - p.group;
  return { count: re.groupCount() - p.group, names };
}

/**
 * Occurrences one call of `edit_replace_text` or `edit_rewrite_structural` changes at most: each is planned
 * with its place, its texts and its id, and shown in a diff (`x` → `y` over a file of 15 million `x`s ran the
 * process out of memory). Past it the call is refused before the file's sites are made.
 */
export const MAX_EDIT_SITES = 100_000;

/**
 * Refuse a change that would reach past {@linkcode MAX_EDIT_SITES} with this file's matches.
 *
 * @param found The file, its matches, and the sites planned before it.
 * @param search The search that counts them (its tool and arguments), to call next.
 * @throws RecoverableError `limit_exceeded`.
 */
export function refuseTooManySites(
  found: { path: string; here: number; before: number; capped?: boolean },
  search: SearchCall,
): void {
  if (found.before + found.here <= MAX_EDIT_SITES && found.capped !== true) return;
  throw new RecoverableError(
    "limit_exceeded",
    `Cannot change every match: ${found.capped ? "more than " : ""}${
      found.here.toLocaleString("en")
    } in "${found.path}"${
      found.before > 0 ? ` after ${found.before.toLocaleString("en")} in the files before it` : ""
    }, past the ${MAX_EDIT_SITES.toLocaleString("en")} one call changes; nothing was written`,
    {
      hint: "Narrow it: a longer or anchored pattern, a path or glob naming fewer files, or the ids of the " +
        "occurrences to change (from the search); count the matches per file first",
      details: { path: found.path, matches: found.here, before: found.before, max_sites: MAX_EDIT_SITES },
      suggestedCall: { tool: search.tool, args: { ...search.args, output_mode: "count" } },
    },
  );
}

/** The refusal of a replacement that would make a file longer than {@linkcode MAX_REWRITTEN_CHARS}. */
function rewrittenTooLong(path: string, would: { length: number; sites: number }): RecoverableError {
  return new RecoverableError(
    "limit_exceeded",
    `Cannot replace the ${would.sites.toLocaleString("en")} sites of "${path}": the file would be ${
      would.length.toLocaleString("en")
    } characters long, over the ${
      MAX_REWRITTEN_CHARS.toLocaleString("en")
    } a file may have; nothing was written`,
    {
      hint: "Check the replacement (each site's new text is what it repeats: a metavariable or group many " +
        "times over multiplies the file), or replace fewer sites at a time (ids, a narrower pattern or path)",
      details: { path, length: would.length, max_chars: MAX_REWRITTEN_CHARS, sites: would.sites },
    },
  );
}

/** The sites of one file's matches, with their replacements. */
function sitesOf(
  found: { path: string; text: string; version: string; hits: number[]; groups: (string | null)[][] },
  template: ReplaceTemplate,
): (ReplacedSite & { start: number; end: number })[] {
  const { path, text, version, hits, groups } = found;
  const out: (ReplacedSite & { start: number; end: number })[] = [];
  const positions = new PositionCursor(text);
  for (let k = 0; k < hits.length; k += 2) {
    const start = hits[k]!;
    const end = hits[k + 1]!;
    const at = positions.at(start);
    const last = positions.at(end);
    out.push({
      start,
      end,
      line: at.line,
      column: at.column,
      end_line: last.line,
      end_column: last.column,
      before: text.slice(start, end),
      after: expandTemplate(template, groups[k / 2] ?? []),
      id: formatOccurrenceId({ path, line: at.line, column: at.column, version }),
    });
  }
  return out;
}

/**
 * Most characters a file may have once its sites are replaced: under V8's longest string (2^29 − 24) with room
 * for the copies a commit makes (its diff, its bytes), and over any file graver edits whole. A rewrite of 2,000
 * calls into 1,000 copies of their argument each (2 GB) failed as an internal error, "Invalid string length".
 */
export const MAX_REWRITTEN_CHARS = 128 * 1024 * 1024;

/**
 * The text with each site's span replaced (sites in order, not overlapping).
 *
 * @param text The file's text.
 * @param sites The spans and their new texts.
 * @param path The file (named in a refusal).
 * @returns The new text.
 * @throws RecoverableError `limit_exceeded` when it would be longer than {@linkcode MAX_REWRITTEN_CHARS}.
 */
export function applySites(
  text: string,
  sites: readonly { start: number; end: number; after: string }[],
  path = "the file",
): string {
  let length = text.length;
  for (const s of sites) length += s.after.length - (s.end - s.start);
  if (length > MAX_REWRITTEN_CHARS) throw rewrittenTooLong(path, { length, sites: sites.length });
  let out = "";
  let last = 0;
  for (const s of sites) {
    out += text.slice(last, s.start) + s.after;
    last = s.end;
  }
  return out + text.slice(last);
}

/**
 * The ids by file.
 *
 * @param ids Parsed occurrence ids.
 * @returns Each file's ids.
 */
export function idsByFile(ids: readonly Occurrence[]): Map<string, Occurrence[]> {
  const byFile = new Map<string, Occurrence[]>();
  for (const id of ids) byFile.set(id.path, [...byFile.get(id.path) ?? [], id]);
  return byFile;
}

/** The search that gives fresh ids: its tool and the arguments of the query (the refusals' next call). */
export interface SearchCall {
  tool: string;
  args: Record<string, unknown>;
}

function staleIds(
  path: string,
  found: { version: string; ids: readonly Occurrence[]; search: SearchCall },
): RecoverableError {
  const { version, ids, search } = found;
  const tool = search.tool;
  const listed = ids.map((i) => formatOccurrenceId(i)).join(", ");
  return new RecoverableError(
    "stale_base",
    version === ""
      ? `"${path}" can no longer be read as it was when the search returned ${listed} (it is gone, or is no ` +
        "longer a regular file inside the workspace root: a link leading out, a FIFO), so nothing was replaced"
      : `"${path}" changed after the search that returned ${listed}: their lines and columns may name other ` +
        "text now, so nothing was replaced",
    {
      hint: `Run ${tool} again for fresh ids (or call without ids to replace every occurrence as it is now)`,
      details: { path, current_version: version, ids: ids.map((i) => formatOccurrenceId(i)) },
      suggestedCall: { tool, args: { ...search.args, path } },
    },
  );
}

function unmatchedIds(ids: readonly Occurrence[], search: SearchCall): RecoverableError {
  const tool = search.tool;
  const listed = ids.map((i) => formatOccurrenceId(i));
  return new RecoverableError(
    "no_match",
    `${listed.length === 1 ? "The id" : "The ids"} ${listed.join(", ")} name${
      listed.length === 1 ? "s" : ""
    } no occurrence of this pattern (the file is unchanged, so the pattern or its options differ from the search that gave ${
      listed.length === 1 ? "it" : "them"
    })`,
    {
      hint: `Pass the same pattern and options as the ${tool} call that returned the ids`,
      details: { ids: listed },
    },
  );
}

/**
 * Keep only the sites the ids name; refuse stale files and ids that name nothing.
 *
 * @param file The file, its version now and its sites.
 * @param by The ids in this file, and the search tool that gives fresh ones (named in refusals).
 * @returns The sites the ids name.
 * @throws RecoverableError `stale_base` when the file changed since the ids; `no_match` for an id naming no site.
 */
export function selectSites<T extends { line: number; column: number }>(
  file: { path: string; version: string; sites: T[] },
  by: { ids: readonly Occurrence[]; search: SearchCall },
): T[] {
  const { ids, search } = by;
  const current = ids.filter((i) => occurrenceIsCurrent(i, file.version));
  if (current.length < ids.length) {
    throw staleIds(file.path, {
      version: file.version,
      ids: ids.filter((i) => !current.includes(i)),
      search,
    });
  }
  const kept = file.sites.filter((s) => ids.some((i) => i.line === s.line && i.column === s.column));
  const missing = ids.filter((i) => !file.sites.some((s) => i.line === s.line && i.column === s.column));
  if (missing.length > 0) throw unmatchedIds(missing, search);
  return kept;
}

/** A note when the replacement holds `\1`-style references, which are literal text in a template. */
function backslashWarning(replacement: string, groups: PatternGroups | null): string[] {
  if (groups === null || groups.count === 0 || !/\\[1-9]/.test(replacement)) return [];
  return [
    "The replacement holds \\1-style text, which is kept literally: capture groups are written $1 or ${1}",
  ];
}

/**
 * The refusal of an empty pattern: it matches at every position of every file (a search lists every line with
 * it, as ripgrep does; a replacement would write the replacement between every two characters).
 */
function emptyPattern(): RecoverableError {
  return new RecoverableError(
    "invalid_args",
    "Cannot replace an empty pattern: it matches at every position",
    {
      hint:
        'Pass the text to replace as "pattern" (with literal: true for a fixed string); to add text at each ' +
        'line\'s start, the pattern "^" (or "$" at its end)',
      details: { argument: "pattern" },
    },
  );
}

/**
 * Plan a replacement: scan the files as `search_text` would, replace every occurrence (or the ones `ids`
 * name), and return each changed file's new text.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeSearchTextArgs } from "./text_args.ts";
 * import { planTextReplace } from "./replace_text.ts";
 *
 * const texts: Record<string, string> = { "a.ts": "log(a);\nlog(b, c);\n" };
 * const files = {
 *   async *files() { yield { path: "a.ts" }; },
 *   read: async (path: string) => new TextEncoder().encode(texts[path]),
 * };
 * const query = normalizeSearchTextArgs({ pattern: "log\\((\\w+)" });
 * const plan = await planTextReplace(files, { query, replacement: "console.log($1", literalReplacement: false, ids: null });
 * assert.equal(plan.files[0]!.newText, "console.log(a);\nconsole.log(b, c);\n");
 * assert.deepEqual(plan.files[0]!.sites.map((s) => [s.line, s.column, s.after]), [[1, 1, "console.log(a"], [2, 1, "console.log(b"]]);
 * ```
 *
 * @param files Where the files come from.
 * @param q The search, the replacement, and the ids to keep to.
 * @returns The plan (nothing is written).
 * @throws RecoverableError `invalid_args` for an empty pattern, a pattern the engine refuses or a group the
 *   pattern lacks;
 *   `stale_base` when a file an id names changed since; `no_match` for an id that names no occurrence.
 */
export async function planTextReplace(files: SearchFiles, q: TextReplaceQuery): Promise<TextReplacePlan> {
  if (q.query.pattern === "") throw emptyPattern();
  // The program even for a fixed string: a replacement's template reads its groups.
  const pattern = await compileTextPattern(q.query, { program: true });
  const groups = q.literalReplacement || q.query.literal ? null : patternGroups(pattern);
  const template = parseTemplate(q.replacement, groups);
  const byFile = q.ids === null ? null : idsByFile(q.ids);
  const stats: ScanStats = {
    scanned: 0,
    matched: 0,
    skipped: { ignored: 0, binary: 0, too_large: 0, unreadable: 0 },
  };
  const plan: TextReplacePlan = {
    files: [],
    sites: 0,
    stats,
    warnings: backslashWarning(q.replacement, groups),
  };
  const seen = new Set<string>();
  const search = textSearchCall(q.query);
  for await (const found of scanFiles(files, { query: q.query, pattern, stats })) {
    const ids = byFile?.get(found.file.path);
    if (byFile !== null && ids === undefined) continue;
    seen.add(found.file.path);
    const path = found.file.path;
    const version = await versionOfFile(files, path, found.bytes);
    refuseTooManySites({ path, here: found.hits.length / 2, before: plan.sites }, search);
    const captured: (string | null)[][] = [];
    // The scan gave offsets only; a template that names groups needs them, so those files are scanned again.
    if (template.pieces.some((p) => "group" in p)) scanText(pattern, found.text, captured);
    let sites = sitesOf({ path, text: found.text, version, hits: found.hits, groups: captured }, template);
    if (ids !== undefined) sites = selectSites({ path, version, sites }, { ids, search });
    if (sites.length === 0) continue;
    plan.sites += sites.length;
    plan.files.push({
      path,
      version,
      text: found.text,
      newText: applySites(found.text, sites, path),
      sites: sites.map(({ start: _s, end: _e, ...site }) => site),
    });
  }
  await scanEnded(files, stats.skipped);
  if (byFile !== null) {
    await refuseUnseenIds(files, {
      unseen: [...byFile].filter(([path]) => !seen.has(path)),
      search,
    });
  }
  return plan;
}

/** The `search_text` call that finds what a replacement of `query` changes (its pattern and how it matches). */
function textSearchCall(query: TextReplaceQuery["query"]): SearchCall {
  const args: Record<string, unknown> = { pattern: query.pattern };
  if (query.literal) args.literal = true;
  if (query.ignoreCase) args.ignore_case = true;
  if (query.smartCase) args.smart_case = true;
  if (query.word) args.word = true;
  if (query.multiline) args.multiline = true;
  return { tool: "search_text", args };
}

/**
 * Refuse ids in files the scan found no match in: stale when the file changed since, else naming nothing.
 *
 * @param files Where the files come from.
 * @param left The ids of files without a match, and the search tool that gives fresh ones.
 * @throws RecoverableError `stale_base` or `no_match` when there is any such id.
 */
export async function refuseUnseenIds(
  files: SearchFiles,
  left: { unseen: [string, Occurrence[]][]; search: SearchCall },
): Promise<void> {
  const { unseen, search } = left;
  for (const [path, ids] of unseen) {
    const bytes = await files.read(path).catch(() => null);
    const version = bytes === null ? "" : await versionOfFile(files, path, bytes);
    if (!ids.every((i) => occurrenceIsCurrent(i, version))) throw staleIds(path, { version, ids, search });
  }
  if (unseen.length > 0) throw unmatchedIds(unseen.flatMap(([, ids]) => ids), search);
}
