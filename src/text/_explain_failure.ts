/**
 * Why a block was not placed, as an error an agent can act on: every candidate's lines when the SEARCH text
 * matches several places, where the change already is, and for a SEARCH text that matches nothing the closest
 * window (how it differs: whitespace, real tokens, or just similar), the other files that hold the text, and
 * what to send next.
 *
 * @module
 */
import type { RecoverableError } from "../errors.ts";
import type { Stage } from "../fs/stage.ts";
import type { TextDoc } from "./_doc.ts";
import { indentMismatch } from "./_match_indent.ts";
import {
  type ClosestWindow,
  closestWindow,
  findInOtherFiles,
  whitespaceDifference,
  windowAt,
} from "./did_you_mean.ts";
import type { MatchOutcome } from "./match_block.ts";
import type { ApplyEditOpsOptions, BlockReport, EditBlock } from "./types.ts";

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
 * import { lineList } from "./_explain_failure.ts";
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
