/**
 * Which disk paths a synchronous stat may touch: those whose lookup passes only through local file systems
 * (`/proc/self/mountinfo`), where a stat answers from memory or a local disk and cannot hang the event loop
 * as one on a hung network or FUSE mount can. Shared by the Deno, Node and Bun adapters (`_posix.ts`).
 *
 * A path qualifies when it is absolute and plain (no `.`, `..` or empty part), every mount its lookup passes
 * through — the one at `/`, and each mounted on one of its folders — has a type on {@linkcode LOCAL_FS_TYPES}
 * (a FUSE mount inside an ext4 tree does not qualify, nor does a tmpfs inside an NFS one: reaching it looks
 * a name up on NFS), and none of its folders is a symbolic link (a link could lead anywhere). Anything the
 * table cannot tell — no `/proc` (macOS), a line it cannot read, an unknown type — does not qualify.
 *
 * @module
 */
import { readFileSync } from "node:fs";

/**
 * File system types a synchronous stat may touch: local disks and memory. Network (nfs, cifs, 9p), FUSE
 * (`fuse.*`, sshfs), automount points and anything unknown are left out.
 */
export const LOCAL_FS_TYPES: ReadonlySet<string> = new Set([
  "ext2",
  "ext3",
  "ext4",
  "xfs",
  "btrfs",
  "bcachefs",
  "jfs",
  "f2fs",
  "zfs",
  "tmpfs",
  "ramfs",
  "overlay",
  "squashfs",
  "erofs",
]);

/** One line of the mount table: where it is mounted and its file system type. */
export interface Mount {
  /** The mount point, unescaped (`/mnt/my disk`). */
  point: string;
  /** The file system type (`ext4`, `nfs4`, `fuse.sshfs`). */
  type: string;
}

/** mountinfo writes a space, tab, newline and backslash in a path as an octal escape (`\040`). */
function unescapeMountPath(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/**
 * Read the text of `/proc/<pid>/mountinfo`: per line, the mount point is the fifth field and the type the one
 * after the lone `-` that ends the optional fields.
 *
 * @param text The file's text.
 * @returns The mounts in the file's order (a later mount on the same point is on top), or null when a line
 *   cannot be read (then no path can be told local).
 */
export function parseMountInfo(text: string): Mount[] | null {
  const mounts: Mount[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const fields = line.split(" ");
    const dash = fields.indexOf("-", 6);
    const point = fields[4];
    const type = fields[dash + 1];
    if (dash < 0 || point === undefined || !point.startsWith("/") || !type) return null;
    mounts.push({ point: unescapeMountPath(point), type });
  }
  return mounts;
}

/** The folder holding an absolute path ("/" for a name at the top). */
function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash <= 0 ? "/" : path.slice(0, slash);
}

/** Whether an absolute path is plain: no `.`, `..` or empty part, no trailing slash (`/` itself is plain). */
function isPlainAbsolute(path: string): boolean {
  if (path === "/") return true;
  if (!path.startsWith("/") || path.endsWith("/") || path.includes("//")) return false;
  if (!path.includes("/.")) return true; // the usual path, in one scan
  return !(path.includes("/./") || path.includes("/../") || path.endsWith("/.") || path.endsWith("/.."));
}

/** Whether the part of `path` after the "/" at `slash` is a name: not empty, `.` or `..`. */
function isPlainName(path: string, slash: number): boolean {
  const n = path.length - slash - 1;
  if (n === 0) return false;
  return !(path.charCodeAt(slash + 1) === 46 && (n === 1 || (n === 2 && path.charCodeAt(slash + 2) === 46)));
}

/**
 * The mount table as a question: does a path's lookup pass only through local file systems?
 *
 * @example A FUSE mount inside an ext4 tree is not local; the rest of the tree is
 * ```ts
 * import assert from "node:assert/strict";
 * import { MountTable } from "./_mounts.ts";
 *
 * const table = new MountTable([{ point: "/", type: "ext4" }, { point: "/home/me/remote", type: "fuse.sshfs" }]);
 * assert.equal(table.isLocal("/home/me/project/a.ts"), true);
 * assert.equal(table.isLocal("/home/me/remote/a.ts"), false);
 * ```
 */
