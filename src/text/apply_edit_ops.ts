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
import { addSplice } from "./_splices.ts";
import { indentMismatch } from "./_match_indent.ts";
import {
  closestWindow,
  findInOtherFiles,
  shownByWindow,
  whitespaceDifference,
  windowAt,
} from "./did_you_mean.ts";
import { matchBlockIn, type MatchOptions, type MatchOutcome } from "./match_block.ts";
import type { BlockMatch, BlockReport, EditBlock, FileOp } from "./types.ts";

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

/**
 * Turn a ladder failure into an error payload with hints: every candidate for
 * `ambiguous`, where the change already is for `already_applied`, the closest
 * window and other files holding the text for `no_match`.
 *
 * @param stage The call's stage (to scan other files).
 * @param rel The target file.
 * @param blockNo 1-based block number.
 * @param block The block.
 * @param doc The file as the block saw it.
 * @param outcome The ladder's failure.
 * @param options `searchWorkspace: false` skips the scan of other files.
 * @returns The error payload.
 */
export async function explainFailure(
  stage: Stage,
  rel: string,
  blockNo: number,
  block: EditBlock,
  doc: TextDoc,
  outcome: Exclude<MatchOutcome, { ok: true }>,
  options: ApplyEditOpsOptions,
): Promise<ErrorShape> {
  const where = options.labels?.where ?? `block ${blockNo} (input line ${block.inputLine}) to "${rel}"`;
  const searchNoun = options.labels?.search ?? "the SEARCH text";
  const replaceNoun = options.labels?.replace ?? "the REPLACE text";
  if (outcome.code === "ambiguous" && outcome.reason) {
    // Several ways to read the block itself (more than one ======= line).
    return {
      code: "ambiguous",
      message: `Cannot apply ${where}: ${outcome.reason.replace(/; write .*$/, "")}`,
      hint:
        "Send the edit as a unified diff (format udiff) or with str_replace, which have no ======= divider; or drop the ======= lines that are not the divider",
      details: { path: rel, block: blockNo, readings: outcome.candidates },
    };
  }
  if (outcome.code === "ambiguous") {
    const list = lineList(outcome.candidates);
    return {
      code: "ambiguous",
      message:
        `Cannot apply ${where}: ${searchNoun} matches ${outcome.candidates.length} places (lines ${list})`,
      hint:
        `Add one or two unique neighbouring lines to ${searchNoun} so it matches exactly one place, or pass a line hint (start_line, @@ numbers)`,
      details: { path: rel, block: blockNo, tier: outcome.tier, candidates: outcome.candidates },
    };
  }
  if (outcome.code === "already_applied") {
    const at = outcome.candidates[0]!;
    return {
      code: "already_applied",
      message: `Cannot apply ${where}: ${replaceNoun} is already at line${
        at.start_line === at.end_line ? "" : "s"
      } ${range(at)}`,
      hint: "Drop this block: the file already holds its change",
      details: { path: rel, block: blockNo, found_at: outcome.candidates },
    };
  }
  const closest = outcome.fuzzy
    ? windowAt(doc, block.search, outcome.fuzzy.start_line - 1, outcome.fuzzy.similarity)
    : closestWindow(doc, block.search, block.lineHint === undefined ? {} : { hint: block.lineHint });
  const elsewhere = options.searchWorkspace === false ? [] : await findInOtherFiles(stage, block.search, rel);
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
  const spacing = closest
    ? whitespaceDifference(
      block.search,
      doc.bodySlice(closest.start_line - 1, closest.end_line),
      closest.start_line,
    )
    : null;
  const diffNote = `(details.did_you_mean.diff: - only in ${searchNoun}, + only in the file)`;
  let message = `Cannot apply ${where}: ${searchNoun} matches no lines${
    outcome.reason ? ` (${outcome.reason})` : ""
  }`;
  if (closest && spacing) {
    message = `Cannot apply ${where}: ${searchNoun} differs from ${
      linesOf(closest)
    } only in whitespace: ${spacing}`;
    const indent = spacing.includes("indentation")
      ? indentMismatch(block.search, doc.bodySlice(closest.start_line - 1, closest.end_line))
      : null;
    hints.push(
      `Copy ${linesOf(closest)} exactly from the file and resend ${diffNote}${
        indent ? `; ${indent}, so the new lines' indentation cannot be derived` : ""
      }`,
    );
  } else if (closest && outcome.fuzzy) {
    message = `Cannot apply ${where}: ${searchNoun} matches no lines exactly; the closest, ${
      linesOf(closest)
    } (similarity ${closest.similarity}), differs in real tokens, and a low-confidence match is not written unless fuzzy is true`;
    hints.push(
      `Did you mean ${
        linesOf(closest)
      }? The file may have changed since ${searchNoun} was written: copy the lines exactly from there and resend ${diffNote}, or pass fuzzy: true to apply it there`,
    );
  } else if (closest) {
    hints.push(
      `Did you mean ${
        linesOf(closest)
      } (similarity ${closest.similarity})? Copy the lines exactly from there ${diffNote}`,
    );
  } else {
    hints.push(`Call read_file with {"path": "${rel}"} and copy the lines to change exactly`);
  }
  const details: Record<string, unknown> = { path: rel, block: blockNo };
  if (closest) details["did_you_mean"] = closest;
  if (outcome.fuzzy) details["fuzzy_declined"] = true;
  if (elsewhere.length > 0) details["found_in"] = elsewhere;
  if (outcome.fuzzyCapped) details["fuzzy_capped"] = true;
  return { code: "no_match", message, hint: sentences(hints), details };
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
  if (m.textSpan && m.replacement.length > 0 && !block?.newNoEol && !block?.oldNoEol) {
    // Exact hit in an LF-only file: splice the text, no line split.
    return { from: m.textSpan.from, to: m.textSpan.to, insert: m.replacement.join("\n") };
  }
  if (!doc.hasLine(m.end)) return null;
  // Lines before and after the match are the text's own: splice it instead of joining every line.
  return { from: doc.offsetOf(m.start), to: doc.offsetOf(m.end), insert: replacedLines(doc, m).mid.join("") };
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

/** Adjust a line hint for lines added or removed by earlier blocks of the same file. */
function shiftedHint(hint: number | undefined, shifts: { at: number; delta: number }[]): number | undefined {
  if (hint === undefined) return undefined;
  let h = hint;
  for (const s of shifts) if (s.at < h) h += s.delta;
  return Math.max(1, h);
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
  const result: ApplyEditOpsResult = {
    blocks: [],
    files: [],
    renames: new Map(),
    applied: 0,
    failed: 0,
    warnings: [],
  };
  let blockNo = 0;
  const fail = (report: BlockReport, error: ErrorShape) => {
    report.status = "failed";
    report.error = error;
    result.failed++;
    result.blocks.push(report);
  };
  for (const op of ops) {
    const rel = await stage.resolve(op.path);
    if (op.kind === "delete") {
      const report: BlockReport = { block: ++blockNo, path: rel, input_line: op.inputLine, status: "failed" };
      if (!(await stage.exists(rel))) {
        fail(report, errorShape(await stage.notFound(rel)));
        continue;
      }
      await stage.remove(rel);
      report.status = "applied";
      report.tier = "delete";
      report.confidence = "high";
      result.applied++;
      result.blocks.push(report);
      result.files.push({ path: rel, action: "deleted" });
      continue;
    }
    if (op.kind === "create") {
      const report: BlockReport = { block: ++blockNo, path: rel, input_line: op.inputLine, status: "failed" };
      const content = op.lines.length === 0 ? "" : op.lines.join("\n") + (op.noEol ? "" : "\n");
      const existing = await stage.read(rel);
      if (existing) {
        const same = new TextDecoder().decode(existing.bytes).replace(/\r\n/g, "\n") === content;
        fail(
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
        continue;
      }
      await stage.writeText(rel, { text: content, bom: false });
      report.status = "applied";
      report.tier = "create";
      report.confidence = "high";
      report.new_lines = { start: 1, end: op.lines.length };
      result.applied++;
      result.blocks.push(report);
      result.files.push({ path: rel, action: "created" });
      continue;
    }
    // edit
    const exists = await stage.exists(rel);
    let doc: TextDoc;
    let bom = false;
    let created = false;
    /** The file's bytes (null for a new file). */
    let bytes: Uint8Array | null = null;
    if (!exists) {
      if (op.blocks.every((b) => b.search.length === 0)) {
        doc = new TextDoc("");
        created = true;
      } else {
        const err = errorShape(await stage.notFound(rel));
        for (const b of op.blocks) fail(blockReport(rel, ++blockNo, b), err);
        continue;
      }
    } else {
      try {
        const file = await stage.readText(rel);
        doc = new TextDoc(file.text);
        bom = file.bom;
        bytes = file.bytes;
      } catch (err) {
        if (!isRecoverable(err)) throw err;
        for (const b of op.blocks) fail(blockReport(rel, ++blockNo, b), errorShape(err));
        continue;
      }
    }
    const before = doc.text;
    const shifts: { at: number; delta: number }[] = [];
    /**
     * The changes so far as splices of the file's own text (null once one cannot be: the new text is then
     * built), and the last one, not applied to `doc` yet (only a block after it needs the new text).
     */
    let log: TextSplice[] | null = bytes ? [] : null;
    let pending: TextSplice | null = null;
    for (const block of op.blocks) {
      if (pending) {
        doc = new TextDoc(spliceText(doc.text, pending));
        pending = null;
      }
      const report = blockReport(rel, ++blockNo, block);
      let match: BlockMatch;
      if (block.search.length === 0) {
        const total = doc.lineCount;
        let hint = shiftedHint(block.lineHint, shifts);
        const anchors = block.anchors ?? [];
        if (anchors.length > 0 && !block.atEnd) {
          // A chunk of added lines under `@@ anchor`: insert right after the anchor line.
          const last = anchors[anchors.length - 1]!;
          const anchorBlock: EditBlock = { search: [last], replace: [last], inputLine: block.inputLine };
          if (anchors.length > 1) anchorBlock.anchors = anchors.slice(0, -1);
          const placed = matchBlockIn(doc, anchorBlock, { ...options, fuzzy: false });
          if (!placed.ok) {
            fail(report, await explainFailure(stage, rel, blockNo, anchorBlock, doc, placed, options));
            continue;
          }
          hint = placed.match.end + 1;
        }
        const at = hint === undefined ? total : Math.min(total, hint - 1);
        const tier = doc.text === "" && (created || !exists)
          ? "create"
          : hint === undefined
          ? "append"
          : "insert";
        match = {
          start: at,
          end: at,
          replacement: block.replace,
          tier,
          confidence: tier === "insert" ? "medium" : "high",
          similarity: 1,
        };
        if (doc.text === "" && block.replace.length > 0) {
          // A new or empty file gets a final newline.
          doc = new TextDoc(block.replace.join(doc.eol) + doc.eol);
          log = null;
          report.status = "applied";
          report.tier = tier;
          report.confidence = "high";
          report.new_lines = { start: 1, end: block.replace.length };
          result.applied++;
          result.blocks.push(report);
          continue;
        }
      } else {
        const lineHint = shiftedHint(block.lineHint, shifts);
        const outcome = matchBlockIn(doc, lineHint === undefined ? block : { ...block, lineHint }, options);
        if (!outcome.ok) {
          const seen = lineHint === undefined ? block : { ...block, lineHint };
          fail(report, await explainFailure(stage, rel, blockNo, seen, doc, outcome, options));
          continue;
        }
        match = outcome.match;
      }
      const splice = log ? matchSplice(doc, match, block) : null;
      if (splice && addSplice(log!, splice)) pending = splice;
      else {
        log = null;
        doc = new TextDoc(splice ? spliceText(doc.text, splice) : applyMatch(doc, match, block));
      }
      report.status = "applied";
      report.tier = match.tier;
      report.confidence = match.confidence;
      report.lines = { start: match.start + 1, end: Math.max(match.start + 1, match.end) };
      report.new_lines = {
        start: match.start + 1,
        end: match.start + Math.max(1, match.replacement.length),
      };
      if (match.tier === "fuzzy") {
        report.similarity = Math.round(match.similarity * 100) / 100;
        result.warnings.push(
          `Block ${blockNo} was placed in "${rel}" lines ${report.lines.start}-${report.lines.end} by fuzzy matching (similarity ${report.similarity}); check the diff`,
        );
      }
      shifts.push({ at: match.start + 1, delta: match.replacement.length - (match.end - match.start) });
      result.applied++;
      result.blocks.push(report);
    }
    let target = rel;
    if (op.moveTo !== undefined) {
      const to = await stage.resolve(op.moveTo);
      if (to !== rel) {
        if (await stage.exists(to)) {
          const report = blockReport(to, ++blockNo, { search: [], replace: [], inputLine: op.inputLine });
          fail(report, {
            code: "already_exists",
            message: `Cannot move "${rel}" to "${to}": the destination exists`,
            hint: "Pick another destination or delete it first",
            details: { from: rel, to },
          });
          continue;
        }
        target = to;
      }
    }
    // Spliced: the file changed when a splice changed its text; its new bytes come from the old ones.
    const changed = log ? log.some((s) => s.insert !== before.slice(s.from, s.to)) : doc.text !== before;
    if (changed || created || target !== rel) {
      if (log && bytes) await stage.write(target, spliceBytes({ text: before, bom, bytes }, log));
      else await stage.writeText(target, { text: doc.text, bom });
      if (target !== rel) {
        await stage.remove(rel);
        result.renames.set(target, rel);
        result.files.push({ path: target, action: "moved", from: rel });
      } else {
        result.files.push({ path: rel, action: created ? "created" : "edited" });
      }
    }
  }
  return result;
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
