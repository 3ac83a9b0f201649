/**
 * What a folder listing's entry says it is (`readdir` with `withFileTypes`: node:fs, memfs, Deno's and Bun's
 * `Dirent`s), so that a walk needs no `lstat` per entry where the listing tells.
 *
 * @module
 */

/** What a directory entry is: a regular file, a directory, a symbolic link, or "other" (FIFO, socket, device). */
export type ListedEntryKind = "file" | "dir" | "symlink" | "other";

/** The type-answering methods of a `Dirent` (node:fs, memfs, Deno's and Bun's node:fs). */
interface DirentLike {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO?(): boolean;
  isSocket?(): boolean;
  isCharacterDevice?(): boolean;
  isBlockDevice?(): boolean;
}

/**
 * What a `readdir` entry says it is, or null when it does not say (a bare name, or a type the file system
 * left unknown): then the caller asks `lstat`.
 *
 * @param e A `readdir` entry: a `Dirent`, or a bare name.
 * @returns Its kind, or null.
 */
export function direntKind(e: unknown): ListedEntryKind | null {
  if (typeof e !== "object" || e === null || typeof (e as DirentLike).isFile !== "function") return null;
  const d = e as DirentLike;
  if (typeof d.isSymbolicLink !== "function" || typeof d.isDirectory !== "function") return null;
  if (d.isSymbolicLink()) return "symlink";
  if (d.isFile()) return "file";
  if (d.isDirectory()) return "dir";
  if (d.isFIFO?.() || d.isSocket?.() || d.isCharacterDevice?.() || d.isBlockDevice?.()) return "other";
  return null; // DT_UNKNOWN: only lstat can tell
}