export class MountTable {
  /** Mount point -> whether every mount on it is local. */
  readonly #points = new Map<string, boolean>();
  /** The folders something is mounted in (a mount point's parent). */
  readonly #holders = new Set<string>();

  /**
   * Make the table from mounts (as {@linkcode parseMountInfo} reads them).
   *
   * @param mounts The mounts.
   */
  constructor(mounts: readonly Mount[]) {
    for (const { point, type } of mounts) {
      // Stacked mounts on one point: a lookup may meet any of them (one can be mounted over a busy one), so
      // the point is local only when all are.
      this.#points.set(point, (this.#points.get(point) ?? true) && LOCAL_FS_TYPES.has(type));
      if (point !== "/") this.#holders.add(parentOf(point));
    }
  }

  /**
   * Read this process's mount table (`/proc/self/mountinfo`, a few dozen µs: read afresh at each use, so a
   * mount made since is seen).
   *
   * @returns The table, or null where there is no `/proc` or its text cannot be read.
   */
  static read(): MountTable | null {
    let text: string;
    try {
      text = readFileSync("/proc/self/mountinfo", "utf8");
    } catch {
      return null;
    }
    const mounts = parseMountInfo(text);
    return mounts === null ? null : new MountTable(mounts);
  }

  /**
   * Whether every mount a path's lookup passes through is local: the one at `/` and each on one of its
   * folders or the path itself. False for a path that is not absolute and plain, or when nothing is mounted
   * at `/`.
   *
   * @param path An absolute path.
   * @returns True when a synchronous stat of it touches local file systems only (links aside).
   */
  isLocal(path: string): boolean {
    if (!isPlainAbsolute(path) || !this.localAt("/")) return false;
    for (let p = path; p !== "/"; p = parentOf(p)) {
      if (!this.localAt(p)) return false;
    }
    return true;
  }

  /**
   * Whether what is mounted exactly at `point` is local: true where nothing is mounted but at `/`, where it
   * is true only for a local root.
   *
   * @param point An absolute, plain path.
   * @returns True for a local mount or none.
   */
  localAt(point: string): boolean {
    return this.#points.get(point) ?? point !== "/";
  }

  /**
   * Whether something is mounted directly in `dir` (then each of its entries is a mount point to ask about).
   *
   * @param dir An absolute, plain folder path.
   * @returns True when a mount point's parent is `dir`.
   */
  holdsMounts(dir: string): boolean {
    return this.#holders.has(dir);
  }
}

/** Folders already judged for a synchronous call: absolute path -> whether it may be touched. */
export type JudgedFolders = Map<string, boolean>;

/**
 * Which of `paths` a synchronous stat may touch: each is local by `table`, and each of its folders below `/`
 * is a folder, not a link (`isRealDir`, asked once per folder: an `lstat` there is itself safe, since that
 * folder's own parents passed first). The path's last part may still be a link: the caller's `lstat` tells.
 *
 * @param paths Absolute paths.
 * @param options The mount table, a synchronous test of "a folder and not a link" (false when absent), and
 *   `folders`: the folders judged by earlier calls under the same table, to reuse and add to (by default,
 *   none: each call asks afresh).
 * @returns One flag per path.
 */
export function syncStatable(
  paths: readonly string[],
  options: { table: MountTable; isRealDir: (dir: string) => boolean; folders?: JudgedFolders },
): boolean[] {
  const { table, isRealDir } = options;
  const dirs = options.folders ?? new Map<string, boolean>();
  if (!dirs.has("/")) dirs.set("/", table.localAt("/"));
  // Each folder is asked once, after its parent: the mounts above it and their links were checked there.
  const dirOk = (dir: string): boolean => {
    let ok = dirs.get(dir);
    if (ok === undefined) {
      ok = table.localAt(dir) && dirOk(parentOf(dir)) && isRealDir(dir);
      dirs.set(dir, ok);
    }
    return ok;
  };
  // Paths come grouped by folder (a walk's order): the last folder's answer serves the next path in it.
  let dir = "";
  let dirAnswer = false;
  let mountsIn = false;
  return paths.map((p) => {
    const slash = p.lastIndexOf("/");
    if ((slash === 0 ? 1 : slash) === dir.length && p.startsWith(dir)) {
      // In the last path's folder, known plain: only the name is left to check.
      if (!isPlainName(p, slash)) return false;
    } else {
      if (p === "/" || !isPlainAbsolute(p)) return false;
      dir = slash === 0 ? "/" : p.slice(0, slash);
      dirAnswer = dirOk(dir);
      mountsIn = table.holdsMounts(dir);
    }
    return dirAnswer && (!mountsIn || table.localAt(p));
  });
}

