/**
 * The edit guard of the read ledger, as a dispatch pipeline step: a `review`
 * step that refuses an edit of lines the session has not seen
 * (`unread_range`), and an `after` hook that records what each call showed
 * (`call.shown`, which the tool reports: a `read_file` range, `find_symbol`
 * bodies, an outline — signatures only — and did-you-mean windows) and what
 * the session wrote. It reads what a tool is from its kind, never its name.
 *
 * Decisions, per file an edit changes (the lines come from the staged
 * before and after bytes, so every edit tool is judged the same way):
 *
 * - a new file, a deletion or a move: allowed (no lines of it are edited);
 * - `model_authored` (the session created it or wrote it whole): allowed;
 * - `stale` (changed outside the session since it last saw it): allowed with a
 *   warning; the seen ranges were carried through the diff;
 * - every line the edit replaces or removes was seen (for a pure insertion,
 *   a line next to it): allowed — with a warning when some were evicted from
 *   the agent's context;
 * - otherwise refused `unread_range` naming the exact lines (overwriting an
 *   existing file whole needs all of it read). With scoped auto-expand (the
 *   default) the refusal carries those lines' numbered content (bounded) and
 *   they count as read, so the identical retry succeeds.
 *
 * Policy: the guard applies to calls of a named session (the library's
 * `session` option, the CLI's `--session`), in the workspace's mode (default
 * `refuse`); a call may ask for its own mode (`readGuard`), e.g. `off` for a
 * one-shot `graver apply`. Previews (dry runs, a plan's ops) are only warned.
 *
 * This module is the step and its policy; its parts each hold one concern:
 * `_judge_change.ts` judges each staged change, `_unread_refusal.ts` words the
 * refusal and the warnings (and auto-expands), `_record_call.ts` records what a
 * call wrote or showed, `session_ledgers.ts` keeps the ledgers and `types.ts`
 * names the call, host and result it works on.
 *
 * @module
 */
import { judgeChange, judgedChanges, type Judging, warnUnseen } from "./_judge_change.ts";
import { recordShown, recordWrites } from "./_record_call.ts";
import { type ExpandBounds, type Unread, unreadRefusal, unreadWarning } from "./_unread_refusal.ts";
import { SessionLedgers } from "./session_ledgers.ts";
import type { GuardedCall, GuardedResult, GuardHost, ReadGuardMode } from "./types.ts";

export { SessionLedgers } from "./session_ledgers.ts";
export type { GuardedCall, GuardedResult, GuardHost, ReadGuardMode } from "./types.ts";

/** Options of {@linkcode createReadGuard}. */
export interface ReadGuardOptions {
  /** The mode for calls of a named session (default "refuse"). */
  mode?: ReadGuardMode;
  /** Put the unseen lines' content in the refusal and count them as read (default true). */
  autoExpand?: boolean;
  /** Most lines one refusal shows (default 200). */
  expandLines?: number;
  /** Most characters one refusal shows (default 24,000). */
  expandChars?: number;
  /**
   * Tools whose edits outside the file named by their `path` argument are
   * consequences the tool derives and proves (a rename's references in other
   * files): only that file is judged. Default: the tools of kind `derived`
   * (their definition says so); a list given here replaces that rule.
   */
  derivedEditTools?: readonly string[];
}

/**
 * The refactor tools whose edits in other files are derived from the named symbol.
 *
 * @deprecated The guard reads each tool's kind (`derived`) instead; kept for embedders that build a
 * `derivedEditTools` option from it.
 */
export const DERIVED_EDIT_TOOLS: readonly string[] = ["edit_rename_symbol"];

/** The guard step and its ledgers. */
export interface ReadGuard {
  /** Step id. */
  readonly name: "read_guard";
  /** A review step: it judges what the handler staged. */
  readonly stage: "review";
  /** The mode for named sessions. */
  readonly mode: ReadGuardMode;
  /** Every session's ledger. */
  readonly ledgers: SessionLedgers;
  /** Judge the staged changes; throws `unread_range`. */
  run(call: GuardedCall, host: GuardHost): Promise<void>;
  /** Record what the call showed or wrote. */
  after(call: GuardedCall, result: GuardedResult, host: GuardHost): Promise<void>;
}

/** The mode that applies to a call. */
function modeOf(call: GuardedCall, mode: ReadGuardMode): ReadGuardMode {
  return call.readGuard ?? (call.explicitSession ? mode : "off");
}

