/**
 * The ladder's tiers up to blank lines, Unicode and copied line numbers
 * (private): what one tier answers, how a tier decides among candidates
 * (`*** End of File`, `@@` anchors, the line hint), and the tiers themselves.
 *
 * @module
 */
import { type TextDoc, UNICODE_FOLD_RE } from "./_doc.ts";
import { indentShift, type Shift } from "./_match_indent.ts";
import { blankCands, type Cand, exactCands, keyedCands, pairsOf } from "./_match_lines.ts";
import type { EditBlock, MatchOptions, MatchTier } from "./types.ts";

/** What one tier answers: a match, several candidates, or none (with why). */
export type Step =
  | { kind: "match"; tier: MatchTier; cand: Cand; search: string[]; replace: string[]; shift: Shift | null }
  | { kind: "ambiguous"; tier: MatchTier; cands: Cand[] }
  | { kind: "none"; reason?: string; capped?: boolean };

/** What every tier sees: the document, the line hint (0-based), the block and its anchor positions. */
export interface Ctx {
  doc: TextDoc;
  /** The ladder's options (fuzzy threshold and budget). */
  options: MatchOptions;
  hint: number | undefined;
  block: EditBlock;
  anchorStarts: number[] | null;
}

/** Pick among several candidates with a line hint (0-based), or null when it does not decide. */
export function byHint(cands: Cand[], hint: number | undefined): Cand | null {
  if (hint === undefined || cands.length < 2) return null;
  const sorted = [...cands].sort((a, b) => Math.abs(a.start - hint) - Math.abs(b.start - hint));
  const d1 = Math.abs(sorted[0]!.start - hint);
  const d2 = Math.abs(sorted[1]!.start - hint);
  if (d1 === d2) return null;
  if (d1 === 0 || (d1 <= 25 && d2 >= 3 * d1)) return sorted[0]!;
  return null;
}

/** Keep candidates allowed by `*** End of File` and `@@` anchors; resolve several by anchor or hint. */
export function decide(ctx: Ctx, tier: MatchTier, cands: Cand[]): Cand | Cand[] | null {
  let c = cands;
  if (ctx.block.atEnd) {
    const n = ctx.doc.lineCount;
    c = c.filter((x) => {
      for (let i = x.end; i < n; i++) if (ctx.doc.body(i).trim() !== "") return false;
      return true;
    });
  }
  if (ctx.anchorStarts !== null && c.length > 1) {
    const picked = new Set<Cand>();
    for (const a of ctx.anchorStarts) {
      let best: Cand | null = null;
      for (const x of c) if (x.start >= a && (best === null || x.start < best.start)) best = x;
      if (best) picked.add(best);
    }
    if (picked.size > 0) c = [...picked];
  }
  if (c.length === 0) return null;
  if (c.length === 1) return c[0]!;
  const h = byHint(c, ctx.hint);
  if (h) return h;
  void tier;
  return c;
}

/** What a tier found: its candidates for the search and replacement lines. */
export interface Found {
  tier: MatchTier;
  cands: Cand[];
  search: string[];
  replace: string[];
  /** Whether candidates may be indented differently from the search (they must then shift uniformly). */
  indent: boolean;
}

/** One tier's answer from its candidates (indentation-shifted ones must shift uniformly). */
export function step(ctx: Ctx, found: Found): Step | null {
  const { tier, cands, search, replace, indent } = found;
  let usable = cands;
  if (indent) usable = cands.filter((c) => indentShift(ctx.doc, search, pairsOf(c, search.length)) !== null);
  const d = decide(ctx, tier, usable);
  if (d === null) return null;
  if (Array.isArray(d)) return { kind: "ambiguous", tier, cands: d };
  const shift = indent ? indentShift(ctx.doc, search, pairsOf(d, search.length)) : null;
  return { kind: "match", tier, cand: d, search, replace, shift };
}

/** Tiers 1–4 on given search/replace lines (also reused after stripping line numbers). */
export function baseTiers(ctx: Ctx, search: string[], replace: string[]): Step | null {
  const exact = step(ctx, {
    tier: "exact",
    cands: exactCands(ctx.doc, search),
    search,
    replace,
    indent: false,
  });
  if (exact) return exact;
  // Tiers 2 and 3 share one pass over the trim keys: tier 2 keeps the runs whose lines
  // also agree on leading whitespace.
  const trimmed = keyedCands(ctx.doc, "trim", search);
  const doc = ctx.doc;
  const sameLead = trimmed.filter((c) =>
    search.every((l, j) => l.trimEnd() === doc.body(c.start + j).trimEnd())
  );
  return step(ctx, { tier: "trailing_whitespace", cands: sameLead, search, replace, indent: false }) ??
    step(ctx, { tier: "indentation", cands: trimmed, search, replace, indent: true }) ??
    blankTier(ctx, search, replace);
}

