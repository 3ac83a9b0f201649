/**
 * Finding a pattern's matches in one file's text, fast: the prefilter looks for the pattern's required
 * literals with the engine's native search (an alternation of fixed strings, case-folded when case is
 * ignored), and the
 * linear-time program runs only on the lines that hold one; a fixed string needs no program at all. A
 * pattern without literals runs once over the whole text, and a match that runs across a line end (which a
 * line-by-line search such as ripgrep's cannot produce) is redone on its first line alone. The text is never
 * split into lines: line ends are found around the candidates.
 *
 * @module
 */
import type { Matcher, RE2JS } from "re2js";
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

/**
 * Where a scan puts what it finds: the start/end pairs of text offsets, and, when asked for, each match's
 * capture groups as the caller's pattern numbers them (index 0: the occurrence itself).
 */
interface ScanOut {
  hits: number[];
  groups?: (string | null)[][];
  /** Which matches are wanted: every one, the first of each line (what a count of lines needs), or the first. */
  each: ScanEach;
}

/** Which matches a scan keeps: all, the first on each line, or the first in the file. */
export type ScanEach = "match" | "line" | "file";

/**
 * Where the scan goes on after a match [s, e): past it (an empty match one further), or — when only the
 * first match of a line is wanted — at the next line, or nowhere (`text.length + 1`) after the first match.
 */
function resumeAt(out: ScanOut, text: string, s: number, e: number): number {
  const past = e > s ? e : e + 1;
  if (out.each === "match") return past;
  if (out.each === "file") return text.length + 1;
  const nl = text.indexOf("\n", s);
  return nl === -1 ? text.length + 1 : Math.max(past, nl + 1);
}

/** The capture groups of the matcher's current match, numbered as the caller's pattern numbers them. */
function groupsOf(p: TextPattern, m: Matcher): (string | null)[] {
  const out: (string | null)[] = [];
  for (let g = p.group; g <= m.groupCount(); g++) out.push(m.group(g));
  return out;
}

/** The program's matches on the line [ls, le), pushed as start/end pairs of text offsets. */
function matchLine(p: TextPattern, text: string, ls: number, le: number, out: ScanOut): void {
  const line = text.slice(ls, le);
  const m = matcherOf(p, line);
  for (let from = 0; from <= line.length && m.find(from);) {
    const s = m.start(p.group);
    const e = m.end(p.group);
    out.hits.push(ls + s, ls + e);
    out.groups?.push(groupsOf(p, m));
    if (out.each !== "match") return; // the line has its match
    from = e > s ? e : e + 1;
  }
}

/**
 * The pattern's program. Only a fixed string the scan finds without one lacks it (`compileTextPattern`), so
 * a missing one here is a bug, not an input.
 */
function programOf(p: TextPattern): RE2JS {
  if (p.re === null) {
    throw new Error("internal: a text pattern without its program reached the program's scan");
  }
  return p.re;
}

const MATCHERS = new WeakMap<TextPattern, Matcher>();

/** The pattern's matcher, reset to `input` (one per pattern: a search runs one line at a time). */
function matcherOf(p: TextPattern, input: string): Matcher {
  const m = MATCHERS.get(p);
  if (m !== undefined) return m.resetMatcherInput(input);
  const made = programOf(p).matcher(input);
  MATCHERS.set(p, made);
  return made;
}

/** Whether [s, e) holds a line end. */
function crossesLine(text: string, s: number, e: number): boolean {
  const nl = text.indexOf("\n", s);
  return nl !== -1 && nl < e;
}

/** The program over the whole text; without `multiline`, a match across a line end is redone on its line. */
function matchWhole(p: TextPattern, text: string, out: ScanOut): void {
  const m = programOf(p).matcher(text);
  for (let from = 0; from <= text.length && m.find(from);) {
    const s = m.start(p.group);
    const e = m.end(p.group);
    if (!p.multiline && crossesLine(text, s, e)) {
      const le = lineEndAt(text, s);
      matchLine(p, text, lineStartAt(text, s), le, out);
      from = out.each === "file" && out.hits.length > 0 ? text.length + 1 : le + 1;
      continue;
    }
    out.hits.push(s, e);
    out.groups?.push(groupsOf(p, m));
    from = resumeAt(out, text, s, e);
  }
}

