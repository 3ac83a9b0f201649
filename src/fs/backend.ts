/**
 * Backend: where bytes live. Any object with the `fs.promises` subset graver
 * calls — memfs, `node:fs/promises`, lightning-fs — wrapped once in
 * {@linkcode BackendFs}, the only type the rest of graver takes.
 *
 * @module
 */
import { errnoCode } from "../errors.ts";
import { dirname, joinPath } from "./backend_paths.ts";
import { type ProcessIdentity, webProcessIdentity } from "./process_identity.ts";
import { type Landing, refuseLandedElsewhere } from "./landing.ts";
import { direntKind, type ListedEntryKind } from "./dirent_kind.ts";
import { formFor, type HeldCall, type StandsFor } from "./backend_forms.ts";

export { HELD_CALLS, heldDirsOf } from "./backend_forms.ts";
export type { HeldCall, StandsFor } from "./backend_forms.ts";

export type { ListedEntryKind } from "./dirent_kind.ts";

/** A folder's entries ({@linkcode Backend.readdirStated}) and where it was when they were listed. */
export interface StatedListing {
  /** The entries, as `readdir` with `withFileTypes` answers them. */
  entries: unknown[];
  /** Where the folder listed was, as the kernel names it; absent where the backend cannot tell. */
  at?: string;
}

/** A file's bytes and its stat taken before they were read ({@linkcode Backend.readManyStated}). */
export interface StatedBytes {
  /** The whole content. */
  bytes: Uint8Array;
  /** The file's stat, taken before the bytes were read (of the open file, where the backend opens one). */
  stat: BackendStats;
  /**
   * Where the open file was when it was read, as the kernel names it (Linux: `/proc/self/fd/N`); absent where
   * the backend cannot tell. A reader of real paths checks it (`fs/real_reads.ts`: a folder swapped for a link).
   */
  at?: string;
}

/** What `stat`/`lstat` must return. */
export interface BackendStats {
  /** True for a regular file. */
  isFile(): boolean;
  /** True for a directory. */
  isDirectory(): boolean;
  /** True for a symbolic link (lstat only). */
  isSymbolicLink?(): boolean;
  /** Size in bytes. */
  size?: number | bigint;
  /** Type and permission bits (`0o100755`); absent when the backend keeps none. */
  mode?: number | bigint;
  /** True for a named pipe (node:fs and memfs have it). */
  isFIFO?(): boolean;
  /** True for a socket. */
  isSocket?(): boolean;
  /** True for a character device (`/dev/zero`). */
  isCharacterDevice?(): boolean;
  /** True for a block device. */
  isBlockDevice?(): boolean;
}

import { specialFileKind } from "./special_files.ts";
export { specialFileError, specialFileKind } from "./special_files.ts";

/**
 * The `fs.promises` subset graver calls. `node:fs/promises`, memfs's
 * `vol.promises` and lightning-fs's `fs.promises` all satisfy it.
 */
