/**
 * Finding a pattern's matches in one file's text, fast: the prefilter looks for the pattern's required
 * literals with the engine's native `indexOf` (in a lower-cased copy when case is ignored), and the
 * linear-time program runs only on the lines that hold one; a fixed string needs no program at all. A
 * pattern without literals runs once over the whole text, and a match that runs across a line end (which a
 * line-by-line search such as ripgrep's cannot produce) is redone on its first line alone. The text is never
 * split into lines: line ends are found around the candidates.
 *
 * @module
 */
import type { TextPattern } from "./text_pattern.ts";

/** Start of the line holding `offset`. */
function lineStartAt(text: string, offset: number): number {
  return offset === 0 ? 0 : text.lastIndexOf("\n", offset - 1) + 1;
}

/** End of the line holding `offset` (its "\n", or the text's end). */
function lineEndAt(text: string, offset: number): number {
  const nl = text.indexOf("\n", offset);
  return nl === -1 ? text.length : nl;
}

/** The program's matches on the line [ls, le), pushed as start/end pairs of text offsets. */
function matchLine(p: TextPattern, text: string, ls: number, le: number, out: number[]): void {
  const line = text.slice(ls, le);
  const m = p.re.matcher(line);
  for (let from = 0; from <= line.length && m.find(from);) {
    const s = m.start(p.group);
    const e = m.end(p.group);
    out.push(ls + s, ls + e);
    from = e > s ? e : e + 1;
  }
}

/** Whether [s, e) holds a line end. */
function crossesLine(text: string, s: number, e: number): boolean {
  const nl = text.indexOf("\n", s);
  return nl !== -1 && nl < e;
}

/** The program over the whole text; without `multiline`, a match across a line end is redone on its line. */
function matchWhole(p: TextPattern, text: string, out: number[]): void {
  const m = p.re.matcher(text);
  for (let from = 0; from <= text.length && m.find(from);) {
    const s = m.start(p.group);
    const e = m.end(p.group);
    if (!p.multiline && crossesLine(text, s, e)) {
      const le = lineEndAt(text, s);
      matchLine(p, text, lineStartAt(text, s), le, out);
      from = le + 1;
      continue;
    }
    out.push(s, e);
    from = e > s ? e : e + 1;
  }
}

/** The text the prefilter looks in: the text itself, or a lower-cased copy of the same length (null: none). */
function haystackOf(p: TextPattern, text: string): string | null {
  if (!p.fold) return text;
  const lower = text.toLowerCase();
  if (lower.length !== text.length) return null;
  // "ſ" folds to "s" in RE2 but toLowerCase keeps it: such a text is searched without the prefilter.
  if (p.needles!.some((n) => n.includes("s")) && text.includes("\u017f")) return null;
  return lower;
}

/** Next offset at or after `from` where one of the needles starts (-1: none), with each needle's next hit cached. */
function nextCandidate(hay: string, needles: string[], next: number[], from: number): number {
  let best = -1;
  for (let k = 0; k < needles.length; k++) {
    if (next[k]! !== -1 && next[k]! < from) next[k] = hay.indexOf(needles[k]!, from);
    const at = next[k]!;
    if (at !== -1 && (best === -1 || at < best)) best = at;
  }
  return best;
}

/**
 * Every match of the pattern in one file's text.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileTextPattern } from "./text_pattern.ts";
 * import { scanText } from "./text_scan.ts";
 *
 * const p = compileTextPattern({ pattern: "b+", literal: false, ignoreCase: false, smartCase: false,
 *   word: false, multiline: false });
 * assert.deepEqual(scanText(p, "abb\nb"), [1, 3, 4, 5]);
 * ```
 *
 * @param p The compiled pattern.
 * @param text The file's text.
 * @returns Start and end offsets (UTF-16) of each match, flat and in order: `[s0, e0, s1, e1, …]`.
 */
export function scanText(p: TextPattern, text: string): number[] {
  const out: number[] = [];
  const hay = p.needles === null ? null : haystackOf(p, text);
  if (hay === null) {
    matchWhole(p, text, out);
    return out;
  }
  const needles = p.needles!;
  if (p.multiline) {
    if (needles.some((n) => hay.includes(n))) matchWhole(p, text, out);
    return out;
  }
  if (p.plain !== null) {
    const n = p.plain.length;
    for (let at = text.indexOf(p.plain); at !== -1; at = text.indexOf(p.plain, at + n)) out.push(at, at + n);
    return out;
  }
  const next = needles.map(() => -2);
  for (let from = 0; from <= text.length;) {
    const at = nextCandidate(hay, needles, next, from);
    if (at === -1) break;
    const le = lineEndAt(text, at);
    matchLine(p, text, lineStartAt(text, at), le, out);
    from = le + 1;
  }
  return out;
}
