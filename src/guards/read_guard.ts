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
 * @module
 */
import { RecoverableError, type ShownLines } from "../errors.ts";
import type { BackendFs } from "../fs/backend.ts";
import { numberLines, textLines } from "../fs/lines.ts";
import type { Sandbox } from "../fs/sandbox.ts";
import { type PendingChange, sameBytes } from "../fs/stage.ts";
import { decodeText } from "../fs/text.ts";
import { versionOf } from "../fs/version.ts";
import type { TelemetrySink } from "../telemetry.ts";
import type { ToolKind } from "../tool_kinds.ts";
import { type FileSnapshot, type FileView, Ledger, type LedgerData } from "./ledger.ts";
import { type EditNeed, editNeeds } from "./line_diff.ts";
import { formatRanges, intersectRanges, type LineRange, subtractRanges } from "./line_ranges.ts";

/** What the guard does with an edit of unseen lines: nothing, a warning, or a refusal. */
export type ReadGuardMode = "off" | "warn" | "refuse";

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

/** A tool path argument as the stage names files ("./a/b.ts" and "/a/b.ts" are "a/b.ts"). */
function namedPath(args: Record<string, unknown>): string | null {
  const p = args["path"];
  return typeof p === "string" ? p.replace(/\\/g, "/").replace(/^(?:\.\/|\/)+/, "") : null;
}

/** The call as the guard sees it (dispatch's `CallInProgress` satisfies it). */
export interface GuardedCall {
  /**
   * The tool (`previewOnly`: a plan, whose ops are judged one by one as they run; `kind`: `whole_file`
   * needs all of an existing file read, `derived` is judged on the file its `path` names).
   */
  tool: { name: string; mutates: boolean; previewOnly?: boolean; kind?: ToolKind };
  /** Its args. */
  args: Record<string, unknown>;
  /** Session id. */
  session: string;
  /** Whether the caller named the session. */
  explicitSession: boolean;
  /** The mode asked for this call. */
  readGuard?: ReadGuardMode;
  /** Nothing will be written. */
  dryRun: boolean;
  /** An op of a plan. */
  nested: boolean;
  /** Warnings for the result. */
  warnings: string[];
  /** What the handler staged. */
  changes: readonly PendingChange[];
  /** What the final answer displayed of files (lines read, bodies, an outline, did-you-mean windows). */
  shown?: readonly ShownLines[];
}

/** The host as the guard needs it (a `ToolHost` satisfies it). */
export interface GuardHost {
  /** Wrapped backend. */
  readonly fs: BackendFs;
  /** Root mapping. */
  readonly sandbox: Sandbox;
  /** Counters. */
  readonly telemetry: TelemetrySink;
}

/** A call's final outcome as the guard reads it (a `ToolResult` satisfies it). */
export interface GuardedResult {
  /** Success. */
  ok: boolean;
  /** applied | dry_run | no_change | read. */
  status?: string;
  /** Tool data. */
  data?: Record<string, unknown>;
  /** What was committed. */
  changes?: readonly { path: string; after_version: string | null }[];
  /** The refusal. */
  error?: { code: string; details?: Record<string, unknown> };
}

/** The ledgers of a workspace's sessions, by id. */
export class SessionLedgers {
  #ledgers = new Map<string, Ledger>();

  /**
   * The ledger of a session (created empty on first use).
   *
   * @param id Session id.
   * @returns Its ledger.
   */
  get(id: string): Ledger {
    let l = this.#ledgers.get(id);
    if (!l) this.#ledgers.set(id, l = new Ledger());
    return l;
  }

  /**
   * Serialise a session's ledger.
   *
   * @param id Session id.
   * @returns JSON-safe data (an empty ledger for an unknown session).
   */
  export(id: string): LedgerData {
    return this.get(id).toJSON();
  }

  /**
   * Restore (replace) a session's ledger.
   *
   * @param id Session id.
   * @param data From {@linkcode SessionLedgers.export} (or `Ledger.toJSON`).
   */
  import(id: string, data: unknown): void {
    this.#ledgers.set(id, Ledger.from(data));
  }

  /** Forget a session. */
  delete(id: string): void {
    this.#ledgers.delete(id);
  }

  /** How many sessions have a ledger. */
  get size(): number {
    return this.#ledgers.size;
  }

  /**
   * Whether a session has a ledger (without creating one).
   *
   * @param id Session id.
   * @returns True when it has one.
   */
  has(id: string): boolean {
    return this.#ledgers.has(id);
  }
}

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

/** One file an edit may not touch yet. */
interface Unread {
  path: string;
  reason: "never_read" | "unread_range" | "whole_file";
  missing: LineRange[];
  snapshot: FileSnapshot;
}

/** How much of the unseen lines a refusal shows (scoped auto-expand). */
interface ExpandBounds {
  autoExpand: boolean;
  maxLines: number;
  maxChars: number;
}