/** Blank-line tier: the model's edge blank lines that the file also has join the span. */
export function blankTier(ctx: Ctx, search: string[], replace: string[]): Step | null {
  const s = step(ctx, {
    tier: "blank_lines",
    cands: blankCands(ctx.doc, search),
    search,
    replace,
    indent: true,
  });
  if (s?.kind !== "match") return s;
  const doc = ctx.doc;
  let lead = 0;
  while (lead < search.length && search[lead]!.trim() === "") lead++;
  let trail = 0;
  while (trail < search.length - lead && search[search.length - 1 - trail]!.trim() === "") trail++;
  // The model's edge blank lines that the file also has next to the match belong to the span.
  let start = s.cand.start;
  let end = s.cand.end;
  const pairs = [...(s.cand.pairs ?? [])];
  let fileLead = 0;
  while (fileLead < lead && start > 0 && doc.body(start - 1).trim() === "") {
    start--;
    fileLead++;
    pairs.push([lead - fileLead, start]);
  }
  let fileTrail = 0;
  while (fileTrail < trail && end < doc.lineCount && doc.body(end).trim() === "") {
    pairs.push([search.length - trail + fileTrail, end]);
    end++;
    fileTrail++;
  }
  let r = replace;
  for (let k = 0; k < lead - fileLead && r.length > 0 && r[0]!.trim() === ""; k++) r = r.slice(1);
  for (let k = 0; k < trail - fileTrail && r.length > 0 && r[r.length - 1]!.trim() === ""; k++) {
    r = r.slice(0, -1);
  }
  return { ...s, cand: { ...s.cand, start, end, pairs }, replace: r };
}

/** Unicode tier: punctuation and spaces folded to ASCII on both sides. */
export function unicodeTier(ctx: Ctx, search: string[], replace: string[]): Step | null {
  const searchText = search.join("\n");
  UNICODE_FOLD_RE.lastIndex = 0;
  const inSearch = UNICODE_FOLD_RE.test(searchText);
  UNICODE_FOLD_RE.lastIndex = 0;
  if (!inSearch && !ctx.doc.foldable) return null;
  const s = step(ctx, {
    tier: "unicode",
    cands: keyedCands(ctx.doc, "unicode", search),
    search,
    replace,
    indent: true,
  });
  return s;
}

const LINE_NUMBER_STYLES: RegExp[] = [
  /^\s*(\d+)\t/,
  /^\s*(\d+) ?\| ?/,
  /^\s*(\d+)\u2192/,
  /^\s*L?(\d+): ?/,
];

/** Line-number tier: the model copied line numbers from a read; strip them and run the base tiers again. */
export function lineNumberTier(ctx: Ctx, search: string[], replace: string[]): Step | null {
  for (const style of LINE_NUMBER_STYLES) {
    const nums: number[] = [];
    const stripped: string[] = [];
    let ok = true;
    for (const line of search) {
      const m = style.exec(line) ?? /^\s*(\d+)\s*$/.exec(line);
      if (!m) {
        ok = false;
        break;
      }
      nums.push(Number(m[1]));
      stripped.push(line.slice(m[0].length));
    }
    if (!ok || nums.length === 0) continue;
    if (nums.some((n, i) => n !== nums[0]! + i)) continue;
    const rep = replace.map((line) => {
      const m = style.exec(line);
      return m ? line.slice(m[0].length) : /^\s*\d+\s*$/.test(line) ? "" : line;
    });
    const inner: Ctx = { ...ctx, hint: nums[0]! - 1 };
    const s = baseTiers(inner, stripped, rep) ?? unicodeTier(inner, stripped, rep);
    if (s === null) return null;
    return s.kind === "match" || s.kind === "ambiguous" ? { ...s, tier: "line_numbers" } : s;
  }
  return null;
}

/**
 * Whitespace tier: lines equal once every run of whitespace is one space (the model wrote `a  = b` for
 * `a = b`, or a tab between tokens), with leading indentation that shifts uniformly, so new lines can be
 * indented the file's way. Lines the model kept are written back with the file's own bytes.
 */
export function whitespaceTier(ctx: Ctx, search: string[], replace: string[]): Step | null {
  return step(ctx, {
    tier: "whitespace",
    cands: keyedCands(ctx.doc, "squash", search),
    search,
    replace,
    indent: true,
  });
}
