/**
 * The one walk of a project tree, which every project-wide search and listing
 * uses through the project view (`src/project/project_view.ts`): version-control
 * folders (`.git`, `.hg`, `.svn`, `.jj`, `.bzr`) and graver's `.graver/` are
 * never entered; `.gitignore` files (the root's and nested ones; `.ignore` too
 * when asked) are honoured, names that start with a dot are left out when
 * asked, and `node_modules` is skipped unless the caller asks for ignored files.
 * Works through any object that lists and reads relative paths (a `Stage`),
 * so it sees staged changes and runs on every Backend.
 *
 * Links and special files follow one rule here, for every tool that walks: a
 * symbolic link whose target leaves the root (or cannot be resolved inside it)
 * is skipped and counted in `skipped.outside_root`; a link inside the root is
 * followed once, and what it reaches is reported with its real path
 * (`WalkEntry.real`) so that reads and writes go to the target, never the
 * link; every real file and directory is reported at most once (no cycles, no
 * duplicates). FIFOs, sockets and devices are skipped and counted in
 * `skipped.special_file`.
 *
 * @module
 */
import { errnoCode } from "../errors.ts";
import { type IgnoreRule, isIgnored, parseGitignore } from "./_gitignore.ts";

/** Folders no walk enters: version-control metadata and graver's own. */
export const NEVER_WALKED: ReadonlySet<string> = new Set([".git", ".hg", ".svn", ".jj", ".bzr", ".graver"]);

/** Folders skipped unless ignored files are asked for (even without a `.gitignore` naming them). */
export const SKIPPED_BY_DEFAULT: ReadonlySet<string> = new Set(["node_modules"]);

/** What a directory listing says an entry is ("other": a FIFO, socket or device). */
export type ListedKind = "file" | "dir" | "symlink" | "other";

/** Where a symbolic link leads inside the root: its real relative path and what is there (null: nothing). */
export interface LinkTarget {
  /** Real path relative to the root (no link in it). */
  rel: string;
  /** What the target is. */
  kind: "file" | "dir" | "other" | null;
}

/** What a walk reads: a directory listing and a file's bytes, by relative path (a `Stage` fits). */
export interface WalkSource {
  /** Sorted entries of a directory ("" for the root). */
  list(dirRel: string): Promise<{ name: string; kind: ListedKind }[]>;
  /** A file's bytes, or null when absent. */
  read(rel: string): Promise<{ bytes: Uint8Array } | null>;
  /**
   * Where the symbolic link at `rel` leads, or null when its target leaves the root (a source without it
   * has every link skipped as outside).
   */
  follow?(rel: string): Promise<LinkTarget | null>;
}

/** One entry a walk found. */
export interface WalkEntry {
  /** Path relative to the root, as the tree names it (through a link: the link's path). */
  rel: string;
  /** File or directory (a link: what it leads to). */
  kind: "file" | "dir";
  /** Real path relative to the root: where to read and write (equal to `rel` unless reached through a link). */
  real: string;
}

/** Entries a walk left out and why (ignored files are counted apart, in `ignored`). */
export interface WalkSkipped {
  /** Symbolic links whose target leaves the root: never read, never listed. */
  outside_root: number;
  /** FIFOs, sockets and devices: never opened. */
  special_file: number;
  /**
   * Directories the walk may not read (permission denied), or that were listed elsewhere than asked (a folder
   * on the way swapped for a link since the walk met it): left out, named in `WalkResult.unreadable`.
   */
  unreadable: number;
}

/** How many unreadable directories a walk names (all are counted). */
export const MAX_UNREADABLE_NAMED = 20;

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
  /**
   * Leave out files and folders whose name starts with a dot, counted in `ignored` (default false: listed,
   * as list_files and find_symbol always have; a search skips them unless asked).
   */
  skipHidden?: boolean;
  /**
   * The ignore files read in each folder, later ones winning (default {@linkcode GITIGNORE_ONLY}; a search
   * passes `[".gitignore", ".ignore"]` as ripgrep reads them).
   */
  ignoreFiles?: readonly string[];
  /**
   * Told the entries accepted so far (the walk's own array, growing) and their `ignoredBefore` each time the
   * walk is about to wait for a folder's listing: a caller may start on the first files while the walk goes on
   * (a search does).
   */
  progress?: (entries: readonly WalkEntry[], ignoredBefore: readonly number[]) => void;
  /** Asked before each folder: true ends the walk there (its result then says `stopped`). */
  stopped?: () => boolean;
}

