/**
 * Shared by the Deno, Node and Bun adapters: `node:fs/promises` as a disk
 * backend, and wasm read from the vendored files on disk.
 *
 * @module
 */
import { closeSync, constants, openSync, readFileSync, readSync, realpathSync } from "node:fs";
import * as fsp from "node:fs/promises";
import { hostname } from "node:os";
import { setImmediate } from "node:timers";
import { fileURLToPath } from "node:url";
import { errnoCode } from "../errors.ts";
import {
  asError,
  type Backend,
  type BackendStats,
  type FileReader,
  HELD_CALLS,
  type HeldCall,
  type HeldDir,
  specialFileError,
  specialFileKind,
  type StatedBytes,
} from "../fs/backend.ts";
import type { ProcessIdentity } from "../fs/process_identity.ts";
import type { GrammarEntry, WasmLoader } from "../syntax/grammars.ts";
import { denoStat, fdLocation, fstatNow } from "./_deno_fs.ts";
import { listDir, noteFolderStat, readdirStated } from "./_listing.ts";
import { SyncPaths } from "./_mounts.ts";
import { isRealDir, LINK, lstatNow } from "./_sync_stat.ts";
import { lendNodeSha256 } from "./_node_sha256.ts";
import { watchFolders } from "./_watch.ts";

lendNodeSha256(); // versions hashed synchronously: every posix runtime has node:crypto

/**
 * Whether process `pid` is alive on this machine: signal 0 probes it
 * (ESRCH: gone; EPERM: alive, not ours); a zombie (killed, not yet reaped)
 * counts as gone where `/proc` tells.
 */
function isAlive(pid: number): boolean | null {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return code === "ESRCH" ? false : code === "EPERM" ? true : null;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true; // no /proc (macOS) or it vanished just now: the probe said alive
  }
}

/** This process as a commit-lock holder: pid, host, start time, and a liveness probe for others. */
export function posixProcessIdentity(): ProcessIdentity {
  return { pid: process.pid, host: hostname(), started: Math.round(performance.timeOrigin), isAlive };
}

const OPEN_DIR = constants.O_RDONLY | constants.O_DIRECTORY;
const OPEN_DIR_NOFOLLOW = OPEN_DIR | constants.O_NOFOLLOW;

let procFd: Promise<boolean> | null = null;

/**
 * Whether `/proc/self/fd/N` names an open directory here (Linux, with the permission to read `/proc`): what
 * {@linkcode holdDir} needs.
 */
function procFdWorks(): Promise<boolean> {
  procFd ??= (async () => {
    let handle: fsp.FileHandle | null = null;
    try {
      handle = await fsp.open("/", OPEN_DIR);
      return (await fsp.readlink(`/proc/self/fd/${handle.fd}`)) === "/";
    } catch {
      return false;
    } finally {
      await handle?.close().catch(() => {});
    }
  })();
  return procFd;
}

/**
 * Open `dir` beneath `root` one component at a time, each relative to its parent's descriptor with
 * `O_NOFOLLOW`, so that a symbolic link anywhere on the way fails with `ELOOP` instead of being followed;
 * the result names the directory held open (`/proc/self/fd/N`). Null without a usable `/proc`.
 */
async function holdDir(dir: string, options: { root: string }): Promise<HeldDir | null> {
  if (!(await procFdWorks())) return null;
  const { root } = options;
  const rest = dir === root ? [] : dir.slice(root === "/" ? 1 : root.length + 1).split("/");
  let handle = await fsp.open(root, OPEN_DIR); // the root itself is trusted as given (it may be a link)
  try {
    for (const name of rest) {
      const next = await fsp.open(`/proc/self/fd/${handle.fd}/${name}`, OPEN_DIR_NOFOLLOW);
      await handle.close();
      handle = next;
    }
  } catch (err) {
    await handle.close().catch(() => {});
    throw err;
  }
  const held = handle;
  return { path: `/proc/self/fd/${held.fd}`, release: () => held.close() };
}