export interface Backend {
  /** Read a whole file as bytes. */
  readFile(path: string): Promise<Uint8Array | string>;
  /** Write a whole file. */
  writeFile(path: string, data: Uint8Array, options?: unknown): Promise<void>;
  /** Rename atomically within one backend. */
  rename(from: string, to: string): Promise<void>;
  /** Remove a file. */
  unlink(path: string): Promise<void>;
  /** Create a directory (recursion is done by graver, not asked of the backend). */
  mkdir(path: string, options?: unknown): Promise<unknown>;
  /**
   * Names in a directory; with `{ withFileTypes: true }` a backend may answer entries that say what they are
   * (`node:fs` and memfs `Dirent`s), which spares a `lstat` per entry (names alone are fine too).
   */
  readdir(path: string, options?: { withFileTypes?: boolean }): Promise<unknown[]>;
  /** Stat following links. */
  stat(path: string): Promise<BackendStats>;
  /** Stat not following links. */
  lstat(path: string): Promise<BackendStats>;
  /**
   * Stat many paths in one call (optional; the disk backends of the Deno, Node and Bun adapters have it):
   * one answer per path, following links, null where the stat failed. A warm search checks every file's
   * stat at once this way instead of one call per file.
   */
  statMany?(paths: readonly string[]): Promise<(BackendStats | null)[]>;
  /**
   * Read many whole files in one call (optional; the disk backends of the Deno, Node and Bun adapters have
   * it): one answer per path, in order — its bytes as {@linkcode Backend.readFile} gives them, or the error
   * `readFile` would throw for it (`ENOENT` for an absent file, `EISDIR` for a directory, the refusal of a FIFO,
   * socket or device), with every guard of `readFile` kept. A cold search reads its files in batches this way;
   * the disk reads those on local file systems synchronously, a chunk at a time.
   */
  readMany?: ((paths: readonly string[]) => Promise<(Uint8Array | Error)[]>) & StandsFor<Backend["readFile"]>;
  /**
   * {@linkcode Backend.readMany} of real paths, each file's bytes with its stat as it was before they were read
   * (optional; the disk backends have it: the `fstat` of the open file that their guard takes anyway), a path
   * that is a link refused (`ELOOP`: swapped in since the path was resolved, it may lead anywhere). A read
   * cache keeps bytes under the stat taken before they were read; this saves it a stat call per file.
   */
  readManyStated?:
    & ((paths: readonly string[]) => Promise<(StatedBytes | Error)[]>)
    & StandsFor<Backend["readFile"]>;
  /**
   * `readdir` with entry types of a real path (optional; the disk has it where `/proc/self/fd` works), with
   * where the folder listed was ({@linkcode StatedListing.at}): a walk refuses a listing made elsewhere than
   * it asked (a folder on the way swapped for a link since it was resolved). Tagged with the `readdir` it
   * stands for ({@linkcode StandsFor}).
   */
  readdirStated?: ((path: string) => Promise<StatedListing>) & StandsFor<Backend["readdir"]>;
  /** Target of a symbolic link (optional; without it links are refused). */
  readlink?(path: string): Promise<string | Uint8Array>;
  /** Remove an empty directory (optional). */
  rmdir?(path: string): Promise<void>;
  /**
   * Set a file's permission bits (optional; node:fs, memfs and lightning-fs
   * have it). Without it a rewritten file gets the backend's default mode.
   */
  chmod?(path: string, mode: number): Promise<void>;
  /**
   * Open the directory `dir` beneath `root` one component at a time, never following a symbolic link, and
   * hold it (optional; the disk backend has it on Linux). The returned `path` names that very directory until
   * `release` (e.g. `/proc/self/fd/17`), even if the tree changes meanwhile. A link on the way fails with
   * `ELOOP`; null when this backend cannot hold directories here (then writes are checked instead). The
   * calls a commit makes under a held directory name it by that path: tagged with them
   * ({@linkcode StandsFor}, {@linkcode HELD_CALLS}), it is used only while the backend's calls are those — a
   * wrapper that replaces one (to deny writes under a folder, say) sees the paths it judges, never
   * `/proc/self/fd/N/name`, and its writes are checked instead.
   */
  holdDir?:
    & ((dir: string, options: { root: string }) => Promise<HeldDir | null>)
    & StandsFor<Partial<Pick<Backend, HeldCall>>>;
  /**
   * Open a regular file for reading piece by piece (optional; the disk backend has it). A commit compares a
   * large file with the bytes it expects through it instead of reading a second whole copy. A FIFO, socket or
   * device is refused as {@linkcode Backend.readFile} refuses it; an absent file fails with `ENOENT`.
   */
  openReader?(path: string): Promise<FileReader>;
  /**
   * Make the writes so far durable now (optional): for a backend that saves
   * late, like lightning-fs (its directory tree reaches IndexedDB 500 ms after
   * the last write). graver calls it at the end of every commit.
   */
  flush?(): Promise<void>;
  /**
   * Who this process is and whether another is alive (optional): the disk
   * backends of the Deno, Node and Bun adapters carry it, so that a commit
   * lock left by a dead process is broken at once. Without it the lock is a
   * time lease ({@linkcode webProcessIdentity}).
   */
  processIdentity?: ProcessIdentity;
  /**
   * Report changes of the entries directly inside each of `folders` as they happen (optional; the disk backend
   * has it in Deno): not recursive, and no link is followed beneath them, so that a link in the tree never
   * widens the watch. The watch is in place once the feed's `ready` resolves true (when this returns, where
   * the feed has no `ready`); `onChange` is called, in the order the changes
   * happened, with the absolute paths each change names (a rename names both), or with null once changes may
   * have been lost (the watcher overflowed, failed or ended) — after which it reports nothing more. It must
   * never keep a process alive. A read-only search uses it to skip re-checking what nothing changed
   * (`project/watched_root.ts`); without it every search checks its files' stats. Throws when the watch cannot
   * be set up (a folder gone, a watch limit), or, where it is set up asynchronously, resolves `ready` to false.
   */
  watchFolders?(folders: readonly string[], onChange: ChangeListener): ChangeFeed;
}

