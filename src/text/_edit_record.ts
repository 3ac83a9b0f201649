/**
 * What one application of edit operations keeps as it goes: the result so far (each block's report, applied
 * or failed, and its own change as a diff when asked) and each edited file's text, held as the text last
 * built plus the splices made since, so the text now is built only when a block needs it.
 *
 * @module
 */
import type { Stage } from "../fs/stage.ts";
import type { TextSplice } from "../fs/text.ts";
import { TextDoc } from "./_doc.ts";
import { applySplices } from "./_splices.ts";
import type { ErrorShape } from "./_explain_failure.ts";
import type {
  ApplyEditOpsOptions,
  ApplyEditOpsResult,
  BlockMatch,
  BlockReport,
  Confidence,
  EditBlock,
  MatchTier,
} from "./types.ts";

/** A block's report before its outcome is known (failed until it is applied). */
export function blockReport(rel: string, blockNo: number, block: EditBlock): BlockReport {
  return { block: blockNo, path: rel, input_line: block.inputLine, status: "failed" };
}

/** Lines of context a block's own diff shows around its change. */
const DIFF_CONTEXT = 3;

/**
 * One block's change alone as a unified diff: the lines it replaces and its replacement, with a few lines of
 * context from the file as the earlier blocks left it.
 */
export function blockDiff(doc: TextDoc, { match, path }: { match: BlockMatch; path: string }): string {
  const from = Math.max(0, match.start - DIFF_CONTEXT);
  const end = Math.min(doc.lineCount, match.end);
  const to = Math.min(doc.lineCount, end + DIFF_CONTEXT);
  const before = doc.bodySlice(from, match.start).map((l) => ` ${l}`);
  const removed = doc.bodySlice(match.start, end).map((l) => `-${l}`);
  const added = match.replacement.map((l) => `+${l}`);
  const after = doc.bodySlice(end, to).map((l) => ` ${l}`);
  const oldCount = before.length + removed.length + after.length;
  const newCount = before.length + added.length + after.length;
  const at = (count: number) => `${count === 0 ? from : from + 1},${count}`;
  return [
    `--- a/${path}`,
    `+++ b/${path}`,
    `@@ -${at(oldCount)} +${at(newCount)} @@`,
    ...before,
    ...removed,
    ...added,
    ...after,
    "",
  ].join("\n");
}

/**
 * One run of `applyEditOps` (or of an `EditRun`): its stage and options, the result so far, the last block
 * number.
 */
export interface Run {
  stage: Stage;
  options: ApplyEditOpsOptions;
  result: ApplyEditOpsResult;
  blockNo: number;
  /** Each applied block's own change as a diff, by block number (kept only when asked). */
  diffs?: Map<number, string>;
}

/** Record a failed block. */
export function fail(run: Run, report: BlockReport, error: ErrorShape): void {
  report.status = "failed";
  report.error = error;
  run.result.failed++;
  run.result.blocks.push(report);
}

/** Record an applied block (or create/delete operation) at the confidence its tier gives. */
export function succeed(
  run: Run,
  report: BlockReport,
  how: { tier: MatchTier; confidence: Confidence },
): void {
  report.status = "applied";
  report.tier = how.tier;
  report.confidence = how.confidence;
  run.result.applied++;
  run.result.blocks.push(report);
}

/**
 * The file a run of blocks edits: its text as read, the text last built (`seen`) and the changes made since
 * as splices of it — the text now is built only when a block needs it — and every change as splices of the
 * text as read while each is one (the new bytes are then spliced from the old ones).
 */
export interface EditedFile {
  rel: string;
  /** The text as read (BOM stripped). */
  before: string;
  /** The text as last built (at first, as read). */
  seen: TextDoc;
  /** The changes since `seen` was built, as ascending, disjoint splices of its text. */
  since: TextSplice[];
  /** Every change so far as splices of `before` (null once one cannot be: the text now is then written). */
  log: TextSplice[] | null;
  bom: boolean;
  /** The file's bytes (null for a new file). */
  bytes: Uint8Array | null;
  /** Whether the file did not exist (its blocks create it). */
  created: boolean;
  /** Lines added or removed by the blocks so far (for later blocks' line hints). */
  shifts: { at: number; delta: number }[];
}

/** The file's text now (built from the changes since the last build when a block needs it). */
export function current(file: EditedFile): TextDoc {
  if (file.since.length > 0) {
    file.seen = new TextDoc(applySplices(file.seen.text, file.since));
    file.since = [];
  }
  return file.seen;
}
