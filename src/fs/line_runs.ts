/**
 * The runs of lines that differ between two texts, for `unified_diff.ts` to cut a large changed region into
 * parts before jsdiff sees them: a shortest line edit script (Myers' greedy algorithm) while it takes at most
 * a bounded number of edits, and past that a diff that looks a bounded window ahead for the next line the two
 * share ({@linkcode windowRuns}): not the shortest, but a valid one in time linear in the lines. jsdiff's own
 * Myers costs the lines times the edits: a rewrite of every line of a 5,000-line file took 2.8 s in it, of
 * 20,000 lines 107 s, of 200,000 hours.
 *
 * @module
 */

const NEWLINE = 0x0a;

/** A run of lines that differ: `[aStart, bStart, aEnd, bEnd]`, 0-based, ends exclusive. */
export type Run = [number, number, number, number];

/** The lines of some bytes: where each starts (then the end), and a hash of each. */
export interface Lines {
  bytes: Uint8Array;
  count: number;
  starts: Int32Array;
  hashes: Int32Array;
}

/**
 * The lines of some bytes (a last line without "\n" counts), each with where it starts and a hash.
 *
 * @param bytes UTF-8 bytes.
 * @returns The lines.
 */
export function linesOf(bytes: Uint8Array): Lines {
  let count = 0;
  for (let i = bytes.indexOf(NEWLINE); i !== -1; i = bytes.indexOf(NEWLINE, i + 1)) count++;
  if (bytes.length > 0 && bytes[bytes.length - 1] !== NEWLINE) count++;
  const starts = new Int32Array(count + 1);
  const hashes = new Int32Array(count);
  let line = 0;
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < bytes.length; i++) {
    h = Math.imul(h ^ bytes[i]!, 0x01000193);
    if (bytes[i] === NEWLINE || i === bytes.length - 1) {
      hashes[line] = h;
      starts[++line] = i + 1;
      h = 0x811c9dc5 | 0;
    }
  }
  return { bytes, count, starts, hashes };
}

function sameLine(a: Lines, i: number, b: Lines, j: number): boolean {
  if (a.hashes[i] !== b.hashes[j]) return false;
  const [s, e, t] = [a.starts[i]!, a.starts[i + 1]!, b.starts[j]!];
  if (e - s !== b.starts[j + 1]! - t) return false;
  for (let k = 0; k < e - s; k++) if (a.bytes[s + k] !== b.bytes[t + k]) return false;
  return true;
}

/**
 * The runs of lines that differ between `a` and `b`, as `[aStart, bStart, aEnd, bEnd]` (0-based, end
 * exclusive) in order: a shortest line edit script (Myers' greedy algorithm), or null when it needs more than
 * `maxEdits` line insertions and deletions.
 */
function lineEdits(a: Lines, b: Lines, maxEdits: number): Run[] | null {
  const n = a.count;
  const m = b.count;
  const off = maxEdits + 1;
  const v = new Int32Array(2 * maxEdits + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= maxEdits; d++) {
    trace.push(v.slice(off - d - 1, off + d + 2)); // entry k + d + 1 holds diagonal k before step d
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!)
        ? v[off + k + 1]!
        : v[off + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && sameLine(a, x, b, y)) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) return changedRuns(trace, n, m);
    }
  }
  return null;
}

/** Walk the trace of {@linkcode lineEdits} back from the end: the runs of lines that are not kept. */
function changedRuns(trace: Int32Array[], n: number, m: number): Run[] {
  const runs: Run[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const v = trace[d]!;
    const k = x - y;
    const at = (kk: number) => v[kk + d + 1]!;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
    }
    if (d === 0) break;
    // One line deleted (x moves) or inserted (y moves): joined to the run it touches.
    const [ax, by] = [Math.max(prevX, 0), Math.max(prevY, 0)];
    const first = runs[0];
    if (first && first[0] === x && first[1] === y) {
      first[0] = ax;
      first[1] = by;
    } else runs.unshift([ax, by, x, y]);
    x = prevX;
    y = prevY;
  }
  return runs;
}

/** Lines the window diff looks ahead, on each side, for a line the two texts share again. */
export const WINDOW = 32;

/**
 * The runs of lines that differ, found by walking both texts: where the lines part, the nearest pair of equal
 * lines within {@linkcode WINDOW} lines ahead on each side (nearest by the lines skipped on both) ends the run;
 * with none, the run takes the whole window and the walk goes on. Every line outside the runs is equal in
 * both and in order, so the runs make a valid diff, if not always the shortest.
 *
 * @param a The old lines.
 * @param b The new lines.
 * @returns The runs, in order.
 */
export function windowRuns(a: Lines, b: Lines): Run[] {
  const runs: Run[] = [];
  let [i, j] = [0, 0];
  while (i < a.count && j < b.count) {
    if (sameLine(a, i, b, j)) {
      i++;
      j++;
      continue;
    }
    const [p, q] = resync(a, b, i, j);
    runs.push([i, j, i + p, j + q]);
    i += p;
    j += q;
  }
  if (i < a.count || j < b.count) runs.push([i, j, a.count, b.count]);
  return runs;
}

/** How far ahead on each side the texts share a line again (fewest lines skipped in all), or the whole window. */
function resync(a: Lines, b: Lines, i: number, j: number): [number, number] {
  for (let s = 1; s <= 2 * WINDOW; s++) {
    for (let p = Math.max(0, s - WINDOW); p <= Math.min(s, WINDOW); p++) {
      const q = s - p;
      if (i + p < a.count && j + q < b.count && sameLine(a, i + p, b, j + q)) return [p, q];
    }
  }
  return [Math.min(WINDOW, a.count - i), Math.min(WINDOW, b.count - j)];
}

/**
 * The runs of lines that differ: the shortest edit script when it takes at most `maxEdits` line insertions
 * and deletions, else {@linkcode windowRuns}'.
 *
 * @example
 * ```ts
 * import { differingRuns, linesOf } from "./line_runs.ts";
 * import assert from "node:assert/strict";
 *
 * const enc = (s: string) => new TextEncoder().encode(s);
 * assert.deepEqual(differingRuns(linesOf(enc("a\nb\nc\n")), linesOf(enc("a\nB\nc\n")), 10), [[1, 1, 2, 2]]);
 * ```
 *
 * @param a The old lines.
 * @param b The new lines.
 * @param maxEdits The most edits the shortest script is looked for with.
 * @returns The runs, in order.
 */
export function differingRuns(a: Lines, b: Lines, maxEdits: number): Run[] {
  return lineEdits(a, b, maxEdits) ?? windowRuns(a, b);
}
