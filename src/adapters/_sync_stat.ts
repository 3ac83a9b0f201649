/**
 * Synchronous `lstat`s on the disk, for the paths `_mounts.ts` lets a synchronous call touch (local file
 * systems, no link on the way): a link is answered as such, for its target to be stat'ed the asynchronous way.
 *
 * @module
 */
import { lstatSync } from "node:fs";
import type { BackendStats } from "../fs/backend.ts";
import { DENO, DenoStats } from "./_deno_fs.ts";

/** What {@linkcode lstatNow} answers for a symbolic link: its target must be stat'ed the async way. */
export const LINK = Symbol("link");

/**
 * A synchronous `lstat` as {@linkcode BackendStats} (for anything but a link, what `stat` answers), null when
 * it fails, {@linkcode LINK} for a link. Only for paths `syncStatable` let through.
 */
export function lstatNow(path: string): BackendStats | null | typeof LINK {
  try {
    if (DENO) {
      const info = DENO.lstatSync(path);
      return info.isSymlink ? LINK : new DenoStats(info);
    }
    const st = lstatSync(path, { throwIfNoEntry: false });
    return st === undefined ? null : st.isSymbolicLink() ? LINK : st as unknown as BackendStats;
  } catch {
    return null;
  }
}

/** Whether `dir` is a folder and not a link, by a synchronous `lstat` (a folder `syncStatable` is checking). */
export function isRealDir(dir: string): boolean {
  const st = lstatNow(dir);
  return st !== null && st !== LINK && st.isDirectory();
}
