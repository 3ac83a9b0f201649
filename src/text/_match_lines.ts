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
  return contiguousWhere(keys, skeys, { same: (i, k) => keys[i] === k, limit });
}

/**
 * All positions (0-based starts, ascending, at most `limit`) where every search key `skeys[j]` is accepted
 * by `same(start + j, skeys[j])`: {@linkcode contiguous} over keys that need not all be computed. The
 * longest key is tried first on each line; `same` must be what `keys[i] === k` would be for some keys.
 */
export function contiguousWhere(
  keys: readonly unknown[],
  skeys: string[],
  options: { same: (line: number, key: string) => boolean; limit?: number },
): number[] {
  const { same, limit = 1000 } = options;
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

/** The trim key of line `i` (which must exist): from the keys when they are built. */
function trimKeyAt(doc: TextDoc, i: number): string {
  return doc.hasKeys("trim") ? doc.keys("trim")[i]! : doc.line(i).trim();
}

/** The first of the longest keys: the pivot a run is looked up by. */
function pivotOf(skeys: readonly string[]): number {
  let pivot = 0;
  for (let j = 1; j < skeys.length; j++) if (skeys[j]!.length > skeys[pivot]!.length) pivot = j;
  return pivot;
}

/**
 * {@linkcode contiguous} over the trim keys, found from the lines that hold the longest search key (see
 * {@linkcode TextDoc.forEachLineKeyed}) instead of keying every line.
 */
function trimRuns(doc: TextDoc, skeys: string[], limit = 1000): number[] {
  const n = skeys.length;
  if (n === 0) return [];
  const pivot = pivotOf(skeys);
  const pk = skeys[pivot]!;
  if (pk === "") return n > doc.lineCount ? [] : contiguous(doc.keys("trim"), skeys, limit);
  const out: number[] = [];
  // Lines are found only as far as the last hit: the run must fit (its last line exists) to be checked.
  doc.forEachLineKeyed(pk, (i) => {
    const start = i - pivot;
    if (start < 0 || !doc.hasLine(start + n - 1)) return true;
    for (let j = 0; j < n; j++) if (j !== pivot && trimKeyAt(doc, start + j) !== skeys[j]) return true;
    out.push(start);
    return out.length < limit;
  });
  return out;
}

/**
 * {@linkcode contiguous} over the squash keys without keying every line: a line whose squash key is the
 * longest search key holds each of that key's words as they are, so only the lines that hold its longest word
 * are looked at (on a large file, millions of trim keys fewer).
 */
function squashRuns(doc: TextDoc, skeys: string[], limit = 1000): number[] {
  const n = skeys.length;
  if (n === 0) return [];
  const pivot = pivotOf(skeys);
  const pk = skeys[pivot]!;
  const same = (i: number, k: string) => squashes(trimKeyAt(doc, i), k);
  if (pk === "") return n > doc.lineCount ? [] : contiguousWhere(doc.keys("trim"), skeys, { same, limit });
  const word = pk.split(" ").reduce((a, b) => b.length > a.length ? b : a);
  const out: number[] = [];
  const text = doc.text;
  for (let o = text.indexOf(word); o !== -1;) {
    const i = doc.lineAt(o);
    const start = i - pivot;
    if (start >= 0 && doc.hasLine(start + n - 1)) {
      let ok = true;
      for (let j = 0; j < n && ok; j++) ok = same(start + j, skeys[j]!);
      if (ok) out.push(start);
      if (out.length >= limit) break;
    }
    o = doc.hasLine(i + 1) ? text.indexOf(word, doc.offsetOf(i + 1)) : -1;
  }
  return out;
}

/**
 * {@linkcode contiguous} over the trim_end keys: runs of trim matches whose lines also agree on leading
 * whitespace, found from the lines that hold the longest key (see {@linkcode TextDoc.forEachLineKeyed}).
 */
function trimEndRuns(doc: TextDoc, skeys: string[], limit = 1000): number[] {
  const n = skeys.length;
  if (n === 0) return [];
  const pivot = pivotOf(skeys);
  const same = (i: number, k: string) => trimKeyAt(doc, i) === k.trimStart() && doc.body(i).trimEnd() === k;
  const pk = skeys[pivot]!.trimStart();
  if (pk === "") return n > doc.lineCount ? [] : contiguousWhere(doc.keys("trim"), skeys, { same, limit });
  const out: number[] = [];
  doc.forEachLineKeyed(pk, (i) => {
    const start = i - pivot;
    if (start < 0 || !doc.hasLine(start + n - 1)) return true;
    for (let j = 0; j < n; j++) if (!same(start + j, skeys[j]!)) return true;
    out.push(start);
    return out.length < limit;
  });
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
  if (kind === "squash" && !doc.hasKeys("trim")) starts = squashRuns(doc, skeys);
  else if (kind === "squash") {
    const trim = doc.keys("trim");
    starts = contiguousWhere(trim, skeys, { same: (i, k) => squashes(trim[i]!, k) });
  } else if (kind === "trim_end") {
    starts = trimEndRuns(doc, skeys);
  } else if (kind === "trim" && !doc.hasKeys("trim")) {
    starts = trimRuns(doc, skeys);
  } else starts = contiguous(doc.keys(kind), skeys);
  return starts.map((s) => ({ start: s, end: s + search.length, pairs: null }));
}

/**
 * Blank-line-insensitive: match the non-blank lines in order, whatever blank lines lie between. Found from the
 * lines that hold the longest non-blank search line, walking over blank lines to its neighbours: the runs
 * {@linkcode contiguous} finds over the non-blank lines, in the same order, without indexing them all.
 */
export function blankCands(doc: TextDoc, search: string[]): Cand[] {
  const sIdx: number[] = [];
  for (let j = 0; j < search.length; j++) if (search[j]!.trim() !== "") sIdx.push(j);
  if (sIdx.length === 0) return [];
  const sk = sIdx.map((j) => search[j]!.trim());
  const pivot = pivotOf(sk);
  const out: Cand[] = [];
  const at: number[] = new Array(sk.length);
  doc.forEachLineKeyed(sk[pivot]!, (i) => {
    at[pivot] = i;
    let f = i;
    for (let t = pivot - 1; t >= 0; t--) {
      do f--; while (f >= 0 && trimKeyAt(doc, f) === "");
      if (f < 0 || trimKeyAt(doc, f) !== sk[t]) return true;
      at[t] = f;
    }
    f = i;
    for (let t = pivot + 1; t < sk.length; t++) {
      do f++; while (doc.hasLine(f) && trimKeyAt(doc, f) === "");
      if (!doc.hasLine(f) || trimKeyAt(doc, f) !== sk[t]) return true;
      at[t] = f;
    }
    out.push({
      start: at[0]!,
      end: at[sk.length - 1]! + 1,
      pairs: sIdx.map((j, t) => [j, at[t]!] as [number, number]),
    });
    return out.length < 1000;
  });
  return out;
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