/** Whether the session's ledger follows this call (reads and writes recorded). */
function tracked(call: GuardedCall): boolean {
  return call.explicitSession || (call.readGuard !== undefined && call.readGuard !== "off");
}

/**
 * Create the read guard: a `review` pipeline step with an `after` hook, and
 * the session ledgers it keeps. `createWorkspace` plugs one in.
 *
 * @param options Mode for named sessions, auto-expand and its bounds.
 * @returns The step.
 *
 * @example A partial read blocks an edit below it; the identical retry succeeds
 * ```ts
 * import { createMemoryBackend, createWorkspace } from "@graver/core";
 * import assert from "node:assert/strict";
 *
 * const text = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
 * const ws = await createWorkspace({ backend: createMemoryBackend({ "/a.txt": text }) });
 * const s = { session: "agent-1" };
 * await ws.call("read_file", { path: "a.txt", end_line: 10 }, s);
 * const edit = { path: "a.txt", old_text: "line 20\n", new_text: "line twenty\n" };
 * const refused = await ws.call("edit_file", edit, s);
 * assert.ok(!refused.ok && refused.error.code === "unread_range");
 * assert.match(refused.error.message, /line 20 was not read/);
 * const retry = await ws.call("edit_file", edit, s);
 * assert.ok(retry.ok && retry.status === "applied");
 * ```
 */
export function createReadGuard(options: ReadGuardOptions = {}): ReadGuard {
  const mode = options.mode ?? "refuse";
  const bounds: ExpandBounds = {
    autoExpand: options.autoExpand ?? true,
    maxLines: options.expandLines ?? 200,
    maxChars: options.expandChars ?? 24_000,
  };
  // An embedder's own list wins; otherwise a tool's kind says whether its other files' edits are derived.
  const derivedNames = options.derivedEditTools ? new Set(options.derivedEditTools) : null;
  const ledgers = new SessionLedgers();
  /** Files a call edits where an auto-expansion was resolved, until its outcome is known. */
  const resolving = new WeakMap<GuardedCall, number>();

  async function run(call: GuardedCall, host: GuardHost): Promise<void> {
    if (!call.tool.mutates || call.changes.length === 0) return;
    // A plan (edit_dry_run): each op was judged as it ran, by its own tool's rules (a rename's derived
    // edits included); judging the plan's net changes again would warn of what the real calls allow.
    if (call.tool.previewOnly === true) return;
    const m = modeOf(call, mode);
    if (m === "off") return;
    const tool = call.tool.name;
    const soft = m === "warn" || call.dryRun || call.nested;
    const ledger = ledgers.get(call.session);
    host.telemetry.counter("graver.guard.checks", 1, { tool });
    const trigger = (reason: string, outcome: string) =>
      host.telemetry.counter("graver.guard.triggers", 1, { reason, outcome, tool });
    const judging: Judging = { call, host, ledger, soft, trigger };
    const unread: Unread[] = [];
    let resolved = 0;
    const judged = judgedChanges(call, derivedNames);
    warnUnseen(judging, judged);
    for (const change of judged) {
      const verdict = await judgeChange(judging, change);
      if (!verdict.ok) unread.push(verdict.unread);
      else if (verdict.resolved) resolved++;
    }
    if (resolved > 0) resolving.set(call, resolved);
    if (unread.length === 0) return;
    if (soft) {
      for (const u of unread) call.warnings.push(unreadWarning(call, u, m));
      return;
    }
    const err = unreadRefusal(call, unread, { ledger, bounds });
    if (bounds.autoExpand) host.telemetry.counter("graver.guard.auto_expanded", 1, { tool });
    throw err;
  }

  async function after(call: GuardedCall, result: GuardedResult, host: GuardHost): Promise<void> {
    if (!tracked(call)) return;
    const ledger = ledgers.get(call.session);
    ledger.tick();
    if (result.ok && call.tool.mutates) {
      if (result.status !== "applied" || call.dryRun) return;
      recordWrites(call, result, ledger);
      const n = resolving.get(call);
      if (n) host.telemetry.counter("graver.guard.auto_expand_resolved", n, { tool: call.tool.name });
      return;
    }
    await recordShown(host, ledger, call.shown ?? []);
  }

  return { name: "read_guard", stage: "review", mode, ledgers, run, after };
}
