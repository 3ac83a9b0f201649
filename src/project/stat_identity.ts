/**
 * What identifies one state of a file or folder from its stat — size, modification and change times in whole
 * milliseconds, inode — as the read cache compares and remembers it: a kept file's identity, a folder's or a
 * remembered walk's stamp, and when a path last changed (the racily-clean rule).
 *
 * @module
 */
import type { BackendStats } from "../fs/backend.ts";

/** The stat fields that identify one state of a file ({@linkcode BackendStats} where the backend has them). */
export interface StatIdentity {
  mtimeMs?: number;
  ctimeMs?: number;
  ino?: number | bigint;
}

/** What identifies one state of a file or folder: size, modification and change times in whole ms, inode. */
export interface StatId {
  size: number;
  mtime: number;
  /** -1 where the backend reports none. */
  ctime: number;
  ino: number | bigint | undefined;
}

/** A stat's {@linkcode StatId}, or null when the backend reports no modification time (then nothing is kept). */
export function statIdOf(st: BackendStats): StatId | null {
  const id = st as BackendStats & StatIdentity;
  if (typeof id.mtimeMs !== "number" || st.size === undefined) return null;
  // Whole milliseconds: one stat call gives fractions and another not (Deno's `Date`s), and the same file must
  // stamp the same either way. A change within the same millisecond is the racily-clean case, never kept.
  const ctime = id.ctimeMs === undefined ? -1 : Math.trunc(id.ctimeMs);
  return { size: Number(st.size), mtime: Math.trunc(id.mtimeMs), ctime, ino: id.ino };
}

/** Stats that identify a kept file's state as it was read (what a read compares, when no change touched it). */
export function statsOf(id: StatId): BackendStats & StatIdentity {
  return {
    isFile: () => true,
    isDirectory: () => false,
    size: id.size,
    mtimeMs: id.mtime,
    ...(id.ctime === -1 ? {} : { ctimeMs: id.ctime }),
    ...(id.ino === undefined ? {} : { ino: id.ino }),
  };
}

/** Whether two stats identify the same state (a kept file's check on each read: no string built). */
export function sameState(a: StatId, b: StatId | null): boolean {
  return b !== null && a.size === b.size && a.mtime === b.mtime && a.ctime === b.ctime && a.ino === b.ino;
}

/** The stamp of a stat ({@linkcode StatId} as text, what a folder and a remembered walk keep), or null. */
export function stampOf(st: BackendStats): string | null {
  const id = statIdOf(st);
  return id === null ? null : `${id.size}:${id.mtime}:${id.ctime}:${id.ino ?? ""}`;
}

/**
 * A path's state for a remembered walk: what it is and its stamp, "absent" when the stat found nothing, or
 * null when the backend reports no times (nothing can be remembered against it).
 */
export function stateOf(st: BackendStats | null): string | null {
  if (st === null) return "absent";
  const stamp = stampOf(st);
  if (stamp === null) return null;
  return `${st.isDirectory() ? "d" : st.isFile() ? "f" : "o"}:${stamp}`;
}

/** The latest of a stat's modification and change times, in ms. */
export function changedAt(st: BackendStats): number {
  const id = st as BackendStats & StatIdentity;
  return Math.max(id.mtimeMs ?? Infinity, id.ctimeMs ?? -Infinity);
}
