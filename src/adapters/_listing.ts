/**
 * Folder listings on the disk: synchronous where a synchronous call is safe (`_mounts.ts`) and cheap, and —
 * for a walk's listings of real paths — through a descriptor that says where the folder listed was
 * ({@linkcode readdirStated}), so that a folder on the way swapped for a link since the walk resolved it is
 * not listed through the link unseen.
 *
 * @module
 */
import { closeSync, constants, openSync } from "node:fs";
import * as fsp from "node:fs/promises";
import { setImmediate } from "node:timers";
import type { Backend, BackendStats, StatedListing } from "../fs/backend.ts";
import { fdLocation, readdir, readdirNow } from "./_deno_fs.ts";
import { SyncPaths } from "./_mounts.ts";
import { isRealDir, LINK, lstatNow } from "./_sync_stat.ts";

/**
 * The folders {@linkcode statMany} stat'ed alone in this turn of the event loop, with their `lstat`s: a read
 * cache stats a folder and lists it soon after (a walk stats a few siblings, then lists them), and
 * {@linkcode listDir} and {@linkcode readdirStated} takes that stat rather than `lstat` the folder again (a walk of hono's 221 folders: ~1 ms).
 * The window between the stat and the listing is the one a listing's own `lstat` leaves before its `readdir`,
 * a few microtasks longer. Emptied on the next turn; at most {@linkcode STATED_FOLDERS_MOST} held.
 */
const statedFolders = new Map<string, BackendStats>();

/** Folder stats {@linkcode statedFolders} holds at most. */
const STATED_FOLDERS_MOST = 256;

/** Remember a folder's stat for its listing in this turn. */
export function noteFolderStat(path: string, st: BackendStats): void {
  if (statedFolders.size === 0) setImmediate(() => statedFolders.clear());
  if (statedFolders.size < STATED_FOLDERS_MOST) statedFolders.set(path, st);
}

/** The stat {@linkcode statMany} took of a folder in this turn (used up), or null. */
function takeFolderStat(path: string): BackendStats | null {
  const st = statedFolders.get(path) ?? null;
  statedFolders.delete(path);
  return st;
}

/**
 * Folders listed synchronously in a row before a listing goes the asynchronous way: a walk awaits one listing
 * after another, and answers that are already there would never let the event loop run (timers, other
 * requests); the asynchronous one does, and the count starts again after it.
 */
const SYNC_LISTINGS_PER_TURN = 256;

/** Folders larger than this (their `lstat` size, in bytes: thousands of entries) are listed asynchronously. */
const SYNC_LISTING_BYTES = 256 * 1024;

/** Listings made synchronously since the event loop last ran. */
let syncListings = 0;

/** Whether the next listing may be synchronous: the turn's allowance is not used up (it counts this one). */
function syncListingAllowed(): boolean {
  if (syncListings === 0) setImmediate(() => syncListings = 0);
  return ++syncListings <= SYNC_LISTINGS_PER_TURN;
}

/**
 * {@linkcode Backend.readdir} on the disk. A listing with entry types of a folder a synchronous stat may touch
 * (`SyncPaths`: its lookup passes through local file systems only, none of its folders a link) that is a
 * folder itself, not a link, and not a huge one, is made synchronously: a walk lists a folder after another,
 * and the asynchronous listing and the asynchronous stat before it cost a thread hop each (hono's 221
 * folders: the walk of a cold search 0.6× the time, half the CPU). The rest as {@linkcode readdir} lists.
 */
export function listDir(path: string, options?: { withFileTypes?: boolean }): Promise<unknown[]> {
  if (options?.withFileTypes === true && listableNow(path)) {
    try {
      return Promise.resolve(readdirNow(path));
    } catch (err) {
      return Promise.reject(err);
    }
  }
  return readdir(path, options);
}

/**
 * Whether a folder may be listed synchronously now: the turn's allowance is not used up, a synchronous call
 * may touch it (`SyncPaths`), and its stat (the one `statMany` just took, else a `lstat`) says a folder, not
 * a link, and not a huge one.
 */
function listableNow(path: string): boolean {
  if (!syncListingAllowed() || !SyncPaths.now(isRealDir)?.statable([path])[0]) return false;
  const st = takeFolderStat(path) ?? lstatNow(path);
  return st !== null && st !== LINK && st.isDirectory() && Number(st.size ?? 0) <= SYNC_LISTING_BYTES;
}

/**
 * {@linkcode Backend.readdirStated} on the disk: a listing with entry types, made through a descriptor open on
 * the folder, with where the kernel says that descriptor is (`/proc/self/fd/N`, one `open`, `readlink` and
 * `close` more a folder): the names listed are those of the folder at `at`, whatever `path` leads to by the
 * time they are read. Synchronous as {@linkcode listDir} is; without `/proc`, `at` is absent and the folder is
 * listed by its path.
 *
 * Its `of` is {@linkcode listDir}: a backend that lists with another `readdir` is not listed this way.
 */
export const readdirStated: NonNullable<Backend["readdirStated"]> = Object.assign(
  (path: string): Promise<StatedListing> => {
    if (!listableNow(path)) return listOpenLater(path);
    try {
      return Promise.resolve(listOpenNow(path));
    } catch (err) {
      return Promise.reject(err);
    }
  },
  { of: listDir },
);

/** Open flags of a folder listed through its descriptor. */
const OPEN_FOLDER = constants.O_RDONLY | constants.O_DIRECTORY;

/** {@linkcode readdirStated}, synchronously. */
function listOpenNow(path: string): StatedListing {
  const fd = openSync(path, OPEN_FOLDER);
  try {
    const at = fdLocation(fd);
    if (at === undefined) return { entries: readdirNow(path) };
    // Listed where asked: no folder on its way is a link, and the reads of its files need not `lstat` it again.
    if (at === path) SyncPaths.now(isRealDir)?.noteRealDir(path);
    return { entries: readdirNow(`/proc/self/fd/${fd}`), at };
  } finally {
    closeSync(fd);
  }
}

/** {@linkcode readdirStated}, the asynchronous way. */
async function listOpenLater(path: string): Promise<StatedListing> {
  const handle = await fsp.open(path, OPEN_FOLDER);
  try {
    const at = fdLocation(handle.fd);
    if (at === undefined) return { entries: await readdir(path, { withFileTypes: true }) };
    return { entries: await readdir(`/proc/self/fd/${handle.fd}`, { withFileTypes: true }), at };
  } finally {
    await handle.close().catch(() => {});
  }
}
