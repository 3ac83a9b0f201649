/**
 * What the read guard tells the agent of lines it has not seen: the
 * `unread_range` refusal (its first sentence, the call to make next, and with
 * scoped auto-expand the missing lines' numbered content, bounded, which then
 * count as read), the warning a preview or warn mode gives instead, and the
 * wording of line ranges they share.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { numberLines } from "../fs/lines.ts";
import type { FileSnapshot, Ledger } from "./ledger.ts";
import { formatRanges, type LineRange, subtractRanges } from "./line_ranges.ts";
import type { GuardedCall, ReadGuardMode } from "./types.ts";

/** One file an edit may not touch yet. */
export interface Unread {
  /** The file. */
  path: string;
  /** Never read at all, some lines not read, or not all of a file overwritten whole. */
  reason: "never_read" | "unread_range" | "whole_file";
  /** The lines the session has not seen. */
  missing: LineRange[];
  /** The file as the edit found it (what a refusal shows). */
  snapshot: FileSnapshot;
}

/** How much of the unseen lines a refusal shows (scoped auto-expand). */
export interface ExpandBounds {
  /** Show the lines and count them as read. */
  autoExpand: boolean;
  /** Most lines one refusal shows. */
  maxLines: number;
  /** Most characters one refusal shows. */
  maxChars: number;
}

/** Ranges as a result names lines. */
function lines(ranges: readonly LineRange[]): { start_line: number; end_line: number }[] {
  return ranges.map((r) => ({ start_line: r.start, end_line: r.end }));
}

/** Whether ranges hold exactly one line. */
export function oneLine(ranges: readonly LineRange[]): boolean {
  return ranges.length === 1 && ranges[0]!.start === ranges[0]!.end;
}

/** "line 7" or "lines 101–120, 130" (capitalised at the start of a sentence). */
export function linesOf(ranges: readonly LineRange[], capital = false): string {
  const word = oneLine(ranges) ? "line" : "lines";
  return `${capital ? word[0]!.toUpperCase() + word.slice(1) : word} ${formatRanges(ranges)}`;
}

/** "1 file", "3 files". */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
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

/**
 * The `unread_range` refusal: the unseen lines (shown when auto-expanding, and then recorded as read in
 * `ledger`) and the call to make next.
 */
export function unreadRefusal(
  call: GuardedCall,
  unread: readonly Unread[],
  { ledger, bounds }: { ledger: Ledger; bounds: ExpandBounds },
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
export function unreadWarning(call: GuardedCall, u: Unread, mode: ReadGuardMode): string {
  const preview = (call.dryRun || call.nested) && mode === "refuse";
  return `${linesOf(u.missing, true)} of "${u.path}" ${
    oneLine(u.missing) ? "was" : "were"
  } not read by this session${
    preview
      ? ` (a preview: the real call will be refused until ${oneLine(u.missing) ? "it is" : "they are"} read)`
      : ""
  }`;
}
