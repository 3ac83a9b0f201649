/**
 * Apply parsed edit operations to a Stage: each block through the matching
 * ladder, each failure with its did-you-mean hint, all-or-nothing unless
 * `partial` is set. The stage is committed (or dropped) by dispatch.
 *
 * This module holds the application (one call, or one operation and block at
 * a time) and its refusal; its parts are private modules of the folder: the
 * files it creates, deletes, opens and stages (`_file_ops`), where each block
 * goes (`_place_block`), what a run keeps (`_edit_record`), a match applied to
 * text (`_apply_match`) and a failure explained (`_explain_failure`).
 *
 * @module
 */
import { RecoverableError, type ShownLines } from "../errors.ts";
import type { Stage } from "../fs/stage.ts";
import { shownByWindow } from "./did_you_mean.ts";
import { type ErrorShape, errorShape, explainFailure } from "./_explain_failure.ts";
import { blockReport, type EditedFile, fail, type Run } from "./_edit_record.ts";
import { applyBlock, locate } from "./_place_block.ts";
import {
  createFile,
  deleteFile,
  moveTarget,
  newFile,
  openEdited,
  type OpenFile,
  stageEdited,
} from "./_file_ops.ts";
import type {
  ApplyEditOpsOptions,
  ApplyEditOpsResult,
  BlockReport,
  EditBlock,
  FileOp,
  MatchTier,
} from "./types.ts";

// The application's public names, whichever part defines them: benchmarks and tests import them from here.
export type { ApplyEditOpsOptions, ApplyEditOpsResult, FileReport } from "./types.ts";
export {
  type BlockFailure,
  type ErrorShape,
  errorShape,
  explainFailure,
  lineList,
} from "./_explain_failure.ts";
export { applyMatch, matchSplice, spliceText } from "./_apply_match.ts";

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
  // The first failure's code names the whole refusal; every block's own code is in details.blocks.
  const code = first.code as ConstructorParameters<typeof RecoverableError>[0];
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
