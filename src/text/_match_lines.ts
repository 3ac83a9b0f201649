/**
 * Where a block's lines occur in a document (private to the ladder): whole-line
 * runs found by a rare pivot line then verified, exact text spans, blank-line
 * insensitive runs, and `@@` anchor positions.
 *
 * @module
 */
import { type KeyKind, keyOf, type TextDoc } from "./_doc.ts";
import type { CandidateLines } from "./types.ts";

/** A candidate location: 0-based lines `start` to `end` (exclusive). */
export interface Cand {
  start: number;
  end: number;
  /** [search line index, file line index]; null = contiguous from start. */
  pairs: [number, number][] | null;
  textSpan?: { from: number; to: number };
  similarity?: number;
}

/**
 * Whether `run` occurs in `lines` starting at index `at`.
 *
 * @param lines The lines searched.
 * @param at 0-based start.
 * @param run The lines looked for.
 * @returns True when every line of `run` equals the line at the same place from `at`.
 */
export function occursAt(lines: readonly string[], at: number, run: readonly string[]): boolean {
  if (at < 0 || at + run.length > lines.length) return false;
  for (let j = 0; j < run.length; j++) if (lines[at + j] !== run[j]) return false;
  return true;
}

/** All positions (0-based starts) where `skeys` occurs contiguously in `keys`. */
export function contiguous(keys: string[], skeys: string[], limit = 1000): number[] {
  return contiguousWhere(keys, skeys, (i, k) => keys[i] === k, limit);
}

/**
 * All positions (0-based starts, ascending, at most `limit`) where every search key `skeys[j]` is accepted
 * by `same(start + j, skeys[j])`: {@linkcode contiguous} over keys that need not all be computed. The
 * longest key is tried first on each line; `same` must be what `keys[i] === k` would be for some keys.
 */
export function contiguousWhere(
  keys: readonly unknown[],
  skeys: string[],
  same: (line: number, key: string) => boolean,
  limit = 1000,
): number[] {
  const n = skeys.length;
  if (n === 0 || n > keys.length) return [];
  let pivot = 0;
  for (let j = 1; j < n; j++) if (skeys[j]!.length > skeys[pivot]!.length) pivot = j;
  const pk = skeys[pivot]!;
  const out: number[] = [];
  const last = keys.length - n + pivot;
  for (let i = pivot; i <= last; i++) {
    if (!same(i, pk)) continue;
    const start = i - pivot;
    let ok = true;
    for (let j = 0; j < n; j++) {
      if (j !== pivot && !same(start + j, skeys[j]!)) {
        ok = false;
        break;
      }
    }
    if (ok) {
      out.push(start);
      if (out.length >= limit) break;
    }
  }
  return out;
}

/** Exact tier: indexOf on LF-only text (no line split), line compare otherwise. */
export function exactCands(doc: TextDoc, search: string[]): Cand[] {
  const text = doc.text;
  if (text.indexOf("\r") === -1) {
    const needle = search.join("\n");
    const out: Cand[] = [];
    if (needle === "") return [];
    for (let o = text.indexOf(needle); o !== -1 && out.length < 1000; o = text.indexOf(needle, o + 1)) {
      const to = o + needle.length;
      if (o > 0 && text.charCodeAt(o - 1) !== 10) continue;
      if (to < text.length && text.charCodeAt(to) !== 10) continue;
      if (
        to === text.length && search[search.length - 1] === "" && (needle.length === 0 || text.endsWith("\n"))
      ) continue;
      const start = doc.lineAt(o);
      out.push({ start, end: start + search.length, pairs: null, textSpan: { from: o, to } });
    }
    return out;
  }
  return contiguous(doc.bodies, search).map((s) => ({ start: s, end: s + search.length, pairs: null }));
}

/**
 * {@linkcode contiguous} over the trim keys, found by searching the text for the longest search key instead of
 * keying every line: only the lines where it occurs, and their neighbours, are trimmed.
 */
