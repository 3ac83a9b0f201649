/**
 * What a session has read of the project, kept for its next search: a file whose stat (size, modification
 * and change times, inode) is what it was when it was read keeps its bytes, and a folder whose stat is
 * unchanged keeps its listing (adding, removing or renaming an entry changes a folder's modification time).
 * A warm search so pays a stat per file and folder instead of a listing, an open and a read, and the same
 * byte array comes back (its decoded text, its version and its parse are remembered by identity elsewhere).
 * Where the backend stats many paths in one call ({@linkcode Backend.statMany}), the search stats every known
 * folder, then every listed file, in one call each ({@linkcode ReadCache.prime}). A whole walk is remembered
 * too, with the stamp of every folder it listed and every ignore file it read: while none has changed (one
 * stat call for them all) its result comes back without a walk ({@linkcode ReadCache.recallWalk}); a walk that
 * followed a link is never remembered (a link is resolved against the root at each use).
 *
 * A stat is evidence for a search, never for a write: two writes of the same size within one tick of the
 * file system's clock leave the stat unchanged. So this cache serves only read-only searches (search_text,
 * search_structural); an edit reads the file afresh and is guarded by the SHA-256 version of its bytes, and
 * a version a search returned from a stale entry is refused as `stale_base` by the edit it feeds. A file or
 * folder changed less than {@linkcode RACY_MS} before it was read is not kept (its stat could still change
 * without showing it, as git's "racily clean" entries), nor is a file whose read saw a size other than its
 * stat's. The cache holds at most `maxBytes` of file contents and `maxFolders` listings (least recently used
 * go first).
 *
 * @module
 */
import type { Backend, BackendFs, BackendStats, ListedEntryKind } from "../fs/backend.ts";

/** How recent a change may be for a read to be kept: a newer file is read again next time. */
export const RACY_MS = 2000;

/** What a read cache holds at most by default, in bytes of file contents. */
export const READ_CACHE_BYTES = 256 * 1024 * 1024;

/** How long a primed stat stands in for a fresh one, in ms (a search uses its stats at once). */
const PRIMED_MS = 1000;

/** How many folder listings a read cache holds at most by default. */
export const READ_CACHE_FOLDERS = 100_000;

/** One entry of a folder listing. */
export interface ListedEntry {
  /** Its name. */
  name: string;
  /** What it is. */
  kind: ListedEntryKind;
}

/** The stat fields that identify one state of a file ({@linkcode BackendStats} where the backend has them). */
interface StatIdentity {
  mtimeMs?: number;
  ctimeMs?: number;
  ino?: number | bigint;
}

/** One kept file: the stat it was read under, and its bytes. */
interface Kept {
  id: StatId;
  bytes: Uint8Array;
  /** The search (`prime`) that last kept or used it. */
  gen: number;
}

/** Walks remembered at most (one per distinct folder and walk options). */
const KEPT_WALKS = 64;

/** One remembered walk: its result, and the stamp of each folder and ignore file it depended on. */
interface KeptWalk {
  result: unknown;
  stamps: Map<string, string>;
}

/**
 * What one walk depended on, noted as it goes: each folder it listed and each ignore file it read, with
 * their stamps. A walk that followed a link, or met a path changed too recently to trust its stat, is not
 * remembered ({@linkcode WalkRecord.usable} false).
 */
export class WalkRecord {
  /** Absolute path -> its stamp when the walk saw it. */
  readonly stamps = new Map<string, string>();
  /** Whether the walk may be remembered. */
  usable = true;
  /** Folder (absolute path, "" for "/") -> the ignore files it holds, which the walk read. */
  readonly ignoreFiles = new Map<string, string[]>();

  /**
   * Note a path the walk depended on.
   *
   * @param abs Its absolute backend path.
   * @param stamp Its stamp, or null when it cannot be trusted (then the walk is not remembered).
   */
  note(abs: string, stamp: string | null): void {
    if (stamp === null) this.usable = false;
    else this.stamps.set(abs, stamp);
  }
}

/** One kept folder: the stat it was listed under, and its entries. */
interface KeptListing {
  stamp: string;
  entries: ListedEntry[];
}