/** What a {@linkcode Backend.watchFolders} reports: the paths one change names, or null when changes may be lost. */
export type ChangeListener = (paths: readonly string[] | null) => void;

/** A watch made by {@linkcode Backend.watchFolders}. */
export interface ChangeFeed {
  /**
   * The ordering barrier: resolves true once every change that finished before the call has been reported,
   * false when that cannot be shown in a short time (or the watch is dead). A watch proves it with a change of
   * its own, outside the watched tree, that it waits to see reported: changes are reported in order.
   *
   * @param waitMs How long to wait for that proof at most (default: the watch's own short bound; a search
   *   would rather check its stats than wait longer). Tests on a loaded machine pass more.
   */
  sync(waitMs?: number): Promise<boolean>;
  /** Stop watching (idempotent); nothing is reported afterwards, and `sync` answers false. */
  close(): void;
  /**
   * Resolves true once the watch is in place, false when it could not be set up or was closed first (absent:
   * in place when `watchFolders` returned). Set-up can be slow: a watch thread waits while the system's
   * watcher is flooded.
   */
  ready?: Promise<boolean>;
}

/** A file opened by {@linkcode Backend.openReader}. */
export interface FileReader {
  /** Read into `into` from byte `position` of the file; resolves to the count read (0 at the end). */
  read(into: Uint8Array, position: number): Promise<number>;
  /** Close it. */
  close(): Promise<void>;
}

/** A directory held open by {@linkcode Backend.holdDir}. */
export interface HeldDir {
  /** A path that names the held directory (no trailing slash). */
  path: string;
  /** Close it. */
  release(): Promise<void>;
}

/** The permission bits graver keeps across a rewrite (`rwx` for all, setuid/setgid/sticky). */
export const MODE_BITS = 0o7777;

/** The code of a native fs error (`ENOENT`, `EEXIST`, ...), or undefined (one rule, in errors.ts). */
export { errnoCode };
export { dirname, joinPath };

const WRAPPED = Symbol.for("graver.BackendFs");

/** The piece {@linkcode BackendFs.holds} reads at a time. */
const PIECE_BYTES = 1024 * 1024;

/** Whether what `reader` yields from its start is exactly `expected` (and nothing more). */
async function readerHolds(reader: FileReader, expected: Uint8Array): Promise<boolean> {
  const piece = new Uint8Array(PIECE_BYTES);
  for (let at = 0;;) {
    const n = await reader.read(piece, at);
    if (n === 0) return at === expected.length;
    if (at + n > expected.length || !samePrefix(piece, expected.subarray(at, at + n), n)) return false;
    at += n;
  }
}