/**
 * Read a whole file, refusing what is not a regular file before reading a byte: the file is opened with
 * `O_NONBLOCK` (a FIFO without a writer opens at once instead of blocking) and checked with `fstat` on the
 * descriptor itself, so a FIFO, socket or device swapped in after an `lstat` is refused too (`binary_file`).
 * A directory fails with `EISDIR`, as `readFile` does.
 */
async function readRegularFile(path: string, options?: unknown): Promise<Uint8Array | string> {
  const { handle } = await openRegularFile(path);
  try {
    return await handle.readFile(options as Parameters<fsp.FileHandle["readFile"]>[0]);
  } finally {
    await handle.close().catch(() => {});
  }
}

/**
 * {@linkcode readRegularFile} with the `fstat` its guard took of the open file before reading it; a path that
 * is a link is followed only with `follow` (without, the answer says where the open file was).
 */
async function readStatedFile(path: string, how: { follow: boolean }): Promise<StatedBytes> {
  const { handle, stat } = await openRegularFile(path, how.follow ? 0 : constants.O_NOFOLLOW);
  try {
    const at = how.follow ? undefined : fdLocation(handle.fd);
    const bytes = await handle.readFile() as Uint8Array;
    return at === undefined ? { bytes, stat } : { bytes, stat, at };
  } finally {
    await handle.close().catch(() => {});
  }
}

/**
 * Open a regular file for reading (`O_NONBLOCK`, then `fstat`; `flags` added, `O_NOFOLLOW`): what
 * {@linkcode readRegularFile} refuses is refused. Answers the handle and that `fstat`.
 */
async function openRegularFile(
  path: string,
  flags = 0,
): Promise<{ handle: fsp.FileHandle; stat: BackendStats }> {
  const handle = await fsp.open(path, constants.O_RDONLY | constants.O_NONBLOCK | flags);
  try {
    const stat = await handle.stat() as unknown as BackendStats;
    refuseIrregular(path, stat);
    return { handle, stat };
  } catch (err) {
    await handle.close().catch(() => {});
    throw err;
  }
}

/**
 * Throw what reading `path` must fail with when `st` (the `fstat` of its open descriptor) is not a regular
 * file: `EISDIR` for a directory, as `readFile` does, and {@linkcode specialFileError} for a FIFO, socket or
 * device. The one check of every read here, synchronous or not.
 */
function refuseIrregular(path: string, st: BackendStats): void {
  if (st.isDirectory()) {
    throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${path}'`), {
      code: "EISDIR",
    });
  }
  const special = specialFileKind(st);
  if (special !== null) throw specialFileError(path, special);
}

/** {@linkcode Backend.openReader} on the disk: a regular file read piece by piece at given positions. */
async function openReader(path: string): Promise<FileReader> {
  const { handle } = await openRegularFile(path);
  return {
    read: async (into, position) => (await handle.read(into, 0, into.length, position)).bytesRead,
    close: () => handle.close(),
  };
}

/**
 * The disk as a backend (paths are absolute backend paths): `node:fs/promises`, with a `readFile` that never
 * opens a FIFO, socket or device for reading, plus {@linkcode Backend.holdDir} where `/proc/self/fd` works, so
 * that commits never follow a link swapped in under the root, and {@linkcode Backend.watchFolders} in Deno
 * (`_watch.ts`), so that a warm search checks no stat while nothing changed.
 */
export function createDiskBackend(): Backend {
  return DISK; // one object, so that workspaces over the disk share one in-process commit queue
}

/** Stats in flight at once in {@linkcode statMany}'s asynchronous part. */
const STATS_IN_FLIGHT = 64;

/** Synchronous stats in a row before {@linkcode statMany} lets the event loop run (timers included). */
const SYNC_STATS_PER_TURN = 1000;

