/**
 * Apply parsed edit operations to a Stage: each block through the matching
 * ladder, each failure with its did-you-mean hint, all-or-nothing unless
 * `partial` is set. The stage is committed (or dropped) by dispatch.
 *
 * @module
 */
import { isRecoverable, RecoverableError, type ShownLines } from "../errors.ts";
import type { Stage } from "../fs/stage.ts";
import { spliceBytes, type TextSplice } from "../fs/text.ts";
import { bodyOf, endingOf, TextDoc } from "./_doc.ts";
import { addSplice, applySplices } from "./_splices.ts";
import { matchAfterSplices } from "./_match_after.ts";
import { indentMismatch } from "./_match_indent.ts";
import {
  type ClosestWindow,
  closestWindow,
  findInOtherFiles,
  shownByWindow,
  whitespaceDifference,
  windowAt,
} from "./did_you_mean.ts";
import { matchBlockIn, type MatchOptions, type MatchOutcome } from "./match_block.ts";
import type { BlockMatch, BlockReport, Confidence, EditBlock, FileOp, MatchTier } from "./types.ts";

/** Options of {@linkcode applyEditOps}. */
export interface ApplyEditOpsOptions extends MatchOptions {
  /** Scan other workspace files for a SEARCH text that matched nothing (default true). */
  searchWorkspace?: boolean;
  /** How messages name the block and its two sides (edit_file says "old_string"/"new_string"). */
  labels?: { where: string; search: string; replace: string };
}

/** What happened to each file. */
export interface FileReport {
  /** Relative path (destination for moves). */
  path: string;
  /** What was done. */
  action: "edited" | "created" | "deleted" | "moved";
  /** Source path of a move. */
  from?: string;
}

/** The outcome of {@linkcode applyEditOps}. */
export interface ApplyEditOpsResult {
  /** One report per block (and per create/delete op), in input order. */
  blocks: BlockReport[];
  /** Files touched by applied blocks. */
  files: FileReport[];
  /** Moves for dispatch's rename diffs: destination -> source. */
  renames: Map<string, string>;
  /** Number of applied blocks. */
  applied: number;
  /** Number of failed blocks. */
  failed: number;
  /** Non-fatal notes (low-confidence placements). */
  warnings: string[];
}

/** The error payload of a failed block. */
export type ErrorShape = NonNullable<BlockReport["error"]>;

/** The payload of a recoverable error. */
export function errorShape(err: RecoverableError): ErrorShape {
  const out: ErrorShape = { code: err.code, message: err.message, hint: err.hint };
  if (err.details) out.details = err.details;
  return out;
}

function range(c: { start_line: number; end_line: number }): string {
  return c.start_line === c.end_line ? `${c.start_line}` : `${c.start_line}-${c.end_line}`;
}

/** "line 7" or "lines 7-9". */
function linesOf(c: { start_line: number; end_line: number }): string {
  return `line${c.start_line === c.end_line ? "" : "s"} ${range(c)}`;
}

/**
 * Candidate lines for a message, each place once ("23, 52 (2 matches)" when
 * two matches share line 52), at most `limit` places.
 *
 * @param cands 1-based inclusive line ranges.
 * @param limit Most places listed (default 8).
 * @returns The list, comma-separated.
 *
 * @example
 * ```ts
 * import { lineList } from "./apply_edit_ops.ts";
 * import assert from "node:assert/strict";
 *
 * const at = (l: number) => ({ start_line: l, end_line: l });
 * assert.equal(lineList([at(23), at(52), at(52)]), "23, 52 (2 matches)");
 * ```
 */
export function lineList(cands: { start_line: number; end_line: number }[], limit = 8): string {
  const counts = new Map<string, number>();
  for (const c of cands) counts.set(range(c), (counts.get(range(c)) ?? 0) + 1);
  const out = [...counts].slice(0, limit).map(([r, k]) => k === 1 ? r : `${r} (${k} matches)`);
  return counts.size > limit ? `${out.join(", ")}, …` : out.join(", ");
}

