/**
 * Where each block of an edit operation goes in its file as the earlier blocks left it: a SEARCH text placed by
 * the matching ladder (its line hint shifted by the earlier blocks), added lines after their `@@` anchor, at
 * their line hint or at the end; and the file's text changed by the placed block, or the failure reported.
 *
 * @module
 */
import { TextDoc } from "./_doc.ts";
import { addSplice } from "./_splices.ts";
import { matchAfterSplices } from "./_match_after.ts";
import { applyMatch, matchSplice, spanSplice, spliceText } from "./_apply_match.ts";
import { type BlockFailure, explainFailure } from "./_explain_failure.ts";
import { blockDiff, blockReport, current, type EditedFile, fail, type Run, succeed } from "./_edit_record.ts";
import { matchBlockIn } from "./match_block.ts";
import type { BlockMatch, BlockReport, EditBlock } from "./types.ts";

/** Place one block in the file and change the file's text (failures are reported). */
export async function applyBlock(run: Run, file: EditedFile, block: EditBlock): Promise<void> {
  const report = blockReport(file.rel, ++run.blockNo, block);
  const match = block.search.length === 0
    ? await placeAddedLines(run, { file, block, report })
    : await placeSearch(run, { file, block, report });
  if (match === null) return;
  run.diffs?.set(report.block, blockDiff(current(file), { match, path: file.rel }));
  changeText(file, { match, block });
  succeed(run, report, match);
  report.lines = { start: match.start + 1, end: Math.max(match.start + 1, match.end) };
  report.new_lines = { start: match.start + 1, end: match.start + Math.max(1, match.replacement.length) };
  if (match.tier === "fuzzy") {
    report.similarity = Math.round(match.similarity * 100) / 100;
    run.result.warnings.push(
      `Block ${report.block} was placed in "${file.rel}" lines ${report.lines.start}-${report.lines.end} by fuzzy matching (similarity ${report.similarity}); check the diff`,
    );
  }
  file.shifts.push({ at: match.start + 1, delta: match.replacement.length - (match.end - match.start) });
}

/** One block of one file, as the steps of {@linkcode applyBlock} see it. */
interface BlockAt {
  file: EditedFile;
  block: EditBlock;
  report: BlockReport;
}

/**
 * Where a block with a SEARCH text goes: placed by the ladder in the file's text now (found in the text as last
 * built when the changes since cannot matter to it, see {@linkcode matchAfterSplices}), or null when it failed
 * (reported).
 */
async function placeSearch(run: Run, { file, block, report }: BlockAt): Promise<BlockMatch | null> {
  const found = locate(run, file, block);
  if ("match" in found) return found.match;
  const failure = { ...found.failure, blockNo: report.block };
  fail(run, report, await explainFailure(run.stage, failure, run.options));
  return null;
}

/** The ladder's answer for a block with a SEARCH text in the file's text now: its match, or the failure. */
export function locate(
  run: Run,
  file: EditedFile,
  block: EditBlock,
): { match: BlockMatch } | { failure: BlockFailure } {
  const lineHint = shiftedHint(block.lineHint, file.shifts);
  const hinted = lineHint === undefined ? block : { ...block, lineHint };
  if (file.since.length > 0) {
    const found = matchAfterSplices(file.seen, { splices: file.since, block: hinted, options: run.options });
    if (found) return { match: found };
  }
  const doc = current(file);
  const outcome = matchBlockIn(doc, hinted, run.options);
  if (outcome.ok) return { match: outcome.match };
  return { failure: { rel: file.rel, blockNo: 0, block: hinted, doc, outcome } };
}

/**
 * Where a block of added lines only goes: after its `@@` anchor, at its line hint, or at the end. A new or
 * empty file is written whole here (null: the block is done, or failed and reported).
 */
async function placeAddedLines(run: Run, { file, block, report }: BlockAt): Promise<BlockMatch | null> {
  const doc = current(file);
  let hint = shiftedHint(block.lineHint, file.shifts);
  const anchors = block.anchors ?? [];
  if (anchors.length > 0 && !block.atEnd) {
    // A chunk of added lines under `@@ anchor`: insert right after the anchor line.
    const last = anchors[anchors.length - 1]!;
    const anchorBlock: EditBlock = { search: [last], replace: [last], inputLine: block.inputLine };
    if (anchors.length > 1) anchorBlock.anchors = anchors.slice(0, -1);
    const placed = matchBlockIn(doc, anchorBlock, { ...run.options, fuzzy: false });
    if (!placed.ok) {
      const failure = { rel: file.rel, blockNo: report.block, block: anchorBlock, doc, outcome: placed };
      fail(run, report, await explainFailure(run.stage, failure, run.options));
      return null;
    }
    hint = placed.match.end + 1;
  }
  const at = hint === undefined ? doc.lineCount : Math.min(doc.lineCount, hint - 1);
  const tier = doc.text === "" && file.created ? "create" : hint === undefined ? "append" : "insert";
  if (doc.text === "" && block.replace.length > 0) {
    // A new or empty file gets a final newline.
    file.seen = new TextDoc(block.replace.join(doc.eol) + doc.eol);
    file.log = null;
    run.diffs?.set(
      report.block,
      blockDiff(doc, {
        match: { start: 0, end: 0, replacement: block.replace, tier, confidence: "high", similarity: 1 },
        path: file.rel,
      }),
    );
    succeed(run, report, { tier, confidence: "high" });
    report.new_lines = { start: 1, end: block.replace.length };
    return null;
  }
  const confidence = tier === "insert" ? "medium" : "high";
  return { start: at, end: at, replacement: block.replace, tier, confidence, similarity: 1 };
}

/** Change the file's text by a placed block: one more splice of the text as last built, or a new text. */
function changeText(file: EditedFile, { match, block }: { match: BlockMatch; block: EditBlock }): void {
  const splice = spanSplice(match, block) ?? matchSplice(current(file), match, block);
  if (splice && addSplice(file.since, splice)) {
    if (file.log && !addSplice(file.log, splice)) file.log = null;
    return;
  }
  // A change at the end of the file, or into text a change since the last build wrote: the new text, built.
  const doc = current(file);
  file.log = null;
  file.seen = new TextDoc(splice ? spliceText(doc.text, splice) : applyMatch(doc, match, block));
}

/** Adjust a line hint for lines added or removed by earlier blocks of the same file. */
function shiftedHint(hint: number | undefined, shifts: { at: number; delta: number }[]): number | undefined {
  if (hint === undefined) return undefined;
  let h = hint;
  for (const s of shifts) if (s.at < h) h += s.delta;
  return Math.max(1, h);
}
