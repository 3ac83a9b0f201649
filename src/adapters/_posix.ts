/**
 * Shared by the Deno, Node and Bun adapters: `node:fs/promises` as a disk
 * backend, and wasm read from the vendored files on disk.
 *
 * @module
 */
import { constants, readFileSync, realpathSync } from "node:fs";
import * as fsp from "node:fs/promises";
import { hostname } from "node:os";
import { fileURLToPath } from "node:url";
import {
  type Backend,
  type BackendStats,
  type FileReader,
  type HeldDir,
  specialFileError,
  specialFileKind,
} from "../fs/backend.ts";
import type { ProcessIdentity } from "../fs/process_identity.ts";
import type { GrammarEntry, WasmLoader } from "../syntax/grammars.ts";

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
  const handle = await openRegularFile(path);
  try {
    return await handle.readFile(options as Parameters<fsp.FileHandle["readFile"]>[0]);
  } finally {
    await handle.close().catch(() => {});
  }
}

/** Open a regular file for reading (`O_NONBLOCK`, then `fstat`): what {@linkcode readRegularFile} refuses is refused. */
async function openRegularFile(path: string): Promise<fsp.FileHandle> {
  const handle = await fsp.open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = await handle.stat();
    if (st.isDirectory()) {
      throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${path}'`), {
        code: "EISDIR",
      });
    }
    const special = specialFileKind(st);
    if (special !== null) throw specialFileError(path, special);
    return handle;
  } catch (err) {
    await handle.close().catch(() => {});
    throw err;
  }
}

/** {@linkcode Backend.openReader} on the disk: a regular file read piece by piece at given positions. */
async function openReader(path: string): Promise<FileReader> {
  const handle = await openRegularFile(path);
  return {
    read: async (into, position) => (await handle.read(into, 0, into.length, position)).bytesRead,
    close: () => handle.close(),
  };
}

/**
 * The disk as a backend (paths are absolute backend paths): `node:fs/promises`, with a `readFile` that never
 * opens a FIFO, socket or device for reading, plus {@linkcode Backend.holdDir} where `/proc/self/fd` works, so
 * that commits never follow a link swapped in under the root.
 */
export function createDiskBackend(): Backend {
  return DISK; // one object, so that workspaces over the disk share one in-process commit queue
}

/** Stats in flight at once in {@linkcode statMany}. */
const STATS_IN_FLIGHT = 64;

/**
 * {@linkcode Backend.statMany} on the disk: asynchronous stats, {@linkcode STATS_IN_FLIGHT} at a time. Async
 * costs several times a synchronous stat per file (577 files: 8–11 ms against 2 ms here), but a synchronous
 * stat on a hung network mount would block the whole event loop — the time limits that end a stuck call
 * included — where an async one only keeps its own call waiting until the limit answers it.
 */
async function statMany(paths: readonly string[]): Promise<(BackendStats | null)[]> {
  const out: (BackendStats | null)[] = new Array(paths.length).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const i = next++;
      try {
        out[i] = await (denoStat ?? nodeStat)(paths[i]!);
      } catch {
        out[i] = null;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(STATS_IN_FLIGHT, paths.length) }, worker));
  return out;
}

/** node:fs's stat as {@linkcode BackendStats}, null for a missing path. */
async function nodeStat(path: string): Promise<BackendStats | null> {
  try {
    return await fsp.stat(path) as unknown as BackendStats;
  } catch (err) {
    if ((err as { code?: string }).code === "ENOENT") return null;
    throw err;
  }
}

/** What Deno's own `stat` answers (the fields read here). */
interface DenoFileInfo {
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
  size: number;
  mtime: Date | null;
  ctime: Date | null;
  ino: number | null;
}

const DENO = (globalThis as { Deno?: { stat(path: string): Promise<DenoFileInfo> } }).Deno;

/**
 * In Deno, its own `stat` as {@linkcode BackendStats}: faster than `node:fs`'s there (which builds a `Stats`
 * with four dates), the cost a warm search pays per file. Times in whole ms, as `Date` holds them.
 */
const denoStat = DENO === undefined ? null : async (path: string): Promise<BackendStats | null> => {
  let info: DenoFileInfo;
  try {
    info = await DENO.stat(path);
  } catch (err) {
    if ((err as { name?: string }).name === "NotFound") return null;
    throw err;
  }
  return {
    isFile: () => info.isFile,
    isDirectory: () => info.isDirectory,
    isSymbolicLink: () => info.isSymlink,
    size: info.size,
    ...(info.mtime ? { mtimeMs: info.mtime.getTime() } : {}),
    ...(info.ctime ? { ctimeMs: info.ctime.getTime() } : {}),
    ...(info.ino !== null ? { ino: info.ino } : {}),
  } as BackendStats;
};

const DISK: Backend = {
  ...(fsp as unknown as Backend),
  statMany,
  readFile: readRegularFile,
  openReader,
  holdDir,
  processIdentity: posixProcessIdentity(),
};

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
