/**
 * Where the disk backend runs in Deno, Deno's own file system calls in place of the Node polyfills' (which
 * build a `Stats` with four dates or a `Dirent` per entry through extra layers): `stat`, `lstat`, a folder
 * listing, and the type check of an open descriptor. Elsewhere each answers null or falls back to `node:fs`.
 *
 * @module
 */
import { fstatSync, readdirSync, readlinkSync } from "node:fs";
import * as fsp from "node:fs/promises";
import type { BackendStats } from "../fs/backend.ts";

/** What Deno's own `stat` answers (the fields read here). */
export interface DenoFileInfo {
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
  size: number;
  mtime: Date | null;
  ctime: Date | null;
  ino: number | null;
  dev: number;
  isFifo?: boolean | null;
  isSocket?: boolean | null;
  isCharDevice?: boolean | null;
  isBlockDevice?: boolean | null;
}

/** What Deno's own `readDir` answers per entry. */
interface DenoDirEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
}

/** The parts of Deno's file system API used here. */
export interface DenoFs {
  stat(path: string): Promise<DenoFileInfo>;
  statSync(path: string): DenoFileInfo;
  lstatSync(path: string): DenoFileInfo;
  readDir(path: string): AsyncIterable<DenoDirEntry>;
  readDirSync(path: string): Iterable<DenoDirEntry>;
  readLinkSync(path: string): string;
}

/**
 * A Deno directory entry as a `Dirent`: its name and the three kinds Deno tells. An entry that is none of them
 * (a FIFO, socket or device) says nothing more, so `BackendFs.listTyped` asks `lstat` what it is.
 */
class DenoDirent {
  readonly name: string;
  readonly #kind: "file" | "dir" | "link" | null;

  constructor(entry: DenoDirEntry) {
    this.name = entry.name;
    this.#kind = entry.isSymlink ? "link" : entry.isFile ? "file" : entry.isDirectory ? "dir" : null;
  }

  isFile(): boolean {
    return this.#kind === "file";
  }

  isDirectory(): boolean {
    return this.#kind === "dir";
  }

  isSymbolicLink(): boolean {
    return this.#kind === "link";
  }
}

/**
 * `readdir` on the disk. In Deno, asked for entry types, Deno's own asynchronous `readDir` (no `Dirent` built
 * through the Node polyfills: hono's 221 folders listed in ~0.5× the time of `node:fs/promises`' `readdir`,
 * ~0.7× warm); otherwise, and elsewhere, `node:fs/promises`' own.
 */
export function readdir(path: string, options?: { withFileTypes?: boolean }): Promise<unknown[]> {
  if (DENO === undefined || options?.withFileTypes !== true) return fsp.readdir(path, options as never);
  return listDeno(DENO, path);
}

/** A folder's entries through Deno's `readDir`, as `Dirent`s. */
async function listDeno(deno: DenoFs, path: string): Promise<DenoDirent[]> {
  const out: DenoDirent[] = [];
  for await (const e of deno.readDir(path)) out.push(new DenoDirent(e));
  return out;
}

/**
 * A folder's entries with their types, synchronously: Deno's `readDirSync` as `Dirent`s in Deno, else
 * `node:fs`' `readdirSync`. Only for a folder a synchronous call may touch (`_posix.ts`).
 */
export function readdirNow(path: string): unknown[] {
  if (DENO === undefined) return readdirSync(path, { withFileTypes: true });
  const out: DenoDirent[] = [];
  for (const e of DENO.readDirSync(path)) out.push(new DenoDirent(e));
  return out;
}

export const DENO = (globalThis as { Deno?: DenoFs }).Deno;

/**
 * Deno's file info as {@linkcode BackendStats}: the fields a search reads, times in whole ms (as `Date` holds
 * them). Methods on the prototype: a warm search makes one per file.
 */
export class DenoStats implements BackendStats {
  readonly size: number;
  readonly mtimeMs?: number;
  readonly ctimeMs?: number;
  readonly ino?: number;
  readonly #kind: "file" | "dir" | "link" | "fifo" | "socket" | "char" | "block" | "other";

