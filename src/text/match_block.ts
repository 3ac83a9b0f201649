/**
 * The matching ladder: place one search block in a file, from exact to
 * bounded fuzzy, refusing ambiguity at every tier. Lines are compared whole
 * (keys per line, a rare line first, then verification), so cost stays
 * near-linear in the file size; the fuzzy tier only scores windows that
 * share whole lines with the search and stops at a work budget.
 *
 * @module
 */
import { TextDoc } from "./_doc.ts";
import { elisionTier } from "./_match_elision.ts";
import { fuzzyTier } from "./_match_fuzzy.ts";
import { driftChars, render } from "./_match_indent.ts";
import { anchorStarts, type Cand, keyedCands, occursAt, pairsOf, toLines } from "./_match_lines.ts";
import { squash, windowSimilarity } from "./_similarity.ts";
import { closestWindow } from "./did_you_mean.ts";
import {
  baseTiers,
  type Ctx,
  lineNumberTier,
  type Step,
  unicodeTier,
  whitespaceTier,
} from "./_match_tiers.ts";
import type { BlockMatch, CandidateLines, Confidence, EditBlock, MatchOptions, MatchTier } from "./types.ts";
import { minOf } from "../arrays.ts";
export type { CandidateLines, MatchOptions } from "./types.ts";

export { isElision } from "./_match_elision.ts";

/** The window the fuzzy tier would have placed a block at, when fuzzy placement is off. */
export interface FuzzyCandidate extends CandidateLines {
  /** Window similarity 0..1 (2 decimals). */
  similarity: number;
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
    /** The window only the fuzzy tier found (`no_match` when fuzzy placement is off). */
    fuzzy?: FuzzyCandidate;
  };

const CONFIDENCE: Record<MatchTier, Confidence> = {
  exact: "high",
  trailing_whitespace: "high",
  indentation: "high",
  blank_lines: "medium",
  elision: "medium",
  unicode: "high",
  line_numbers: "high",
  whitespace: "medium",
  fuzzy: "low",
  create: "high",
  append: "high",
  insert: "medium",
  delete: "high",
};

/**
 * Where the replacement text already sits as whole lines (trailing whitespace
 * ignored), as 1-based lines, and only where the search would have been (see
 * {@linkcode whereSearchWouldBe}).
 */
function alreadyThere(doc: TextDoc, block: EditBlock): CandidateLines[] {
  const { search, replace } = block;
  const r = replace.map((s) => s.trimEnd());
  if (r.every((s) => s === "")) return [];
  if (r.join("\n").trim() === search.map((s) => s.trimEnd()).join("\n").trim()) return [];
  let hits = keyedCands(doc, "trim_end", replace);
  if (hits.length === 0) hits = keyedCands(doc, "trim", replace);
  return whereSearchWouldBe(doc, search, hits, block.lineHint).slice(0, 20).map(toLines);
}

/**
 * Of the places where a replacement already stands, the one where the search
 * would have been: no window resembles the search more than it does (the
 * window closest to the search, the did-you-mean, overlaps it or scores no
 * higher), and it is the only such place (a line hint may pick one). A
 * replacement that stands elsewhere (`return value` at line 54 of click's
 * utils.py, while `return str(valu)` is a near miss of line 57) or at several
 * equally likely places (seven `return value` lines in core.py) is no proof
 * that the edit landed: the answer is then empty and the caller's no_match
 * names the closest lines.
 */
function whereSearchWouldBe(doc: TextDoc, search: string[], hits: Cand[], lineHint?: number): Cand[] {
  if (hits.length === 0) return hits;
  const near = closestWindow(doc, search, lineHint === undefined ? {} : { hint: lineHint });
  let likely = hits;
  if (near !== null) {
    const sq = search.map(squash);
    const budget = { left: hits.length * search.length };
    const overlaps = (h: Cand) =>
      h.start < near.end_line && Math.max(h.end, h.start + 1) > near.start_line - 1;
    const score = (h: Cand) =>
      windowSimilarity(sq, doc.bodySlice(h.start, h.start + search.length).map(squash), budget);
    likely = hits.filter((h) => overlaps(h) || score(h) >= near.similarity - 0.005);
  }
  if (likely.length > 1 && lineHint !== undefined) likely = nearestTo(likely, lineHint - 1);
  return likely.length === 1 ? likely : [];
}

/** The candidates closest to a 0-based line, within 25 lines of it. */
function nearestTo(cands: Cand[], line: number): Cand[] {
  const distance = (c: Cand) => Math.abs(c.start - line);
  const best = minOf(cands.map(distance));
  return best > 25 ? [] : cands.filter((c) => distance(c) === best);
}

