/**
 * The fuzzy tier (private): windows that share whole lines with the search
 * are scored by similarity under a work budget; a clear winner is placed,
 * close rivals are ambiguous.
 *
 * @module
 */
import type { TextDoc } from "./_doc.ts";
import { squash, windowSimilarity } from "./_similarity.ts";
import { indentShift } from "./_match_indent.ts";
import { type Cand, pairsOf } from "./_match_lines.ts";
import { byHint, type Ctx, decide, type Step } from "./_match_tiers.ts";

/** Fuzzy tier: the most similar window when it is at least `fuzzyThreshold` and clearly ahead. */
export function fuzzyTier(ctx: Ctx, search: string[], replace: string[]): Step | null {
  const options = ctx.options;
  const doc = ctx.doc;
  const nonBlank = search.filter((s) => s.trim() !== "").length;
  if (nonBlank < 3) return null;
  const n = search.length;
  const votes = new Map<number, number>();
  const index = doc.positionsOf(search.map((s) => s.trim()).filter((s) => s !== ""));
  for (let j = 0; j < n; j++) {
    const k = search[j]!.trim();
    if (k === "") continue;
    const at = index.get(k);
    if (!at || at.length > 200) continue;
    for (const p of at) {
      const s = p - j;
      if (s < 0 || s + n > doc.lineCount) continue;
      votes.set(s, (votes.get(s) ?? 0) + 1);
    }
  }
  const need = Math.ceil(nonBlank / 2);
  const starts = [...votes].filter(([, v]) => v >= need).sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(
    0,
    40,
  );
  if (starts.length === 0) return null;
  const threshold = options.fuzzyThreshold ?? 0.8;
  const budget = { left: options.fuzzyBudget ?? 20000 };
  const sq = search.map(squash);
  const scored: { start: number; sim: number; same: number }[] = [];
  let capped = false;
  for (const [s] of starts) {
    if (budget.left <= 0) {
      capped = true;
      break;
    }
    const win = doc.bodySlice(s, s + n).map(squash);
    let same = 0;
    for (let j = 0; j < n; j++) if (sq[j] !== "" && sq[j] === win[j]) same++;
    scored.push({ start: s, sim: windowSimilarity(sq, win, budget), same });
  }
  scored.sort((a, b) => b.sim - a.sim);
  const best = scored[0];
  if (!best || best.sim < threshold) return capped ? { kind: "none", capped } : null;
  const runner = scored[1]?.sim ?? 0;
  const above = scored.filter((x) => x.sim >= threshold);
  if (runner < threshold && best.sim - runner < 0.1) {
    return { kind: "none", reason: "two windows are about as close" };
  }
  if (runner >= threshold) {
    // Several windows are close. One that differs from the search in a single line (a typo)
    // while every other differs in more, and is also the most similar, is clearly ahead.
    const bySame = [...above].sort((a, b) => b.same - a.same || b.sim - a.sim);
    const [top, next] = [bySame[0]!, bySame[1]!];
    if (top.same >= nonBlank - 1 && top.same > next.same && top === best) {
      return placed(doc, search, replace, {
        start: top.start,
        end: top.start + n,
        pairs: null,
        similarity: top.sim,
      });
    }
    const cands = above.map((x) => ({ start: x.start, end: x.start + n, pairs: null, similarity: x.sim }));
    const picked = byHint(cands, ctx.hint);
    if (picked) {
      return { kind: "match", tier: "fuzzy", cand: picked, search, replace, shift: null };
    }
    return { kind: "ambiguous", tier: "fuzzy", cands };
  }
  const cand: Cand = { start: best.start, end: best.start + n, pairs: null, similarity: best.sim };
  const d = decide(ctx, "fuzzy", [cand]);
  if (d === null || Array.isArray(d)) return null;
  return placed(doc, search, replace, cand);
}

/** A fuzzy match at `cand`, with the indentation shift its lines show. */
function placed(doc: TextDoc, search: string[], replace: string[], cand: Cand): Step {
  const shift = indentShift(doc, search, pairsOf(cand, search.length));
  return { kind: "match", tier: "fuzzy", cand, search, replace, shift };
}