/** What a walk returns. */
export interface WalkResult {
  /**
   * Accepted entries, depth first, each directory's entries in name order; what is reached only through a
   * link comes after the rest.
   */
  entries: WalkEntry[];
  /** True when the walk stopped at the limit. */
  truncated: boolean;
  /** Entries left out because they are ignored (their contents not counted). */
  ignored: number;
  /**
   * For each entry, how many the walk had ignored when it reached it: what a caller that stops at that entry
   * reports, however far the walk went.
   */
  ignoredBefore: number[];
  /** Entries left out as unsafe to follow or open, or unreadable. */
  skipped: WalkSkipped;
  /** The directories it could not read (the first {@linkcode MAX_UNREADABLE_NAMED}). */
  unreadable: string[];
  /** Set when the caller ended the walk before its end (`WalkOptions.stopped`): the entries are a prefix. */
  stopped?: true;
}

/** The skipped counts that are not zero (what a tool's result reports), or null when none. */
export function skippedCounts(skipped: WalkSkipped): Partial<WalkSkipped> | null {
  const out: Partial<WalkSkipped> = {};
  for (const [key, n] of Object.entries(skipped) as [keyof WalkSkipped, number][]) if (n > 0) out[key] = n;
  return Object.keys(out).length > 0 ? out : null;
}

const decoder = new TextDecoder();

/** The ignore files a walk reads by default. */
export const GITIGNORE_ONLY: readonly string[] = [".gitignore"];

/**
 * The rules of the ignore files in directory `real`, anchored at its tree path `rel`, in the order of
 * `names` (a later file's rule wins over an earlier one's, as ripgrep's `.ignore` over `.gitignore`).
 */
async function rulesOf(
  source: WalkSource,
  dir: { real: string; rel: string },
  names: readonly string[],
): Promise<IgnoreRule[]> {
  let out: IgnoreRule[] = [];
  for (const name of names) {
    const file = await source.read(dir.real === "" ? name : `${dir.real}/${name}`).catch(() => null);
    if (file) out = out.concat(parseGitignore(decoder.decode(file.bytes), dir.rel));
  }
  return out;
}

/** Join a directory's relative path and a name. */
function under(dir: string, name: string): string {
  return dir === "" ? name : `${dir}/${name}`;
}

/** Whether an error is the system's refusal to read (an errno, or a tool error made of one). */
function isDenied(err: unknown): boolean {
  const code = errnoCode(err);
  return code === "EACCES" || code === "EPERM" || code === "permission_denied";
}

/**
 * What a listed entry is once a link is followed: its real path and kind, why it is skipped, or null for a
 * link to nothing. The one place where a walk decides about links and special files.
 */
async function settle(
  source: WalkSource,
  real: string,
  kind: ListedKind,
): Promise<{ real: string; kind: "file" | "dir" } | keyof WalkSkipped | null> {
  if (kind === "file" || kind === "dir") return { real, kind };
  if (kind === "other") return "special_file";
  let target: Awaited<ReturnType<NonNullable<WalkSource["follow"]>>>;
  try {
    target = source.follow ? await source.follow(real) : null;
  } catch (err) {
    if (isDenied(err)) return "unreadable"; // a link the walk may not read (`/proc/1/cwd`), as a folder
    throw err;
  }
  if (target === null) return "outside_root";
  if (target.kind === null) return null;
  if (target.kind === "other") return "special_file";
  return { real: target.rel, kind: target.kind };
}