function trimRuns(doc: TextDoc, skeys: string[], limit = 1000): number[] {
  const n = skeys.length;
  const total = doc.lineCount;
  if (n === 0 || n > total) return [];
  let pivot = 0;
  for (let j = 1; j < n; j++) if (skeys[j]!.length > skeys[pivot]!.length) pivot = j;
  const pk = skeys[pivot]!;
  if (pk === "") return contiguous(doc.keys("trim"), skeys, limit);
  const text = doc.text;
  const last = total - n + pivot;
  const out: number[] = [];
  // A line whose trim key is pk holds pk at its first non-blank character: the first hit in each line decides.
  for (let o = text.indexOf(pk); o !== -1;) {
    const i = doc.lineAt(o);
    if (i >= pivot && i <= last && doc.line(i).trim() === pk) {
      const start = i - pivot;
      let ok = true;
      for (let j = 0; j < n; j++) {
        if (j !== pivot && doc.line(start + j).trim() !== skeys[j]) {
          ok = false;
          break;
        }
      }
      if (ok) {
        out.push(start);
        if (out.length >= limit) break;
      }
    }
    o = i + 1 < total ? text.indexOf(pk, doc.offsetOf(i + 1)) : -1;
  }
  return out;
}

/**
 * Whether a line whose trim key is `trimmed` has the squash key `key` (whitespace runs as one space), computing
 * the squash only when it can differ: squashing never lengthens a line and keeps its first and last
 * characters, and a trim key equal to a squash key is its own squash.
 */
function squashes(trimmed: string, key: string): boolean {
  if (trimmed === key) return true;
  if (trimmed.length <= key.length || key === "") return false;
  if (trimmed.charCodeAt(0) !== key.charCodeAt(0)) return false;
  if (trimmed.charCodeAt(trimmed.length - 1) !== key.charCodeAt(key.length - 1)) return false;
  return keyOf("squash", trimmed) === key;
}

/**
 * Runs of lines whose `kind` keys equal the search lines' keys. The trim_end and squash keys of the whole file
 * are never built: those runs are found from the trim keys (a trim_end match is a trim match whose lines also
 * agree on leading whitespace; a line's squash key is computed only where it can equal the one sought).
 */
export function keyedCands(doc: TextDoc, kind: KeyKind, search: string[]): Cand[] {
  const skeys = search.map((s) => keyOf(kind, s));
  let starts: number[];
  if (kind === "squash") {
    const trim = doc.keys("trim");
    starts = contiguousWhere(trim, skeys, (i, k) => squashes(trim[i]!, k));
  } else if (kind === "trim_end") {
    const trim = doc.keys("trim");
    starts = contiguousWhere(trim, skeys, (i, k) => trim[i] === k.trimStart() && doc.body(i).trimEnd() === k);
  } else if (kind === "trim" && !doc.hasKeys("trim")) {
    starts = trimRuns(doc, skeys);
  } else starts = contiguous(doc.keys(kind), skeys);
  return starts.map((s) => ({ start: s, end: s + search.length, pairs: null }));
}

/** Blank-line-insensitive: match the non-blank lines in order, whatever blank lines lie between. */
export function blankCands(doc: TextDoc, search: string[]): Cand[] {
  const sIdx: number[] = [];
  for (let j = 0; j < search.length; j++) if (search[j]!.trim() !== "") sIdx.push(j);
  if (sIdx.length === 0) return [];
  const keys = doc.keys("trim");
  const fIdx: number[] = [];
  for (let i = 0; i < keys.length; i++) if (keys[i] !== "") fIdx.push(i);
  const fk = fIdx.map((i) => keys[i]!);
  const sk = sIdx.map((j) => search[j]!.trim());
  return contiguous(fk, sk).map((r) => ({
    start: fIdx[r]!,
    end: fIdx[r + sk.length - 1]! + 1,
    pairs: sIdx.map((j, t) => [j, fIdx[r + t]!] as [number, number]),
  }));
}

/** The [search line, file line] pairs of a candidate. */
export function pairsOf(c: Cand, n: number): [number, number][] {
  return c.pairs ?? Array.from({ length: n }, (_, j) => [j, c.start + j] as [number, number]);
}

/** A candidate as 1-based inclusive lines. */
export function toLines(c: Cand): CandidateLines {
  return { start_line: c.start + 1, end_line: Math.max(c.start + 1, c.end) };
}

/** Line indexes just past each chain of `@@` anchors (in order), or null when there is no anchor or one is missing. */
export function anchorStarts(doc: TextDoc, anchors: string[] | undefined): number[] | null {
  if (!anchors || anchors.length === 0) return null;
  const keys = doc.keys("trim");
  let starts: number[] = [0];
  for (const a of anchors) {
    const key = a.trim();
    const next: number[] = [];
    for (const s of starts) {
      for (let i = s; i < keys.length; i++) {
        if (keys[i] === key || (key.length >= 4 && keys[i]!.startsWith(key))) {
          next.push(i + 1);
        }
      }
    }
    if (next.length === 0) return null;
    starts = [...new Set(next)];
  }
  return starts;
}
