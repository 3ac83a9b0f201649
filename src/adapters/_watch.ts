/**
 * {@linkcode Backend.watch} on the disk, where the runtime can prove what it reports: Deno's `Deno.watchFs`
 * over the given folders, not recursive (on Linux one inotify queue for them all, so changes arrive in the
 * order they happened, and a lost event — the kernel queue's overflow — comes through as a "rescan" flag).
 * Not its recursive mode: that follows links, so a link to `/usr` in a cloned tree would watch all of `/usr`
 * (measured: 5.4 s of set-up blocking the process, and thousands of the user's inotify watches).
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
import type { ChangeFeed, ChangeListener } from "../fs/backend.ts";

/** One event of `Deno.watchFs` (the fields read here). */
interface DenoFsEvent {
  kind: string;
  paths: string[];
  /** "rescan" when events were lost. */
  flag?: string | null;
}

/** Deno's watcher: an async iterator whose pending read can be unref'ed. */
interface DenoFsWatcher {
  next(): Promise<IteratorResult<DenoFsEvent>>;
  unref?(): void;
  close(): void;
}

/** The part of Deno's API used here. */
interface DenoWatchApi {
  watchFs(paths: string[], options: { recursive: boolean }): DenoFsWatcher;
}

const DENO = (globalThis as unknown as { Deno?: Partial<DenoWatchApi> }).Deno;

/**
 * Watch `folders` with `Deno.watchFs` ({@linkcode Backend.watch}'s contract): each event's paths to
 * `onChange`, null once events may be lost (a "rescan", an error, the end). Every pending read is unref'ed:
 * the watcher never keeps the process alive.
 *
 * @param folders Absolute paths of the folders.
 * @param onChange Called with each change's paths, or null.
 * @returns The feed; throws when the watch cannot be set up.
 */
function watchWithDeno(folders: readonly string[], onChange: ChangeListener): ChangeFeed {
  const watcher = DENO!.watchFs!([...folders], { recursive: false });
  let closed = false;
  const pump = async () => {
    try {
      for (;;) {
        const next = watcher.next();
        watcher.unref?.(); // after next(): Deno unrefs the read in flight, so once per read
        const got = await next;
        if (got.done || closed) break;
        if (got.value.flag) break; // a rescan: the kernel's queue overflowed, events are lost
        onChange(got.value.paths);
      }
    } catch {
      // the watcher failed (a watch limit met on a new folder): as lost as an overflow
    }
    if (!closed) {
      closed = true;
      onChange(null);
      try {
        watcher.close();
      } catch {
        // already closed
      }
    }
  };
  void pump();
  return {
    close() {
      if (closed) return;
      closed = true;
      try {
        watcher.close();
      } catch {
        // already closed
      }
    },
  };
}

/**
 * The disk's {@linkcode Backend.watch} in this runtime, or undefined where none can be trusted (Node, Bun).
 */
export const watchFolders:
  | ((folders: readonly string[], onChange: ChangeListener) => ChangeFeed)
  | undefined = typeof DENO?.watchFs === "function" ? watchWithDeno : undefined;
