/**
 * What a new watch covers from its first moment ({@linkcode recheckUnder}): the listings, walks and files a
 * read cache kept of a tree before the watch began, each shown unchanged by one stat taken after it began.
 * Without the check none of them could be trusted unstat'ed until a search stat'ed it again: a change made
 * between the stat that kept it and the watch's start is reported by no event.
 *
 * @module
 */
import type { BackendStats } from "../fs/backend.ts";
import type { KeptFiles } from "./kept_files.ts";
import { sameState, stateOf, statIdOf } from "./stat_identity.ts";

/** What a read cache keeps that a watch may cover: each entry with the change count it was last seen at. */
export interface KeptUnderWatch {
  /** Kept folder listings by absolute path, with the stamp each was listed under. */
  listings: ReadonlyMap<string, { stamp: string; seen: number }>;
  /** Remembered walks, with the state of each folder and ignore file they depended on. */
  walks: Iterable<{ stamps: ReadonlyMap<string, string>; seen: number }>;
  /** Kept file contents. */
  files: KeptFiles;
}

/**
 * Whether `path` is `root` or inside it (absolute backend paths).
 *
 * @param path The path.
 * @param root The folder.
 * @returns True when under it.
 */
export function isUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);
}

/**
 * Check by one stat call the kept listings and files under `root` and every remembered walk's folders and
 * ignore files: those unchanged are marked seen at `seen`, the change count taken once the watch began (and
 * before these stats).
 *
 * @param root Absolute backend path of the watched root.
 * @param kept What the cache keeps.
 * @param at `seen`: the change count; `statAll`: stats of many paths in one call (null where one failed).
 */
export async function recheckUnder(
  root: string,
  kept: KeptUnderWatch,
  at: { seen: number; statAll: (paths: readonly string[]) => Promise<(BackendStats | null)[]> },
): Promise<void> {
  const walks = [...kept.walks];
  const paths = new Set([...kept.listings.keys()].filter((p) => isUnder(p, root)));
  for (const walk of walks) for (const path of walk.stamps.keys()) paths.add(path);
  const files = [...kept.files.entries()].filter(([path]) => isUnder(path, root));
  const list = [...paths, ...files.map(([path]) => path)];
  const stats = await at.statAll(list);
  const statOf = new Map(list.map((p, i) => [p, stats[i] ?? null]));
  const stateAt = (path: string) => stateOf(statOf.get(path) ?? null);
  for (const [path, listing] of kept.listings) {
    if (statOf.has(path) && stateAt(path) === `d:${listing.stamp}`) listing.seen = at.seen;
  }
  for (const walk of walks) {
    if ([...walk.stamps].every(([path, state]) => stateAt(path) === state)) walk.seen = at.seen;
  }
  for (const [path, file] of files) {
    const st = statOf.get(path) ?? null;
    if (kept.files.get(path) === file && sameState(file.id, st?.isFile() ? statIdOf(st) : null)) {
      file.seen = at.seen;
    }
  }
}
