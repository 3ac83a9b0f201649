/**
 * The read ledger: per session, what the agent has seen of each file — line
 * ranges tied to the file version they were read at. Ranges add up (1–200
 * then 201–400 is 1–400). When a file changes outside the session the
 * record turns `stale` and its ranges are carried through a line diff to the
 * new version, so an unrelated edit elsewhere does not wipe what was seen.
 * The session's own writes keep it current (a file it created or wrote
 * whole is `model_authored`). A harness that compacts its context can mark
 * what was seen as "seen but evicted" rather than unread. The ledger is
 * plain data: {@linkcode Ledger.toJSON} and {@linkcode Ledger.from} carry it
 * across a resume or a hand-off.
 *
 * Pure: it never reads a file. Callers hand it snapshots (a version and its
 * lines); the edit guard (`read_guard.ts`) does the I/O.
 *
 * @module
 */
import { alignLines } from "./line_diff.ts";
import {
  coversLines,
  type LineRange,
  mergeRanges,
  pairsToRanges,
  rangesToPairs,
  remapRanges,
  subtractRanges,
} from "./line_ranges.ts";

/** What a session knows of a file. */
export type FileState = "never_read" | "partial_read" | "fully_read" | "model_authored" | "stale";

/** One version of a file as the ledger needs it: its version and its lines (without endings). */
export interface FileSnapshot {
  /** The version (SHA-256 of the bytes). */
  version: string;
  /** Its lines, as `read_file` numbers them. */
  lines: readonly string[];
}

/** What the ledger says about one file. */
export interface FileView {
  /** Relative path. */
  path: string;
  /** The state. */
  state: FileState;
  /** The version the ranges refer to (null: nothing recorded). */
  version: string | null;
  /** Lines of that version. */
  total_lines: number;
  /** Lines seen (merged). */
  seen: LineRange[];
  /** Lines seen but since evicted from the agent's context (a subset of `seen`). */
  evicted: LineRange[];
  /** Whether the session's outline of the file was recorded (signatures only, no lines). */
  outlined: boolean;
  /** Calls of the session since it last read or wrote the file. */
  calls_since_seen: number;
}

interface FileRecord {
  version: string;
  total: number;
  /** One fingerprint per line of `version`, to align it with a later version. */
  prints: string[];
  seen: LineRange[];
  evicted: LineRange[];
  expanded: LineRange[];
  authored: boolean;
  outlined: boolean;
  /** The session call at which the file was found changed (null: current). */
  staleSince: number | null;
  lastCall: number;
}

/** The serialised form of a ledger (JSON). */
export interface LedgerData {
  /** Format tag, `graver.ledger/1`. */
  format: "graver.ledger/1";
  /** Top-level calls the session has made. */
  calls: number;
  /** Per relative path. */
  files: Record<string, {
    version: string;
    total_lines: number;
    /** Line fingerprints, 8 hex digits each, concatenated. */
    prints: string;
    seen: [number, number][];
    evicted?: [number, number][];
    expanded?: [number, number][];
    authored?: boolean;
    outlined?: boolean;
    stale_since?: number;
    last_call: number;
  }>;
}

/** FNV-1a (32 bits) of a line, 8 hex digits: enough to align versions, never trusted for equality of content. */
function fingerprint(line: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < line.length; i++) {
    h ^= line.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}

function fingerprints(lines: readonly string[]): string[] {
  return lines.map(fingerprint);
}

/** A record carried to another version of its file: seen lines through the line diff, no longer authored. */
function carried(rec: FileRecord, current: FileSnapshot): FileRecord {
  const prints = fingerprints(current.lines);
  const runs = alignLines(rec.prints, prints);
  return {
    ...rec,
    seen: remapRanges(rec.seen, runs),
    evicted: remapRanges(rec.evicted, runs),
    expanded: remapRanges(rec.expanded, runs),
    version: current.version,
    total: current.lines.length,
    prints,
    authored: false,
    staleSince: rec.staleSince ?? rec.lastCall,
  };
}

/** The record of a file the session has not seen yet. */
function blankRecord(snapshot: FileSnapshot, calls: number): FileRecord {
  return {
    version: snapshot.version,
    total: snapshot.lines.length,
    prints: fingerprints(snapshot.lines),
    seen: [],
    evicted: [],
    expanded: [],
    authored: false,
    outlined: false,
    staleSince: null,
    lastCall: calls,
  };
}