/** How a {@linkcode ReadCache} is made. */
export interface ReadCacheOptions {
  /** Most bytes of file contents held (default {@linkcode READ_CACHE_BYTES}). */
  maxBytes?: number;
  /** Most folder listings held (default {@linkcode READ_CACHE_FOLDERS}). */
  maxFolders?: number;
  /** The wall clock in ms (default `Date.now`); tests pass their own. */
  now?: () => number;
}

/** How a {@linkcode ReadCache} did so far. */
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

/** What identifies one state of a file or folder: size, modification and change times in whole ms, inode. */
interface StatId {
  size: number;
  mtime: number;
  /** -1 where the backend reports none. */
  ctime: number;
  ino: number | bigint | undefined;
}

/** A stat's {@linkcode StatId}, or null when the backend reports no modification time (then nothing is kept). */
function statIdOf(st: BackendStats): StatId | null {
  const id = st as BackendStats & StatIdentity;
  if (typeof id.mtimeMs !== "number" || st.size === undefined) return null;
  // Whole milliseconds: one stat call gives fractions and another not (Deno's `Date`s), and the same file must
  // stamp the same either way. A change within the same millisecond is the racily-clean case, never kept.
  const ctime = id.ctimeMs === undefined ? -1 : Math.trunc(id.ctimeMs);
  return { size: Number(st.size), mtime: Math.trunc(id.mtimeMs), ctime, ino: id.ino };
}

/** Whether two stats identify the same state (a kept file's check on each read: no string built). */
function sameState(a: StatId, b: StatId | null): boolean {
  return b !== null && a.size === b.size && a.mtime === b.mtime && a.ctime === b.ctime && a.ino === b.ino;
}

/** The stamp of a stat ({@linkcode StatId} as text, what a folder and a remembered walk keep), or null. */
function stampOf(st: BackendStats): string | null {
  const id = statIdOf(st);
  return id === null ? null : `${id.size}:${id.mtime}:${id.ctime}:${id.ino ?? ""}`;
}

/**
 * A path's state for a remembered walk: what it is and its stamp, "absent" when the stat found nothing, or
 * null when the backend reports no times (nothing can be remembered against it).
 */
function stateOf(st: BackendStats | null): string | null {
  if (st === null) return "absent";
  const stamp = stampOf(st);
  if (stamp === null) return null;
  return `${st.isDirectory() ? "d" : st.isFile() ? "f" : "o"}:${stamp}`;
}

/** The latest of a stat's modification and change times, in ms. */
function changedAt(st: BackendStats): number {
  const id = st as BackendStats & StatIdentity;
  return Math.max(id.mtimeMs ?? Infinity, id.ctimeMs ?? -Infinity);
}

/**
 * Bytes of files by absolute backend path, reused while their stat is unchanged.
 *
 * @example A second read of an unchanged file is the same array; a change is seen
 * ```ts
 * import assert from "node:assert/strict";
 * import { BackendFs, createMemoryBackend } from "@graver/core/fs";
 * import { ReadCache } from "./read_cache.ts";
 *
 * const raw = createMemoryBackend({ "/w/a.ts": "one\n" });
 * const cache = new ReadCache(BackendFs.wrap(raw), { now: () => Date.now() + 60_000 });
 * const first = await cache.read("/w/a.ts");
 * assert.equal(await cache.read("/w/a.ts"), first);
 * await raw.writeFile("/w/a.ts", new TextEncoder().encode("two, longer\n"));
 * assert.equal(new TextDecoder().decode((await cache.read("/w/a.ts"))!), "two, longer\n");
 * ```
 */
export class ReadCache {
  readonly #fs: BackendFs;
  readonly #maxBytes: number;
  readonly #maxFolders: number;
  readonly #now: () => number;
  /** Kept files in least-recently-used order (a hit moves its entry to the end). */
  readonly #kept = new Map<string, Kept>();
  /** Kept folder listings, in the same order. */
  readonly #listings = new Map<string, KeptListing>();
  /** Remembered walks by key, in the same order. */
  readonly #walks = new Map<string, KeptWalk>();
  /** Stats taken by {@linkcode ReadCache.prime}, each used by the next read or listing of its path. */
  readonly #primed = new Map<string, BackendStats | null>();
  #primedAt = 0;
  /** Counts searches (each `prime`): what the current one kept or used may not push out each other. */
  #gen = 0;
  #bytes = 0;
  #hits = 0;
  #misses = 0;

