/**
 * Where a find_symbol search looks: the source files under a directory
 * (those with a grammar that has a symbol query, walked as every project-wide
 * walk is, at most {@linkcode MAX_SEARCH_FILES}), what a capped search did not
 * reach and the path that goes on, and what the walk skipped.
 *
 * @module
 */
import type { Stage } from "../fs/stage.ts";
import { skippedCounts, type WalkEntry, type WalkSkipped } from "../fs/walk.ts";
import { PROJECT_LIMITS } from "../project/limits.ts";
import { openProject } from "../project/project_view.ts";
import type { Parsing } from "../syntax/types.ts";
import { queriesEngine } from "./_lazy.ts";

/** Most files one search reads (the project walk's `search` limits). */
export const MAX_SEARCH_FILES: number = PROJECT_LIMITS.search.files;
/** Files larger than this are skipped by a workspace search. */
export const MAX_SEARCH_FILE_BYTES: number = PROJECT_LIMITS.search.fileBytes;

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
 * @param options `dir`: the relative directory ("" for the root); `limit`: most files; `includeIgnored`:
 *   search ignored files and `node_modules` too.
 * @returns Real relative paths (a file reached through a link inside the root: its target's; a link that
 *   leaves the root is skipped), whether the walk stopped at the limit (and then `next`, the first file it
 *   left out), and how many entries were ignored, skipped and unreadable.
 */
export async function sourceFiles(
  ws: Parsing,
  stage: Stage,
  options: { dir: string; limit?: number; includeIgnored?: boolean },
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
  const { dir, limit = MAX_SEARCH_FILES } = options;
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

/** Where a search looked: the path asked for, the files walked, the entries ignored, what the cap left out. */
export interface Scope {
  /** The path asked for ("" for the workspace). */
  base: string;
  /** The files searched. */
  files: string[];
  /** How many entries the ignore rules left out. */
  ignored: number;
  /** What the cap on files left out. */
  capped?: NotSearched;
  /** Entries the walk skipped (links out of the root, special files, unreadable folders), by cause. */
  skipped?: Record<string, number>;
  /** Folders that could not be read. */
  unreadable?: string[];
}

/** What a result says of the walk's skipped entries and unreadable folders. */
export function walkNotes(scope: Scope): Record<string, unknown> {
  return {
    ...(scope.skipped ? { skipped: scope.skipped } : {}),
    ...(scope.unreadable && scope.unreadable.length > 0 ? { unreadable: scope.unreadable } : {}),
  };
}

/**
 * The scope of a directory search: its source files (at most {@linkcode MAX_SEARCH_FILES}), what the walk
 * ignored and skipped, and, when the cap stopped it, what it did not reach.
 *
 * @param ws The workspace.
 * @param stage The stage to walk.
 * @param options `base`: the directory ("" for the root); `includeIgnored`: search ignored files and
 *   `node_modules` too.
 * @returns Where the search looks.
 */
export async function directoryScope(
  ws: Parsing,
  stage: Stage,
  { base, includeIgnored }: { base: string; includeIgnored: boolean },
): Promise<Scope> {
  const { files, ignored, next, skipped, unreadable } = await sourceFiles(ws, stage, {
    dir: base,
    limit: MAX_SEARCH_FILES,
    includeIgnored,
  });
  const counts = skippedCounts(skipped);
  const walked: Pick<Scope, "skipped" | "unreadable"> = {
    ...(counts ? { skipped: counts } : {}),
    unreadable,
  };
  const capped = next === undefined
    ? undefined
    : await notSearched(ws, stage, { base, next, limit: MAX_SEARCH_FILES, includeIgnored });
  return { base, files, ignored, ...(capped ? { capped } : {}), ...walked };
}