function lines(ranges: readonly LineRange[]): { start_line: number; end_line: number }[] {
  return ranges.map((r) => ({ start_line: r.start, end_line: r.end }));
}

/** The snapshot of a staged side, or null for a file that is not text. */
function snapshotOf(bytes: Uint8Array, path: string, version: string): FileSnapshot | null {
  try {
    return { version, lines: textLines(decodeText(bytes, path).text) };
  } catch {
    return null;
  }
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

/** The mode that applies to a call. */
function modeOf(call: GuardedCall, mode: ReadGuardMode): ReadGuardMode {
  return call.readGuard ?? (call.explicitSession ? mode : "off");
}

/** Whether the session's ledger follows this call (reads and writes recorded). */
function tracked(call: GuardedCall): boolean {
  return call.explicitSession || (call.readGuard !== undefined && call.readGuard !== "off");
}

/** Whether ranges hold exactly one line. */
function oneLine(ranges: readonly LineRange[]): boolean {
  return ranges.length === 1 && ranges[0]!.start === ranges[0]!.end;
}

/** "line 7" or "lines 101–120, 130" (capitalised at the start of a sentence). */
function linesOf(ranges: readonly LineRange[], capital = false): string {
  const word = oneLine(ranges) ? "line" : "lines";
  return `${capital ? word[0]!.toUpperCase() + word.slice(1) : word} ${formatRanges(ranges)}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** Whether a tool replaces a whole file's content: overwriting an existing file needs all of it read. */
function writesWholeFile(tool: GuardedCall["tool"]): boolean {
  return tool.kind === "whole_file";
}

/** Show (bounded) the missing lines of each file and count them as read. */
function expandUnread(
  ledger: Ledger,
  unread: readonly Unread[],
  bounds: ExpandBounds,
): Record<string, unknown>[] {
  let linesLeft = bounds.maxLines;
  let charsLeft = bounds.maxChars;
  return unread.map((u) => {
    const out: Record<string, unknown> = { path: u.path, reason: u.reason, lines: lines(u.missing) };
    if (!bounds.autoExpand) return out;
    const parts: string[] = [];
    const shown: LineRange[] = [];
    for (const r of u.missing) {
      let end = r.start - 1;
      const block: string[] = [];
      for (let n = r.start; n <= r.end && linesLeft > 0; n++) {
        const line = u.snapshot.lines[n - 1] ?? "";
        if (line.length + 8 > charsLeft && block.length + shown.length > 0) break;
        block.push(line);
        linesLeft--;
        charsLeft -= line.length + 8;
        end = n;
      }
      if (end < r.start) break;
      parts.push(numberLines(block, r.start).join("\n"));
      shown.push({ start: r.start, end });
      ledger.recordExpanded(u.path, u.snapshot, { start: r.start, end });
      if (end < r.end) break;
    }
    if (shown.length > 0) {
      out["content"] = parts.join("\n…\n");
      out["shown"] = lines(shown);
    }
    return out;
  });
}

/** The refusal's first sentence: what cannot be edited and which lines were not read. */
function unreadMessage(unread: readonly Unread[]): string {
  const first = unread[0]!;
  const count = first.missing.reduce((n, r) => n + r.end - r.start + 1, 0);
  const what = linesOf(first.missing);
  let message = first.reason === "whole_file"
    ? `Cannot overwrite "${first.path}" whole: ${what} of it ${
      count === 1 ? "was" : "were"
    } not read (replacing an existing file needs all of it read)`
    : first.reason === "never_read"
    ? `Cannot edit "${first.path}": the session has not read it (the edit changes ${what})`
    : `Cannot edit "${first.path}": ${what} ${count === 1 ? "was" : "were"} not read`;
  if (unread.length > 1) message += `; and ${plural(unread.length - 1, "more file")}`;
  return message;
}

/** The `unread_range` refusal: the unseen lines (shown when auto-expanding) and the call to make next. */
function unreadRefusal(
  call: GuardedCall,
  ledger: Ledger,
  unread: readonly Unread[],
  bounds: ExpandBounds,
): RecoverableError {
  const first = unread[0]!;
  const message = unreadMessage(unread);
  const files = expandUnread(ledger, unread, bounds);
  const autoExpand = bounds.autoExpand;
  const shownAll = autoExpand && files.every((f, i) => {
    const shown = (f["shown"] as { start_line: number; end_line: number }[] | undefined) ?? [];
    return subtractRanges(unread[i]!.missing, shown.map((s) => ({ start: s.start_line, end: s.end_line })))
      .length === 0;
  });
  const read = {
    tool: "read_file",
    args: { path: first.path, start_line: first.missing[0]!.start, end_line: first.missing.at(-1)!.end },
  };
  const details: Record<string, unknown> = {
    path: first.path,
    reason: first.reason,
    lines: lines(first.missing),
    unread: files,
    auto_expanded: autoExpand,
  };
  if (autoExpand && shownAll) {
    return new RecoverableError("unread_range", message, {
      hint:
        "Those lines are in details.unread[].content and now count as read: check the edit against them, then send the same call again",
      suggestedCall: { tool: call.tool.name, args: call.args },
      details,
    });
  }
  return new RecoverableError("unread_range", message, {
    hint: autoExpand
      ? `Part of them is in details.unread[].content and now counts as read; read the rest first (read_file ${
        JSON.stringify(read.args)
      }), then send the edit again`
      : `Read that range first: read_file ${JSON.stringify(read.args)}, then send the edit again`,
    suggestedCall: read,
    details,
  });
}

/** The warning a preview or warn mode gives instead of refusing. */
function unreadWarning(call: GuardedCall, u: Unread, mode: ReadGuardMode): string {
  const preview = (call.dryRun || call.nested) && mode === "refuse";
  return `${linesOf(u.missing, true)} of "${u.path}" ${
    oneLine(u.missing) ? "was" : "were"
  } not read by this session${
    preview
      ? ` (a preview: the real call will be refused until ${oneLine(u.missing) ? "it is" : "they are"} read)`
      : ""
  }`;
}

/** Read a file as it is now, when it still has `version` (or any version when not given). */
async function current(host: GuardHost, path: string, version?: unknown): Promise<FileSnapshot | null> {
  const bytes = await host.fs.read(host.sandbox.abs(path));
  if (!bytes) return null;
  const v = await versionOf(bytes);
  if (typeof version === "string" && version !== v) return null;
  return snapshotOf(bytes, path, v);
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
interface Judging {
  call: GuardedCall;
  host: GuardHost;
  ledger: Ledger;
  soft: boolean;
  trigger: (reason: string, outcome: string) => void;
}

/** The verdict on one changed file: fine, fine with auto-expanded lines now used, or unread lines. */
type ChangeVerdict = { ok: true; resolved: boolean } | { ok: false; unread: Unread };

/** Judge one staged change of a mutating call against what the session has seen. */
async function judgeChange(j: Judging, change: PendingChange): Promise<ChangeVerdict> {
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
function judgedChanges(
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
function warnUnseen(j: Judging, judged: readonly PendingChange[]): void {
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

/** Record what a successful, committed mutating call wrote: moves carried, writes as the session's own. */
function recordWrites(call: GuardedCall, result: GuardedResult, ledger: Ledger): void {
  const committed = new Map((result.changes ?? []).map((c) => [c.path, c.after_version]));
  for (const c of call.changes) {
    if (c.after !== null || c.before === null) continue;
    const twin = call.changes.find((d) =>
      d.before === null && d.after !== null && sameBytes(d.after, c.before!)
    );
    if (twin) ledger.move(c.path, twin.path);
  }
  for (const c of call.changes) {
    const moved = c.before === null &&
      call.changes.some((d) =>
        d.after === null && d.before !== null && c.after !== null && sameBytes(d.before, c.after)
      );
    if (moved) continue;
    const before = c.before && c.baseVersion ? snapshotOf(c.before, c.path, c.baseVersion) : null;
    const version = committed.get(c.path);
    const after = c.after && typeof version === "string" ? snapshotOf(c.after, c.path, version) : null;
    if (c.after !== null && after === null) continue; // not text
    ledger.recordWrite(c.path, before, after, { whole: writesWholeFile(call.tool) });
  }
}

/**
 * Record what an answer displayed (`call.shown`): lines read, symbol bodies, did-you-mean windows count
 * as read, an outline as outlined, each against the file as it is now (and at the version shown, when
 * the answer names one).
 */
async function recordShown(host: GuardHost, ledger: Ledger, shown: readonly ShownLines[]): Promise<void> {
  const now = new Map<string, FileSnapshot | null>();
  for (const s of shown) {
    let snap: FileSnapshot | null;
    if (s.version !== undefined) snap = await current(host, s.path, s.version);
    else {
      if (!now.has(s.path)) now.set(s.path, await current(host, s.path));
      snap = now.get(s.path)!;
    }
    if (!snap) continue;
    if (s.outline) ledger.recordOutline(s.path, snap);
    else if (snap.lines.length === 0) ledger.recordRead(s.path, snap, { start: 1, end: 0 });
    for (const r of s.outline || snap.lines.length === 0 ? [] : s.lines) {
      if (r.start_line >= 1 && r.end_line >= r.start_line) {
        ledger.recordRead(s.path, snap, { start: r.start_line, end: r.end_line });
      }
    }
  }
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
    const err = unreadRefusal(call, ledger, unread, bounds);
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
