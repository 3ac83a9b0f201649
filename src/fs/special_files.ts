/**
 * Special files — FIFOs, sockets, devices — which graver never opens: what one is, in words, and the refusal
 * a tool that names one answers.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";

/** What {@linkcode specialFileKind} asks of a stat (a `BackendStats`, or `node:fs`'s `Stats`). */
export interface FileKinds {
  /** True for a regular file. */
  isFile(): boolean;
  /** True for a directory. */
  isDirectory(): boolean;
  /** True for a symbolic link (an `lstat`). */
  isSymbolicLink?(): boolean;
  /** True for a named pipe. */
  isFIFO?(): boolean;
  /** True for a socket. */
  isSocket?(): boolean;
  /** True for a character device. */
  isCharacterDevice?(): boolean;
  /** True for a block device. */
  isBlockDevice?(): boolean;
}

/**
 * What a special file is, in words ("a named pipe (FIFO)"), or null for a regular file, a directory or a
 * link.
 *
 * @param st Stats of the file.
 * @returns The description, or null.
 */
export function specialFileKind(st: FileKinds): string | null {
  if (st.isFile() || st.isDirectory() || st.isSymbolicLink?.()) return null;
  if (st.isFIFO?.()) return "a named pipe (FIFO)";
  if (st.isSocket?.()) return "a socket";
  if (st.isCharacterDevice?.()) return "a character device";
  if (st.isBlockDevice?.()) return "a block device";
  return "a special file";
}

/**
 * The refusal for a special file (a FIFO, socket or device), which graver never opens: reading one can
 * block forever (a FIFO with no writer) or never end (`/dev/zero`).
 *
 * @param path The path as the caller named it.
 * @param what What the file is ({@linkcode specialFileKind}).
 * @returns A `binary_file` error.
 */
export function specialFileError(path: string, what: string): RecoverableError {
  return new RecoverableError("binary_file", `Cannot open "${path}": it is ${what}, not a regular file`, {
    hint: "Read and edit regular files only; graver never opens FIFOs, sockets or devices",
    details: { path, file_type: what },
  });
}