  /**
   * Make an empty cache over a backend.
   *
   * @param fs The wrapped backend.
   * @param options Its bounds and clock.
   */
  constructor(fs: BackendFs, options: ReadCacheOptions = {}) {
    this.#fs = fs;
    this.#maxBytes = options.maxBytes ?? READ_CACHE_BYTES;
    this.#maxFolders = options.maxFolders ?? READ_CACHE_FOLDERS;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Stat many paths in one call where the backend can ({@linkcode Backend.statMany}), for the reads and
   * listings that follow; a no-op on a backend without it (each read stats its own file).
   *
   * @param paths Absolute backend paths.
   */
  async prime(paths: readonly string[]): Promise<void> {
    this.#primed.clear(); // what an earlier search primed and did not use is old news
    this.#gen++;
    const statMany = (this.#fs.raw as Backend).statMany;
    if (!statMany || paths.length === 0) return;
    const stats = await statMany.call(this.#fs.raw, paths);
    this.#primedAt = this.#now();
    for (let i = 0; i < paths.length; i++) this.#primed.set(paths[i]!, stats[i] ?? null);
  }

  /**
   * Prime the stats of the folders whose listings are kept under `abs` (itself included): what a walk from
   * there will list.
   *
   * @param abs Absolute backend path of the folder a walk starts from.
   */
  async primeFolders(abs: string): Promise<void> {
    const prefix = abs.endsWith("/") ? abs : `${abs}/`;
    await this.prime([...this.#listings.keys()].filter((p) => p === abs || p.startsWith(prefix)));
  }

  /** A path's stat: the primed one (used once), else a fresh one; null when it failed. */
  async #stat(abs: string): Promise<BackendStats | null> {
    const primed = this.#primedStat(abs);
    return primed !== undefined ? primed : await this.#fs.raw.stat(abs).catch(() => null);
  }

  /** A path's primed stat (used up: null when it failed), or undefined when none is primed or it is too old. */
  #primedStat(abs: string): BackendStats | null | undefined {
    const primed = this.#primed.get(abs);
    if (primed === undefined) return undefined;
    this.#primed.delete(abs);
    return this.#now() - this.#primedAt <= PRIMED_MS ? primed : undefined;
  }

  /**
   * A file's kept bytes when the stat {@linkcode ReadCache.prime} just took of it (used up here) is the one they
   * were read under: what {@linkcode ReadCache.read} would answer, without a promise. Undefined otherwise (no
   * fresh primed stat, nothing kept, or a change), and then the primed stat is left for `read`.
   *
   * @param abs Absolute backend path (a real path: no link in it).
   * @returns The bytes, or undefined.
   */
  held(abs: string): Uint8Array | undefined {
    const kept = this.#kept.get(abs);
    const primed = this.#primed.get(abs);
    if (kept === undefined || !primed?.isFile() || this.#now() - this.#primedAt > PRIMED_MS) return undefined;
    if (!sameState(kept.id, statIdOf(primed))) return undefined;
    this.#primed.delete(abs);
    return this.#hit(abs, kept);
  }

  /** Answer a read from a kept file: counted, and moved to the most recently used end. */
  #hit(abs: string, kept: Kept): Uint8Array {
    this.#hits++;
    this.#kept.delete(abs);
    this.#kept.set(abs, kept);
    kept.gen = this.#gen;
    return kept.bytes;
  }

  /**
   * A file's bytes: the kept ones when its stat is unchanged, else read from the backend (and kept when the
   * file is old enough to trust its stat). Null when it is absent; a file the backend refuses (a special
   * file, a directory) fails as {@linkcode BackendFs.read} fails.
   *
   * @param abs Absolute backend path (a real path: no link in it).
   * @returns The bytes, or null.
   */
  async read(abs: string): Promise<Uint8Array | null> {
    const st = await this.#stat(abs);
    const held = this.#lookup(abs, st);
    if (held !== undefined) return held;
    const readAt = this.#now();
    const bytes = await this.#fs.read(abs);
    this.#settle(abs, { st, bytes, readAt });
    return bytes;
  }

  /**
   * Many files' bytes, as {@linkcode ReadCache.read} answers each (the same keep rules), in one read of the
   * backend for all that are not kept ({@linkcode BackendFs.readMany}): one answer per path, in order — the
   * bytes, null for an absent file, or the error `read` would throw for it (a special file, a directory).
   *
   * @param paths Absolute backend paths (real paths: no link in them).
   * @returns One answer per path.
   */
  async readMany(paths: readonly string[]): Promise<(Uint8Array | null | Error)[]> {
    const stats = await this.#statsOf(paths);
    const out: (Uint8Array | null | Error)[] = new Array(paths.length);
    const unread: number[] = [];
    for (let i = 0; i < paths.length; i++) {
      const held = this.#lookup(paths[i]!, stats[i]!);
      if (held === undefined) unread.push(i);
      else out[i] = held;
    }
    if (unread.length === 0) return out;
    const readAt = this.#now();
    const got = await this.#fs.readMany(unread.map((i) => paths[i]!));
    unread.forEach((i, k) => {
      const bytes = got[k]!;
      out[i] = bytes;
      this.#settle(paths[i]!, { st: stats[i]!, bytes: bytes instanceof Error ? null : bytes, readAt });
    });
    return out;
  }

  /** Stats of many paths for a read: the primed ones (used up), the rest in one call. */
  async #statsOf(paths: readonly string[]): Promise<(BackendStats | null)[]> {
    const stats: (BackendStats | null | undefined)[] = paths.map((p) => this.#primedStat(p));
    const rest = paths.filter((_, i) => stats[i] === undefined);
    if (rest.length === 0) return stats as (BackendStats | null)[];
    const fresh = await this.#statAll(rest);
    let k = 0;
    return stats.map((st) => st === undefined ? fresh[k++] ?? null : st);
  }

  /**
   * A file's kept bytes when `st` (its stat now) is the one they were read under (a hit), else undefined (a
   * miss, counted, and what was kept under another stat forgotten).
   */
  #lookup(abs: string, st: BackendStats | null): Uint8Array | undefined {
    const kept = this.#kept.get(abs);
    if (kept && sameState(kept.id, st?.isFile() ? statIdOf(st) : null)) return this.#hit(abs, kept);
    this.#misses++;
    if (kept) this.#drop(abs, kept);
    return undefined;
  }

  /**
   * Keep what a read got when its stat can be trusted: a regular file, the size its stat said, changed more than
   * {@linkcode RACY_MS} before the read began (`readAt`).
   */
  #settle(abs: string, read: { st: BackendStats | null; bytes: Uint8Array | null; readAt: number }): void {
    const { st, bytes } = read;
    const id = st?.isFile() ? statIdOf(st) : null;
    if (bytes && st && id !== null && bytes.length === id.size && changedAt(st) < read.readAt - RACY_MS) {
      this.#keep(abs, { id, bytes, gen: this.#gen });
    }
  }

  /**
   * A folder's entries with their kinds ({@linkcode BackendFs.listTyped}): the kept ones when its stat is
   * unchanged, else listed afresh (and kept when the folder is old enough to trust its stat).
   *
   * @param abs Absolute backend path of the folder.
   * @returns Its entries, sorted by name.
   */
  async listTyped(abs: string, record?: WalkRecord): Promise<ListedEntry[]> {
    const st = await this.#stat(abs);
    const stamp = st?.isDirectory() ? stampOf(st) : null;
    const listedAt = this.#now();
    const trusted = st !== null && stamp !== null && changedAt(st) < listedAt - RACY_MS;
    record?.note(abs, trusted ? stateOf(st) : null);
    const kept = this.#listings.get(abs);
    this.#listings.delete(abs);
    if (kept && stamp !== null && kept.stamp === stamp) {
      this.#listings.set(abs, kept);
      return kept.entries;
    }
    const entries = await this.#fs.listTyped(abs);
    if (trusted) {
      this.#listings.set(abs, { stamp, entries });
      for (const old of this.#listings.keys()) {
        if (this.#listings.size <= this.#maxFolders) break;
        this.#listings.delete(old);
      }
    }
    return entries;
  }

  /**
   * Note the files a walk read (its ignore files, and the absent ones it looked for), with their stamps.
   *
   * @param record The walk's record.
   * @param paths Absolute backend paths.
   */
  async noteFiles(record: WalkRecord, paths: readonly string[]): Promise<void> {
    const stats = await this.#statAll(paths);
    const limit = this.#now() - RACY_MS;
    paths.forEach((p, i) => {
      const st = stats[i] ?? null;
      record.note(p, st === null || changedAt(st) < limit ? stateOf(st) : null);
    });
  }

  /**
   * A walk's result remembered under `key`, when every folder and ignore file it depended on has the stamp it
   * had (one stat call for them all), else null (and it is forgotten).
   *
   * @param key What the walk was: its folder and options.
   * @returns The result, or null.
   */
  async recallWalk<T>(key: string): Promise<T | null> {
    const kept = this.#walks.get(key);
    if (!kept) return null;
    this.#walks.delete(key);
    const paths = [...kept.stamps.keys()];
    const stats = await this.#statAll(paths);
    for (let i = 0; i < paths.length; i++) {
      if (stateOf(stats[i] ?? null) !== kept.stamps.get(paths[i]!)) return null;
    }
    this.#walks.set(key, kept);
    return kept.result as T;
  }

  /**
   * Remember a walk's result under `key`, when its record allows.
   *
   * @param key What the walk was.
   * @param result Its result (never changed afterwards by whoever gets it).
   * @param record What it depended on.
   */
  rememberWalk(key: string, result: unknown, record: WalkRecord): void {
    if (!record.usable) return;
    this.#walks.set(key, { result, stamps: record.stamps });
    for (const old of this.#walks.keys()) {
      if (this.#walks.size <= KEPT_WALKS) break;
      this.#walks.delete(old);
    }
  }

  /** Stats of many paths: one call where the backend can, else one each (null where it failed). */
  async #statAll(paths: readonly string[]): Promise<(BackendStats | null)[]> {
    const statMany = (this.#fs.raw as Backend).statMany;
    if (statMany) return await statMany.call(this.#fs.raw, paths);
    return await Promise.all(paths.map((p) => this.#fs.raw.stat(p).catch(() => null)));
  }

  /** What the cache has done and holds. */
  counts(): ReadCacheCounts {
    return {
      hits: this.#hits,
      misses: this.#misses,
      files: this.#kept.size,
      bytes: this.#bytes,
      folders: this.#listings.size,
      walks: this.#walks.size,
    };
  }

  /**
   * Keep a file's bytes, letting the least recently used go while over the bound — but only files the current
   * search has not kept or used: a search over more than the bound would otherwise push out, file by file,
   * what it and the next search read first, and every search of a large tree would read it all again (a scan
   * through an LRU). When only the current search's files are left, the new one is not kept.
   */
  #keep(abs: string, kept: Kept): void {
    if (kept.bytes.length > this.#maxBytes) return;
    for (const [path, old] of this.#kept) {
      if (this.#bytes + kept.bytes.length <= this.#maxBytes) break;
      if (old.gen === this.#gen && this.#gen > 0) return; // reads outside a search: plain LRU
      this.#drop(path, old);
    }
    if (this.#bytes + kept.bytes.length > this.#maxBytes) return;
    this.#kept.set(abs, kept);
    this.#bytes += kept.bytes.length;
  }

  /** Forget one kept file. */
  #drop(abs: string, kept: Kept): void {
    this.#kept.delete(abs);
    this.#bytes -= kept.bytes.length;
  }
}

/** One cache per backend: every session over it shares what was read. */
const CACHES = new WeakMap<BackendFs, ReadCache>();

/**
 * The read cache of a backend (made on first use), which the read-only searches of every session over it
 * share.
 *
 * @param fs The wrapped backend.
 * @returns Its cache.
 */
export function readCacheOf(fs: BackendFs): ReadCache {
  let cache = CACHES.get(fs);
  if (!cache) CACHES.set(fs, cache = new ReadCache(fs));
  return cache;
}
