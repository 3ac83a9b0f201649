/**
 * A workspace root watched through its backend's change feed ({@linkcode Backend.watchFolders}): the folders a
 * search's read cache depends on, each watched for changes of its own entries (not recursively, so a link in
 * the tree never widens the watch). Changes under the root's `.graver/` are graver's own (journal, sessions,
 * checkpoints), never the project's: not counted. {@linkcode WatchedRoot.sync} is the feed's ordering barrier
 * ({@linkcode ChangeFeed.sync}): once it answers true, every change that finished before it began has been
 * counted — what a search that skips its stats must know. It answers false (the search checks its stats, as
 * without a feed) when the feed lost changes (overflow, failure, end: it is then dead for good) or could not
 * show it caught up in time.
 *
 * @module
 */
import type { Backend, BackendFs, ChangeFeed } from "../fs/backend.ts";
import { INTERNAL_DIR } from "../fs/sandbox.ts";

/**
 * A root's change feed, counting the changes it reports.
 *
 * @example Count changes; a sync proves the count has caught up
 * ```ts ignore
 * const watched = await WatchedRoot.open(fs, { root: "/w", folders: ["/w", "/w/src"] }, () => changes++);
 * if (watched && await watched.sync()) {
 *   // every change finished before the sync has been counted in `changes`
 * }
 * ```
 */
export class WatchedRoot {
  /** Absolute backend path of the workspace root. */
  readonly root: string;
  /** The folders watched (absolute backend paths), the root among them. */
  readonly folders: ReadonlySet<string>;
  readonly #internal: string;
  readonly #onChange: () => void;
  #feed: ChangeFeed | null = null;
  #dead = false;

  private constructor(root: string, folders: Iterable<string>, onChange: () => void) {
    this.root = root;
    this.#internal = `${root === "/" ? "" : root}/${INTERNAL_DIR}`;
    this.folders = new Set([root, ...folders]);
    this.#onChange = onChange;
  }

  /**
   * Watch `folders` of the workspace `root` (and the root), or null when the backend has no
   * {@linkcode Backend.watchFolders} or the watch cannot be set up (a folder gone, a watch limit) or is not in
   * place within {@linkcode readyWithinMs} (a flooded system watcher: the feed is closed).
   *
   * @param fs The wrapped backend.
   * @param where `root`: absolute backend path of the workspace root; `folders`: the folders to watch.
   * @param onChange Called for each change the feed reports outside `.graver/`, and once when it dies.
   * @returns The watched root, once in place, or null.
   */
  static async open(
    fs: BackendFs,
    where: { root: string; folders: Iterable<string> },
    onChange: () => void,
  ): Promise<WatchedRoot | null> {
    const watch = (fs.raw as Backend).watchFolders;
    if (typeof watch !== "function") return null;
    const watched = new WatchedRoot(where.root, where.folders, onChange);
    try {
      watched.#feed = watch.call(fs.raw, [...watched.folders], (paths) => watched.#heard(paths));
    } catch {
      return null;
    }
    const ready = watched.#feed.ready;
    if (ready && !await settledWithin(ready, readyWithinMs(watched.folders.size))) {
      watched.close();
      return null;
    }
    return watched;
  }

  /** Whether the feed still reports (not dead nor closed). */
  get live(): boolean {
    return !this.#dead;
  }

  /**
   * The ordering barrier.
   *
   * @param waitMs How long to wait at most (default the feed's own short bound: {@linkcode ChangeFeed.sync}).
   * @returns True when every change that finished before the call has been counted; false when that cannot be
   *   shown (then check stats).
   */
  async sync(waitMs?: number): Promise<boolean> {
    if (this.#dead || !this.#feed) return false;
    const caughtUp = await this.#feed.sync(waitMs);
    return caughtUp && !this.#dead;
  }

  /** Stop watching; later syncs answer false. */
  close(): void {
    this.#dead = true;
    this.#feed?.close();
  }

  /** One report of the feed: changes outside `.graver/` are counted; null (changes lost) kills it. */
  #heard(paths: readonly string[] | null): void {
    if (this.#dead) return;
    if (paths === null) {
      this.close();
      this.#onChange(); // whatever the feed proved, it proves no more
      return;
    }
    const internal = this.#internal;
    if (paths.length === 0 || paths.some((p) => p !== internal && !p.startsWith(`${internal}/`))) {
      this.#onChange(); // a change that names no path could be anywhere
    }
  }
}

/**
 * How long a watch of `folders` folders may take to be in place (ms): a second, plus 0.5 ms a folder (Deno
 * sets one up in ~50 µs; a loaded machine is slower). Past it the system's watcher is taken as flooded.
 *
 * @param folders How many folders the watch covers.
 * @returns The bound in ms.
 */
export function readyWithinMs(folders: number): number {
  return 1_000 + folders / 2;
}

/**
 * `ready`'s value if it settles within `ms`, else false (a feed's set-up or barrier given a bound).
 *
 * @param ready What to wait for.
 * @param ms The bound.
 * @returns Its value, or false once `ms` passed.
 */
export async function settledWithin(ready: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => timer = setTimeout(() => resolve(false), ms));
  try {
    return await Promise.race([ready, late]);
  } finally {
    clearTimeout(timer);
  }
}