/** A block the ladder did not place: where, what, and the ladder's answer. */
export interface BlockFailure {
  /** The target file. */
  rel: string;
  /** 1-based block number. */
  blockNo: number;
  /** The block. */
  block: EditBlock;
  /** The file as the block saw it. */
  doc: TextDoc;
  /** The ladder's failure. */
  outcome: Exclude<MatchOutcome, { ok: true }>;
}

/** How messages name the block and its two sides. */
interface Nouns {
  where: string;
  search: string;
  replace: string;
}

/**
 * Turn a ladder failure into an error payload with hints: every candidate for
 * `ambiguous`, where the change already is for `already_applied`, the closest
 * window and other files holding the text for `no_match`.
 *
 * @param stage The call's stage (to scan other files).
 * @param failure The file, block and the ladder's failure.
 * @param options `searchWorkspace: false` skips the scan of other files; `labels` name the block.
 * @returns The error payload.
 */
export async function explainFailure(
  stage: Stage,
  failure: BlockFailure,
  options: ApplyEditOpsOptions,
): Promise<ErrorShape> {
  const { rel, blockNo, block, outcome } = failure;
  const nouns: Nouns = {
    where: options.labels?.where ?? `block ${blockNo} (input line ${block.inputLine}) to "${rel}"`,
    search: options.labels?.search ?? "the SEARCH text",
    replace: options.labels?.replace ?? "the REPLACE text",
  };
  if (outcome.code === "ambiguous" && outcome.reason) return ambiguousReadings(failure, nouns);
  if (outcome.code === "ambiguous") return ambiguousPlaces(failure, nouns);
  if (outcome.code === "already_applied") return alreadyApplied(failure, nouns);
  return await noMatch(stage, failure, { nouns, searchWorkspace: options.searchWorkspace !== false });
}

/** Several ways to read the block itself (more than one ======= line). */
function ambiguousReadings({ rel, blockNo, outcome }: BlockFailure, nouns: Nouns): ErrorShape {
  return {
    code: "ambiguous",
    message: `Cannot apply ${nouns.where}: ${outcome.reason!.replace(/; write .*$/, "")}`,
    hint:
      "Send the edit as a unified diff (format udiff) or with str_replace, which have no ======= divider; or drop the ======= lines that are not the divider",
    details: { path: rel, block: blockNo, readings: outcome.candidates },
  };
}

/** The SEARCH text matches several places: every candidate's lines. */
function ambiguousPlaces({ rel, blockNo, outcome }: BlockFailure, nouns: Nouns): ErrorShape {
  const list = lineList(outcome.candidates);
  return {
    code: "ambiguous",
    message:
      `Cannot apply ${nouns.where}: ${nouns.search} matches ${outcome.candidates.length} places (lines ${list})`,
    hint:
      `Add one or two unique neighbouring lines to ${nouns.search} so it matches exactly one place, or pass a line hint (start_line, @@ numbers)`,
    details: { path: rel, block: blockNo, tier: outcome.tier, candidates: outcome.candidates },
  };
}

/** The REPLACE text is already where the SEARCH text would be. */
function alreadyApplied({ rel, blockNo, outcome }: BlockFailure, nouns: Nouns): ErrorShape {
  const at = outcome.candidates[0]!;
  return {
    code: "already_applied",
    message: `Cannot apply ${nouns.where}: ${nouns.replace} is already at line${
      at.start_line === at.end_line ? "" : "s"
    } ${range(at)}`,
    hint: "Drop this block: the file already holds its change",
    details: { path: rel, block: blockNo, found_at: outcome.candidates },
  };
}

/** The window a `no_match` names: the fuzzy tier's, else the closest one (near the line hint). */
function closestOf({ block, doc, outcome }: BlockFailure): ClosestWindow | null {
  return outcome.fuzzy
    ? windowAt(doc, block.search, {
      start: outcome.fuzzy.start_line - 1,
      similarity: outcome.fuzzy.similarity,
    })
    : closestWindow(doc, block.search, block.lineHint === undefined ? {} : { hint: block.lineHint });
}

