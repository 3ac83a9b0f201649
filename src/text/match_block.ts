/**
 * The matching ladder: place one search block in a file, from exact to
 * bounded fuzzy, refusing ambiguity at every tier. Lines are compared whole
 * (keys per line, a rare line first, then verification), so cost stays
 * near-linear in the file size; the fuzzy tier only scores windows that
 * share whole lines with the search and stops at a work budget.
 *
 * @module
 */
import {
  foldUnicode,
  type KeyKind,
  keyOf,
  leadOf,
  TextDoc,
  UNICODE_FOLD,
  UNICODE_FOLD_RE,
  widthOf,
} from "./_doc.ts";
import { squash, windowSimilarity } from "./_similarity.ts";
import type { BlockMatch, Confidence, EditBlock, MatchTier } from "./types.ts";

/** Options of {@linkcode matchBlock}. */
export interface MatchOptions {
  /** Window similarity the fuzzy tier needs (default 0.8). */
  fuzzyThreshold?: number;
  /** Line comparisons the fuzzy tier may spend (default 20000). */
  fuzzyBudget?: number;
  /** Turn the fuzzy tier off. */
  fuzzy?: boolean;
}

/** A candidate location, 1-based inclusive lines. */
export interface CandidateLines {
  /** First line. */
  start_line: number;
  /** Last line. */
  end_line: number;
}

/** The ladder's answer for one block. */
export type MatchOutcome =
  | { ok: true; match: BlockMatch }
  | {
    ok: false;
    /** Why it was not placed. */
    code: "no_match" | "ambiguous" | "already_applied";
    /** The tier that found several candidates (ambiguous). */
    tier?: MatchTier;
    /** Every candidate (ambiguous) or where the replacement already is (already_applied). */
    candidates: CandidateLines[];
    /** Extra explanation (malformed elisions, capped fuzzy work). */
    reason?: string;
    /** The fuzzy tier ran out of budget. */
    fuzzyCapped?: boolean;
  };

interface Cand {
  start: number;
  end: number;
  /** [search line index, file line index]; null = contiguous from start. */
  pairs: [number, number][] | null;
  textSpan?: { from: number; to: number };
  similarity?: number;
}

interface Shift {
  delta: number;
  /** Indentation width multiplier (2-space code written with 4 spaces and back); 1 for a plain shift. */
  scale: number;
  tab: number;
  useTabs: boolean;
  leads: Map<string, string>;
}

type Step =
  | { kind: "match"; tier: MatchTier; cand: Cand; search: string[]; replace: string[]; shift: Shift | null }
  | { kind: "ambiguous"; tier: MatchTier; cands: Cand[] }
  | { kind: "none"; reason?: string; capped?: boolean };

const CONFIDENCE: Record<MatchTier, Confidence> = {
  exact: "high",
  trailing_whitespace: "high",
  indentation: "high",
  blank_lines: "medium",
  elision: "medium",
  unicode: "high",
  line_numbers: "high",
  fuzzy: "low",
  create: "high",
  append: "high",
  insert: "medium",
  delete: "high",
};