/**
 * {@linkcode Backend.statMany} on the disk. A path on local file systems only (`_mounts.ts`: every mount its
 * lookup passes through local, none of its folders a link) is stat'ed synchronously, {@linkcode
 * SYNC_STATS_PER_TURN} at a time with a turn of the event loop between; the rest asynchronously,
 * {@linkcode STATS_IN_FLIGHT} at a time. An async stat costs several times a synchronous one (3,110 files:
 * 34–48 ms against 9–12 ms here), but a synchronous stat on a hung network or FUSE mount would block the whole
 * event loop — the time limits that end a stuck call included — where an async one only keeps its own call
 * waiting until the limit answers it. A path whose last part is a link goes the async way too (its target may
 * be anywhere). Without a readable mount table (no `/proc`) every stat is async.
 */
async function statMany(paths: readonly string[]): Promise<(BackendStats | null)[]> {
  const out: (BackendStats | null)[] = new Array(paths.length).fill(null);
  const syncPaths = SyncPaths.now(isRealDir);
  const sync = syncPaths?.statable(paths) ?? null;
  const later: number[] = [];
  let inTurn = 0;
  for (let i = 0; i < paths.length; i++) {
    if (sync?.[i] !== true) {
      later.push(i);
      continue;
    }
    const st = lstatNow(paths[i]!);
    if (st === LINK) later.push(i);
    else out[i] = st;
    if (st !== LINK && st?.isDirectory()) {
      syncPaths!.noteRealDir(paths[i]!);
      if (paths.length === 1) noteFolderStat(paths[i]!, st);
    }
    if (++inTurn === SYNC_STATS_PER_TURN) {
      inTurn = 0;
      await nextTurn();
    }
  }
  await statLater(paths, { indices: later, out });
  return out;
}

/** A turn of the event loop: a macrotask, so that due timers and other requests run first. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Run `work` on each of `indices`, at most `limit` at once. */
async function eachInFlight(
  indices: readonly number[],
  options: { limit: number; work: (i: number) => Promise<void> },
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < indices.length) await options.work(indices[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(options.limit, indices.length) }, worker));
}

/** Stat the paths at `indices` asynchronously, {@linkcode STATS_IN_FLIGHT} at a time, into `out`. */
async function statLater(
  paths: readonly string[],
  into: { indices: readonly number[]; out: (BackendStats | null)[] },
): Promise<void> {
  const { indices, out } = into;
  await eachInFlight(indices, {
    limit: STATS_IN_FLIGHT,
    work: async (i) => {
      try {
        out[i] = await (denoStat ?? nodeStat)(paths[i]!);
      } catch {
        out[i] = null;
      }
    },
  });
}

/** Files read in a row synchronously before {@linkcode readMany} lets the event loop run. */
const SYNC_READS_PER_TURN = 256;

/**
 * Bytes read in a row synchronously before {@linkcode readMany} lets the event loop run. A file larger than
 * this is read asynchronously: one synchronous read of it would hold the loop longer than a whole turn.
 */
const SYNC_READ_BYTES_PER_TURN = 2 * 1024 * 1024;

/** Reads in flight at once in {@linkcode readMany}'s asynchronous part. */
const READS_IN_FLIGHT = 16;

/** What {@linkcode readNow} answers for a file it leaves to the asynchronous read: a link, or a large file. */
const READ_LATER = Symbol("read later");

/**
 * {@linkcode Backend.readMany} on the disk: each path read as {@linkcode readRegularFile} reads it, one answer
 * per path (its bytes, or the error that read would throw). A path `statMany` would stat synchronously (every
 * mount its lookup passes through local, none of its folders a link: `SyncPaths`, one mount-table read serving
 * the calls of `SYNC_TRUST_MS`) is read synchronously — open, `fstat` and read on one descriptor, no promise,
 * no `FileHandle`: a fraction of the asynchronous read's cost (hono's 577 files: 0.24× the time, 0.28× the
 * CPU) — at most {@linkcode SYNC_READS_PER_TURN} files or {@linkcode SYNC_READ_BYTES_PER_TURN} bytes in a row,
 * with a turn of the event loop between. The rest are read asynchronously, {@linkcode READS_IN_FLIGHT} at a
 * time: a path on a network, FUSE or unknown mount (a synchronous read there could block the whole process), a
 * path whose last part is a link (its target may be anywhere: the synchronous open never follows one), and a
 * file larger than a turn's bytes.
 */
