/**
 * The read cache every session over one backend shares ({@linkcode readCacheOf}), and the backends whose
 * searches keep none ({@linkcode forgoReadCache}: a process that makes one call).
 *
 * @module
 */
import type { BackendFs } from "../fs/backend.ts";
import { ReadCache, type ReadCacheOptions } from "./read_cache.ts";

/** One cache per backend: every session over it shares what was read. */
const CACHES = new WeakMap<BackendFs, ReadCache>();

/**
 * Stop the watches of a backend's read cache, if it has one (the workspace over it closes).
 *
 * @param fs The wrapped backend.
 */
export async function closeReadCache(fs: BackendFs): Promise<void> {
  await CACHES.get(fs)?.close();
}

/** Backends whose searches keep nothing for a next search ({@linkcode forgoReadCache}). */
const UNCACHED = new WeakSet<BackendFs>();

/**
 * Let the searches over a backend keep nothing for a next search: they list and read the tree without a
 * stat of each folder and file (what a cache's answers stand on), and {@linkcode sessionReadCache} answers
 * undefined. For a process that makes one call: its one search would pay for a cache it never reads again.
 *
 * @param fs The wrapped backend (every workspace over this very object).
 */
export function forgoReadCache(fs: BackendFs): void {
  UNCACHED.add(fs);
}

/**
 * The read cache a session's read-only searches over a backend share ({@linkcode readCacheOf}), or undefined
 * where {@linkcode forgoReadCache} said they keep nothing.
 *
 * @param fs The wrapped backend.
 * @returns Its cache, or undefined.
 */
export function sessionReadCache(fs: BackendFs): ReadCache | undefined {
  return UNCACHED.has(fs) ? undefined : readCacheOf(fs);
}

/**
 * The read cache of a backend (made on first use), which the read-only searches of every session over it
 * share.
 *
 * @param fs The wrapped backend.
 * @param options How to make it, if it is made now.
 * @returns Its cache.
 */
export function readCacheOf(fs: BackendFs, options?: ReadCacheOptions): ReadCache {
  let cache = CACHES.get(fs);
  if (!cache) CACHES.set(fs, cache = new ReadCache(fs, options));
  return cache;
}