const ELISION =
  /^(?:(?:\/\/+|#+|--|;+|\/\*+|\*|<!--|\{\/\*)\s*)?(?:\.{3}|\u2026)(?:[\s\w,'()-]*?(?:\.{3}|\u2026))?\s*(?:\*+\/\}?|-->)?$/;

/** True when a (trimmed) line is an elision marker such as `...` or `// ... existing code ...`. */
export function isElision(line: string): boolean {
  const t = line.trim();
  if (t === "...") return true;
  if (!/(?:\.{3}|\u2026)/.test(t)) return false;
  return ELISION.test(t) && (/^(?:\/\/|#|--|;|\/\*|\*|<!--|\{\/\*)/.test(t) || /^(?:\.{3}|\u2026)$/.test(t));
}

const LINE_NUMBER_STYLES: RegExp[] = [
  /^\s*(\d+)\t/,
  /^\s*(\d+) ?\| ?/,
  /^\s*(\d+)\u2192/,
  /^\s*L?(\d+): ?/,
];

/** All positions (0-based starts) where `skeys` occurs contiguously in `keys`. */
function contiguous(keys: string[], skeys: string[], limit = 1000): number[] {
  const n = skeys.length;
  if (n === 0 || n > keys.length) return [];
  let pivot = 0;
  for (let j = 1; j < n; j++) if (skeys[j]!.length > skeys[pivot]!.length) pivot = j;
  const pk = skeys[pivot]!;
  const out: number[] = [];
  const last = keys.length - n + pivot;
  for (let i = pivot; i <= last; i++) {
    if (keys[i] !== pk) continue;
    const start = i - pivot;
    let ok = true;
    for (let j = 0; j < n; j++) {
      if (j !== pivot && keys[start + j] !== skeys[j]) {
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
function exactCands(doc: TextDoc, search: string[]): Cand[] {
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

function keyedCands(doc: TextDoc, kind: KeyKind, search: string[]): Cand[] {
  const skeys = search.map((s) => keyOf(kind, s));
  return contiguous(doc.keys(kind), skeys).map((s) => ({ start: s, end: s + search.length, pairs: null }));
}

/** Blank-line-insensitive: match the non-blank lines in order, whatever blank lines lie between. */
function blankCands(doc: TextDoc, search: string[]): Cand[] {
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

function pairsOf(c: Cand, n: number): [number, number][] {
  return c.pairs ?? Array.from({ length: n }, (_, j) => [j, c.start + j] as [number, number]);
}

/** The uniform indentation change between search and file lines, or null when not uniform. */
function indentShift(doc: TextDoc, search: string[], pairs: [number, number][]): Shift | null {
  const leadPairs: [string, string][] = [];
  for (const [s, f] of pairs) {
    const sl = search[s]!;
    if (sl.trim() === "") continue;
    leadPairs.push([leadOf(sl), leadOf(doc.bodies[f]!)]);
  }
  const useTabs = leadPairs.some(([, f]) => f.startsWith("\t"));
  const hasTabs = leadPairs.some(([s, f]) => s.includes("\t") || f.includes("\t"));
  for (const tab of hasTabs ? [4, 8, 2, 3] : [4]) {
    let delta: number | null = null;
    let ok = true;
    for (const [s, f] of leadPairs) {
      const d = widthOf(f, tab) - widthOf(s, tab);
      if (delta === null) delta = d;
      else if (d !== delta) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    const leads = new Map<string, string>();
    for (const [s, f] of leadPairs) if (!leads.has(s)) leads.set(s, f);
    return { delta: delta ?? 0, scale: 1, tab, useTabs, leads };
  }
  // A uniform indentation unit change (the model wrote 4-space code with 2 spaces, or back).
  for (const tab of hasTabs ? [4, 8, 2, 3] : [4]) {
    let scale: number | null = null;
    let ok = true;
    const depths = new Set<number>();
    for (const [s, f] of leadPairs) {
      const sw = widthOf(s, tab);
      const fw = widthOf(f, tab);
      if (sw === 0 || fw === 0) {
        if (sw !== fw) ok = false;
        continue;
      }
      depths.add(sw);
      const k = fw / sw;
      if (scale === null) scale = k;
      else if (k !== scale) ok = false;
      if (!ok) break;
    }
    if (!ok || scale === null || scale === 1 || depths.size < 2) continue;
    const leads = new Map<string, string>();
    for (const [s, f] of leadPairs) if (!leads.has(s)) leads.set(s, f);
    return { delta: 0, scale, tab, useTabs, leads };
  }
  return null;
}

function reindent(line: string, shift: Shift): string {
  if (line.trim() === "") return line;
  const lead = leadOf(line);
  const mapped = shift.leads.get(lead);
  if (mapped !== undefined) return mapped + line.slice(lead.length);
  const w = Math.max(0, Math.round(widthOf(lead, shift.tab) * shift.scale) + shift.delta);
  const newLead = shift.useTabs
    ? "\t".repeat(Math.floor(w / shift.tab)) + " ".repeat(w % shift.tab)
    : " ".repeat(w);
  return newLead + line.slice(lead.length);
}

/** Render the replacement: lines the model kept map to the file's own bytes, new lines are re-indented. */
function render(
  doc: TextDoc,
  search: string[],
  pairs: [number, number][],
  replace: string[],
  shift: Shift | null,
  fold: Set<string> | null,
): string[] {
  const map = new Map<string, string | null>();
  for (const [s, f] of pairs) {
    const k = search[s]!;
    const v = doc.bodies[f]!;
    if (map.has(k) && map.get(k) !== v) map.set(k, null);
    else map.set(k, v);
  }
  return replace.map((r) => {
    const m = map.get(r);
    if (m !== undefined && m !== null) return m;
    let line = r;
    if (fold && fold.size > 0) {
      line = line.replace(UNICODE_FOLD_RE, (c) => fold.has(c) ? UNICODE_FOLD[c]! : c);
    }
    if (shift && shift.delta !== 0 || shift && shift.leads.size > 0) line = reindent(line, shift!);
    return line;
  });
}

/** Pick among several candidates with a line hint (0-based), or null when it does not decide. */
function byHint(cands: Cand[], hint: number | undefined): Cand | null {
  if (hint === undefined || cands.length < 2) return null;
  const sorted = [...cands].sort((a, b) => Math.abs(a.start - hint) - Math.abs(b.start - hint));
  const d1 = Math.abs(sorted[0]!.start - hint);
  const d2 = Math.abs(sorted[1]!.start - hint);
  if (d1 === d2) return null;
  if (d1 === 0 || (d1 <= 25 && d2 >= 3 * d1)) return sorted[0]!;
  return null;
}

interface Ctx {
  doc: TextDoc;
  hint: number | undefined;
  block: EditBlock;
  anchorStarts: number[] | null;
}

/** Keep candidates allowed by `*** End of File` and `@@` anchors; resolve several by anchor or hint. */
function decide(ctx: Ctx, tier: MatchTier, cands: Cand[]): Cand | Cand[] | null {
  let c = cands;
  if (ctx.block.atEnd) {
    const n = ctx.doc.lines.length;
    c = c.filter((x) => {
      for (let i = x.end; i < n; i++) if (ctx.doc.bodies[i]!.trim() !== "") return false;
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

function step(
  ctx: Ctx,
  tier: MatchTier,
  cands: Cand[],
  search: string[],
  replace: string[],
  indent: boolean,
): Step | null {
  let usable = cands;
  if (indent) usable = cands.filter((c) => indentShift(ctx.doc, search, pairsOf(c, search.length)) !== null);
  const d = decide(ctx, tier, usable);
  if (d === null) return null;
  if (Array.isArray(d)) return { kind: "ambiguous", tier, cands: d };
  const shift = indent ? indentShift(ctx.doc, search, pairsOf(d, search.length)) : null;
  return { kind: "match", tier, cand: d, search, replace, shift };
}

/** Tiers 1–4 on given search/replace lines (also reused after stripping line numbers). */
function baseTiers(ctx: Ctx, search: string[], replace: string[]): Step | null {
  const exact = step(ctx, "exact", exactCands(ctx.doc, search), search, replace, false);
  if (exact) return exact;
  // Tiers 2 and 3 share one pass over the trim keys: tier 2 keeps the runs whose lines
  // also agree on leading whitespace.
  const trimmed = keyedCands(ctx.doc, "trim", search);
  const bodies = ctx.doc.bodies;
  const sameLead = trimmed.filter((c) =>
    search.every((l, j) => l.trimEnd() === bodies[c.start + j]!.trimEnd())
  );
  return step(ctx, "trailing_whitespace", sameLead, search, replace, false) ??
    step(ctx, "indentation", trimmed, search, replace, true) ??
    blankTier(ctx, search, replace);
}

function blankTier(ctx: Ctx, search: string[], replace: string[]): Step | null {
  const s = step(ctx, "blank_lines", blankCands(ctx.doc, search), search, replace, true);
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
  while (fileLead < lead && start > 0 && doc.bodies[start - 1]!.trim() === "") {
    start--;
    fileLead++;
    pairs.push([lead - fileLead, start]);
  }
  let fileTrail = 0;
  while (fileTrail < trail && end < doc.lines.length && doc.bodies[end]!.trim() === "") {
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

function unicodeTier(ctx: Ctx, search: string[], replace: string[]): Step | null {
  const searchText = search.join("\n");
  UNICODE_FOLD_RE.lastIndex = 0;
  const inSearch = UNICODE_FOLD_RE.test(searchText);
  UNICODE_FOLD_RE.lastIndex = 0;
  const inFile = UNICODE_FOLD_RE.test(ctx.doc.text);
  UNICODE_FOLD_RE.lastIndex = 0;
  if (!inSearch && !inFile) return null;
  const s = step(ctx, "unicode", keyedCands(ctx.doc, "unicode", search), search, replace, true);
  return s;
}

function lineNumberTier(ctx: Ctx, search: string[], replace: string[]): Step | null {
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

function elisionTier(ctx: Ctx, search: string[], replace: string[]): Step | null {
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
    out.push(...render(doc, flat, piecePairs, rp, shift, null));
    if (k < reps.length - 1) {
      const gapStart = chain[k]! + pieces[k]!.length;
      out.push(...doc.bodies.slice(gapStart, chain[k + 1]!));
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

function fuzzyTier(ctx: Ctx, search: string[], replace: string[], options: MatchOptions): Step | null {
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
      if (s < 0 || s + n > doc.lines.length) continue;
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
    const win = doc.bodies.slice(s, s + n).map(squash);
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
      const cand: Cand = { start: top.start, end: top.start + n, pairs: null, similarity: top.sim };
      return {
        kind: "match",
        tier: "fuzzy",
        cand,
        search,
        replace,
        shift: indentShift(doc, search, pairsOf(cand, n)),
      };
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
  return {
    kind: "match",
    tier: "fuzzy",
    cand,
    search,
    replace,
    shift: indentShift(doc, search, pairsOf(cand, n)),
  };
}

function anchorStarts(doc: TextDoc, anchors: string[] | undefined): number[] | null {
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

function toLines(c: Cand): CandidateLines {
  return { start_line: c.start + 1, end_line: Math.max(c.start + 1, c.end) };
}

/** Where the replacement text already sits (trailing whitespace ignored), as 1-based lines. */
function alreadyThere(doc: TextDoc, search: string[], replace: string[]): CandidateLines[] {
  const r = replace.map((s) => s.trimEnd());
  if (r.every((s) => s === "")) return [];
  if (r.join("\n").trim() === search.map((s) => s.trimEnd()).join("\n").trim()) return [];
  let hits = keyedCands(doc, "trim_end", replace);
  if (hits.length === 0) hits = keyedCands(doc, "trim", replace);
  return hits.slice(0, 20).map(toLines);
}

/**
 * Place one block in a document with the ladder: exact, trailing whitespace,
 * uniform indentation, blank lines, elisions, Unicode punctuation, copied line
 * numbers, bounded fuzzy. More than one candidate at a tier is `ambiguous`
 * unless the block's line hint or `@@` anchor picks one.
 *
 * @param file The file's text (or a prepared document).
 * @param block The search and replacement lines.
 * @param options Fuzzy threshold and budget.
 * @returns The match, or why there is none.
 *
 * @example Indentation drift is re-applied to the replacement
 * ```ts
 * import { matchBlock } from "@graver/core/text";
 * import assert from "node:assert/strict";
 *
 * const out = matchBlock("if (x) {\n    go();\n}\n", { search: ["go();"], replace: ["go(1);"], inputLine: 1 });
 * assert.ok(out.ok);
 * assert.equal(out.match.tier, "indentation");
 * assert.deepEqual(out.match.replacement, ["    go(1);"]);
 * ```
 */
export function matchBlock(
  file: TextDoc | string,
  block: EditBlock,
  options: MatchOptions = {},
): MatchOutcome {
  const doc = typeof file === "string" ? new TextDoc(file) : file;
  const ctx: Ctx = {
    doc,
    hint: block.lineHint === undefined ? undefined : block.lineHint - 1,
    block,
    anchorStarts: anchorStarts(doc, block.anchors),
  };
  const { search, replace } = block;
  let reason: string | undefined;
  let capped = false;
  const tiers: (() => Step | null)[] = [
    () => baseTiers(ctx, search, replace),
    () => elisionTier(ctx, search, replace),
    () => unicodeTier(ctx, search, replace),
    () => lineNumberTier(ctx, search, replace),
    () => options.fuzzy === false ? null : fuzzyTier(ctx, search, replace, options),
  ];
  for (const tier of tiers) {
    const s = tier();
    if (s === null) continue;
    if (s.kind === "none") {
      reason ??= s.reason;
      capped ||= s.capped === true;
      continue;
    }
    if (s.kind === "ambiguous") {
      return { ok: false, code: "ambiguous", tier: s.tier, candidates: s.cands.slice(0, 50).map(toLines) };
    }
    const pairs = pairsOf(s.cand, s.search.length);
    const fold = s.tier === "unicode" ? driftChars(s.search, doc, s.cand) : null;
    const replacement = s.tier === "elision" || s.tier === "exact"
      ? s.replace
      : render(doc, s.search, pairs, s.replace, s.shift, fold);
    if (s.tier === "exact" || s.tier === "trailing_whitespace") {
      const again = s.cand.textSpan
        ? insertionInText(doc, s.search, s.replace, s.cand.textSpan.from)
        : insertionAlreadyApplied(doc, s.search, s.replace, s.cand.start);
      if (again) return { ok: false, code: "already_applied", candidates: [again] };
    }
    const match: BlockMatch = {
      start: s.cand.start,
      end: s.cand.end,
      replacement,
      tier: s.tier,
      confidence: CONFIDENCE[s.tier],
      similarity: s.cand.similarity ?? 1,
    };
    if (s.cand.textSpan && s.tier === "exact") match.textSpan = s.cand.textSpan;
    return { ok: true, match };
  }
  const there = alreadyThere(doc, search, replace);
  if (there.length > 0) return { ok: false, code: "already_applied", candidates: there };
  const out: MatchOutcome = { ok: false, code: "no_match", candidates: [] };
  if (reason) out.reason = reason;
  if (capped) out.fuzzyCapped = true;
  return out;
}

/** Unicode characters the model used in SEARCH that the matched file lines never contain. */
function driftChars(search: string[], doc: TextDoc, c: Cand): Set<string> {
  const window = doc.bodies.slice(c.start, c.end).join("\n");
  const out = new Set<string>();
  for (const ch of search.join("\n").match(UNICODE_FOLD_RE) ?? []) if (!window.includes(ch)) out.add(ch);
  void foldUnicode;
  return out;
}

/** {@linkcode insertionAlreadyApplied} on LF-only text at a UTF-16 offset, without splitting lines. */
function insertionInText(
  doc: TextDoc,
  search: string[],
  replace: string[],
  from: number,
): CandidateLines | null {
  if (replace.length <= search.length) return null;
  const text = doc.text;
  const whole = replace.join("\n");
  for (let k = 0; k + search.length <= replace.length; k++) {
    let inside = true;
    for (let j = 0; j < search.length; j++) {
      if (replace[k + j] !== search[j]) {
        inside = false;
        break;
      }
    }
    if (!inside) continue;
    const pos = from - (k === 0 ? 0 : replace.slice(0, k).join("\n").length + 1);
    if (pos < 0 || (pos > 0 && text.charCodeAt(pos - 1) !== 10) || !text.startsWith(whole, pos)) continue;
    const to = pos + whole.length;
    if (to < text.length && text.charCodeAt(to) !== 10) continue;
    const line = doc.lineAt(pos);
    return { start_line: line + 1, end_line: line + replace.length };
  }
  return null;
}

/** A pure insertion (SEARCH inside REPLACE) whose REPLACE already surrounds the match. */
function insertionAlreadyApplied(
  doc: TextDoc,
  search: string[],
  replace: string[],
  start: number,
): CandidateLines | null {
  if (replace.length <= search.length) return null;
  const s = search.map((x) => x.trimEnd());
  const r = replace.map((x) => x.trimEnd());
  const bodies = doc.bodies;
  for (let k = 0; k + s.length <= r.length; k++) {
    let inside = true;
    for (let j = 0; j < s.length; j++) {
      if (r[k + j] !== s[j]) {
        inside = false;
        break;
      }
    }
    if (!inside) continue;
    const from = start - k;
    if (from < 0 || from + r.length > bodies.length) continue;
    let there = true;
    for (let j = 0; j < r.length; j++) {
      if (bodies[from + j]!.trimEnd() !== r[j]) {
        there = false;
        break;
      }
    }
    if (there) return { start_line: from + 1, end_line: from + r.length };
  }
  return null;
}