/** A record after the session wrote `after` over it: what it saw carried through the diff, plus what it wrote. */
function writtenOver(rec: FileRecord, after: FileSnapshot, calls: number): FileRecord {
  const prints = fingerprints(after.lines);
  const runs = alignLines(rec.prints, prints);
  const written: LineRange[] = [];
  let n = 1;
  for (const r of [...runs, { old: 0, new: after.lines.length + 1, length: 0 }]) {
    if (r.new > n) written.push({ start: n, end: r.new - 1 });
    n = r.new + r.length;
  }
  return {
    ...rec,
    seen: mergeRanges([...remapRanges(rec.seen, runs), ...written]),
    evicted: remapRanges(rec.evicted, runs),
    expanded: remapRanges(rec.expanded, runs),
    version: after.version,
    total: after.lines.length,
    prints,
    authored: rec.authored && rec.staleSince === null,
    staleSince: null,
    lastCall: calls,
  };
}

function all(total: number): LineRange[] {
  return total > 0 ? [{ start: 1, end: total }] : [];
}

/**
 * One session's ledger.
 *
 * @example Reads add up; a change elsewhere keeps what was seen
 * ```ts
 * import { Ledger } from "./ledger.ts";
 * import assert from "node:assert/strict";
 *
 * const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
 * const ledger = new Ledger();
 * ledger.recordRead("a.txt", { version: "v1", lines }, { start: 1, end: 4 });
 * ledger.recordRead("a.txt", { version: "v1", lines }, { start: 5, end: 6 });
 * assert.equal(ledger.view("a.txt").state, "partial_read");
 * assert.deepEqual(ledger.view("a.txt").seen, [{ start: 1, end: 6 }]);
 *
 * // Someone else inserts a line at the top: the file is stale, lines 1-6 are now 2-7.
 * ledger.reconcile("a.txt", { version: "v2", lines: ["new", ...lines] });
 * assert.equal(ledger.view("a.txt").state, "stale");
 * assert.deepEqual(ledger.view("a.txt").seen, [{ start: 2, end: 7 }]);
 * ```
 */
export class Ledger {
  #files = new Map<string, FileRecord>();
  #calls = 0;

  /** Top-level calls the session has made. */
  get calls(): number {
    return this.#calls;
  }

  /** Count one top-level call of the session (for "you last saw this file N calls ago"). */
  tick(): void {
    this.#calls++;
  }

