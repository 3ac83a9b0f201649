/**
 * The one walk of a project tree that every project-wide search and listing
 * uses (list_files, find_symbol and its did-you-mean): version-control
 * folders (`.git`, `.hg`, `.svn`, `.jj`, `.bzr`) and graver's `.graver/` are
 * never entered; `.gitignore` files (the root's and nested ones) are honoured
 * and `node_modules` is skipped unless the caller asks for ignored files.
 * Works through any object that lists and reads relative paths (a `Stage`),
 * so it sees staged changes and runs on every Backend.
 *
 * @module
 */
import { type IgnoreRule, isIgnored, parseGitignore } from "./_gitignore.ts";

/** Folders no walk enters: version-control metadata and graver's own. */
export const NEVER_WALKED: ReadonlySet<string> = new Set([".git", ".hg", ".svn", ".jj", ".bzr", ".graver"]);

/** Folders skipped unless ignored files are asked for (even without a `.gitignore` naming them). */
export const SKIPPED_BY_DEFAULT: ReadonlySet<string> = new Set(["node_modules"]);

/** What a walk reads: a directory listing and a file's bytes, by relative path (a `Stage` fits). */
export interface WalkSource {
  /** Sorted entries of a directory ("" for the root). */
  list(dirRel: string): Promise<{ name: string; kind: "file" | "dir" }[]>;
  /** A file's bytes, or null when absent. */
  read(rel: string): Promise<{ bytes: Uint8Array } | null>;
}

/** One entry a walk found. */
export interface WalkEntry {
  /** Path relative to the root. */
  rel: string;
  /** File or directory. */
  kind: "file" | "dir";
}

/** Options of {@linkcode walkProject}. */
export interface WalkOptions {
  /** Enter subdirectories (default true). */
  recursive?: boolean;
  /** List what `.gitignore` ignores and `node_modules` too (default false). */
  includeIgnored?: boolean;
  /** Which entries to return (all by default); directories are entered either way. */
  accept?: (entry: WalkEntry) => boolean;
  /** Most entries returned (default: no limit). */
  limit?: number;
}

/** What a walk returns. */
export interface WalkResult {
  /** Accepted entries, depth first, each directory's entries in name order. */
  entries: WalkEntry[];
  /** True when the walk stopped at the limit. */
  truncated: boolean;
  /** Entries left out because they are ignored (their contents not counted). */
  ignored: number;
}

const decoder = new TextDecoder();

/** The rules of `dir/.gitignore`, or none. */
async function rulesOf(source: WalkSource, dir: string): Promise<IgnoreRule[]> {
  const file = await source.read(dir === "" ? ".gitignore" : `${dir}/.gitignore`).catch(() => null);
  return file ? parseGitignore(decoder.decode(file.bytes), dir) : [];
}

/**
 * Walk the tree under `dir` (relative, "" for the root).
 *
 * @param source Where to list and read (the call's stage).
 * @param dir Directory to start from; it is walked even when ignored (the caller named it), with the
 *   `.gitignore` rules of its parent directories.
 * @param options Recursion, ignored files, a filter and a limit.
 * @returns The entries, whether the limit cut the walk, and how many entries were ignored.
 */
export async function walkProject(
  source: WalkSource,
  dir: string,
  options: WalkOptions = {},
): Promise<WalkResult> {
  const recursive = options.recursive ?? true;
  const honour = options.includeIgnored !== true;
  const limit = options.limit ?? Infinity;
  const entries: WalkEntry[] = [];
  let truncated = false;
  let ignored = 0;
  // Rules of the start directory's parents, root first.
  let inherited: IgnoreRule[] = [];
  if (honour) {
    const parts = dir === "" ? [] : dir.split("/");
    for (let i = 0; i < parts.length; i++) {
      inherited = inherited.concat(await rulesOf(source, parts.slice(0, i).join("/")));
    }
  }
  const walk = async (rel: string, rules: IgnoreRule[]): Promise<void> => {
    const here = honour ? rules.concat(await rulesOf(source, rel)) : rules;
    for (const e of await source.list(rel)) {
      if (truncated) return;
      const child = rel === "" ? e.name : `${rel}/${e.name}`;
      const isDir = e.kind === "dir";
      if (isDir && NEVER_WALKED.has(e.name)) continue;
      if (honour && ((isDir && SKIPPED_BY_DEFAULT.has(e.name)) || isIgnored(here, child, isDir))) {
        ignored++;
        continue;
      }
      const entry: WalkEntry = { rel: child, kind: e.kind };
      if (!options.accept || options.accept(entry)) {
        if (entries.length >= limit) {
          truncated = true;
          return;
        }
        entries.push(entry);
      }
      if (isDir && recursive) await walk(child, here);
    }
  };
  await walk(dir, inherited);
  return { entries, truncated, ignored };
}
