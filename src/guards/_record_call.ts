/**
 * What the read guard's `after` hook records in a session's ledger: the
 * writes of a committed mutating call (moves carried, its lines the session's
 * own) and what an answer displayed (lines read, symbol bodies, did-you-mean
 * windows, an outline).
 *
 * @module
 */
import type { ShownLines } from "../errors.ts";
import { sameBytes } from "../fs/stage.ts";
import type { FileSnapshot, Ledger } from "./ledger.ts";
import { current, snapshotOf } from "./_file_snapshots.ts";
import { writesWholeFile } from "./_judge_change.ts";
import type { GuardedCall, GuardedResult, GuardHost } from "./types.ts";

/** Record what a successful, committed mutating call wrote: moves carried, writes as the session's own. */
export function recordWrites(call: GuardedCall, result: GuardedResult, ledger: Ledger): void {
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
export async function recordShown(
  host: GuardHost,
  ledger: Ledger,
  shown: readonly ShownLines[],
): Promise<void> {
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