  /** The paths the ledger holds a record for. */
  paths(): string[] {
    return [...this.#files.keys()].sort();
  }

  /**
   * Bring a record up to the file's current version. When the version differs
   * the file changed outside the session: the record becomes stale, its seen
   * ranges are carried through a line diff (lines that changed drop out) and
   * it is no longer the session's own work.
   *
   * @param path Relative path.
   * @param current The file as it is now.
   * @returns True when the file had changed since the session last saw it.
   */
  reconcile(path: string, current: FileSnapshot): boolean {
    const rec = this.#files.get(path);
    if (!rec || rec.version === current.version) return false;
    this.#files.set(path, carried(rec, current));
    return true;
  }

  /**
   * What {@linkcode Ledger.view} would say after {@linkcode Ledger.reconcile},
   * without changing the ledger: for a preview, whose "current" version is a
   * staged one that may never land.
   *
   * @param path Relative path.
   * @param current The file as the preview sees it.
   * @returns The view.
   */
  peek(path: string, current: FileSnapshot): FileView {
    const rec = this.#files.get(path);
    if (!rec || rec.version === current.version) return this.view(path);
    return this.#viewOf(path, carried(rec, current));
  }

  #record(path: string, snapshot: FileSnapshot): FileRecord {
    this.reconcile(path, snapshot);
    let rec = this.#files.get(path);
    if (!rec) {
      rec = blankRecord(snapshot, this.#calls);
      this.#files.set(path, rec);
    }
    return rec;
  }

  /**
   * Record lines the session was shown (a read, a symbol body, a did-you-mean
   * window). Shown lines are no longer evicted; a read clears staleness.
   *
   * @param path Relative path.
   * @param snapshot The version shown.
   * @param range The lines shown (clipped to the file).
   */
  recordRead(path: string, snapshot: FileSnapshot, range: LineRange): void {
    const rec = this.#record(path, snapshot);
    const r = { start: Math.max(1, range.start), end: Math.min(rec.total, range.end) };
    rec.seen = mergeRanges([...rec.seen, r]);
    rec.evicted = subtractRanges(rec.evicted, [r]);
    rec.staleSince = null;
    rec.lastCall = this.#calls;
  }

  /**
   * Record that the session saw the file's outline: names and lines of its
   * definitions, not their text, so no line counts as read.
   *
   * @param path Relative path.
   * @param snapshot The version outlined.
   */
  recordOutline(path: string, snapshot: FileSnapshot): void {
    this.#record(path, snapshot).outlined = true;
  }

  /**
   * Record lines the edit guard showed in a refusal (scoped auto-expand):
   * they count as read, and a later edit there that lands is counted as
   * resolved by the expansion.
   *
   * @param path Relative path.
   * @param snapshot The version shown.
   * @param range The lines shown.
   */
  recordExpanded(path: string, snapshot: FileSnapshot, range: LineRange): void {
    this.recordRead(path, snapshot, range);
    const rec = this.#files.get(path)!;
    rec.expanded = mergeRanges([...rec.expanded, range]);
  }

  /**
   * Take the auto-expanded lines `lines` touch (they are then resolved).
   *
   * @param path Relative path.
   * @param lines Lines an edit needed.
   * @returns Whether any auto-expanded line was among them.
   */
  takeExpanded(path: string, lines: readonly LineRange[]): boolean {
    const rec = this.#files.get(path);
    if (!rec || rec.expanded.length === 0) return false;
    const left = subtractRanges(rec.expanded, lines);
    const hit = left.length !== rec.expanded.length ||
      left.some((r, i) => r.start !== rec.expanded[i]!.start || r.end !== rec.expanded[i]!.end);
    rec.expanded = left;
    return hit;
  }

  /**
   * Record a write the session committed. A new file, or one written whole,
   * is `model_authored`; an edit carries what was seen through the diff and
   * adds the lines it wrote. A deletion forgets the file.
   *
   * @param path Relative path.
   * @param before The file before (null: it did not exist).
   * @param after The file after (null: deleted).
   * @param options `whole`: the session wrote the entire content.
   */
  recordWrite(
    path: string,
    before: FileSnapshot | null,
    after: FileSnapshot | null,
    options: { whole?: boolean } = {},
  ): void {
    if (after === null) {
      this.#files.delete(path);
      return;
    }
    const prints = fingerprints(after.lines);
    const fresh = (): FileRecord => ({
      version: after.version,
      total: after.lines.length,
      prints,
      seen: all(after.lines.length),
      evicted: [],
      expanded: [],
      authored: true,
      outlined: false,
      staleSince: null,
      lastCall: this.#calls,
    });
    if (before === null || options.whole) {
      this.#files.set(path, fresh());
      return;
    }
    const rec = this.#record(path, before);
    Object.assign(rec, writtenOver(rec, after, this.#calls));
  }

  /**
   * What {@linkcode Ledger.view} would say after the session wrote `after`
   * over `before` ({@linkcode Ledger.recordWrite}), without changing the
   * ledger: for a plan's op judged after earlier ops of the same plan, whose
   * writes the real calls would have recorded.
   *
   * @param path Relative path.
   * @param before The file as stored.
   * @param after The file as the plan's earlier ops left it.
   * @returns The view.
   */
  peekWritten(path: string, before: FileSnapshot, after: FileSnapshot): FileView {
    const known = this.#files.get(path);
    const rec = !known
      ? blankRecord(before, this.#calls)
      : known.version === before.version
      ? known
      : carried(known, before);
    return this.#viewOf(path, writtenOver(rec, after, this.#calls));
  }

  /**
   * Carry a file's record to its new path (a move).
   *
   * @param from Old relative path.
   * @param to New relative path.
   */
  move(from: string, to: string): void {
    const rec = this.#files.get(from);
    if (!rec) return;
    this.#files.delete(from);
    this.#files.set(to, rec);
  }

  /**
   * Mark what the session saw as evicted from its context (after a
   * compaction): still seen — the guard lets edits there pass, with a
   * warning to re-read — but no longer shown.
   *
   * @param paths Files to mark (default: every file).
   */
  markEvicted(paths?: readonly string[]): void {
    for (const p of paths ?? this.paths()) {
      const rec = this.#files.get(p);
      if (rec) rec.evicted = mergeRanges(rec.seen);
    }
  }

  /**
   * The seen lines of a file, at the version the ledger holds.
   *
   * @param path Relative path.
   * @returns Merged ranges (empty when nothing is recorded).
   */
  seen(path: string): LineRange[] {
    return this.#files.get(path)?.seen ?? [];
  }

  /**
   * What the ledger says about a file. With `currentVersion`, a record of
   * another version reports `stale` (call {@linkcode Ledger.reconcile} to
   * carry its ranges over).
   *
   * @param path Relative path.
   * @param currentVersion The file's version now, when known.
   * @returns The view.
   */
  view(path: string, currentVersion?: string): FileView {
    return this.#viewOf(path, this.#files.get(path), currentVersion);
  }

  #viewOf(path: string, rec: FileRecord | undefined, currentVersion?: string): FileView {
    if (!rec) {
      return {
        path,
        state: "never_read",
        version: null,
        total_lines: 0,
        seen: [],
        evicted: [],
        outlined: false,
        calls_since_seen: 0,
      };
    }
    let state: FileState;
    if (rec.staleSince !== null || (currentVersion !== undefined && currentVersion !== rec.version)) {
      state = "stale";
    } else if (rec.authored) state = "model_authored";
    else if (rec.total === 0) state = "fully_read"; // nothing to miss
    else if (rec.seen.length === 0) state = "never_read";
    else if (coversLines(rec.seen, 1, rec.total)) state = "fully_read";
    else state = "partial_read";
    return {
      path,
      state,
      version: rec.version,
      total_lines: rec.total,
      seen: rec.seen.map((r) => ({ ...r })),
      evicted: rec.evicted.map((r) => ({ ...r })),
      outlined: rec.outlined,
      calls_since_seen: this.#calls - rec.lastCall,
    };
  }

  /**
   * The serialisable form (JSON-safe).
   *
   * @returns The data {@linkcode Ledger.from} restores.
   */
  toJSON(): LedgerData {
    const files: LedgerData["files"] = {};
    for (const [path, rec] of [...this.#files].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)) {
      const f: LedgerData["files"][string] = {
        version: rec.version,
        total_lines: rec.total,
        prints: rec.prints.join(""),
        seen: rangesToPairs(rec.seen),
        last_call: rec.lastCall,
      };
      if (rec.evicted.length > 0) f.evicted = rangesToPairs(rec.evicted);
      if (rec.expanded.length > 0) f.expanded = rangesToPairs(rec.expanded);
      if (rec.authored) f.authored = true;
      if (rec.outlined) f.outlined = true;
      if (rec.staleSince !== null) f.stale_since = rec.staleSince;
      files[path] = f;
    }
    return { format: "graver.ledger/1", calls: this.#calls, files };
  }

  /**
   * Restore a ledger from {@linkcode Ledger.toJSON}'s data.
   *
   * @param data The serialised ledger.
   * @returns The ledger.
   * @throws TypeError when `data` is not a graver ledger.
   */
  static from(data: unknown): Ledger {
    const d = data as Partial<LedgerData> | null;
    if (!d || typeof d !== "object" || d.format !== "graver.ledger/1" || typeof d.files !== "object") {
      throw new TypeError('Cannot restore a ledger: expected an object with format "graver.ledger/1"');
    }
    const ledger = new Ledger();
    ledger.#calls = Number.isInteger(d.calls) ? d.calls! : 0;
    for (const [path, f] of Object.entries(d.files ?? {})) {
      if (!f || typeof f.version !== "string" || typeof f.prints !== "string") continue;
      const prints = f.prints.match(/[0-9a-f]{8}/g) ?? [];
      const total = Number.isInteger(f.total_lines) ? f.total_lines : prints.length;
      if (prints.length !== total) continue;
      ledger.#files.set(path, {
        version: f.version,
        total,
        prints,
        seen: pairsToRanges(f.seen),
        evicted: pairsToRanges(f.evicted),
        expanded: pairsToRanges(f.expanded),
        authored: f.authored === true,
        outlined: f.outlined === true,
        staleSince: Number.isInteger(f.stale_since) ? f.stale_since! : null,
        lastCall: Number.isInteger(f.last_call) ? f.last_call : 0,
      });
    }
    return ledger;
  }
}