/**
 * Walk the tree under `dir` (relative, "" for the root).
 *
 * @param source Where to list and read (the call's stage).
 * @param dir Directory to start from (a real path: no link in it); it is walked even when ignored (the caller
 *   named it), with the `.gitignore` rules of its parent directories.
 * @param options Recursion, ignored files, a filter and a limit.
 * @returns The entries, whether the limit cut the walk, how many entries were ignored and how many skipped.
 */
export async function walkProject(
  source: WalkSource,
  dir: string,
  options: WalkOptions = {},
): Promise<WalkResult> {
  const walk = new ProjectWalk(source, { dir, options });
  await walk.walk(dir, dir, await walk.inheritedRules());
  await walk.followLinks();
  const { entries, truncated, ignored, ignoredBefore, skipped, unreadable } = walk;
  const result = { entries, truncated, ignored, ignoredBefore, skipped, unreadable };
  return walk.stopped ? { ...result, stopped: true } : result;
}

/** A link inside the root, followed once the rest of the tree is walked. */
interface PendingLink {
  rel: string;
  real: string;
  kind: "file" | "dir";
  rules: IgnoreRule[];
}

/** One walk's settings and what it has found so far. */
class ProjectWalk {
  readonly dir: string;
  readonly options: WalkOptions;
  readonly recursive: boolean;
  /** Whether ignore rules and the directories skipped by default apply. */
  readonly honour: boolean;
  readonly limit: number;
  readonly ignoreFiles: readonly string[];
  readonly entries: WalkEntry[] = [];
  /** {@linkcode WalkResult.ignoredBefore}. */
  readonly ignoredBefore: number[] = [];
  readonly skipped: WalkSkipped = { outside_root: 0, special_file: 0, unreadable: 0 };
  readonly unreadable: string[] = [];
  readonly seen: Set<string>;
  /** Links inside the root: followed after the rest of the tree, so that a file or directory is reported
   * under its own path when the walk reaches it that way too. */
  readonly links: PendingLink[] = [];
  /** Listings started ahead of the walk reaching their folder ({@linkcode ProjectWalk.prefetch}). */
  readonly prefetched = new Map<string, ReturnType<WalkSource["list"]>>();
  truncated = false;
  /** Set when the caller ended the walk (`WalkOptions.stopped`). */
  stopped = false;
  ignored = 0;

  constructor(readonly source: WalkSource, { dir, options }: { dir: string; options: WalkOptions }) {
    this.dir = dir;
    this.options = options;
    this.recursive = options.recursive ?? true;
    this.honour = options.includeIgnored !== true;
    this.limit = options.limit ?? Infinity;
    this.ignoreFiles = options.ignoreFiles ?? GITIGNORE_ONLY;
    this.seen = new Set<string>([dir]);
  }

  /** Rules of the start directory's parents, root first. */
  async inheritedRules(): Promise<IgnoreRule[]> {
    let inherited: IgnoreRule[] = [];
    if (!this.honour) return inherited;
    const parts = this.dir === "" ? [] : this.dir.split("/");
    for (let i = 0; i < parts.length; i++) {
      const parent = parts.slice(0, i).join("/");
      inherited = inherited.concat(
        await rulesOf(this.source, { real: parent, rel: parent }, this.ignoreFiles),
      );
    }
    return inherited;
  }

  /** A directory's entries; one the walk may not read is skipped and reported (not the start directory). */
  async listed(rel: string, real: string): Promise<Awaited<ReturnType<WalkSource["list"]>>> {
    const early = this.prefetched.get(real);
    this.prefetched.delete(real);
    this.options.progress?.(this.entries, this.ignoredBefore);
    try {
      return await (early ?? this.source.list(real));
    } catch (err) {
      // A folder listed elsewhere than asked (a folder on its way swapped for a link: `ELOOP`) is skipped too.
      if (rel === this.dir || !(isDenied(err) || errnoCode(err) === "ELOOP")) throw err;
      if (this.skipped.unreadable++ < MAX_UNREADABLE_NAMED) this.unreadable.push(rel);
      return [];
    }
  }

