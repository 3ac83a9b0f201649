/**
 * What one project walk depended on ({@linkcode WalkRecord}), for the read cache to remember its result
 * against: each folder it listed and each ignore file it read, with their stamps.
 *
 * @module
 */

/**
 * What one walk depended on, noted as it goes: each folder it listed and each ignore file it read, with
 * their stamps. A walk that followed a link, or met a path changed too recently to trust its stat, is not
 * remembered ({@linkcode WalkRecord.usable} false).
 *
 * @example A stamp that cannot be trusted makes the walk one not to remember
 * ```ts
 * import assert from "node:assert/strict";
 * import { WalkRecord } from "./walk_record.ts";
 *
 * const record = new WalkRecord();
 * record.note("/w", "d:1:2:3:4", 7);
 * assert.equal(record.usable, true);
 * record.note("/w/new", null);
 * assert.deepEqual([record.usable, record.seen], [false, -1]);
 * ```
 */
export class WalkRecord {
  /** Absolute path -> its stamp when the walk saw it. */
  readonly stamps = new Map<string, string>();
  /** Whether the walk may be remembered. */
  usable = true;
  /** Folder (absolute path, "" for "/") -> the ignore files it holds, which the walk read. */
  readonly ignoreFiles = new Map<string, string[]>();
  /** The change count when the oldest stamp noted was taken (-1: unknown). */
  seen = Infinity;

  /**
   * Note a path the walk depended on.
   *
   * @param abs Its absolute backend path.
   * @param stamp Its stamp, or null when it cannot be trusted (then the walk is not remembered).
   * @param seen The change count when the stamp was taken (default unknown: the walk is re-checked next time).
   */
  note(abs: string, stamp: string | null, seen = -1): void {
    if (stamp === null) this.usable = false;
    else this.stamps.set(abs, stamp);
    this.seen = Math.min(this.seen, seen);
  }
}
