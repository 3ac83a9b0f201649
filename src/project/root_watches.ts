/**
 * The watches a read cache keeps of its roots ({@linkcode RootWatches}): which root is watched over which
 * folders, when a root is worth a watch (from the end of its first search on, up to a number of folders, a few
 * failed set-ups at most), and the change count every kept entry is compared with — it grows with each change
 * a watch reports, and each time a watch begins or ends, so that an entry noted at the current count has not
 * changed since, where a live watch covers its folder.
 *
 * @module
 */
import { type Backend, type BackendFs, type BackendStats, dirname } from "../fs/backend.ts";
import { IdleWork } from "./idle_work.ts";
import { WatchedRoot } from "./watched_root.ts";

/** How many times in a row a root's watch may fail to be set up before its searches stop trying. */
const WATCH_TRIES = 3;

/**
 * The most folders one watch covers: past it a root is not watched (its searches check stats). A watch spends
 * the user's inotify watches, shared by every process (fs.inotify.max_user_watches: 192,536 here), and Deno
 * checks each event against every watched folder (~5 µs a folder: a barrier over 10,000 folders ~50 ms).
 */
export const WATCH_FOLDERS_MAX = 10_000;

/**
 * How long after a search's end the watch it left due is set up (ms): once its result has gone out (a few ms
 * to serialize and write), and long before an agent's next call.
 */
const WATCH_DELAY_MS = 10;

/** A root's watch: being set up or made (null: it could not be), and the listings it was made over. */
interface RootWatch {
  watch: Promise<WatchedRoot | null>;
  /** The read cache's count of listings kept, when the watch was made. */
  listed: number;
}

/** What a search's end tells {@linkcode RootWatches.afterWalk} of the cache's listings. */
export interface ListedFolders {
  /** Listings kept under a new path so far (a watch made before the latest does not cover them all). */
  listed: number;
  /** The folders whose listings are kept under the root (itself included). */
  folders: () => string[];
  /** Stats of many paths in one call (null where a stat failed). */
  statAll: (paths: readonly string[]) => Promise<(BackendStats | null)[]>;
}

/** Closes the watches of a cache that was dropped without {@linkcode RootWatches.close}. */
const DROPPED = new FinalizationRegistry<Set<WatchedRoot>>((watches) => {
  for (const w of watches) w.close();
});

/**
 * A read cache's watches of its roots, through the backend's change feed ({@linkcode Backend.watchFolders}).
 *
 * @example A backend without a change feed is never watched
 * ```ts
 * import assert from "node:assert/strict";
 * import { BackendFs, createMemoryBackend } from "@graver/core/fs";
 * import { RootWatches } from "./root_watches.ts";
 *
 * const roots = new RootWatches(BackendFs.wrap(createMemoryBackend({})), { watchAfter: 0 });
 * const made = await roots.afterWalk("/w", { listed: 1, folders: () => ["/w"], statAll: async () => [] });
 * assert.equal(made, false);
 * assert.equal(await roots.of("/w"), null);
 * ```
 */
export class RootWatches {
  /**
   * Changes any watch reported so far, plus one each time a watch began or ended. An object of its own, which
   * the watches hold instead of the cache (a dropped cache is not kept alive).
   */
  readonly count = { changes: 0 };
  readonly #fs: BackendFs;
  readonly #watchAfter: number;
  readonly #maxWatched: number;
  /** Watched roots (being set up, or null when they cannot be watched) by absolute backend path. */
  readonly #watched = new Map<string, RootWatch>();
  /** The watches made and not yet replaced or closed (what {@linkcode RootWatches.covers} asks). */
  readonly #watches = new Set<WatchedRoot>();
  /** Searches ended per root, and the watches of it that failed in a row. */
  readonly #tallies = new Map<string, { searches: number; failures: number }>();
  /** File path -> whether a live watch covers its folder, while the change count is `#coveredAt`. */
  readonly #covered = new Map<string, boolean>();
  #coveredAt = -1;
  /** The set-up the latest search left due ({@linkcode RootWatches.due}). */
  #due: (() => Promise<void>) | null = null;
  /** Set-ups run off the searches' path. */
  readonly #idle = new IdleWork();

