/**
 * The reflection loop: a malformed parse or a failed block goes back to the
 * model (`propose(feedback)`) with the engine's hints; after a fully applied
 * batch an optional `verify` (lint, tests) runs and its error feeds the same
 * loop. Every attempt goes through `ws.call("apply_edits", …)`.
 *
 * @module
 */
import type { ReadGuardMode, ToolResult, ToolSuccess } from "../tools/types.ts";
import type { Workspace } from "../workspace.ts";

/** One round of the loop. */
export interface ReflectionAttempt {
  /** 0 for the first proposal, then 1..maxReflections. */
  attempt: number;
  /** The edit text the model proposed. */
  edits: string;
  /** What apply_edits returned. */
  result: ToolResult;
  /** The verify error, when verify ran and failed. */
  verifyError?: string;
  /** The feedback sent back to `propose` after this attempt (absent on the last). */
  feedback?: string;
}

/** Options of {@linkcode applyWithReflection}. */
export interface ApplyWithReflectionOptions {
  /** The workspace the edits land in. */
  workspace: Workspace;
  /** Ask the model for edits; `feedback` is null on the first call. */
  propose(feedback: string | null, history: readonly ReflectionAttempt[]): Promise<string> | string;
  /** Check a fully applied batch; return an error text to reflect on, or nothing when fine. */
  verify?(
    result: ToolSuccess,
    workspace: Workspace,
  ): Promise<string | null | undefined | void> | string | null | undefined | void;
  /** How many times feedback may go back to `propose` (default 3). */
  maxReflections?: number;
  /** Extra apply_edits arguments (format, partial, syntax_guard, fuzzy). */
  args?: Record<string, unknown>;
  /** Session id for the calls (its ledger records the writes). */
  session?: string;
  /**
   * The read guard for these calls (default "off": a response written for
   * another harness's text format is applied as is, even in a named session).
   */
  readGuard?: ReadGuardMode;
  /** The definition gate for these calls (default "off", for the same reason). */
  gate?: ReadGuardMode;
}

/** What the loop did. */
export interface ReflectionResult {
  /** True when the last batch applied fully and verify (if any) passed. */
  ok: boolean;
  /** Every attempt, in order, with its feedback. */
  attempts: ReflectionAttempt[];
  /** The last apply_edits result. */
  final: ToolResult;
  /** How many times feedback went back to `propose`. */
  reflections: number;
}

interface BlockLike {
  block: number;
  path: string;
  status: string;
  error?: { code: string; message: string; hint: string; details?: Record<string, unknown> };
}

function blockFeedback(blocks: BlockLike[]): string[] {
  const out: string[] = [];
  for (const b of blocks) {
    if (b.status !== "failed" || !b.error) continue;
    out.push(`- ${b.error.message}`);
    out.push(`  ${b.error.hint}`);
    const dym = b.error.details?.["did_you_mean"] as { diff?: string } | undefined;
    if (dym?.diff) out.push(dym.diff.split("\n").map((l) => `    ${l}`).join("\n"));
  }
  return out;
}

/**
 * Feedback text for a result the model must fix: the refusal, every failed
 * block with its hint and did-you-mean diff.
 *
 * @param result An apply_edits result.
 * @returns The text for the model, or null when nothing failed.
 */
export function reflectionFeedback(result: ToolResult): string | null {
  if (result.ok) {
    const blocks = (result.data["blocks"] as BlockLike[] | undefined) ?? [];
    const failed = blockFeedback(blocks);
    if (failed.length === 0) return null;
    return ["Some blocks were not applied (the others were). Fix only these and send them again:", ...failed]
      .join("\n");
  }
  const lines = [`Your edits were not applied: ${result.error.message}`, result.error.hint];
  const blocks = result.error.details?.["blocks"] as BlockLike[] | undefined;
  if (blocks) {
    const matched = blocks.filter((b) => b.status === "applied").map((b) => b.block);
    lines.push(...blockFeedback(blocks));
    if (matched.length > 0) {
      lines.push(
        `Blocks ${matched.join(", ")} matched; nothing was written. Send the whole corrected set again.`,
      );
    }
  } else {
    const dym = result.error.details?.["did_you_mean"] as { diff?: string } | undefined;
    if (dym?.diff) lines.push(dym.diff);
  }
  // The read guard's auto-expand: the lines the model had not seen, which it must now check its edit against.
  const unread = result.error.details?.["unread"] as { path?: string; content?: string }[] | undefined;
  for (const u of unread ?? []) if (u.content) lines.push(`${u.path}:\n${u.content}`);
  return lines.join("\n");
}

/**
 * Apply a model's edits, reflecting failures back to it up to `maxReflections` times.
 *
 * @param options Workspace, propose, verify, maxReflections, extra args.
 * @returns The full history and the final result.
 *
 * @example A second proposal fixes a miss
 * ```ts
 * import { applyWithReflection, createMemoryBackend, createWorkspace } from "@graver/core";
 * import assert from "node:assert/strict";
 *
 * const ws = await createWorkspace({ backend: createMemoryBackend({ "/a.txt": "one\ntwo\n" }) });
 * const proposals = [
 *   "a.txt\n<<<<<<< SEARCH\nthree\n=======\n3\n>>>>>>> REPLACE\n",
 *   "a.txt\n<<<<<<< SEARCH\ntwo\n=======\n2\n>>>>>>> REPLACE\n",
 * ];
 * const out = await applyWithReflection({ workspace: ws, propose: (_feedback, history) => proposals[history.length]! });
 * assert.ok(out.ok);
 * assert.equal(out.reflections, 1);
 * assert.match(out.attempts[0]!.feedback!, /matches no lines/);
 * ```
 */
export async function applyWithReflection(options: ApplyWithReflectionOptions): Promise<ReflectionResult> {
  const max = options.maxReflections ?? 3;
  const attempts: ReflectionAttempt[] = [];
  let feedback: string | null = null;
  for (let attempt = 0;; attempt++) {
    const edits = await options.propose(feedback, attempts);
    const callOptions: { session?: string; readGuard?: ReadGuardMode; gate?: ReadGuardMode } = {};
    if (options.session !== undefined) callOptions.session = options.session;
    if (options.session !== undefined || options.readGuard !== undefined) {
      callOptions.readGuard = options.readGuard ?? "off";
    }
    if (options.session !== undefined || options.gate !== undefined) callOptions.gate = options.gate ?? "off";
    const result = await options.workspace.call("apply_edits", { ...options.args, text: edits }, callOptions);
    const record: ReflectionAttempt = { attempt, edits, result };
    attempts.push(record);
    feedback = reflectionFeedback(result);
    if (feedback === null && result.ok && options.verify) {
      const err = await options.verify(result, options.workspace);
      if (typeof err === "string" && err !== "") {
        record.verifyError = err;
        feedback =
          `Your edits were applied, but verification failed:\n${err}\nFix it with follow-up edits against the files as they are now.`;
      }
    }
    if (feedback === null) return { ok: true, attempts, final: result, reflections: attempt };
    if (attempt >= max) return { ok: false, attempts, final: result, reflections: attempt };
    record.feedback = feedback;
  }
}