  /** Record an entry (unless reached before, filtered out or over the limit), and walk into a directory. */
  async add(found: PendingLink): Promise<void> {
    if (this.record(found) && found.kind === "dir" && this.recursive) {
      await this.walk(found.rel, found.real, found.rules);
    }
  }

  /**
   * Record an entry unless reached before, filtered out or over the limit: false when the walk goes no further
   * with it (reached before, or the limit hit).
   */
  record({ rel, real, kind }: PendingLink): boolean {
    if (this.seen.has(real)) return false; // reached before, by its own path or through another link
    this.seen.add(real);
    const entry: WalkEntry = { rel, kind, real };
    if (!this.options.accept || this.options.accept(entry)) {
      if (this.entries.length >= this.limit) {
        this.truncated = true;
        return false;
      }
      this.entries.push(entry);
      this.ignoredBefore.push(this.ignored);
    }
    return true;
  }

  /** Walk one directory with the rules in force above it. */
  async walk(rel: string, real: string, rules: IgnoreRule[]): Promise<void> {
    if (this.stopped || this.options.stopped?.()) {
      this.stopped = this.truncated = true; // the entries so far, and no more
      return;
    }
    const listed = await this.listed(rel, real);
    // Only the ignore files the listing holds are read: a read of an absent one costs a failed call per folder.
    const present = this.honour ? this.ignoreFiles.filter((name) => listed.some((e) => e.name === name)) : [];
    const here = present.length > 0
      ? rules.concat(await rulesOf(this.source, { real, rel }, present))
      : rules;
    const next: PendingLink[] = [];
    for (const e of listed) {
      const child = under(rel, e.name);
      // A file or folder is what it is listed as: no promise; a link or special file is settled.
      const found = e.kind === "file" || e.kind === "dir"
        ? { real: under(real, e.name), kind: e.kind }
        : await settle(this.source, under(real, e.name), e.kind);
      if (found === null) continue;
      if (typeof found === "string") {
        this.skipped[found]++;
        continue;
      }
      if (this.leftOut(e.name, { child, isDir: found.kind === "dir", rules: here })) continue;
      const entry = { rel: child, real: found.real, kind: found.kind, rules: here };
      if (e.kind === "symlink") this.links.push(entry);
      else next.push(entry);
    }
    this.prefetch(next);
    for (const entry of next) {
      if (this.truncated) return;
      // A file is recorded without a promise; a folder is walked into.
      if (entry.kind === "dir") await this.add(entry);
      else this.record(entry);
    }
  }

  /**
   * Start listing the subfolders about to be walked, so that the backend lists them side by side while the
   * walk goes through them in order (a folder reached by its own path only: a link's target is listed when
   * the walk reaches it).
   */
  prefetch(next: PendingLink[]): void {
    if (!this.recursive) return;
    for (const e of next) {
      if (e.kind !== "dir" || this.seen.has(e.real) || this.prefetched.has(e.real)) continue;
      const listing = this.source.list(e.real);
      listing.catch(() => {}); // a failure is met (and judged) when the walk reaches the folder
      this.prefetched.set(e.real, listing);
    }
  }

  /** Whether an entry stays out of the walk: never walked, hidden when asked, or ignored (counted). */
  leftOut(
    name: string,
    { child, isDir, rules }: { child: string; isDir: boolean; rules: IgnoreRule[] },
  ): boolean {
    if (isDir && NEVER_WALKED.has(name)) return true;
    const hidden = this.options.skipHidden === true && name.startsWith(".");
    const ignored = !hidden && this.honour &&
      ((isDir && SKIPPED_BY_DEFAULT.has(name)) || isIgnored(rules, child, isDir));
    if (hidden || ignored) this.ignored++;
    return hidden || ignored;
  }

  /** Follow the links found inside the root, in order, while the limit allows. */
  async followLinks(): Promise<void> {
    for (let i = 0; i < this.links.length && !this.truncated; i++) await this.add(this.links[i]!);
  }
}