async function readMany(paths: readonly string[]): Promise<(Uint8Array | Error)[]> {
  return (await readAll(paths, { follow: true })).map((got) => got instanceof Error ? got : got.bytes);
}

/**
 * {@linkcode Backend.readManyStated} on the disk: {@linkcode readMany}'s reads, each with the `fstat` its guard
 * takes of the open file before reading it (the synchronous read's and the asynchronous one's alike), at no
 * cost of its own — and a path that is a link is not followed (`ELOOP`), synchronously or not: its callers
 * read real paths, so a link there was swapped in since, and may lead anywhere. A folder on the way swapped for
 * a link is not seen by the open (`O_NOFOLLOW` guards the last part only): each answer says where the open
 * file was (`StatedBytes.at`, from `/proc/self/fd/N`, one `readlink` a file), for the caller to check.
 */
function readManyStated(paths: readonly string[]): Promise<(StatedBytes | Error)[]> {
  return readAll(paths, { follow: false });
}

/** The reads of {@linkcode readMany} and {@linkcode readManyStated}: a last part that is a link followed or not. */
async function readAll(paths: readonly string[], how: { follow: boolean }): Promise<(StatedBytes | Error)[]> {
  const out: (StatedBytes | Error)[] = new Array(paths.length);
  const sync = SyncPaths.now(isRealDir)?.statable(paths) ?? null;
  const later: number[] = [];
  let files = 0;
  let bytes = 0;
  for (let i = 0; i < paths.length; i++) {
    const got = sync?.[i] === true ? readNow(paths[i]!, how) : READ_LATER;
    if (got === READ_LATER) {
      later.push(i);
      continue;
    }
    out[i] = got;
    if (!(got instanceof Error)) bytes += got.bytes.length;
    if (++files >= SYNC_READS_PER_TURN || bytes >= SYNC_READ_BYTES_PER_TURN) {
      files = bytes = 0;
      await nextTurn();
    }
  }
  await eachInFlight(later, {
    limit: READS_IN_FLIGHT,
    // No encoding asked: a `Buffer` (the wrapper, `BackendFs`, makes it a plain array).
    work: async (i) => void (out[i] = await readStatedFile(paths[i]!, how).catch(asError)),
  });
  return out;
}

/**
 * Read a regular file synchronously, with the guard of {@linkcode readRegularFile}: opened with `O_NONBLOCK`
 * (a FIFO without a writer opens at once) and `O_NOFOLLOW` (a link is left to the asynchronous read, which
 * follows it as `readFile` does), then refused unless its `fstat` says a regular file. Only for paths
 * `syncStatable` let through.
 */
function readNow(path: string, how: { follow: boolean }): StatedBytes | Error | typeof READ_LATER {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (err) {
    return errnoCode(err) === "ELOOP" && how.follow ? READ_LATER : asError(err);
  }
  try {
    const st = fstatNow(fd);
    refuseIrregular(path, st);
    if (st.size > SYNC_READ_BYTES_PER_TURN) return READ_LATER;
    const at = how.follow ? undefined : fdLocation(fd);
    const bytes = readOpenNow(fd, st.size);
    return at === undefined ? { bytes, stat: st } : { bytes, stat: st, at };
  } catch (err) {
    return asError(err);
  } finally {
    try {
      closeSync(fd);
    } catch { /* closing a descriptor opened for reading loses nothing */ }
  }
}

/**
 * The whole content of an open file whose `fstat` said `size` bytes, read synchronously into an array of its
 * own (no pooled `Buffer`): what it holds now, should it have grown or shrunk since. Each read asks for one
 * byte more than is left: a read that ends exactly at `size` is a short read, the end of a regular file on a
 * local file system (the only files read here), and no read of nothing after it is needed to find the end —
 * one `read` a file instead of two.
 *
 * @param fd A descriptor open for reading on a regular file.
 * @param size The size its `fstat` gave.
 * @returns The bytes it holds now.
 */
