/** Line and window similarity for the fuzzy tier and did-you-mean hints (private). @module */

/** Collapse runs of whitespace and trim: the form lines are compared in. */
export function squash(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

function bigrams(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < s.length; i++) out.push(s.charCodeAt(i) * 65536 + s.charCodeAt(i + 1));
  return out.sort((a, b) => a - b);
}

/**
 * Dice coefficient over character bigrams of two squashed lines (0..1). Cost
 * O(n log n) in the line length; no whole-file character alignment.
 */
export function lineSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return a === b ? 1 : 0;
  const max = Math.max(a.length, b.length);
  if (Math.abs(a.length - b.length) > max / 2) return 0;
  const x = bigrams(a);
  const y = bigrams(b);
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) {
      shared++;
      i++;
      j++;
    } else if (x[i]! < y[j]!) i++;
    else j++;
  }
  return (2 * shared) / (x.length + y.length);
}

/**
 * Similarity of a search block and a file window of the same length: line
 * similarities weighted by line length. Blank lines on both sides count as
 * equal and weigh one character.
 *
 * @param search Squashed search lines.
 * @param window Squashed file lines.
 * @param budget Remaining comparisons; decremented.
 */
export function windowSimilarity(search: string[], window: string[], budget: { left: number }): number {
  let total = 0;
  let weight = 0;
  for (let i = 0; i < search.length; i++) {
    const a = search[i]!;
    const b = window[i] ?? "";
    const w = Math.max(a.length, b.length, 1);
    budget.left--;
    total += w * (a === b ? 1 : lineSimilarity(a, b));
    weight += w;
  }
  return weight === 0 ? 0 : total / weight;
}
