/**
 * The elision tier (private): SEARCH text that skips lines with `...` or
 * `// ... existing code ...` markers, matched piece by piece in order.
 *
 * @module
 */
import { indentShift, render } from "./_match_indent.ts";
import { type Cand, keyedCands, pairsOf } from "./_match_lines.ts";
import { type Ctx, decide, type Step } from "./_match_tiers.ts";
import { appendAll } from "../arrays.ts";

const ELISION =
  /^(?:(?:\/\/+|#+|--|;+|\/\*+|\*|<!--|\{\/\*)\s*)?(?:\.{3}|\u2026)(?:[\s\w,'()-]*?(?:\.{3}|\u2026))?\s*(?:\*+\/\}?|-->)?$/;

/** True when a (trimmed) line is an elision marker such as `...` or `// ... existing code ...`. */
export function isElision(line: string): boolean {
  const t = line.trim();
  if (t === "...") return true;
  if (!/(?:\.{3}|\u2026)/.test(t)) return false;
  return ELISION.test(t) && (/^(?:\/\/|#|--|;|\/\*|\*|<!--|\{\/\*)/.test(t) || /^(?:\.{3}|\u2026)$/.test(t));
}

/** Split lines at elision markers; null when there is none. */
function splitElisions(lines: string[]): string[][] | null {
  let first = 0;
  let last = lines.length;
  while (first < last && (lines[first]!.trim() === "" || isElision(lines[first]!))) first++;
  while (last > first && (lines[last - 1]!.trim() === "" || isElision(lines[last - 1]!))) last--;
  const pieces: string[][] = [[]];
  let any = false;
  for (let i = first; i < last; i++) {
    if (isElision(lines[i]!)) {
      any = true;
      pieces.push([]);
    } else pieces[pieces.length - 1]!.push(lines[i]!);
  }
  if (!any) return null;
  return pieces.map((p) => {
    let a = 0;
    let b = p.length;
    while (a < b && p[a]!.trim() === "") a++;
    while (b > a && p[b - 1]!.trim() === "") b--;
    return p.slice(a, b);
  });
}

/** Elision tier: every piece between markers found once, in order; the elided lines are kept. */
export function elisionTier(ctx: Ctx, search: string[], replace: string[]): Step | null {
  if (!search.some(isElision)) return null;
  const pieces = splitElisions(search);
  if (pieces === null) return null;
  const reps = splitElisions(replace);
  if (pieces.some((p) => p.length === 0)) {
    return { kind: "none", reason: 'the SEARCH text has two "..." elision lines with nothing between them' };
  }
  if (reps === null || reps.length !== pieces.length) {
    return {
      kind: "none",
      reason: `the SEARCH text elides lines with "..." ${
        pieces.length - 1
      } time(s) but the REPLACE text does so ${
        reps === null ? 0 : reps.length - 1
      } time(s); repeat the same elision lines in REPLACE or spell the elided lines out`,
    };
  }
  const doc = ctx.doc;
  // Each piece after the first must occur exactly once after the previous one: every
  // occurrence makes its own chain, and more than one complete chain is ambiguous.
  // Pieces are keyed strictly first (trailing whitespace only), then indentation-insensitively.
  let chains: number[][] = [];
  for (const kind of ["trim_end", "trim"] as const) {
    const found = pieces.map((p) => {
      const runs = keyedCands(doc, kind, p);
      return (kind === "trim" ? runs.filter((c) => indentShift(doc, p, pairsOf(c, p.length)) !== null) : runs)
        .map((c) => c.start);
    });
    chains = [];
    const extend = (k: number, chain: number[], end: number) => {
      if (chains.length >= 20) return;
      if (k === pieces.length) {
        chains.push([...chain]);
        return;
      }
      for (const s of found[k]!) {
        if (s < end) continue;
        chain.push(s);
        extend(k + 1, chain, s + pieces[k]!.length);
        chain.pop();
      }
    };
    for (const s0 of found[0]!) extend(1, [s0], s0 + pieces[0]!.length);
    if (chains.length > 0) break;
  }
  const cands: Cand[] = chains.map((chain) => {
    const pairs: [number, number][] = [];
    let offset = 0;
    chain.forEach((s, k) => {
      pieces[k]!.forEach((_, j) => pairs.push([offset + j, s + j]));
      offset += pieces[k]!.length;
    });
    const lastK = pieces.length - 1;
    return { start: chain[0]!, end: chain[lastK]! + pieces[lastK]!.length, pairs, chain } as Cand;
  });
  const d = decide(ctx, "elision", cands);
  if (d === null) return null;
  if (Array.isArray(d)) return { kind: "ambiguous", tier: "elision", cands: d };
  const flat = pieces.flat();
  const shift = indentShift(doc, flat, d.pairs!);
  const chain = (d as Cand & { chain: number[] }).chain;
  const out: string[] = [];
  reps.forEach((rp, k) => {
    const piecePairs = d.pairs!.filter(([, f]) => f >= chain[k]! && f < chain[k]! + pieces[k]!.length);
    appendAll(out, render(doc, { search: flat, pairs: piecePairs, replace: rp, shift, fold: null }));
    if (k < reps.length - 1) {
      const gapStart = chain[k]! + pieces[k]!.length;
      appendAll(out, doc.bodySlice(gapStart, chain[k + 1]!));
    }
  });
  return {
    kind: "match",
    tier: "elision",
    cand: { ...d, pairs: [] },
    search: flat,
    replace: out,
    shift: null,
  };
}