  /**
   * Watch nothing yet.
   *
   * @param fs The wrapped backend.
   * @param options `watchAfter`: searches of a root that end before it is watched (`Infinity`: never);
   *   `maxWatched`: the most folders a watch covers (default {@linkcode WATCH_FOLDERS_MAX}).
   */
  constructor(fs: BackendFs, options: { watchAfter: number; maxWatched?: number }) {
    this.#fs = fs;
    this.#watchAfter = options.watchAfter;
    this.#maxWatched = options.maxWatched ?? WATCH_FOLDERS_MAX;
    DROPPED.register(this, this.#watches);
  }

  /**
   * The watch of `root` (once set up), or null when it has none.
   *
   * @param root Absolute backend path of the workspace root.
   * @returns Its watch, or null.
   */
  async of(root: string): Promise<WatchedRoot | null> {
    const known = this.#watched.get(root);
    return known ? await known.watch : null;
  }

  /**
   * Whether a live watch reports the changes of `folder`'s entries.
   *
   * @param folder Absolute backend path.
   * @returns True when covered.
   */
  covers(folder: string): boolean {
    for (const w of this.#watches) if (w.live && w.folders.has(folder)) return true;
    return false;
  }

  /**
   * Whether a live watch reports the changes of the folder holding `abs`: remembered by the path while the
   * change count stands (a watch that begins or ends counts as a change), so that a warm search, which asks
   * it of every file it primes and reads, looks each file's folder up once.
   *
   * @param abs Absolute backend path of a file.
   * @returns True when covered.
   */
  coversFolderOf(abs: string): boolean {
    if (this.#coveredAt !== this.count.changes) {
      this.#covered.clear();
      this.#coveredAt = this.count.changes;
    }
    let covered = this.#covered.get(abs);
    if (covered === undefined) this.#covered.set(abs, covered = this.covers(dirname(abs)));
    return covered;
  }

  /** A watch reported a change, began or ended: nothing is taken as unchanged without a stat until checked. */
  changed(): void {
    this.count.changes++;
  }

  /**
   * At the end of a search's walk over `root`: watch it, from the search after `watchAfter` on, over every
   * folder whose listing is kept under it — unless a live watch covers them all already.
   *
   * @param root Absolute backend path of the workspace root.
   * @param listings What the cache has listed.
   * @returns True when a new watch was made: the caller checks by stat what it listed (what a stat showed
   *   before the watch began is not covered by it).
   */
  async afterWalk(root: string, listings: ListedFolders): Promise<boolean> {
    if (typeof (this.#fs.raw as Backend).watchFolders !== "function") return false; // memory, IndexedDB, Node, Bun
    const tally = this.#tallies.get(root) ?? { searches: 0, failures: 0 };
    this.#tallies.set(root, tally);
    if (++tally.searches <= this.#watchAfter) return false;
    const known = this.#watched.get(root);
    const current = known ? await known.watch : null;
    if (current?.live && this.#watched.get(root) === known) {
      if (known!.listed === listings.listed) return false;
      if (listings.folders().every((f) => current.folders.has(f))) {
        known!.listed = listings.listed;
        return false;
      }
    }
    if (tally.failures >= WATCH_TRIES) return false;
    if (listings.folders().length > this.#maxWatched) {
      // Too many to watch: a watch made before keeps proving what it covers, the rest is checked by stat.
      if (current?.live && known) known.listed = listings.listed;
      else tally.failures = WATCH_TRIES;
      return false;
    }
    const made = await this.#watchAnew(root, { old: current, listings });
    tally.failures = made ? 0 : tally.failures + 1;
    return made !== null;
  }

  /** Watch `root` and the folders of its kept listings, in place of `old`. */
  async #watchAnew(
    root: string,
    at: { old: WatchedRoot | null; listings: ListedFolders },
  ): Promise<WatchedRoot | null> {
    const { old, listings } = at;
    const count = this.count;
    const onChange = () => count.changes++; // the watch holds the count, not the cache
    const watch = (async () => {
      const folders = listings.folders();
      const made = await WatchedRoot.open(this.#fs, { root, folders }, onChange);
      if (made) return made;
      // A folder gone since it was listed fails the whole watch: watch those still there. (With every folder
      // still there, the watch failed for another cause — a limit, a flooded watcher: not tried again now.)
      const still = await foldersStill(folders, listings);
      return still.length < folders.length
        ? await WatchedRoot.open(this.#fs, { root, folders: still }, onChange)
        : null;
    })();
    this.#watched.set(root, { watch, listed: listings.listed });
    const made = await watch;
    await made?.sync(); // a new feed's first barrier is the slow one (Deno: ~3 ms): crossed here, in idle time
    if (old) {
      old.close();
      this.#watches.delete(old);
    }
    if (made) this.#watches.add(made);
    this.changed(); // what was checked before this watch began is not covered by it
    return made;
  }

  /**
   * A search has walked a root: `setUp` (its watch, where worth one: {@linkcode RootWatches.afterWalk}) is due,
   * and runs once the search has ended ({@linkcode RootWatches.idle}) or when the next search begins
   * ({@linkcode RootWatches.settle}), whichever comes first — never on the path of the search that walked.
   * A watch's set-up costs ~50 µs a folder in Deno (221 folders: ~12 ms).
   *
   * @param setUp Sets up the watch and checks what it covers.
   */
  due(setUp: () => Promise<void>): void {
    // Nothing to set up, ever (memory, IndexedDB, Node, Bun; a one-shot process): no timer keeps it alive.
    if (typeof (this.#fs.raw as Backend).watchFolders !== "function" || this.#watchAfter === Infinity) return;
    this.#due = setUp;
  }

  /** The search that left a set-up due has ended: it runs {@linkcode WATCH_DELAY_MS} later. */
  idle(): void {
    this.#putOff(WATCH_DELAY_MS);
  }

  /** A search begins: the set-up due runs now (if its timer has not begun it), and every one begun ends. */
  async settle(): Promise<void> {
    this.#putOff(0);
    await this.#idle.now();
  }

  /** Hand the set-up due to the idle work, to begin in `delayMs`. */
  #putOff(delayMs: number): void {
    const due = this.#due;
    this.#due = null;
    if (due !== null) this.#idle.later(due, delayMs);
  }

  /** Stop watching every root (a set-up due is dropped, one begun waited for); a later search may watch again. */
  async close(): Promise<void> {
    this.#due = null;
    await this.#idle.cancel();
    const watched = [...this.#watched.values()];
    this.#watched.clear();
    this.#tallies.clear();
    for (const w of await Promise.all(watched.map((r) => r.watch))) w?.close();
    for (const w of this.#watches) w.close();
    this.#watches.clear();
    this.changed();
  }
}

/** Those of `folders` that are folders now. */
async function foldersStill(folders: readonly string[], listings: ListedFolders): Promise<string[]> {
  const stats = await listings.statAll(folders);
  return folders.filter((_, i) => stats[i]?.isDirectory() === true);
}