/** Whether the first `n` bytes of `a` and `b` are equal. */
function samePrefix(a: Uint8Array, b: Uint8Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** What a backend's read gave, as a plain `Uint8Array` (a `Buffer` or other view: over the same bytes). */
function plainBytes(data: Uint8Array | string): Uint8Array {
  if (typeof data === "string") return new TextEncoder().encode(data);
  return data instanceof Uint8Array && data.constructor === Uint8Array
    ? data
    : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** Whether a read failed because the file is not there (`ENOENT`, or `ENOTDIR`: a file where a folder was). */
function isAbsence(err: unknown): boolean {
  const code = errnoCode(err);
  return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * A thrown value as an `Error` (an `Error` as it is, its code kept): how a failed read is answered in place by
 * {@linkcode Backend.readMany}.
 *
 * @param err What was thrown.
 * @returns It, or an `Error` saying it.
 */
export function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * The wrapped backend every graver module takes. Wrapping twice returns the
 * same object.
 *
 * @example Wrap memfs
 * ```ts
 * import { BackendFs, createMemoryBackend } from "@graver/core";
 * import assert from "node:assert/strict";
 *
 * const fs = BackendFs.wrap(createMemoryBackend({ "/a.txt": "hi" }));
 * assert.equal(new TextDecoder().decode((await fs.read("/a.txt"))!), "hi");
 * assert.equal(BackendFs.wrap(fs), fs);
 * ```
 */
export class BackendFs {
  /** The raw backend. */
  readonly raw: Backend;
  /** Marks a wrapped backend, so that wrapping it again is a no-op. */
  readonly [WRAPPED] = true;

  private constructor(raw: Backend) {
    this.raw = raw;
  }

  /**
   * Wrap a backend (no-op for an already wrapped one).
   *
   * @param backend An fs.promises-shaped object or a BackendFs.
   * @returns The wrapper.
   */
  static wrap(backend: Backend | BackendFs): BackendFs {
    if (backend instanceof BackendFs) return backend;
    if (!backend || typeof backend.readFile !== "function") {
      throw new TypeError("Cannot wrap backend: expected an object with fs.promises methods");
    }
    return new BackendFs(backend);
  }

  /** Make the writes so far durable, where the backend saves late (a no-op for the others). */
  async flush(): Promise<void> {
    if (typeof this.raw.flush === "function") await this.raw.flush();
  }

  /** The backend's process identity, or the web realm's where it has none. */
  get processIdentity(): ProcessIdentity {
    return this.raw.processIdentity ?? webProcessIdentity();
  }

  /** Read bytes, or null when the file does not exist. */
  async read(path: string): Promise<Uint8Array | null> {
    try {
      return plainBytes(await this.raw.readFile(path));
    } catch (err) {
      if (isAbsence(err)) return null;
      throw err;
    }
  }

  /**
   * Read many files: one answer per path, in order — its bytes, null where it does not exist, or the error
   * {@linkcode BackendFs.read} would throw for it (a directory, a special file). One call where the backend
   * reads many at once ({@linkcode Backend.readMany}: the disk reads those on local file systems synchronously),
   * else one `read` each, all started at once.
   *
   * @example Bytes, and null for an absent file
   * ```ts
   * import { BackendFs, createMemoryBackend } from "@graver/core";
   * import assert from "node:assert/strict";
   *
   * const fs = BackendFs.wrap(createMemoryBackend({ "/a.txt": "hi" }));
   * const [a, gone] = await fs.readMany(["/a.txt", "/gone.txt"]);
   * assert.equal(new TextDecoder().decode(a as Uint8Array), "hi");
   * assert.equal(gone, null);
   * ```
   *
   * @param paths Backend paths.
   * @returns One answer per path.
   */
  async readMany(paths: readonly string[]): Promise<(Uint8Array | null | Error)[]> {
    const many = formFor(this.raw.readMany, this.raw.readFile);
    if (many === undefined) return await Promise.all(paths.map((p) => this.read(p).catch(asError)));
    const got = await many(paths);
    return got.map((g) => g instanceof Error ? (isAbsence(g) ? null : g) : plainBytes(g));
  }

  /** Whether the backend reads many files in one call ({@linkcode Backend.readMany}): what batches pay on. */
  get readsMany(): boolean {
    return formFor(this.raw.readMany, this.raw.readFile) !== undefined;
  }

  /**
   * Many files' bytes, each with its stat taken before it was read ({@linkcode Backend.readManyStated}; only
   * where {@linkcode BackendFs.readsStated}): null for an absent file, else the error `read` would throw.
   *
   * @param paths Backend paths.
   * @returns One answer per path.
   */
  async readManyStated(paths: readonly string[]): Promise<(StatedBytes | null | Error)[]> {
    const got = await formFor(this.raw.readManyStated, this.raw.readFile)!(paths);
    return got.map((g) =>
      g instanceof Error ? (isAbsence(g) ? null : g) : { ...g, bytes: plainBytes(g.bytes) }
    );
  }

  /** Whether the backend reads files with their stats ({@linkcode Backend.readManyStated}). */
  get readsStated(): boolean {
    return formFor(this.raw.readManyStated, this.raw.readFile) !== undefined;
  }

  /**
   * Whether the file at `path` holds exactly `expected`, compared piece by piece as it is read (one 1 MiB
   * buffer, never a copy of the whole file): false when it differs or is absent, null when the backend cannot
   * read a file in pieces ({@linkcode Backend.openReader}; the caller reads it whole instead).
   *
   * @param path Backend path.
   * @param expected The bytes the file should hold.
   * @returns Whether it holds them, or null when this backend cannot tell this way.
   */
  async holds(path: string, expected: Uint8Array): Promise<boolean | null> {
    if (typeof this.raw.openReader !== "function") return null;
    let reader: FileReader;
    try {
      reader = await this.raw.openReader(path);
    } catch (err) {
      const code = errnoCode(err);
      if (code === "ENOENT" || code === "ENOTDIR") return false;
      throw err;
    }
    try {
      return await readerHolds(reader, expected);
    } finally {
      await reader.close().catch(() => {});
    }
  }

  /**
   * Write bytes, creating parent directories (skipped with `parentExists`).
   *
   * @param path Backend path.
   * @param bytes Content.
   * @param options `parentExists` when the caller already made the directory.
   */
  async write(path: string, bytes: Uint8Array, options: { parentExists?: boolean } = {}): Promise<void> {
    if (!options.parentExists) await this.mkdirp(dirname(path));
    await this.raw.writeFile(path, bytes);
  }

  /**
   * Create a file only if it does not exist (`wx`); false when it exists.
   * Backends that ignore the flag (lightning-fs) behave as a plain write.
   */
  async writeExclusive(path: string, bytes: Uint8Array): Promise<boolean> {
    for (let attempt = 1;; attempt++) {
      await this.mkdirp(dirname(path));
      try {
        await this.raw.writeFile(path, bytes, { flag: "wx" });
        return true;
      } catch (err) {
        const code = errnoCode(err);
        if (code === "EEXIST") return false;
        // Another process removed the (empty) parent between our mkdir and write: make it again.
        if (code === "ENOENT" && attempt < 5) continue;
        throw err;
      }
    }
  }

  /** Create a directory and its parents; existing ones are fine. */
  async mkdirp(path: string): Promise<void> {
    if (path === "/" || path === "." || path === "") return;
    const kind = await this.kind(path);
    if (kind === "dir") return;
    await this.mkdirp(dirname(path));
    try {
      await this.raw.mkdir(path);
    } catch (err) {
      if (errnoCode(err) !== "EEXIST") throw err;
    }
  }

  /** "file", "dir", "symlink", "other" or null when absent (lstat). */
  async kind(path: string): Promise<"file" | "dir" | "symlink" | "other" | null> {
    try {
      const st = await this.raw.lstat(path);
      if (st.isSymbolicLink?.()) return "symlink";
      if (st.isFile()) return "file";
      if (st.isDirectory()) return "dir";
      return "other";
    } catch (err) {
      const code = errnoCode(err);
      if (code === "ENOENT" || code === "ENOTDIR") return null;
      throw err;
    }
  }

  /** What a special file is, in words (following links; {@linkcode specialFileKind}): "a special file" when unknown. */
  async special(path: string): Promise<string> {
    try {
      return specialFileKind(await this.raw.stat(path)) ?? "a special file";
    } catch {
      return "a special file";
    }
  }

  /**
   * A file's permission bits (`mode & 0o7777`, following links), or null when
   * it is absent or the backend reports no mode.
   */
  async mode(path: string): Promise<number | null> {
    try {
      const mode = (await this.raw.stat(path)).mode;
      return mode === undefined ? null : Number(mode) & MODE_BITS;
    } catch (err) {
      const code = errnoCode(err);
      if (code === "ENOENT" || code === "ENOTDIR") return null;
      throw err;
    }
  }

  /** Whether the backend can set permission bits ({@linkcode Backend.chmod}). */
  get keepsModes(): boolean {
    return typeof this.raw.chmod === "function";
  }

  /**
   * Set a file's permission bits when the backend can; a no-op otherwise.
   *
   * @param path Backend path.
   * @param mode Permission bits (`0o755`).
   */
  async chmod(path: string, mode: number): Promise<void> {
    await this.raw.chmod?.(path, mode & MODE_BITS);
  }

  /** Directory entry names, sorted; empty when absent. */
  async list(path: string): Promise<string[]> {
    try {
      const names = await this.raw.readdir(path);
      return names.map((n) => String(n)).sort();
    } catch (err) {
      const code = errnoCode(err);
      if (code === "ENOENT" || code === "ENOTDIR") return [];
      throw err;
    }
  }

  /**
   * Directory entries with what each one is, sorted by name; empty when absent. Where the backend's
   * `readdir` gives entry types (`withFileTypes`) they are used, and a `lstat` is made only for an entry whose
   * type it does not say; a backend that gives names only (lightning-fs) gets a `lstat` per entry.
   *
   * With `landing` (a walk's listing of a real path), a backend that says where it listed a folder
   * ({@linkcode Backend.readdirStated}: the disk's) lists it so, and a listing made anywhere but `path` (or
   * where `landing` allows) is refused `ELOOP`
   * ({@linkcode refuseLandedElsewhere}): a folder on the way is a link now, and its names may be any folder's.
   *
   * @param path Backend path of the directory (a real path: no link in it).
   * @param landing Where else it may be listed (`landingIn` a sandbox: its root reached through a link).
   * @returns Each entry's name and kind ("symlink" for a link, "other" for a FIFO, socket or device).
   */
  async listTyped(path: string, landing?: Landing): Promise<{ name: string; kind: ListedEntryKind }[]> {
    let listed: unknown[];
    try {
      listed = await this.#listedEntries(path, landing);
    } catch (err) {
      const code = errnoCode(err);
      if (code === "ENOENT" || code === "ENOTDIR") return [];
      throw err;
    }
    const base = path === "/" ? "" : path;
    const out: { name: string; kind: ListedEntryKind | null }[] = [];
    const untyped: number[] = [];
    for (const e of listed) {
      const name = typeof e === "string" ? e : String((e as { name?: unknown }).name ?? e);
      const kind = direntKind(e);
      if (kind === null) untyped.push(out.length);
      out.push({ name, kind });
    }
    // No promise per entry where the listing says what each one is (the disk's does): a lstat only for the rest.
    if (untyped.length > 0) {
      await Promise.all(untyped.map(async (i) => out[i]!.kind = await this.kind(`${base}/${out[i]!.name}`)));
    }
    return out.filter((e): e is { name: string; kind: ListedEntryKind } => e.kind !== null)
      .sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  }

  /** A folder's entries with types; with `landing`, where the backend says where it listed them, only if at `path`. */
  async #listedEntries(path: string, landing: Landing | undefined): Promise<unknown[]> {
    const stated = landing === undefined ? undefined : formFor(this.raw.readdirStated, this.raw.readdir);
    if (stated === undefined) return await this.raw.readdir(path, { withFileTypes: true });
    const { entries, at } = await stated(path);
    if (at !== undefined) refuseLandedElsewhere({ at, asked: path }, landing);
    return entries;
  }

  /** Remove a file; absent is fine. */
  async remove(path: string): Promise<void> {
    try {
      await this.raw.unlink(path);
    } catch (err) {
      if (errnoCode(err) !== "ENOENT") throw err;
    }
  }

  /** Remove an empty directory if the backend can; errors are ignored. */
  async removeDir(path: string): Promise<void> {
    try {
      await this.raw.rmdir?.(path);
    } catch {
      // not empty or unsupported: leave it
    }
  }

  /**
   * Rename within the backend, creating the destination's parents (skipped with `parentExists`).
   *
   * @param from Source backend path.
   * @param to Destination backend path.
   * @param options `parentExists` when the caller already made the directory.
   */
  async rename(from: string, to: string, options: { parentExists?: boolean } = {}): Promise<void> {
    if (!options.parentExists) await this.mkdirp(dirname(to));
    await this.raw.rename(from, to);
  }

  /** The target of a symlink, or null when the backend cannot tell. */
  async readlink(path: string): Promise<string | null> {
    if (!this.raw.readlink) return null;
    const target = await this.raw.readlink(path);
    return typeof target === "string" ? target : new TextDecoder().decode(target);
  }
}
