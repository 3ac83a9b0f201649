/**
 * The read cache's shapes (`read_cache.ts`): a listed entry, how a cache is made, and what it has done.
 *
 * @module
 */
import type { ListedEntryKind } from "../fs/backend.ts";

/** One entry of a folder listing. */
export interface ListedEntry {
  /** Its name. */
  name: string;
  /** What it is. */
  kind: ListedEntryKind;
}

/** How a `ReadCache` is made. */
export interface ReadCacheOptions {
  /** Most bytes of file contents held (default `READ_CACHE_BYTES`). */
  maxBytes?: number;
  /** Most folder listings held (default `READ_CACHE_FOLDERS`). */
  maxFolders?: number;
  /** The wall clock in ms (default `Date.now`); tests pass their own. */
  now?: () => number;
  /**
   * How many searches of a root go by before the root is watched through the backend's change feed, at the end
   * of the next one (`ReadCache.sync`; default 0: from the end of the first search on). `Infinity`:
   * never watched — what a process that makes one search passes, so as not to pay for a watch it never uses.
   */
  watchAfter?: number;
  /** The most folders a root's watch covers (default `WATCH_FOLDERS_MAX`, `root_watches.ts`); past it, none is made. */
  maxWatchedFolders?: number;
}

/** How a `ReadCache` did so far. */
export interface ReadCacheCounts {
  /** Reads answered from the cache (a stat only). */
  hits: number;
  /** Reads that went to the backend. */
  misses: number;
  /** Files held now. */
  files: number;
  /** Bytes held now. */
  bytes: number;
  /** Folder listings held now. */
  folders: number;
  /** Walks remembered now. */
  walks: number;
}
