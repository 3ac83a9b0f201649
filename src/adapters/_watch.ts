/**
 * {@linkcode Backend.watchFolders} on the disk, where the runtime can prove what it reports: Deno's `Deno.watchFs`
 * over the given folders, not recursive. On Linux that is one inotify queue for them all, so changes arrive in
 * the order they happened, and a lost event — the kernel queue's overflow — comes through as a "rescan" flag.
 * Not its recursive mode: that follows links, so a link to `/usr` in a cloned tree would watch all of `/usr`
 * (measured: 5.4 s of set-up blocking the process, and thousands of the user's inotify watches).
 *
 * The ordering barrier ({@linkcode ChangeFeed.sync}) is a file touched in a private folder of the watch's
 * own (in the system's temporary folder, watched in the same queue): once its event is reported, every change
 * that finished before it was touched has been reported too. Nothing is written into the user's tree, so a
 * read-only tree or a `.graver` that is a link changes nothing. A barrier file is created once and then
 * touched again (its times set: one event) by a later barrier once every event of its last touch is known
 * reported — never removed one by one: a removal costs a file system call on the search's path, and Deno
 * checks a removed path's event against every watched folder with failing system calls (strace: ~385 failed
 * opens per removal with hono's 222 folders watched), where the barrier folder, first in the watch's list,
 * matches a touched file's event at once.
 *
 * Every watch is made and read in one worker thread ({@linkcode WATCH_THREAD}): Deno sets a watch up
 * synchronously, and while its inotify thread is flooded with events (another process renaming a watched
 * folder in a loop) the set-up waits until the flood ends — on the main thread that froze the process. A
 * feed is in place once its `ready` resolves. A barrier that is not reported in time means the watch is behind
 * a flood: for {@linkcode LATE_RETRY_MS} after, or until that barrier is reported, barriers answer false at once
 * (the search checks its stats) instead of making every search wait {@linkcode BARRIER_MS} again.
 *
 * What Deno does not say, and why a feed is trusted only while it watches every folder graver has watched in
 * this process (that still exists): Deno keeps one inotify queue per process for every `Deno.watchFs`, drops
 * the kernel's overflow event (it names no path, so no watcher's filter lets it through), drops events a
 * watcher has not read once 16 are waiting, and never stops watching the folders of a closed watcher. A lost
 * event is still followed by the delivery of every event that was queued before it, so a feed that receives
 * all of them learns of a change even when the change's own event was lost (any change makes a search check
 * stats). Events queued for folders outside the feed would not reach it: while such a folder exists, `sync`
 * answers false. (A `Deno.watchFs` of code other than graver's in the same process is not seen: it could
 * flood the queue unnoticed.) Deno also checks every event against every watched path with a few system
 * calls each (measured: ~5 µs per folder per event; a barrier over 222 folders 0.8 ms, over 4,000 folders
 * 19 ms), and a watch left open slows every other: close a workspace's watch when its session ends.
 *
 * Node and Bun get none, and their searches check stats as before: Node 20's recursive `fs.watch` on Linux is
 * a JavaScript layer over one inotify watch per file and folder (a synchronous walk of the whole tree to set
 * it up, and 100,000 files spend 100,000 of the user's watches), and libuv drops inotify's overflow event
 * without a word, so a lost change could never be told from no change; Bun registers the folders of a
 * recursive watch on a thread pool and says nothing of an overflow either. A feed that can miss a change
 * without saying so would make a search answer stale bytes.
 *
 * @module
 */
import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import type { ChangeFeed, ChangeListener } from "../fs/backend.ts";
import { settledWithin } from "../project/watched_root.ts";
import { WATCH_THREAD } from "./_watch_thread.ts";

/** How long a barrier waits for its own change to be reported, in ms, before it answers false. */
export const BARRIER_MS = 250;

/**
 * After a barrier was not reported in time (the watch is behind a flood of events), how long later barriers
 * answer false at once instead of waiting again (ms) — unless the late one is reported sooner: then the watch
 * has caught up.
 */
