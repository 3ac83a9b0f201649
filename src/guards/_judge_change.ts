/**
 * The read guard's judgement of one call's staged changes: which files are
 * judged (a derived tool's named file, none for a rewrite), the base each
 * edit is judged from and the session's view of it, the lines the edit needs
 * that the session has not seen, and the warnings for stale files, evicted
 * lines and the unseen lines of the files not judged.
 *
 * @module
 */
import type { PendingChange } from "../fs/stage.ts";
import type { FileSnapshot, FileView, Ledger } from "./ledger.ts";
import { type EditNeed, editNeeds } from "./line_diff.ts";
import { formatRanges, intersectRanges, type LineRange, subtractRanges } from "./line_ranges.ts";
import { current, snapshotOf } from "./_file_snapshots.ts";
import { linesOf, oneLine, plural, type Unread } from "./_unread_refusal.ts";
import type { GuardedCall, GuardHost } from "./types.ts";

/** A tool path argument as the stage names files ("./a/b.ts" and "/a/b.ts" are "a/b.ts"). */
function namedPath(args: Record<string, unknown>): string | null {
  const p = args["path"];
  return typeof p === "string" ? p.replace(/\\/g, "/").replace(/^(?:\.\/|\/)+/, "") : null;
}

/** The lines of `needs` the seen ranges leave out. */
function missingLines(seen: readonly LineRange[], needs: readonly EditNeed[]): LineRange[] {
  const out: LineRange[] = [];
  for (const n of needs) {
    if (n.anyOf) {
      if (intersectRanges([n.lines], seen).length === 0) out.push(n.lines);
      continue;
    }
    const left = subtractRanges([n.lines], seen);
    if (left.length === 0) continue;
    if (n.alternatives.some((a) => subtractRanges([a], seen).length === 0)) continue;
    out.push(...left);
  }
  return subtractRanges(out, []); // merged
}

/** Whether a tool replaces a whole file's content: overwriting an existing file needs all of it read. */
export function writesWholeFile(tool: GuardedCall["tool"]): boolean {
  return tool.kind === "whole_file";
}

/**
 * The base an edit is judged from and the session's view of it. A preview's base may be a staged state
 * that never lands: it is judged without touching the ledger. A plan op on a file that earlier ops
 * changed is judged on its own change, with the earlier ops' lines counted as the session's writes, as
 * the real calls in a row would be (each write is recorded). Null when the base is not text.
 */
async function baseOf(
  call: GuardedCall,
  host: GuardHost,
  ledger: Ledger,
  change: PendingChange,
  soft: boolean,
): Promise<{ before: FileSnapshot; view: FileView } | null> {
  const before = snapshotOf(change.before!, change.path, change.baseVersion!);
  if (!before) return null;
  const view = soft
    ? ledger.peek(change.path, before)
    : (ledger.reconcile(change.path, before), ledger.view(change.path));
  if (view.state !== "stale" || !call.nested) return { before, view };
  const stored = await current(host, change.path);
  if (!stored) return null;
  // Changed outside the session, not by the plan: stale, as the real call would find it.
  if (stored.lines.join("\n") === before.lines.join("\n")) return { before, view };
  return { before, view: ledger.peekWritten(change.path, stored, before) };
}

/** What judging one call needs: the call, its host and ledger, whether it only warns, how to count. */
export interface Judging {
  /** The call judged. */
  call: GuardedCall;
  /** Where files are read as they are now. */
  host: GuardHost;
  /** The session's ledger. */
  ledger: Ledger;
  /** Only warn (warn mode, a dry run, a plan's op): judged without touching the ledger. */
  soft: boolean;
  /** Count a trigger of the guard (its reason and outcome). */
  trigger: (reason: string, outcome: string) => void;
}

/** The verdict on one changed file: fine, fine with auto-expanded lines now used, or unread lines. */
export type ChangeVerdict = { ok: true; resolved: boolean } | { ok: false; unread: Unread };