export function readOpenNow(fd: number, size: number): Uint8Array {
  const room = new Uint8Array(size + 1);
  let at = 0;
  for (;;) {
    const n = readSync(fd, room, at, size + 1 - at, null);
    if (n === 0) return room.slice(0, at); // it shrank
    at += n;
    if (at === size) return room.subarray(0, size); // a short read: the byte asked past the end is not there
    if (at > size) break; // it grew since the fstat
  }
  const pieces: Uint8Array[] = [room];
  for (let n; (n = readSync(fd, GROWTH_PROBE, 0, GROWTH_PROBE.length, null)) > 0;) {
    pieces.push(GROWTH_PROBE.slice(0, n)); // it grew since the fstat: what it holds now
  }
  if (pieces.length === 1) return room;
  const grown = new Uint8Array(pieces.reduce((sum, p) => sum + p.length, 0));
  pieces.reduce((at, p) => (grown.set(p, at), at + p.length), 0);
  return grown;
}

/** Where {@linkcode readOpenNow} reads past a file's stat'ed size (nothing there, unless it grew). */
const GROWTH_PROBE = new Uint8Array(64 * 1024);

/** node:fs's stat as {@linkcode BackendStats}, null for a missing path. */
async function nodeStat(path: string): Promise<BackendStats | null> {
  try {
    return await fsp.stat(path) as unknown as BackendStats;
  } catch (err) {
    if ((err as { code?: string }).code === "ENOENT") return null;
    throw err;
  }
}

const DISK: Backend = {
  ...(fsp as unknown as Backend),
  statMany,
  // Tagged with the call they stand for: a wrapper replacing `readFile` is read through its own (`StandsFor`).
  readMany: Object.assign(readMany, { of: readRegularFile }),
  readManyStated: Object.assign(readManyStated, { of: readRegularFile }),
  readdir: listDir,
  readdirStated,
  readFile: readRegularFile,
  openReader,
  processIdentity: posixProcessIdentity(),
  ...(watchFolders ? { watchFolders } : {}),
};
// Tagged with the calls a commit makes by its held paths: a wrapper replacing one judges its own paths.
DISK.holdDir = Object.assign(holdDir, {
  of: Object.fromEntries(HELD_CALLS.map((call) => [call, DISK[call]])) as Partial<Pick<Backend, HeldCall>>,
});

/** Options for {@linkcode createWasmLoader}. */
export interface DiskWasmOptions {
  /** The repository (or package) root holding `wasm/` and `grammars/wasm/`. */
  baseUrl?: URL;
}

/** The repository root as seen from this file. */
export const DEFAULT_BASE: URL = new URL("../../", import.meta.url);

/**
 * Read vendored wasm from disk as bytes.
 *
 * @param options Where the vendored wasm lives.
 * @returns A loader for `Grammars`.
 */
export function createWasmLoader(options: DiskWasmOptions = {}): WasmLoader {
  const base = options.baseUrl ?? DEFAULT_BASE;
  const read = async (rel: string, what: string) => {
    const path = fileURLToPath(new URL(rel, base));
    try {
      return new Uint8Array(await fsp.readFile(path));
    } catch (cause) {
      throw new Error(
        `Cannot load ${what} from "${path}": run "deno task setup" to vendor the wasm files`,
        { cause },
      );
    }
  };
  return {
    runtime: () => read("wasm/web-tree-sitter.wasm", "the tree-sitter runtime"),
    grammar: (id: string, _entry: GrammarEntry) => read(`grammars/wasm/${id}.wasm`, `grammar "${id}"`),
  };
}

/**
 * The process's current directory as an absolute posix path: the shell's `$PWD` when it names the same
 * directory (it keeps a symbolic link the user went through, as paths the user copies do), else the real path.
 */
export function cwd(): string {
  const real = process.cwd();
  try {
    const logical = process.env["PWD"]; // may need an env permission
    return logical && logical.startsWith("/") && realpathSync(logical) === real ? logical : real;
  } catch {
    return real;
  }
}
