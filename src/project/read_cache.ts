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
import { type Backend, type BackendFs, type BackendStats, dirname, type StatedBytes } from "../fs/backend.ts";
import { landedAsAsked, type Landing, readReal } from "../fs/real_reads.ts";
import { changedAt, sameState, stampOf, stateOf, statIdOf, statsOf } from "./stat_identity.ts";
import { type Kept, KeptFiles } from "./kept_files.ts";
import { RootWatches } from "./root_watches.ts";
import { isUnder, recheckUnder } from "./watch_recheck.ts";
import type { ListedEntry, ReadCacheCounts, ReadCacheOptions } from "./types.ts";
import type { WalkRecord } from "./walk_record.ts";

export type { ListedEntry, ReadCacheCounts, ReadCacheOptions };

/** How recent a change may be for a read to be kept: a newer file is read again next time. */
export const RACY_MS = 2000;

/** What a read cache holds at most by default, in bytes of file contents. */
export const READ_CACHE_BYTES = 256 * 1024 * 1024;

/** How long a primed stat stands in for a fresh one, in ms (a search uses its stats at once). */
const PRIMED_MS = 1000;

/** How many folder listings a read cache holds at most by default. */
export const READ_CACHE_FOLDERS = 100_000;

/** Walks remembered at most (one per distinct folder and walk options). */
const KEPT_WALKS = 64;

/** One remembered walk: its result, and the stamp of each folder and ignore file it depended on. */
interface KeptWalk {
  result: unknown;
  stamps: Map<string, string>;
  /** The change count when the oldest of its stamps was taken. */
  seen: number;
}

/** One kept folder: the stat it was listed under, and its entries. */
interface KeptListing {
  stamp: string;
  entries: ListedEntry[];
  /** The change count when the stat that last showed it unchanged was taken. */
  seen: number;
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
  readonly #maxFolders: number;
  readonly #now: () => number;
  /** Kept file contents, bounded, least recently used first out (a hit moves its entry to the end). */
  readonly #kept: KeptFiles;
  /** Kept folder listings, in least-recently-used order. */
  readonly #listings = new Map<string, KeptListing>();
  /** Remembered walks by key, in the same order. */
  readonly #walks = new Map<string, KeptWalk>();
  /** Stats taken by {@linkcode ReadCache.prime}, each used by the next read or listing of its path. */
  readonly #primed = new Map<string, BackendStats | null>();
  #primedAt = 0;
  #hits = 0;
  #misses = 0;
  /** Its watches of the roots it searched, and the change count entries are compared with. */
  readonly #roots: RootWatches;
  /** The root of the search in progress. */
  #root: string | null = null;
  /** Listings kept under a new path so far: a watch made before the latest does not cover them all. */
  #listed = 0;
  /** Whether the search in progress began with a watch that caught up ({@linkcode ReadCache.sync}). */
  #trusting = false;
  /** Where the search in progress is: listing ("walk", after `sync`) or reading ("read", after `prime`). */
  #phase: "idle" | "walk" | "read" = "idle";
  /** Counts syncs and primes: a sync that returns after another began or ended a search grants nothing. */
  #turn = 0;
  /** Path -> the change count when its stat, not yet used, was taken (the lowest, if several). */
  readonly #statSeen = new Map<string, number>();