  constructor(info: DenoFileInfo) {
    // Copied out, so that the info and its four dates are garbage at once.
    this.#kind = info.isFile
      ? "file"
      : info.isDirectory
      ? "dir"
      : info.isSymlink
      ? "link"
      : info.isFifo
      ? "fifo"
      : info.isSocket
      ? "socket"
      : info.isCharDevice
      ? "char"
      : info.isBlockDevice
      ? "block"
      : "other";
    this.size = info.size;
    if (info.mtime) this.mtimeMs = info.mtime.getTime();
    if (info.ctime) this.ctimeMs = info.ctime.getTime();
    if (info.ino !== null) this.ino = info.ino;
  }

  isFile(): boolean {
    return this.#kind === "file";
  }

  isDirectory(): boolean {
    return this.#kind === "dir";
  }

  isSymbolicLink(): boolean {
    return this.#kind === "link";
  }

  isFIFO(): boolean {
    return this.#kind === "fifo";
  }

  isSocket(): boolean {
    return this.#kind === "socket";
  }

  isCharacterDevice(): boolean {
    return this.#kind === "char";
  }

  isBlockDevice(): boolean {
    return this.#kind === "block";
  }
}

/**
 * Whether `/proc/self/fd/N` names what descriptor N is open on (undefined until the first read asks): checked
 * once against `fstat`, device and inode alike.
 */
let procFdStats: boolean | undefined;

/**
 * What an open descriptor is, as `fstat` answers. In Deno, Deno's own `statSync` of `/proc/self/fd/N` (the
 * magic link names the open file itself, whatever its path holds by now): `node:fs`'s `fstatSync` there builds
 * a `Stats` with four dates through the Node polyfills, ~2.5× the time (hono's 577 files: ~8 µs against ~3 µs
 * a file). Elsewhere, or where `/proc/self/fd` does not answer so, `fstatSync`.
 */
export function fstatNow(fd: number): BackendStats & { size: number } {
  if (DENO !== undefined && procFdStats !== false) {
    if (procFdStats === undefined) procFdStats = procFdStatsWork(DENO, fd);
    if (procFdStats) return new DenoStats(DENO.statSync(`/proc/self/fd/${fd}`));
  }
  return fstatSync(fd) as unknown as BackendStats & { size: number };
}

/** Whether `/proc/self/fd/N` names where descriptor N's file is (undefined until the first read asks). */
let procFdLinks: boolean | undefined;

/**
 * Where the file open on `fd` is now, as the kernel names it: the link `/proc/self/fd/N` (Linux), read with
 * Deno's own `readLinkSync` in Deno (no polyfill), else `node:fs`'s. Undefined where `/proc/self/fd` does not
 * answer (no procfs: macOS, some containers). A file removed since it was opened is named with " (deleted)".
 *
 * @param fd An open descriptor.
 * @returns Its file's absolute path, or undefined.
 */
export function fdLocation(fd: number): string | undefined {
  if (procFdLinks === false) return undefined;
  try {
    const at = DENO !== undefined
      ? DENO.readLinkSync(`/proc/self/fd/${fd}`)
      : readlinkSync(`/proc/self/fd/${fd}`);
    procFdLinks = true;
    return at;
  } catch {
    procFdLinks ??= false; // never answered: no procfs here
    return undefined;
  }
}

/** Whether a stat of `/proc/self/fd/N` finds the very file `fstat` of descriptor N does. */
function procFdStatsWork(deno: DenoFs, fd: number): boolean {
  try {
    const viaProc = deno.statSync(`/proc/self/fd/${fd}`);
    const st = fstatSync(fd);
    return viaProc.ino === st.ino && viaProc.dev === st.dev;
  } catch {
    return false;
  }
}

/**
 * In Deno, its own `stat` as {@linkcode BackendStats}: faster than `node:fs`'s there (which builds a `Stats`
 * with four dates), the cost a warm search pays per file.
 */
export const denoStat = DENO === undefined ? null : async (path: string): Promise<BackendStats | null> => {
  try {
    return new DenoStats(await DENO.stat(path));
  } catch (err) {
    if ((err as { name?: string }).name === "NotFound") return null;
    throw err;
  }
};
