/**
 * The thread where Deno's watches live ({@linkcode WatchThread}): every `Deno.watchFs` of graver's change feeds
 * is made, read and closed in one worker thread, never on the main thread. Deno sets a watch up synchronously
 * and waits for its inotify thread to take it; while that thread is busy with a flood of events (a tree being
 * renamed over and over by another process: measured with `bench/listing_race.ts`, the swapper at full speed)
 * the set-up does not return until the flood stops — on the main thread, that froze every call of a server
 * for as long as the flood lasted. In the worker, only the worker waits: the feed is not ready, and searches
 * check their stats meanwhile.
 *
 * The worker is started with the first watch (~100 ms, off a search's path: a watch is set up in idle time),
 * is unref'ed (it never keeps a process alive), and ends once no watch is left. Its source is a string, as the
 * Node stop guard's watchdog is, so that a bundled copy of graver carries it.
 *
 * @module
 */
import { Worker } from "node:worker_threads";

/** What the worker says of one watch: in place, failed to be set up, a change's paths, or lost (ended). */
export type WatchNews =
  | { type: "ready" }
  | { type: "failed"; message: string }
  | { type: "change"; paths: string[] }
  | { type: "lost" };

/** The worker's source (CommonJS): a watch per message, each read until it ends, a rescan or its close. */
const WATCHER = `
const { parentPort } = require("node:worker_threads");
const watches = new Map();
async function pump(id, watch) {
  try {
    for (;;) {
      const got = await watch.next();
      if (got.done || got.value.flag) break;
      parentPort.postMessage({ id, type: "change", paths: got.value.paths });
    }
  } catch {}
  if (watches.get(id) === watch) {
    watches.delete(id);
    try { watch.close(); } catch {}
  }
  parentPort.postMessage({ id, type: "lost" });
}
parentPort.on("message", (m) => {
  if (m.type === "close") {
    const watch = watches.get(m.id);
    watches.delete(m.id);
    try { watch?.close(); } catch {}
    return;
  }
  let watch;
  try {
    watch = Deno.watchFs(m.folders, { recursive: false });
  } catch (err) {
    parentPort.postMessage({ id: m.id, type: "failed", message: String(err?.message ?? err) });
    return;
  }
  watches.set(m.id, watch);
  parentPort.postMessage({ id: m.id, type: "ready" });
  void pump(m.id, watch);
});
`;

/** A message of the worker: news of the watch `id`. */
type Posted = WatchNews & { id: number };

/**
 * One worker holding every watch of the process (see the module's doc).
 *
 * @example
 * ```ts ignore
 * const id = WATCH_THREAD.open(["/w"], (news) => console.log(news.type));
 * WATCH_THREAD.close(id);
 * ```
 */
export class WatchThread {
  #worker: Worker | null = null;
  #next = 1;
  readonly #listeners = new Map<number, (news: WatchNews) => void>();

  /** Watches open (set up or being set up). */
  get open(): number {
    return this.#listeners.size;
  }

  /**
   * Ask the worker to watch `folders` (not recursively); `listener` hears whether the watch is in place, then
   * each change, and `lost` once it ended by itself (a rescan, a failure).
   *
   * @param folders Absolute paths.
   * @param listener Called with each piece of news of this watch, until it is closed.
   * @returns The watch's id, for {@linkcode WatchThread.close}.
   */
  watch(folders: readonly string[], listener: (news: WatchNews) => void): number {
    const id = this.#next++;
    this.#listeners.set(id, listener);
    this.#started().postMessage({ type: "watch", id, folders });
    return id;
  }

  /**
   * Stop the watch `id` (nothing more is heard of it); the worker ends with the last watch.
   *
   * @param id A watch's id.
   */
  close(id: number): void {
    if (!this.#listeners.delete(id) || !this.#worker) return;
    if (this.#listeners.size > 0) {
      this.#worker.postMessage({ type: "close", id });
      return;
    }
    const worker = this.#worker;
    this.#worker = null;
    void worker.terminate();
  }

  /** The worker, started on first use. */
  #started(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(WATCHER, { eval: true });
    worker.unref(); // never keeps a process alive
    worker.on("message", (m: Posted) => {
      if (this.#worker === worker) this.#listeners.get(m.id)?.(m);
    });
    const gone = () => this.#lostAll(worker);
    worker.on("error", gone);
    worker.on("exit", gone);
    this.#worker = worker;
    return worker;
  }

  /** The worker failed or ended on its own: every watch it held is lost. */
  #lostAll(worker: Worker): void {
    if (this.#worker !== worker) return;
    this.#worker = null;
    const listeners = [...this.#listeners.values()];
    this.#listeners.clear();
    for (const listener of listeners) listener({ type: "lost" });
  }
}

/** The process's watch thread. */
export const WATCH_THREAD: WatchThread = new WatchThread();