/** The SEARCH text matches nothing: the closest window, other files that hold it, what to send next. */
async function noMatch(
  stage: Stage,
  failure: BlockFailure,
  options: { nouns: Nouns; searchWorkspace: boolean },
): Promise<ErrorShape> {
  const { rel, blockNo, block, outcome } = failure;
  const closest = closestOf(failure);
  const elsewhere = options.searchWorkspace
    ? await findInOtherFiles(stage, block.search, { exclude: rel })
    : [];
  const hints: string[] = [];
  if (outcome.reason) hints.push(`Note: ${outcome.reason}`);
  if (elsewhere.length > 0) {
    hints.push(
      `Found in another file: ${
        elsewhere.map((f) => `"${f.path}" line${f.start_line === f.end_line ? "" : "s"} ${range(f)}`).join(
          ", ",
        )
      }; did you mean that file?`,
    );
  }
  const message = closest
    ? nearMiss(failure, { nouns: options.nouns, closest, hints })
    : farMiss(failure, { nouns: options.nouns, hints });
  const details: Record<string, unknown> = { path: rel, block: blockNo };
  if (closest) details["did_you_mean"] = closest;
  if (outcome.fuzzy) details["fuzzy_declined"] = true;
  if (elsewhere.length > 0) details["found_in"] = elsewhere;
  if (outcome.fuzzyCapped) details["fuzzy_capped"] = true;
  return { code: "no_match", message, hint: sentences(hints), details };
}

/** Nothing near the SEARCH text: the plain message, and a hint to read the file. */
function farMiss({ rel, outcome }: BlockFailure, options: { nouns: Nouns; hints: string[] }): string {
  options.hints.push(`Call read_file with {"path": "${rel}"} and copy the lines to change exactly`);
  return noLinesMessage(outcome, options.nouns);
}

function noLinesMessage(outcome: BlockFailure["outcome"], nouns: Nouns): string {
  return `Cannot apply ${nouns.where}: ${nouns.search} matches no lines${
    outcome.reason ? ` (${outcome.reason})` : ""
  }`;
}

/**
 * A window close to the SEARCH text: how it differs (whitespace only, real tokens the fuzzy tier would
 * have bridged, or just similar) decides the message; its hint is added to `hints`.
 */
