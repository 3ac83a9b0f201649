/**
 * A workspace root watched through its backend's change feed ({@linkcode Backend.watch}): the folders a
 * search's cache depends on (each watched for changes of its own entries, not recursively, so a link in the
 * tree never widens the watch) and graver's own `.graver/`, with an ordering barrier: {@linkcode WatchedRoot.sync} writes a sentinel file into graver's own folder (`.graver/`, never a
 * file the user sees) and waits until the feed reports it. The feed reports changes in the order they
 * happened, so by then it has reported every change that finished before the sync began — what a search that
 * skips its stats must know. A sync answers false, and the search checks its stats as without a feed, when
 * the sentinel cannot be written (a read-only tree, `.graver` not a plain folder), the feed lost changes
 * (overflow, failure, end: it is then dead for good) or the sentinel is not reported within
 * {@linkcode BARRIER_MS}. Changes under `.graver/` are graver's own, never the user's: not reported.
 *
 * @module
 */
import type { Backend, BackendFs, ChangeFeed } from "../fs/backend.ts";
import { confined } from "../fs/beneath.ts";
import { ignoreInternalDir } from "../fs/internal_dir.ts";
import { INTERNAL_DIR } from "../fs/sandbox.ts";

/** How long a sync waits for its sentinel to be reported, in ms, before the search checks stats instead. */
export const BARRIER_MS = 250;

const NOTHING = new Uint8Array(0);

/**
 * The absolute backend path of a root's `.graver/`.
 *
 * @param root Absolute backend path of the workspace root.
 * @returns The path of its internal folder.
 */
export function internalDirOf(root: string): string {
  return `${root === "/" ? "" : root}/${INTERNAL_DIR}`;
}

/**
 * A root's change feed and its barrier.
 *
 * @example A change outside `.graver/` is reported; a sync proves the feed has caught up
 * ```ts ignore
 * const watched = await WatchedRoot.open(fs, { root: "/w", folders: ["/w/src"] }, () => changes++);
 * if (watched && await watched.sync()) {
 *   // every change finished before the sync has been counted in `changes`
 * }
 * ```
 */
export class WatchedRoot {
  /** Absolute backend path of the workspace root. */
  readonly root: string;
  /** The folders watched (absolute backend paths), `.graver/` and the root among them. */
  readonly folders: ReadonlySet<string>;
  readonly #internal: string;
  readonly #fs: BackendFs;
  #onChange: () => void;
  /** Sentinel path -> what to call when the feed reports it. */
  readonly #waiting = new Map<string, (arrived: boolean) => void>();
  #feed: ChangeFeed | null = null;
  #dead = false;

  private constructor(fs: BackendFs, root: string, folders: Iterable<string>) {
    this.#fs = confined(fs, root); // the sentinel never lands outside the root, whatever `.graver` is
    this.root = root;
    this.#internal = internalDirOf(root);
    this.folders = new Set([root, this.#internal, ...folders]);
    this.#onChange = () => {};
  }

  /**
   * Watch `folders` of the workspace `root` (with the root and its `.graver/`), or null when the backend has
   * no {@linkcode Backend.watch}, `.graver/` cannot be made, or the watch cannot be set up (a folder gone, a
   * watch limit). `.graver/` is made first, so that the watch covers it from the start.
   *
   * @param fs The wrapped backend.
   * @param where `root`: absolute backend path of the workspace root; `folders`: the folders to watch.
   * @param onChange Called for each change the feed reports outside `.graver/`, and once when it dies.
   * @returns The watched root, or null.
   */
  static async open(
    fs: BackendFs,
    where: { root: string; folders: Iterable<string> },
    onChange: () => void,
  ): Promise<WatchedRoot | null> {
    const watch = (fs.raw as Backend).watch;
    if (typeof watch !== "function") return null;
    const watched = new WatchedRoot(fs, where.root, where.folders);
    watched.#onChange = onChange;
    try {
      await WatchedRoot.prepare(fs, where.root);
      watched.#feed = watch.call(fs.raw, [...watched.folders], (paths) => watched.#heard(paths));
    } catch {
      return null;
    }
    return watched;
  }

  /**
   * Make the root's `.graver/` (with its `.gitignore`) where the backend can watch, before a watch of the root
   * begins: a search about to be watched makes it before it lists the root, so that the root's listing does
   * not change under the watch's first check.
   *
   * @param fs The wrapped backend.
   * @param root Absolute backend path of the workspace root.
   */
  static async prepare(fs: BackendFs, root: string): Promise<void> {
    if (typeof (fs.raw as Backend).watch !== "function") return;
    const confinedFs = confined(fs, root);
    const internal = internalDirOf(root);
    if ((await confinedFs.kind(internal)) === "dir") return;
    await confinedFs.mkdirp(internal);
    await ignoreInternalDir(confinedFs, internal);
  }

  /** Whether the feed still reports (not dead nor closed). */
  get live(): boolean {
    return !this.#dead;
  }

  /**
   * The barrier: write a sentinel under `.graver/` and wait until the feed reports it, then remove it.
   *
   * @returns True when every change that finished before the call has been reported; false when that cannot
   *   be shown (then check stats).
   */
  async sync(): Promise<boolean> {
    if (this.#dead) return false;
    const path = `${this.#internal}/sync-${crypto.randomUUID()}`;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arrived = new Promise<boolean>((resolve) => {
      this.#waiting.set(path, resolve);
      timer = setTimeout(() => resolve(false), BARRIER_MS);
    });
    let ok = false;
    try {
      await this.#fs.write(path, NOTHING, { parentExists: true });
      ok = await arrived;
    } catch {
      ok = false; // a read-only tree, or `.graver` is not a plain folder any more
    } finally {
      clearTimeout(timer);
      this.#waiting.delete(path);
    }
    await this.#fs.remove(path).catch(() => {});
    return ok && !this.#dead;
  }

  /** Stop watching; later syncs answer false. */
  close(): void {
    this.#dead = true;
    this.#feed?.close();
    for (const wake of this.#waiting.values()) wake(false);
  }

  /** One report of the feed: sentinels wake their sync, changes outside `.graver/` are counted, null kills it. */
  #heard(paths: readonly string[] | null): void {
    if (this.#dead) return;
    if (paths === null) {
      this.close();
      this.#onChange(); // whatever was proven by the feed is proven no more
      return;
    }
    let changed = paths.length === 0; // a change that names no path could be anywhere
    for (const path of paths) {
      const wake = this.#waiting.get(path);
      if (wake) wake(true);
      else if (path !== this.#internal && !path.startsWith(`${this.#internal}/`)) changed = true;
    }
    if (changed) this.#onChange();
  }
}