/** Offset of the prefilter's next hit at or after `from` (-1: none). */
function nextCandidate(prefilter: RegExp, text: string, from: number): number {
  prefilter.lastIndex = from;
  return prefilter.exec(text)?.index ?? -1;
}

/**
 * Every match of the pattern in one file's text.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileTextPattern } from "./text_pattern.ts";
 * import { scanText } from "./text_scan.ts";
 *
 * const p = await compileTextPattern({ pattern: "b+", literal: false, ignoreCase: false, smartCase: false,
 *   word: false, multiline: false });
 * assert.deepEqual(scanText(p, "abb\nb"), [1, 3, 4, 5]);
 * ```
 *
 * @param p The compiled pattern.
 * @param text The file's text.
 * @param groups When given, receives each match's capture groups, in the order of the offsets (index 0:
 *   the occurrence; then the caller's groups, `null` where one did not take part).
 * @returns Start and end offsets (UTF-16) of each match, flat and in order: `[s0, e0, s1, e1, …]`.
 */
export function scanText(p: TextPattern, text: string, groups?: (string | null)[][]): number[] {
  const out: ScanOut = groups ? { hits: [], groups, each: "match" } : { hits: [], each: "match" };
  scanInto(p, text, out);
  return out.hits;
}

/**
 * The first match of each line that holds one (`each: "line"`: what a count of matched lines needs), or the
 * first match of the text (`"file"`: whether it holds one), as {@linkcode scanText} finds them: a file with a
 * match on each of its 2,500,000 lines is counted without listing them all.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileTextPattern } from "./text_pattern.ts";
 * import { scanTextFor } from "./text_scan.ts";
 *
 * const p = await compileTextPattern({ pattern: "b", literal: true, ignoreCase: false, smartCase: false,
 *   word: false, multiline: false });
 * assert.deepEqual(scanTextFor(p, "abb\nb", "line"), [1, 2, 4, 5]);
 * assert.deepEqual(scanTextFor(p, "abb\nb", "file"), [1, 2]);
 * ```
 *
 * @param p The compiled pattern.
 * @param text The file's text.
 * @param each `"line"` or `"file"` (`"match"`: every match, as `scanText`).
 * @returns Start and end offsets of the matches kept, flat and in order.
 */
export function scanTextFor(p: TextPattern, text: string, each: ScanEach): number[] {
  const out: ScanOut = { hits: [], each };
  scanInto(p, text, out);
  return out.hits;
}

/** {@linkcode scanText}'s search, into `out`. */
function scanInto(p: TextPattern, text: string, out: ScanOut): void {
  const prefilter = p.prefilter;
  if (prefilter === null) {
    matchWhole(p, text, out);
    return;
  }
  if (p.multiline) {
    if (nextCandidate(prefilter, text, 0) !== -1) matchWhole(p, text, out);
    return;
  }
  if (p.plain !== null) {
    const n = p.plain.length;
    for (
      let at = text.indexOf(p.plain);
      at !== -1;
      at = text.indexOf(p.plain, resumeAt(out, text, at, at + n))
    ) {
      out.hits.push(at, at + n);
      out.groups?.push([p.plain]);
    }
    return;
  }
  if (p.foldedPlain !== null) {
    const n = p.foldedPlain.length;
    for (
      let at = nextCandidate(prefilter, text, 0);
      at !== -1;
      at = nextCandidate(prefilter, text, resumeAt(out, text, at, at + n))
    ) {
      out.hits.push(at, at + n);
      out.groups?.push([text.slice(at, at + n)]);
    }
    return;
  }
  for (let from = 0; from <= text.length;) {
    const at = nextCandidate(prefilter, text, from);
    if (at === -1) break;
    const le = lineEndAt(text, at);
    matchLine(p, text, lineStartAt(text, at), le, out);
    from = out.each === "file" && out.hits.length > 0 ? text.length + 1 : le + 1;
  }
}