export const LATE_RETRY_MS = 2_000;

/** Whether this runtime has `Deno.watchFs` (Deno's, in the main thread and so in the watch thread). */
const HAS_WATCH_FS = typeof (globalThis as { Deno?: { watchFs?: unknown } }).Deno?.watchFs === "function";

const NOTHING = new Uint8Array(0);

/** Every folder a watch of this process was given (Deno keeps watching them after the watch closes). */
const EVER = new Set<string>();
/** Counts additions to {@linkcode EVER}. */
let everVersion = 0;

/** Whether `path` is a folder now (a synchronous stat: only the few folders other watches hold are asked). */
function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Whether every folder any watch of this process was given, and that still exists, is one of `folders`: only
 * then does every event queued before a lost one reach this watch ({@linkcode watchWithDeno}).
 */
function coversEveryWatch(
  folders: ReadonlySet<string>,
  known: { version: number; outside: string[] },
): boolean {
  if (known.version !== everVersion) {
    known.version = everVersion;
    known.outside = [...EVER].filter((f) => !folders.has(f));
  }
  return known.outside.every((f) => !isFolder(f));
}

/** The barrier folders not removed yet: removed when the process exits, if their watch was never closed. */
const LEFT = new Set<BarrierFolder>();
let cleanupAtExit = false;

/** A watch's private folder, where its barriers touch files (removed when the watch closes, or at exit). */
class BarrierFolder {
  readonly path = mkdtempSync(`${tmpdir()}/graver-watch-`);
  /** Barrier file -> what to call when its change is reported. */
  readonly waiting = new Map<string, (arrived: boolean) => void>();
  /** Barriers crossed or tried so far (each one's number). */
  #n = 0;
  /** Each barrier file, with the number of the barrier that last touched it. */
  readonly #touched = new Map<string, number>();
  /** Every event of the barriers numbered below this one has been reported (a later one arrived). */
  #reportedBelow = 1;
  /** The latest barrier not reported in time, and when it was given up on (null: none, or reported since). */
  #late: { file: string; at: number } | null = null;
  #removed = false;

  constructor() {
    LEFT.add(this);
    if (!cleanupAtExit) {
      cleanupAtExit = true;
      globalThis.addEventListener?.("unload", () => LEFT.forEach((f) => f.remove()));
    }
    // Made before the folder is watched, so no event of its making is pending: the first barrier touches it.
    const first = `${this.path}/0`;
    writeFileSync(first, NOTHING);
    this.#touched.set(first, 0);
  }