function nearMiss(
  { block, doc, outcome }: BlockFailure,
  options: { nouns: Nouns; closest: ClosestWindow; hints: string[] },
): string {
  const { nouns, closest, hints } = options;
  const lines = doc.bodySlice(closest.start_line - 1, closest.end_line);
  const spacing = whitespaceDifference(block.search, lines, closest.start_line);
  const diffNote = `(details.did_you_mean.diff: - only in ${nouns.search}, + only in the file)`;
  if (spacing) {
    const indent = spacing.includes("indentation") ? indentMismatch(block.search, lines) : null;
    hints.push(
      `Copy ${linesOf(closest)} exactly from the file and resend ${diffNote}${
        indent ? `; ${indent}, so the new lines' indentation cannot be derived` : ""
      }`,
    );
    return `Cannot apply ${nouns.where}: ${nouns.search} differs from ${
      linesOf(closest)
    } only in whitespace: ${spacing}`;
  }
  if (outcome.fuzzy) {
    hints.push(
      `Did you mean ${
        linesOf(closest)
      }? The file may have changed since ${nouns.search} was written: copy the lines exactly from there and resend ${diffNote}, or pass fuzzy: true to apply it there`,
    );
    return `Cannot apply ${nouns.where}: ${nouns.search} matches no lines exactly; the closest, ${
      linesOf(closest)
    } (similarity ${closest.similarity}), differs in real tokens, and a low-confidence match is not written unless fuzzy is true`;
  }
  hints.push(
    `Did you mean ${
      linesOf(closest)
    } (similarity ${closest.similarity})? Copy the lines exactly from there ${diffNote}`,
  );
  return noLinesMessage(outcome, nouns);
}

/** Join hint sentences, adding a full stop only after one that has no closing punctuation. */
function sentences(parts: string[]): string {
  return parts.reduce((out, p) => out === "" ? p : `${out}${/[.?!]$/.test(out) ? "" : "."} ${p}`, "");
}

/**
 * Apply a match to a document's text: replaced lines keep their own endings
 * one for one, inserted lines take the dominant ending, and the final-newline
 * state is kept unless the block says otherwise (`\ No newline at end of file`).
 *
 * @param doc The file before the block.
 * @param m Where and what.
 * @param block The block (its no-newline flags).
 * @returns The new text.
 */
export function applyMatch(doc: TextDoc, m: BlockMatch, block?: EditBlock): string {
  const splice = matchSplice(doc, m, block);
  if (splice) return spliceText(doc.text, splice);
  return applyAtEnd(doc, m, block);
}

/** A text with one span replaced (a rope until something reads it whole). */
export function spliceText(text: string, s: TextSplice): string {
  return text.slice(0, s.from) + s.insert + text.slice(s.to);
}

/** The replaced lines of a match with their endings (see {@linkcode applyMatch}), and the lines they replace. */
function replacedLines(doc: TextDoc, m: BlockMatch): { old: string[]; mid: string[]; lastEnding: string } {
  const old: string[] = [];
  for (let i = m.start; i < m.end && doc.hasLine(i); i++) old.push(doc.line(i));
  const rep = m.replacement;
  const lastEnding = old.length > 0 ? endingOf(old[old.length - 1]!) : (doc.hasLine(m.start) ? doc.eol : "");
  const mid: string[] = [];
  for (let k = 0; k < rep.length; k++) {
    let ending: string;
    if (k === rep.length - 1) ending = lastEnding;
    else if (k < old.length - 1) ending = endingOf(old[k]!) || doc.eol;
    else ending = doc.eol;
    mid.push(rep[k]! + ending);
  }
  return { old, mid, lastEnding };
}

/**
 * A match as one span of the document's text and what replaces it, as {@linkcode applyMatch} applies it; null
 * for a match that reaches the end of the file (its last line's ending may change), which only
 * {@linkcode applyMatch} applies. Lines are looked up only as far as the match's end.
 *
 * @param doc The file before the block.
 * @param m Where and what.
 * @param block The block (its no-newline flags).
 * @returns The splice, or null.
 */
export function matchSplice(doc: TextDoc, m: BlockMatch, block?: EditBlock): TextSplice | null {
  const span = spanSplice(m, block);
  if (span) return span;
  if (!doc.hasLine(m.end)) return null;
  // Lines before and after the match are the text's own: splice it instead of joining every line.
  return { from: doc.offsetOf(m.start), to: doc.offsetOf(m.end), insert: replacedLines(doc, m).mid.join("") };
}

/** The splice of an exact hit in an LF-only file (its text span): no line of the document is looked at. */
function spanSplice(m: BlockMatch, block?: EditBlock): TextSplice | null {
  if (!m.textSpan || m.replacement.length === 0 || block?.newNoEol || block?.oldNoEol) return null;
  return { from: m.textSpan.from, to: m.textSpan.to, insert: m.replacement.join("\n") };
}

/** {@linkcode applyMatch} of a match that reaches the end of the file: the lines joined again. */
function applyAtEnd(doc: TextDoc, m: BlockMatch, block?: EditBlock): string {
  const { old, mid, lastEnding } = replacedLines(doc, m);
  const rep = m.replacement;
  const lines = doc.lines;
  const out = lines.slice(0, m.start).concat(mid);
  if (rep.length > 0 && old.length === 0 && m.start >= lines.length && m.start > 0) {
    // Appending after an unterminated last line: terminate it, keep the file unterminated.
    const prev = out[m.start - 1]!;
    if (endingOf(prev) === "") {
      out[m.start - 1] = prev + doc.eol;
      out[out.length - 1] = bodyOf(out[out.length - 1]!);
    } else out[out.length - 1] = bodyOf(out[out.length - 1]!) + doc.eol;
  }
  for (let i = m.end; i < lines.length; i++) out.push(lines[i]!);
  if (rep.length === 0 && lastEnding === "" && out.length > 0) {
    out[out.length - 1] = bodyOf(out[out.length - 1]!);
  }
  if (out.length > 0 && block) {
    const last = out.length - 1;
    if (block.newNoEol) out[last] = bodyOf(out[last]!);
    else if (block.oldNoEol && endingOf(out[last]!) === "") out[last] = out[last]! + doc.eol;
  }
  return out.join("");
}

function blockReport(rel: string, blockNo: number, block: EditBlock): BlockReport {
  return { block: blockNo, path: rel, input_line: block.inputLine, status: "failed" };
}

/** Lines of context a block's own diff shows around its change. */
const DIFF_CONTEXT = 3;

/**
 * One block's change alone as a unified diff: the lines it replaces and its replacement, with a few lines of
 * context from the file as the earlier blocks left it.
 */
function blockDiff(doc: TextDoc, { match, path }: { match: BlockMatch; path: string }): string {
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

/** Adjust a line hint for lines added or removed by earlier blocks of the same file. */
function shiftedHint(hint: number | undefined, shifts: { at: number; delta: number }[]): number | undefined {
  if (hint === undefined) return undefined;
  let h = hint;
  for (const s of shifts) if (s.at < h) h += s.delta;
  return Math.max(1, h);
}

/** One run of {@linkcode applyEditOps}: its stage and options, the result so far, the last block number. */
interface Run {
  stage: Stage;
  options: ApplyEditOpsOptions;
  result: ApplyEditOpsResult;
  blockNo: number;
  /** Each applied block's own change as a diff, by block number (kept only when asked). */
  diffs?: Map<number, string>;
}

/** Record a failed block. */
function fail(run: Run, report: BlockReport, error: ErrorShape): void {
  report.status = "failed";
  report.error = error;
  run.result.failed++;
  run.result.blocks.push(report);
}

/** Record an applied block (or create/delete operation) at the confidence its tier gives. */
function succeed(run: Run, report: BlockReport, how: { tier: MatchTier; confidence: Confidence }): void {
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
interface EditedFile {
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
function current(file: EditedFile): TextDoc {
  if (file.since.length > 0) {
    file.seen = new TextDoc(applySplices(file.seen.text, file.since));
    file.since = [];
  }
  return file.seen;
}

/**
 * Apply operations to the stage. Block failures are reported, not thrown;
 * callers decide between all-or-nothing ({@linkcode editFailure}) and partial.
 *
 * @param stage The call's stage.
 * @param ops Parsed operations.
 * @param options Ladder options.
 * @returns Per-block reports, touched files, renames and counts.
 */
export async function applyEditOps(
  stage: Stage,
  ops: FileOp[],
  options: ApplyEditOpsOptions = {},
): Promise<ApplyEditOpsResult> {
  const run = new EditRun(stage, options);
  for (const op of ops) {
    await run.open(op);
    if (op.kind !== "edit") continue;
    for (const block of op.blocks) await run.block(block);
    await run.close();
  }
  return run.result;
}

/** Where a block's SEARCH text would be placed now, before its replacement is known. */
export type BlockProbe =
  | {
    /** Placed: its lines (1-based, inclusive) and the tier. */
    ok: true;
    lines: { start: number; end: number };
    tier: MatchTier;
  }
  | {
    /** Refused whatever its replacement: the block's error. */
    ok: false;
    error: ErrorShape;
  };

/** The file an open edit operation works on: read, missing (its blocks wait), or unreadable. */
type OpenFile =
  | { mode: "read"; file: EditedFile }
  | { mode: "missing"; held: EditBlock[] }
  | { mode: "failed"; error: ErrorShape };

/**
 * An application of edit operations one operation, and one block, at a time — as an edit stream delivers
 * them — with the reports {@linkcode applyEditOps} gives (it runs one): `open` an operation (a create or a
 * delete is applied there), then each `block` of an edit, then `close` it.
 *
 * @example Blocks applied as they come
 * ```ts
 * import { EditRun } from "./apply_edit_ops.ts";
 * import { createMemoryBackend, createWorkspace } from "@graver/core";
 * import { Stage } from "../fs/stage.ts";
 * import assert from "node:assert/strict";
 *
 * const ws = await createWorkspace({ backend: createMemoryBackend({ "a.txt": "one\ntwo\n" }) });
 * const run = new EditRun(new Stage(ws.fs, ws.sandbox), {});
 * await run.open({ kind: "edit", path: "a.txt", blocks: [], inputLine: 1 });
 * assert.deepEqual(await run.probe({ search: ["two"], replace: [], inputLine: 2 }), {
 *   ok: true,
 *   lines: { start: 2, end: 2 },
 *   tier: "exact",
 * });
 * await run.block({ search: ["two"], replace: ["2"], inputLine: 2 });
 * await run.close();
 * assert.equal(run.result.blocks[0]!.status, "applied");
 * ```
 */
export class EditRun {
  /** The reports so far. */
  readonly result: ApplyEditOpsResult;
  #run: Run;
  #op: (FileOp & { kind: "edit" }) | null = null;
  #rel = "";
  #open: OpenFile | null = null;
  /** Each applied block's change as a unified diff, by block number (with `diffs: true`). */
  readonly diffs: Map<number, string> | null;

  /**
   * @param stage The stage to apply to.
   * @param options Ladder options; `diffs: true` keeps a diff of each applied block's own change.
   */
  constructor(stage: Stage, options: ApplyEditOpsOptions & { diffs?: boolean } = {}) {
    this.result = { blocks: [], files: [], renames: new Map(), applied: 0, failed: 0, warnings: [] };
    this.#run = { stage, options, result: this.result, blockNo: 0 };
    this.diffs = options.diffs ? new Map() : null;
    if (this.diffs) this.#run.diffs = this.diffs;
  }

  /**
   * Start an operation: a delete or a create is applied whole; an edit opens its file for the blocks that follow
   * (its `blocks` are not read: pass each to {@linkcode EditRun.block}).
   *
   * @param op The operation.
   */
  async open(op: FileOp): Promise<void> {
    const rel = await this.#run.stage.resolve(op.path);
    if (op.kind === "delete") return await deleteFile(this.#run, op, rel);
    if (op.kind === "create") return await createFile(this.#run, op, rel);
    this.#op = op;
    this.#rel = rel;
    this.#open = await openEdited(this.#run, rel);
  }

  /**
   * Apply the next block of the open edit operation (a block of a missing file waits for the operation's end,
   * where an empty SEARCH creates the file).
   *
   * @param block The block.
   */
  async block(block: EditBlock): Promise<void> {
    const open = this.#open;
    if (open === null) throw new Error("EditRun.block: no edit operation is open");
    if (open.mode === "read") return await applyBlock(this.#run, open.file, block);
    if (open.mode === "failed") {
      return fail(this.#run, blockReport(this.#rel, ++this.#run.blockNo, block), open.error);
    }
    if (block.search.length === 0) {
      open.held.push(block);
      return;
    }
    // A SEARCH text in a missing file: every block of the operation fails.
    const error = errorShape(await this.#run.stage.notFound(this.#rel));
    this.#open = { mode: "failed", error };
    for (const b of [...open.held, block]) {
      fail(this.#run, blockReport(this.#rel, ++this.#run.blockNo, b), error);
    }
  }

  /**
   * Where the next block's SEARCH text would be placed in the open file as the earlier blocks left it, before
   * its replacement is known; nothing changes. Null when that cannot be told yet: a block of added lines, one
   * that matches nothing (its replacement may show it already applied), or one waiting for a missing file.
   *
   * @param block The block (its replacement is ignored).
   * @returns The placement, a refusal no replacement can change, or null.
   */
  async probe(block: EditBlock): Promise<BlockProbe | null> {
    const open = this.#open;
    if (open === null || block.search.length === 0) return null;
    if (open.mode === "failed") return { ok: false, error: open.error };
    if (open.mode === "missing") {
      return { ok: false, error: errorShape(await this.#run.stage.notFound(this.#rel)) };
    }
    const searchOnly: EditBlock = { ...block, replace: [] };
    delete searchOnly.alternatives;
    const found = locate(this.#run, open.file, searchOnly);
    if ("match" in found) {
      const m = found.match;
      return { ok: true, lines: { start: m.start + 1, end: Math.max(m.start + 1, m.end) }, tier: m.tier };
    }
    if (found.failure.outcome.code !== "ambiguous") return null;
    const failure = { ...found.failure, blockNo: this.#run.blockNo + 1 };
    return { ok: false, error: await explainFailure(this.#run.stage, failure, this.#run.options) };
  }

  /**
   * The open edit operation is complete: a missing file's blocks are applied (or refused), the file staged.
   *
   * @param complete The operation as finally read, when it says more than when it was opened (its `moveTo`).
   */
  async close(complete?: FileOp & { kind: "edit" }): Promise<void> {
    const op = complete ?? this.#op;
    const open = this.#open;
    this.#op = null;
    this.#open = null;
    if (op === null || open === null) return;
    let file: EditedFile | null = open.mode === "read" ? open.file : null;
    if (open.mode === "missing") {
      file = newFile(this.#rel);
      for (const b of open.held) await applyBlock(this.#run, file, b);
    }
    if (file === null) return;
    const target = await moveTarget(this.#run, op, this.#rel);
    if (target !== null) await stageEdited(this.#run, file, target);
  }
}

/** A `delete` operation: the file must exist. */
async function deleteFile(run: Run, op: FileOp & { kind: "delete" }, rel: string): Promise<void> {
  const report: BlockReport = { block: ++run.blockNo, path: rel, input_line: op.inputLine, status: "failed" };
  if (!(await run.stage.exists(rel))) return fail(run, report, errorShape(await run.stage.notFound(rel)));
  await run.stage.remove(rel);
  succeed(run, report, { tier: "delete", confidence: "high" });
  run.result.files.push({ path: rel, action: "deleted" });
}

/** A `create` operation: the file must not exist (the same content there already is `already_applied`). */
async function createFile(run: Run, op: FileOp & { kind: "create" }, rel: string): Promise<void> {
  const report: BlockReport = { block: ++run.blockNo, path: rel, input_line: op.inputLine, status: "failed" };
  const content = op.lines.length === 0 ? "" : op.lines.join("\n") + (op.noEol ? "" : "\n");
  const existing = await run.stage.read(rel);
  if (existing) {
    const same = new TextDecoder().decode(existing.bytes).replace(/\r\n/g, "\n") === content;
    return fail(
      run,
      report,
      same
        ? {
          code: "already_applied",
          message: `Cannot create "${rel}": it already exists with this content`,
          hint: "Drop this file from the edits: it is already there",
          details: { path: rel },
        }
        : {
          code: "already_exists",
          message: `Cannot create "${rel}": the file already exists`,
          hint: "Edit it with SEARCH/REPLACE blocks or a diff hunk instead, or delete it first",
          details: { path: rel, version: existing.version },
        },
    );
  }
  await run.stage.writeText(rel, { text: content, bom: false });
  succeed(run, report, { tier: "create", confidence: "high" });
  report.new_lines = { start: 1, end: op.lines.length };
  const added = {
    start: 0,
    end: 0,
    replacement: op.lines,
    tier: "create",
    confidence: "high",
    similarity: 1,
  } as const;
  run.diffs?.set(report.block, blockDiff(new TextDoc(""), { match: added, path: rel }));
  run.result.files.push({ path: rel, action: "created" });
}

/** A missing file that an operation's blocks create. */
function newFile(rel: string): EditedFile {
  return {
    rel,
    bom: false,
    since: [],
    shifts: [],
    before: "",
    seen: new TextDoc(""),
    log: null,
    bytes: null,
    created: true,
  };
}

/** The file an edit operation works on: read, missing, or unreadable (each block then fails with why). */
async function openEdited(run: Run, rel: string): Promise<OpenFile> {
  if (!(await run.stage.exists(rel))) return { mode: "missing", held: [] };
  try {
    const read = await run.stage.readText(rel);
    const seen = new TextDoc(read.text);
    const file: EditedFile = {
      rel,
      bom: read.bom,
      since: [],
      shifts: [],
      before: read.text,
      seen,
      log: [],
      bytes: read.bytes,
      created: false,
    };
    return { mode: "read", file };
  } catch (err) {
    if (!isRecoverable(err)) throw err;
    return { mode: "failed", error: errorShape(err) };
  }
}

/** Place one block in the file and change the file's text (failures are reported). */
async function applyBlock(run: Run, file: EditedFile, block: EditBlock): Promise<void> {
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
function locate(
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

/** Where the edited file goes (its own path unless moved), or null when the destination exists (reported). */
async function moveTarget(run: Run, op: FileOp & { kind: "edit" }, rel: string): Promise<string | null> {
  if (op.moveTo === undefined) return rel;
  const to = await run.stage.resolve(op.moveTo);
  if (to === rel) return rel;
  if (!(await run.stage.exists(to))) return to;
  const report = blockReport(to, ++run.blockNo, { search: [], replace: [], inputLine: op.inputLine });
  fail(run, report, {
    code: "already_exists",
    message: `Cannot move "${rel}" to "${to}": the destination exists`,
    hint: "Pick another destination or delete it first",
    details: { from: rel, to },
  });
  return null;
}

/** Stage the edited file at `target` when it changed, was created or moves; record what was done. */
async function stageEdited(run: Run, file: EditedFile, target: string): Promise<void> {
  const { rel, log, bytes, bom } = file;
  const before = file.before;
  // Spliced: the file changed when a splice changed its text; its new bytes come from the old ones.
  const changed = log
    ? log.some((s) => s.insert !== before.slice(s.from, s.to))
    : current(file).text !== before;
  if (!changed && !file.created && target === rel) return;
  if (log && bytes) await run.stage.write(target, spliceBytes({ text: before, bom, bytes }, log));
  else await run.stage.writeText(target, { text: current(file).text, bom });
  if (target !== rel) {
    await run.stage.remove(rel);
    run.result.renames.set(target, rel);
    run.result.files.push({ path: target, action: "moved", from: rel });
  } else {
    run.result.files.push({ path: rel, action: file.created ? "created" : "edited" });
  }
}

/**
 * The all-or-nothing refusal for a result with failed blocks: the first
 * failure's code, message and hint, every block's report in `details.blocks`.
 *
 * @param result What {@linkcode applyEditOps} returned.
 * @returns The error to throw (nothing is written).
 */
export function editFailure(result: ApplyEditOpsResult): RecoverableError {
  const failed = result.blocks.filter((b) => b.status === "failed");
  const first = failed[0]!.error!;
  const codes = new Set(failed.map((b) => b.error!.code));
  const code = (codes.size === 1 ? first.code : first.code) as ConstructorParameters<
    typeof RecoverableError
  >[0];
  const more = failed.length > 1
    ? ` (and ${failed.length - 1} more failed block${failed.length > 2 ? "s" : ""})`
    : "";
  const matched = result.applied > 0
    ? `; ${result.applied} other block${
      result.applied === 1 ? "" : "s"
    } matched but nothing was written (all-or-nothing). Resend only the failed blocks fixed, or pass partial: true to apply the matching ones`
    : "";
  const suggested = first.details?.["did_you_mean"] as { start_line: number; end_line: number } | undefined;
  const path = first.details?.["path"];
  const options: ConstructorParameters<typeof RecoverableError>[2] = {
    hint: first.hint + matched,
    details: { blocks: result.blocks, failed_blocks: failed.map((b) => b.block), ...(first.details ?? {}) },
  };
  if (suggested && typeof path === "string") {
    options.suggestedCall = {
      tool: "read_file",
      args: { path, start_line: Math.max(1, suggested.start_line - 3), end_line: suggested.end_line + 3 },
    };
  }
  // Every failed block's did-you-mean window was displayed: the ledger counts those lines as read.
  options.shown = windowsShown(result.blocks);
  return new RecoverableError(code, first.message + more, options);
}

/**
 * What the failed blocks' did-you-mean windows display of their files (for the read ledger): a refusal
 * ({@linkcode editFailure}) or a partial apply reports it as `shown`.
 *
 * @param blocks The block reports of one application.
 * @returns The lines shown, per window.
 */
export function windowsShown(blocks: readonly BlockReport[]): ShownLines[] {
  return blocks.flatMap((b) => shownByWindow(b.error?.details));
}