  /**
   * Make an empty cache over a backend.
   *
   * @param fs The wrapped backend.
   * @param options Its bounds and clock.
   */
  constructor(fs: BackendFs, options: ReadCacheOptions = {}) {
    this.#fs = fs;
    this.#kept = new KeptFiles(options.maxBytes ?? READ_CACHE_BYTES);
    this.#maxFolders = options.maxFolders ?? READ_CACHE_FOLDERS;
    this.#now = options.now ?? Date.now;
    this.#roots = new RootWatches(fs, {
      watchAfter: options.watchAfter ?? 0,
      ...(options.maxWatchedFolders !== undefined ? { maxWatched: options.maxWatchedFolders } : {}),
    });
  }

  /**
   * Begin a search over the workspace `root`; every search calls this first. A root is watched through the
   * backend's change feed ({@linkcode Backend.watchFolders}) from the end of its first search on (the folders its
   * listings are kept for, set up by {@linkcode ReadCache.prime}; `watchAfter` moves that later, `Infinity`
   * never). With a watch, each search first waits for its ordering barrier (`WatchedRoot.sync`):
   * when the feed has caught up, a file, folder or walk in a watched folder that no change touched since the
   * stat that last showed it unchanged is taken as it is, without a stat — a warm search over an unchanged
   * tree stats nothing. Without a watch, or when it lost changes or could not catch up in time, or while two
   * searches list at once, every stat is taken as before.
   *
   * @param root Absolute backend path of the workspace root.
   */
  async sync(root: string): Promise<void> {
    await this.settle(); // a watch an ended search left due: set up before this search asks for it
    const turn = ++this.#turn;
    const alone = this.#phase !== "walk";
    this.#phase = "walk";
    this.#trusting = false;
    this.#root = root;
    // What an earlier search primed and did not use is old news: a read of this search's walk, before its
    // own prime, stats its file afresh.
    this.#primed.clear();
    if (!alone) return; // another search is listing: neither skips a stat
    const watched = await this.#roots.of(root);
    const caughtUp = watched?.live === true && await watched.sync();
    if (turn === this.#turn) this.#trusting = caughtUp;
  }

  /** The search has ended: the watch it left due is set up a moment later, off its path (`RootWatches.due`). */
  idle(): void {
    this.#roots.idle();
  }

  /** Set up now the watch the last search's end put off, and wait for it (what the next `sync` does first). */
  async settle(): Promise<void> {
    await this.#roots.settle();
  }

  /**
   * After a search over `root` (off its path): watch it where worth it ({@linkcode RootWatches.afterWalk}), and
   * check by stat, once a new watch is in place, what the cache keeps of it (what a stat showed before the
   * watch began is not covered by it).
   */
  async #watchRoot(root: string): Promise<void> {
    const made = await this.#roots.afterWalk(root, {
      listed: this.#listed,
      folders: () => this.#listingsUnder(root),
      statAll: (paths) => this.#statAll(paths),
    });
    if (made) await this.#recheck(root);
  }

  /** Mark what the cache keeps under `root` and a stat shows unchanged as covered by the watch just begun. */
  async #recheck(root: string): Promise<void> {
    const kept = { listings: this.#listings, walks: this.#walks.values(), files: this.#kept };
    await recheckUnder(root, kept, {
      seen: this.#roots.count.changes,
      statAll: (paths) => this.#statAll(paths),
    });
  }

  /** The folders whose listings are kept under `root` (itself included). */
  #listingsUnder(root: string): string[] {
    return [...this.#listings.keys()].filter((p) => isUnder(p, root));
  }

  /**
   * Stop watching every root (the workspace closes); what is kept stays, checked by stat. A later search may
   * watch again.
   */
  async close(): Promise<void> {
    await this.#roots.close();
  }

  /**
   * Whether an entry of `folder` last shown unchanged at change count `seen` is unchanged now, without a stat:
   * this search began with a watch that caught up, a watch covers the folder, and nothing changed since.
   */
  #unchanged(seen: number | undefined, phase: "walk" | "read", folder: string | null): boolean {
    if (!this.#trusting || this.#phase !== phase || seen !== this.#roots.count.changes) return false;
    return folder === null || this.#roots.covers(folder);
  }

  /** {@linkcode ReadCache.#unchanged} for a kept file a search reads (its folder's cover asked once per file). */
  #fileUnchanged(seen: number | undefined, abs: string): boolean {
    if (!this.#trusting || this.#phase !== "read" || seen !== this.#roots.count.changes) return false;
    return this.#roots.coversFolderOf(abs);
  }

  /** Note the change count when a stat of `abs` was taken (the lowest of several stands). */
  #noteSeen(abs: string, seen: number): void {
    const old = this.#statSeen.get(abs);
    if (old === undefined || seen < old) this.#statSeen.set(abs, seen);
  }

  /** The change count noted for the latest stat of `abs` (used up), or -1. */
  #takeSeen(abs: string): number {
    const seen = this.#statSeen.get(abs);
    this.#statSeen.delete(abs);
    return seen ?? -1;
  }

  /**
   * Stat many paths in one call where the backend can ({@linkcode Backend.statMany}), for the reads and
   * listings that follow; a no-op on a backend without it (each read stats its own file).
   *
   * @param paths Absolute backend paths.
   */
  async prime(paths: readonly string[]): Promise<void> {
    this.#turn++;
    this.#kept.newSearch(); // its reads follow
    const root = this.#phase === "walk" ? this.#root : null;
    if (root === null) this.#trusting = false; // no barrier began this search
    this.#phase = "read";
    if (root !== null) this.#roots.due(() => this.#watchRoot(root)); // set up once the search has ended
    await this.#primeStats(paths.filter((p) => this.#worthPriming(p)));
  }

  /**
   * Whether a search should prime `abs`: only a kept file (one that trusts its watch: only a kept file a
   * change may have touched). An unchanged kept file needs no stat; a file nothing is kept of is stat'ed by
   * its own read, if the search reads it at all (a search lists every file and reads only those in its scope:
   * a structural search of JavaScript, none of hono's 195 other files) — a cold search primes nothing.
   */
  #worthPriming(abs: string): boolean {
    const kept = this.#kept.get(abs);
    return kept !== undefined && !(this.#trusting && this.#fileUnchanged(kept.seen, abs));
  }

  /** Stat `paths` in one call where the backend can, for the reads and listings that follow. */
  async #primeStats(paths: readonly string[]): Promise<void> {
    this.#primed.clear(); // what an earlier search primed and did not use is old news
    this.#statSeen.clear();
    const statMany = (this.#fs.raw as Backend).statMany;
    if (!statMany || paths.length === 0) return;
    const seen = this.#roots.count.changes;
    const stats = await statMany.call(this.#fs.raw, paths);
    this.#primedAt = this.#now();
    for (let i = 0; i < paths.length; i++) {
      this.#primed.set(paths[i]!, stats[i] ?? null);
      this.#noteSeen(paths[i]!, seen);
    }
  }

  /**
   * Prime the stats of the folders whose listings are kept under `abs` (itself included): what a walk from
   * there will list.
   *
   * @param abs Absolute backend path of the folder a walk starts from.
   */
  async primeFolders(abs: string): Promise<void> {
    const prefix = abs.endsWith("/") ? abs : `${abs}/`;
    const under = [...this.#listings].filter(([p]) => p === abs || p.startsWith(prefix));
    await this.#primeStats(
      under.filter(([p, kept]) => !this.#unchanged(kept.seen, "walk", p)).map(([p]) => p),
    );
  }

  /**
   * A path's stat: a kept file's own when nothing changed it since ({@linkcode ReadCache.sync}), else the primed
   * one (used once), else a fresh one; null when it failed. The change count it was taken at is noted.
   */
  async #stat(abs: string): Promise<BackendStats | null> {
    const known = this.#knownStat(abs);
    if (known !== undefined) return known;
    this.#noteSeen(abs, this.#roots.count.changes);
    return (await this.#statAll([abs]))[0] ?? null; // as the prime and the rechecks stat
  }

  /**
   * A path's stat without asking the backend: a kept file's own when nothing changed it since the search's
   * barrier (its change count noted again), else the primed one (noted by the prime); undefined when neither.
   */
  #knownStat(abs: string): BackendStats | null | undefined {
    const kept = this.#kept.get(abs);
    if (kept !== undefined && this.#fileUnchanged(kept.seen, abs)) {
      this.#noteSeen(abs, kept.seen!);
      return statsOf(kept.id);
    }
    return this.#primedStat(abs);
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
    if (kept !== undefined && this.#fileUnchanged(kept.seen, abs)) return this.#hit(abs, kept);
    const primed = this.#primed.get(abs);
    if (kept === undefined || !primed?.isFile() || this.#now() - this.#primedAt > PRIMED_MS) return undefined;
    if (!sameState(kept.id, statIdOf(primed))) return undefined;
    this.#primed.delete(abs);
    return this.#hit(abs, kept);
  }

  /** Answer a read from a kept file: counted, and moved to the most recently used end. */
  #hit(abs: string, kept: Kept): Uint8Array {
    const seen = this.#statSeen.get(abs);
    if (seen !== undefined) {
      this.#statSeen.delete(abs);
      kept.seen = seen; // the stat that showed it unchanged
    }
    this.#hits++;
    return this.#kept.use(abs, kept);
  }

  /**
   * A file's bytes: the kept ones when its stat is unchanged, else read from the backend (and kept when the
   * file is old enough to trust its stat). Null when it is absent; a file the backend refuses (a special
   * file, a directory) fails as {@linkcode BackendFs.read} fails.
   *
   * @param abs Absolute backend path (a real path: no link in it).
   * @param landing Where else a read may land than the path asked (`landedAsAsked`: the root through a link).
   * @returns The bytes, or null.
   */
  async read(abs: string, landing?: Landing): Promise<Uint8Array | null> {
    const st = await this.#stat(abs);
    const held = this.#lookup(abs, st);
    if (held !== undefined) return held;
    const readAt = this.#now();
    const bytes = await readReal(this.#fs, abs, landing);
    this.#settle(abs, { st, bytes, readAt });
    return bytes;
  }

  /**
   * Many files' bytes, as {@linkcode ReadCache.read} answers each (the same keep rules), in one read of the
   * backend for all that are not kept ({@linkcode BackendFs.readMany}): one answer per path, in order — the
   * bytes, null for an absent file, or the error `read` would throw for it (a special file, a directory).
   *
   * @param paths Absolute backend paths (real paths: no link in them).
   * @param landing Where else a read may land than the path asked (`landedAsAsked`: the root through a link).
   * @returns One answer per path.
   */
  async readMany(paths: readonly string[], landing?: Landing): Promise<(Uint8Array | null | Error)[]> {
    const stated = this.#fs.readsStated;
    const stats = await this.#statsOf(paths, { keptOnly: stated });
    const out: (Uint8Array | null | Error)[] = new Array(paths.length);
    const unread: number[] = [];
    for (let i = 0; i < paths.length; i++) {
      const held = stats[i] === undefined ? this.#miss() : this.#lookup(paths[i]!, stats[i]!);
      if (held === undefined) unread.push(i);
      else out[i] = held;
    }
    if (unread.length === 0) return out;
    const readAt = this.#now();
    const names = unread.map((i) => paths[i]!);
    const got = stated ? await this.#fs.readManyStated(names) : await this.#fs.readMany(names);
    unread.forEach((i, k) => {
      const read = stated
        ? landedAsAsked(got[k]! as StatedBytes | null | Error, paths[i]!, landing)
        : got[k]!;
      const bytes = read === null || read instanceof Error || read instanceof Uint8Array ? read : read.bytes;
      out[i] = bytes;
      // The stat taken before the read: the cache's own, else the one the read took of the open file.
      const st = stats[i] ?? (bytes === read ? null : (read as StatedBytes).stat);
      this.#settle(paths[i]!, { st, bytes: bytes instanceof Error ? null : bytes, readAt });
    });
    return out;
  }

  /** A read of a file the cache keeps nothing of (its stat comes with the read): counted, nothing answered. */
  #miss(): undefined {
    this.#misses++;
    return undefined;
  }

  /**
   * Stats of many paths for a read: those known without a call (a kept file unchanged since the barrier, a
   * primed stat), the rest in one call — with `keptOnly`, only those of kept files (undefined for the others:
   * their reads take their stats, {@linkcode Backend.readManyStated}). Each path's change count is noted first.
   */
  async #statsOf(
    paths: readonly string[],
    options: { keptOnly: boolean },
  ): Promise<(BackendStats | null | undefined)[]> {
    const stats: (BackendStats | null | undefined)[] = paths.map((p) => this.#knownStat(p));
    const seen = this.#roots.count.changes;
    const rest: number[] = [];
    stats.forEach((st, i) => {
      if (st !== undefined) return;
      this.#noteSeen(paths[i]!, seen); // as #stat notes a fresh stat: what a kept read stands on
      if (!options.keptOnly || this.#kept.get(paths[i]!) !== undefined) rest.push(i);
    });
    if (rest.length === 0) return stats;
    const fresh = await this.#statAll(rest.map((i) => paths[i]!));
    rest.forEach((i, k) => stats[i] = fresh[k] ?? null);
    return stats;
  }

  /**
   * A file's kept bytes when `st` (its stat now) is the one they were read under (a hit), else undefined (a
   * miss, counted, and what was kept under another stat forgotten).
   */
  #lookup(abs: string, st: BackendStats | null): Uint8Array | undefined {
    const kept = this.#kept.get(abs);
    if (kept && sameState(kept.id, st?.isFile() ? statIdOf(st) : null)) return this.#hit(abs, kept);
    this.#misses++;
    if (kept) this.#kept.drop(abs, kept);
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
      this.#kept.keep(abs, { id, bytes, gen: this.#kept.gen, seen: this.#takeSeen(abs) }); // seen: its stat's
    }
  }

  /**
   * A folder's entries with their kinds ({@linkcode BackendFs.listTyped}): the kept ones when its stat is
   * unchanged, else listed afresh (and kept when the folder is old enough to trust its stat).
   *
   * @param abs Absolute backend path of the folder.
   * @param record The walk's record, noting the folder.
   * @param landing Where else it may be listed than `abs` (`BackendFs.listTyped`: the root through a link).
   * @returns Its entries, sorted by name.
   */
  async listTyped(abs: string, record?: WalkRecord, landing?: Landing): Promise<ListedEntry[]> {
    const known = this.#listings.get(abs);
    if (known !== undefined && this.#unchanged(known.seen, "walk", abs)) {
      record?.note(abs, `d:${known.stamp}`, known.seen);
      this.#listings.delete(abs);
      this.#listings.set(abs, known);
      return known.entries;
    }
    const st = await this.#stat(abs);
    const seen = this.#takeSeen(abs);
    const stamp = st?.isDirectory() ? stampOf(st) : null;
    const listedAt = this.#now();
    const trusted = st !== null && stamp !== null && changedAt(st) < listedAt - RACY_MS;
    record?.note(abs, trusted ? stateOf(st) : null, seen);
    const kept = this.#listings.get(abs);
    this.#listings.delete(abs);
    if (kept && stamp !== null && kept.stamp === stamp) {
      kept.seen = seen;
      this.#listings.set(abs, kept);
      return kept.entries;
    }
    const entries = await this.#fs.listTyped(abs, landing);
    if (trusted) {
      if (!kept) this.#listed++;
      this.#listings.set(abs, { stamp, entries, seen });
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
    const seen = this.#roots.count.changes;
    const stats = await this.#statAll(paths);
    const limit = this.#now() - RACY_MS;
    paths.forEach((p, i) => {
      const st = stats[i] ?? null;
      record.note(p, st === null || changedAt(st) < limit ? stateOf(st) : null, seen);
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
    if (!this.#unchanged(kept.seen, "walk", null) || !this.#coversWalk(kept)) {
      const seen = this.#roots.count.changes;
      const paths = [...kept.stamps.keys()];
      const stats = await this.#statAll(paths);
      for (let i = 0; i < paths.length; i++) {
        if (stateOf(stats[i] ?? null) !== kept.stamps.get(paths[i]!)) return null;
      }
      kept.seen = seen;
    }
    this.#walks.set(key, kept);
    return kept.result as T;
  }

  /** Whether live watches cover every folder a walk listed and every folder of the files it read or sought. */
  #coversWalk(kept: KeptWalk): boolean {
    for (const [path, state] of kept.stamps) {
      if (!this.#roots.covers(state.startsWith("d:") ? path : dirname(path))) return false;
    }
    return true;
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
    this.#walks.set(key, {
      result,
      stamps: record.stamps,
      seen: Number.isFinite(record.seen) ? record.seen : -1,
    });
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
      bytes: this.#kept.bytes,
      folders: this.#listings.size,
      walks: this.#walks.size,
    };
  }
}