  /** A path the watch reported: wakes the barrier waiting for it; a late barrier's report ends the wait. */
  reported(path: string): void {
    this.waiting.get(path)?.(true);
    if (this.#late?.file === path) this.#late = null;
  }

  /** Whether a reported path is this folder or in it (never a change of the tree). */
  holds(path: string): boolean {
    return path === this.path || path.startsWith(`${this.path}/`);
  }

  /**
   * Touch a barrier file and wait for its report (at most `waitMs`, default {@linkcode BARRIER_MS}). The touch
   * is synchronous (microseconds): an asynchronous call hops through a thread pool, which on a loaded machine
   * costs milliseconds a search would wait for.
   */
  async cross(waitMs: number = BARRIER_MS): Promise<boolean> {
    if (this.#late && performance.now() - this.#late.at < LATE_RETRY_MS) return false; // still behind
    const n = ++this.#n;
    const file = this.#fileFor(n);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arrived = new Promise<boolean>((resolve) => {
      this.waiting.set(file, resolve);
      timer = setTimeout(() => resolve(false), waitMs);
    });
    try {
      if (this.#touched.has(file)) utimesSync(file, n, n); // one event: its attributes changed
      else writeFileSync(file, NOTHING);
      this.#touched.set(file, n);
      const reported = await arrived;
      if (reported) this.#reportedBelow = Math.max(this.#reportedBelow, n);
      else if (!this.#removed) this.#late = { file, at: performance.now() };
      return reported;
    } catch {
      this.#touched.delete(file); // gone (a cleaner of the temporary folder): the next barrier makes another
      return false;
    } finally {
      clearTimeout(timer);
      this.waiting.delete(file);
    }
  }

  /**
   * The file barrier `n` touches: one whose every event is known reported (a later barrier's event arrived
   * after them, as a queue in order delivers), so that no late event of its last touch can be taken for this
   * one's; else a new file.
   */
  #fileFor(n: number): string {
    for (const [file, last] of this.#touched) {
      if (last < this.#reportedBelow && !this.waiting.has(file)) return file;
    }
    return `${this.path}/${n}`;
  }

  /** Wake every barrier waiting (false) and remove the folder. */
  remove(): void {
    this.#removed = true;
    for (const wake of this.waiting.values()) wake(false);
    LEFT.delete(this);
    rmSync(this.path, { recursive: true, force: true });
  }
}

/**
 * Watch `folders` with `Deno.watchFs` in the watch thread ({@linkcode Backend.watchFolders}'s contract): each
 * event's paths to `onChange`, null once events may be lost (a "rescan", an error, the end, a failed set-up).
 * The feed's `ready` says when the watch is in place; until then its barrier waits for that first.
 *
 * @param folders Absolute paths of the folders.
 * @param onChange Called with each change's paths, or null.
 * @returns The feed.
 */
function watchWithDeno(folders: readonly string[], onChange: ChangeListener): ChangeFeed {
  const barriers = new BarrierFolder();
  const watched = new Set(folders);
  for (const f of watched) EVER.add(f);
  everVersion++;
  const others = { version: -1, outside: [] as string[] };
  let closed = false;
  let settle: (ready: boolean) => void = () => {};
  const ready = new Promise<boolean>((resolve) => settle = resolve);
  const close = () => {
    if (closed) return;
    closed = true;
    WATCH_THREAD.close(id);
    barriers.remove();
    settle(false);
  };
  const heard = (paths: readonly string[]) => {
    const changed = paths.filter((path) => {
      barriers.reported(path);
      return !barriers.holds(path);
    });
    if (changed.length > 0 || paths.length === 0) onChange(changed);
  };
  const id = WATCH_THREAD.watch([barriers.path, ...folders], (news) => {
    if (closed) return;
    if (news.type === "ready") settle(true);
    else if (news.type === "change") heard(news.paths);
    else {
      close();
      onChange(null); // lost events, failed or ended: nothing is proven from here on
    }
  });
  const sync = async (waitMs: number = BARRIER_MS) => {
    const begun = performance.now();
    if (closed || !await settledWithin(ready, waitMs) || !coversEveryWatch(watched, others)) return false;
    return await barriers.cross(Math.max(0, waitMs - (performance.now() - begun))) && !closed;
  };
  const feed = { sync, close, ready };
  BARRIER_FOLDERS.set(feed, barriers.path);
  return feed;
}

/** Each feed's private barrier folder (for {@linkcode barrierFolderOf}). */
const BARRIER_FOLDERS = new WeakMap<ChangeFeed, string>();

/**
 * The private folder where a feed of {@linkcode watchFolders} touches its barrier files (tests look into it
 * without changing the process's `TMPDIR`, which every other test of the process would see).
 *
 * @param feed A feed this module made.
 * @returns The folder's path, or undefined for another feed.
 */
export function barrierFolderOf(feed: ChangeFeed): string | undefined {
  return BARRIER_FOLDERS.get(feed);
}

/**
 * The disk's {@linkcode Backend.watchFolders} in this runtime, or undefined where none can be trusted (Node, Bun).
 */
export const watchFolders:
  | ((folders: readonly string[], onChange: ChangeListener) => ChangeFeed)
  | undefined = HAS_WATCH_FS ? watchWithDeno : undefined;