/**
 * Place one block in a document with the ladder: exact, trailing whitespace,
 * uniform indentation, blank lines, elisions, Unicode punctuation, copied line
 * numbers, whitespace inside lines, bounded fuzzy (placed only with
 * `fuzzy: true`; otherwise its window is the did-you-mean of a `no_match`).
 * More than one candidate at a tier is `ambiguous` unless the block's line
 * hint or `@@` anchor picks one.
 *
 * @param file The file's text (or a prepared document).
 * @param block The search and replacement lines.
 * @param options Fuzzy placement (off by default), threshold and budget.
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
export function matchBlock(file: string, block: EditBlock, options: MatchOptions = {}): MatchOutcome {
  return matchBlockIn(new TextDoc(file), block, options);
}

/**
 * {@linkcode matchBlock} over an indexed text, for the engine's callers that
 * match several blocks against one text (the index is built once).
 *
 * @param doc The indexed text.
 * @param block The edit block.
 * @param options Matching options.
 * @returns The outcome.
 */
export function matchBlockIn(doc: TextDoc, block: EditBlock, options: MatchOptions = {}): MatchOutcome {
  const first = matchOne(doc, block, options);
  if (!block.alternatives) return first;
  // A block with several `=======` lines: each one may be the divider. The one reading whose SEARCH the file
  // holds (high confidence) wins; several at the same place: the longest; at different places, which was
  // meant cannot be told.
  const { alternatives, ...primary } = block;
  const readings = [{ block: primary, out: first }];
  for (const alt of alternatives) {
    const b = { ...primary, ...alt };
    readings.push({ block: b, out: matchOne(doc, b, options) });
  }
  const sure = readings.filter((r) => r.out.ok && r.out.match.confidence === "high");
  if (sure.length === 1) return sure[0]!.out;
  // Readings that match at the same place: the longest SEARCH holds the ======= line the file has there too.
  const starts = new Set(sure.map((r) => r.out.ok ? r.out.match.start : -1));
  if (sure.length > 1 && starts.size === 1) {
    return sure.reduce((a, b) => b.block.search.length > a.block.search.length ? b : a).out;
  }
  if (sure.length > 1) {
    return {
      ok: false,
      code: "ambiguous",
      candidates: sure.flatMap((r) =>
        r.out.ok
          ? [{
            start_line: r.out.match.start + 1,
            end_line: Math.max(r.out.match.start + 1, r.out.match.end),
          }]
          : []
      ),
      reason:
        `the block has ${alternatives.length + 1} ======= lines and ${sure.length} ways to read it match ` +
        `the file (SEARCH of ${
          sure.map((r) => r.block.search.length).join(", ")
        } lines); write the edit as a ` +
        `unified diff or with str_replace when the text itself holds a ======= line`,
    };
  }
  return first;
}

function matchOne(doc: TextDoc, block: EditBlock, options: MatchOptions): MatchOutcome {
  const ctx: Ctx = {
    doc,
    options,
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
    () => whitespaceTier(ctx, search, replace),
    () => fuzzyTier(ctx, search, replace),
  ];
  let fuzzy: FuzzyCandidate | undefined;
  for (const tier of tiers) {
    const s = tier();
    if (s === null) continue;
    if (s.kind === "none") {
      reason ??= s.reason;
      capped ||= s.capped === true;
      continue;
    }
    if (s.tier === "fuzzy" && s.kind === "match" && options.fuzzy === true) {
      // A block re-sent after it was applied is most like the lines it wrote: not a place to apply it again.
      const there = alreadyThere(doc, block);
      if (there.length > 0) return { ok: false, code: "already_applied", candidates: there };
    }
    if (s.tier === "fuzzy" && s.kind === "match" && options.fuzzy !== true) {
      // Low confidence never writes unasked: the window becomes the did-you-mean.
      fuzzy = {
        ...toLines(s.cand),
        similarity: Math.round((s.cand.similarity ?? 0) * 100) / 100,
      };
      break;
    }
    if (s.kind === "ambiguous") {
      return { ok: false, code: "ambiguous", tier: s.tier, candidates: s.cands.slice(0, 50).map(toLines) };
    }
    const pairs = pairsOf(s.cand, s.search.length);
    const fold = s.tier === "unicode" ? driftChars(s.search, doc, s.cand) : null;
    const replacement = s.tier === "elision" || s.tier === "exact"
      ? s.replace
      : render(doc, { search: s.search, pairs, replace: s.replace, shift: s.shift, fold });
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
  const there = alreadyThere(doc, block);
  if (there.length > 0) return { ok: false, code: "already_applied", candidates: there };
  const out: MatchOutcome = { ok: false, code: "no_match", candidates: [] };
  if (reason) out.reason = reason;
  if (capped) out.fuzzyCapped = true;
  if (fuzzy) out.fuzzy = fuzzy;
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
    if (!occursAt(replace, k, search)) continue;
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
  for (let k = 0; k + s.length <= r.length; k++) {
    if (!occursAt(r, k, s)) continue;
    const from = start - k;
    if (from < 0 || from + r.length > doc.lineCount) continue;
    if (r.every((line, j) => doc.body(from + j).trimEnd() === line)) {
      return { start_line: from + 1, end_line: from + r.length };
    }
  }
  return null;
}