/** Judge one staged change of a mutating call against what the session has seen. */
export async function judgeChange(j: Judging, change: PendingChange): Promise<ChangeVerdict> {
  const fine = { ok: true, resolved: false } as const;
  const { call, ledger, soft, trigger } = j;
  // A new file, a deletion or a move edits no line the session could have missed.
  if (change.before === null || change.after === null || change.baseVersion === null) return fine;
  const after = snapshotOf(change.after, change.path, "staged");
  const judged = after ? await baseOf(call, j.host, ledger, change, soft) : null;
  if (!after || !judged) return fine; // not text: replaced whole or not at all, nothing to cover
  const { before, view } = judged;
  if (view.state === "model_authored") return fine;
  if (view.state === "stale") {
    call.warnings.push(
      `You last saw "${change.path}" ${
        plural(view.calls_since_seen + 1, "call")
      } ago; it has changed since ` +
        `(by someone else): the lines you saw that did not change are still known (${
          formatRanges(view.seen) || "none"
        })`,
    );
    trigger("stale", "warned");
    return fine;
  }
  const whole = writesWholeFile(call.tool);
  const needs = whole
    ? [{ lines: { start: 1, end: before.lines.length }, anyOf: false, alternatives: [] }]
    : editNeeds(before.lines, after.lines);
  if (before.lines.length === 0) return fine; // an empty file has nothing to miss
  const missing = missingLines(view.seen, needs);
  if (missing.length === 0) {
    warnEvicted(j, change.path, intersectRanges(view.evicted, needs.map((n) => n.lines)));
    return { ok: true, resolved: !soft && ledger.takeExpanded(change.path, needs.map((n) => n.lines)) };
  }
  const reason = view.seen.length === 0 ? "never_read" : whole ? "whole_file" : "unread_range";
  trigger(reason, soft ? "warned" : "refused");
  return { ok: false, unread: { path: change.path, reason, missing, snapshot: before } };
}

/** Warn when lines an edit needs were seen before the agent's context was compacted. */
function warnEvicted(j: Judging, path: string, evicted: LineRange[]): void {
  if (evicted.length === 0) return;
  const one = oneLine(evicted);
  j.call.warnings.push(
    `${linesOf(evicted, true)} of "${path}" ${
      one ? "was" : "were"
    } seen before your context was compacted; ` +
      `re-read ${one ? "it" : "them"} if you no longer have ${one ? "it" : "them"}`,
  );
  j.trigger("evicted", "warned");
}

/**
 * The files a call's edit is judged on: every change, or, for a tool whose edits in other files follow
 * from the symbol it names (`derived`: a rename's references), only the file named by its `path`
 * argument, or none for a tool that edits what a search selected (`rewrite`). The others are
 * {@linkcode warnUnseen}'s.
 */
export function judgedChanges(
  call: GuardedCall,
  derivedNames: ReadonlySet<string> | null,
): readonly PendingChange[] {
  if (call.tool.kind === "rewrite") return [];
  const derived = derivedNames ? derivedNames.has(call.tool.name) : call.tool.kind === "derived";
  const only = derived ? namedPath(call.args) : null;
  return only === null ? call.changes : call.changes.filter((c) => c.path === only);
}

/** The most files a warning of unseen lines names (the rest are counted). */
const UNSEEN_LISTED = 10;

/**
 * The changed lines of the files a call is not judged on that the session has not seen, as one warning:
 * a rename's other files, a rewrite's sites. Nothing is refused for them (they follow from what the
 * call names), but the agent learns which lines it holds no picture of, so its next read is informed.
 */
export function warnUnseen(j: Judging, judged: readonly PendingChange[]): void {
  const parts: string[] = [];
  for (const change of j.call.changes) {
    if (judged.includes(change) || change.before === null || change.after === null) continue;
    if (change.baseVersion === null) continue;
    const before = snapshotOf(change.before, change.path, change.baseVersion);
    const after = snapshotOf(change.after, change.path, "staged");
    if (!before || !after) continue;
    const view = j.ledger.peek(change.path, before);
    if (view.state === "model_authored") continue;
    const missing = missingLines(view.seen, editNeeds(before.lines, after.lines));
    if (missing.length > 0) parts.push(`"${change.path}" ${linesOf(missing)}`);
  }
  if (parts.length === 0) return;
  const more = parts.length > UNSEEN_LISTED ? ` and ${parts.length - UNSEEN_LISTED} more files` : "";
  j.call.warnings.push(
    `This call changed lines this session has not read: ${
      parts.slice(0, UNSEEN_LISTED).join("; ")
    }${more}. ` +
      "Read them before you edit near them (read_file with start_line/end_line)",
  );
}