/**
 * How long one reading of the mount table, and the folders judged under it, serve the synchronous calls
 * that follow (ms). A walk makes a call per folder; reading the table for each (a few dozen µs) would cost
 * more than the synchronous call saves. A mount made, or a folder swapped for a link, within this time of
 * the reading is not seen by a call it serves: the same race a single call has between its check and its
 * syscall, only this much longer.
 */
export const SYNC_TRUST_MS = 100;

/**
 * The mount table and the folders judged under it, shared by the synchronous calls of the next
 * {@linkcode SYNC_TRUST_MS} (`_posix.ts`: `statMany`, `readMany`, a folder's listing).
 *
 * @example One reading serves the calls that follow it closely
 * ```ts
 * import assert from "node:assert/strict";
 * import { SyncPaths } from "./_mounts.ts";
 *
 * const isRealDir = () => true;
 * const first = SyncPaths.now(isRealDir);
 * if (first !== null) assert.equal(SyncPaths.now(isRealDir), first); // no /proc: null each time
 * ```
 */
export class SyncPaths {
  static #last: SyncPaths | null = null;
  readonly #table: MountTable;
  readonly #isRealDir: (dir: string) => boolean;
  readonly #folders: JudgedFolders = new Map();
  readonly #readAt: number;

  /**
   * @param table The mount table.
   * @param options The test of "a folder and not a link", and when the table was read (`performance.now()`).
   */
  constructor(table: MountTable, options: { isRealDir: (dir: string) => boolean; readAt: number }) {
    this.#table = table;
    this.#isRealDir = options.isRealDir;
    this.#readAt = options.readAt;
  }

  /**
   * The current reading: the last one while it is younger than {@linkcode SYNC_TRUST_MS}, else a new one.
   *
   * @param isRealDir A synchronous test of "a folder and not a link".
   * @returns The reading, or null where the mount table cannot be read (then nothing is touched synchronously).
   */
  static now(isRealDir: (dir: string) => boolean): SyncPaths | null {
    const at = performance.now();
    const last = SyncPaths.#last;
    if (last !== null && last.#isRealDir === isRealDir && at - last.#readAt < SYNC_TRUST_MS) return last;
    const table = MountTable.read();
    SyncPaths.#last = table === null ? null : new SyncPaths(table, { isRealDir, readAt: at });
    return SyncPaths.#last;
  }

  /**
   * Which of `paths` a synchronous stat may touch ({@linkcode syncStatable}, its folders judged once per
   * reading).
   *
   * @param paths Absolute paths.
   * @returns One flag per path.
   */
  statable(paths: readonly string[]): boolean[] {
    return syncStatable(paths, { table: this.#table, isRealDir: this.#isRealDir, folders: this.#folders });
  }

  /**
   * Take what a caller's own synchronous `lstat` of `dir` found — a folder, not a link — as the judgement of
   * `isRealDir` for the paths below it: `dir` is one of the paths {@linkcode SyncPaths.statable} let through
   * (its parent judged already), and the stat is no older than the one `isRealDir` would take when those
   * paths are asked. A walk stats each folder before it lists it and reads its files: one `lstat` a folder
   * instead of two (hono's 221 folders).
   *
   * @param dir An absolute path the caller's `lstat` found a folder.
   */
  noteRealDir(dir: string): void {
    if (this.#folders.has(dir) || this.#folders.get(parentOf(dir)) !== true) return;
    this.#folders.set(dir, this.#table.localAt(dir));
  }
}
