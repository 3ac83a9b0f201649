/**
 * Commit: the only code that writes a workspace. Compare-and-swap on every
 * touched file's base version, temp files, a journal under `.graver/`,
 * renames into place, journal cleared. Any failure restores every file; an
 * interrupted journal is finished or rolled back when a workspace opens.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { type BackendFs, dirname, errnoCode } from "./backend.ts";
import { type HeldLock, lock, type LockOptions, tryLock } from "./commit_lock.ts";
import {
  checkInternalDir,
  checkTxRoot,
  cleanupTransaction,
  internalPath,
  JOURNAL_FORMAT,
  type JournalEntry,
  journalPresent,
  newTxid,
  packPath,
  recoverLocked,
  rollbackJournal,
  tmpPath,
  txDir,
  type UnsealedJournal,
  writeJournal,
} from "./journal.ts";
import { INTERNAL_DIR, type Sandbox } from "./sandbox.ts";
import { confined } from "./beneath.ts";
import { afterVersionOf } from "./change_facts.ts";
import type { PendingChange } from "./stage.ts";
import { unifiedDiff } from "./unified_diff.ts";
import { IN_PLACE_HASH_BYTES, shortVersion, type Version, versionOf } from "./version.ts";

/** One landed file in a commit result. */
export interface CommittedChange {
  /** Relative path. */
  path: string;
  /** Version before (null: created). */
  before_version: Version | null;
  /** Version after (null: deleted). */
  after_version: Version | null;
  /** git-style unified diff. */
  diff: string;
}

/** Per-backend in-process commit queue, so two workspaces over one backend serialise. */
const QUEUES = new WeakMap<object, Map<string, Promise<unknown>>>();

async function serialised<T>(fs: BackendFs, root: string, fn: () => Promise<T>): Promise<T> {
  let byRoot = QUEUES.get(fs.raw);
  if (!byRoot) QUEUES.set(fs.raw, byRoot = new Map());
  const prev = byRoot.get(root) ?? Promise.resolve();
  const run = prev.then(fn, fn);
  byRoot.set(root, run.catch(() => {}));
  return await run;
}

/** Backend calls a commit keeps in flight at once (disks overlap small-file I/O). */
const CONCURRENCY = 8;

/**
 * Run `fn` over `items` with at most `limit` in flight. On the first failure no
 * new item starts; the call rejects with that failure once the in-flight ones settle.
 */
async function inPool<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { err: unknown } | null = null;
  const worker = async () => {
    while (failure === null && next < items.length) {
      const i = next++;
      try {
        await fn(items[i]!, i);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== null) throw (failure as { err: unknown }).err;
}

/** Creates each directory at most once per commit, even with calls in flight together. */
class DirCache {
  readonly #fs: BackendFs;
  readonly #made = new Map<string, Promise<void>>();
  constructor(fs: BackendFs) {
    this.#fs = fs;
  }
  ensureParent(path: string): Promise<void> {
    return this.ensure(dirname(path));
  }
  ensure(dir: string): Promise<void> {
    let made = this.#made.get(dir);
    if (!made) {
      made = (async () => {
        if (dir === "/" || dir === "." || dir === "") return;
        if ((await this.#fs.kind(dir)) === "dir") return;
        await this.ensure(dirname(dir));
        try {
          await this.#fs.raw.mkdir(dir);
        } catch (err) {
          if (errnoCode(err) !== "EEXIST") throw err;
        }
      })();
      made.catch(() => this.#made.delete(dir));
      this.#made.set(dir, made);
    }
    return made;
  }
}

/**
 * Remove graver's own directory once it is empty (after the lock is released):
 * a root where nothing is being committed holds no `.graver/`.
 */
async function removeInternalIfEmpty(fs: BackendFs, sandbox: Sandbox): Promise<void> {
  // Only the top folder, which a lock holder's lock file keeps: `tx/` is removed under the lock (cleanup),
  // as another committer may be creating its transaction folder in it by now. A committer that made
  // `.graver/` just before this removes it again (`writeExclusive` retries).
  await fs.removeDir(internalPath(sandbox));
}

/**
 * Remove the folders a commit's deletions left empty, deepest first, up to
 * (never including) the root.
 */
async function removeEmptiedDirs(fs: BackendFs, sandbox: Sandbox, deleted: string[]): Promise<void> {
  const dirs = new Set<string>();
  for (const rel of deleted) {
    for (let d = dirname(rel); d !== "." && d !== "/" && d !== ""; d = dirname(d)) dirs.add(d);
  }
  const deepestFirst = [...dirs].sort((a, b) =>
    b.split("/").length - a.split("/").length || (a < b ? -1 : 1)
  );
  for (const dir of deepestFirst) {
    const abs = sandbox.abs(dir);
    if ((await fs.kind(abs)) === "dir" && (await fs.list(abs)).length === 0) await fs.removeDir(abs);
  }
}

/**
 * Finish or undo a commit interrupted by a crash: a journal in state
 * `prepared` is rolled back from its backups, one in state `committed` only
 * needs its temp files removed.
 *
 * @param fs Wrapped backend.
 * @param sandbox Root mapping.
 * @param options Lock timing and identity; `waitMs` is how long to wait for a live holder (default 0).
 * @returns What was done: "none", "rolled_back" or "finished"; "busy" when a live holder kept the lock.
 * @throws RecoverableError `sandbox_violation` for a journal graver did not write here (nothing touched).
 */
export async function recoverJournal(
  fs: BackendFs,
  sandbox: Sandbox,
  options: LockOptions = {},
): Promise<"none" | "busy" | "rolled_back" | "finished"> {
  return await serialised(fs, sandbox.root, async () => {
    // Nothing was ever committed here (or everything was cleaned): create nothing.
    await checkInternalDir(fs, sandbox);
    if ((await fs.kind(internalPath(sandbox))) !== "dir") return "none";
    // A live lock means another process is committing right now: its journal is not ours to undo.
    const held = await tryLock(fs, sandbox, { ...options, waitMs: options.waitMs ?? 0 });
    if (!held) return "busy";
    try {
      return await recoverLocked(fs, sandbox);
    } finally {
      await held.release();
      await removeInternalIfEmpty(fs, sandbox);
    }
  });
}

/** Options for {@linkcode commitChanges}. */
export interface CommitOptions {
  /** Lines of context in the diffs (default 3). */
  context?: number;
  /** Renames to report as one diff: destination path -> source path. */
  renames?: Map<string, string>;
  /** Commit-lock timing. */
  lock?: LockOptions;
  /**
   * Called under the commit lock once every file has landed, before the commit
   * is final (how checkpoints are recorded as part of the change, never
   * interleaved with another commit). When it throws, the commit rolls back.
   */
  onLanded?: (landed: LandedChange[]) => Promise<unknown>;
}

/** One file as a commit landed it, for {@linkcode CommitOptions.onLanded}. */
export interface LandedChange {
  /** Path relative to the workspace root. */
  path: string;
  /** Bytes before (null: the file did not exist). */
  before: Uint8Array | null;
  /** Bytes after (null: deleted). */
  after: Uint8Array | null;
  /** Permission bits before (null: absent, or the backend keeps none). */
  beforeMode: number | null;
  /** Permission bits after (null: deleted, or the backend's default mode). */
  afterMode: number | null;
}

function staleError(
  stale: { path: string; expected: Version | null; actual: Version | null }[],
): RecoverableError {
  const first = stale[0]!;
  const describe = (v: Version | null) => v === null ? "absent" : `"${shortVersion(v)}"`;
  return new RecoverableError(
    "stale_base",
    `Cannot commit "${first.path}": expected ${describe(first.expected)}, found ${describe(first.actual)}` +
      (stale.length > 1 ? ` (and ${stale.length - 1} more file(s))` : ""),
    {
      hint: `Another writer changed ${
        stale.length > 1 ? "these files" : "the file"
      } after you read it; call read_file on ${
        stale.map((s) => `"${s.path}"`).join(", ")
      } and redo the edit against the current content`,
      suggestedCall: { tool: "read_file", args: { path: first.path } },
      details: {
        // Found at the compare-and-swap, after the call read its files: another writer came in between.
        phase: "commit",
        path: first.path,
        expected_version: first.expected,
        current_version: first.actual,
        files: stale.map((s) => ({ path: s.path, expected_version: s.expected, current_version: s.actual })),
      },
    },
  );
}

/**
 * Land pending changes atomically: all or nothing.
 *
 * @param fs Wrapped backend.
 * @param sandbox Root mapping.
 * @param changes From {@linkcode Stage.changes}.
 * @param options Diff context and renames.
 * @returns One entry per landed file, with versions and diff.
 */
export async function commitChanges(
  fs: BackendFs,
  sandbox: Sandbox,
  changes: PendingChange[],
  options: CommitOptions = {},
): Promise<CommittedChange[]> {
  if (changes.length === 0) return [];
  return await serialised(fs, sandbox.root, async () => {
    const held = await lock(fs, sandbox, options.lock);
    let landed: CommittedChange[];
    try {
      // Writes, renames and rollbacks through the confined backend: no link is followed under the root.
      landed = await commitLocked({ fs: confined(fs, sandbox.root), sandbox, held }, changes, options);
    } finally {
      await held.release().catch(() => {
        // A lock we could not remove goes stale and is broken by the next committer.
      });
      await removeInternalIfEmpty(fs, sandbox).catch(() => {});
    }
    // Durable before the caller hears "applied" (lightning-fs would save up to 500 ms later). Should the
    // save fail, the store keeps its previous consistent state and saves again when idle.
    await fs.flush().catch(() => {});
    return landed;
  });
}

/** The files as the backend holds them when the lock is taken. */
interface Base {
  /** Bytes of each path (null: absent). */
  originals: Map<string, Uint8Array | null>;
  /** Permission bits of each path (null: absent or not kept). */
  modes: Map<string, number | null>;
}

/**
 * The bytes a file holds on the backend now and their version (null: absent). A large file that still holds
 * the bytes the stage read (`change.before`) is compared with them piece by piece rather than read into a
 * second whole copy: the original is then those very bytes (the backup and a rollback use them).
 */
async function currentOf(
  fs: BackendFs,
  sandbox: Sandbox,
  change: PendingChange,
): Promise<{ bytes: Uint8Array | null; version: Version | null }> {
  const abs = sandbox.abs(change.path);
  const before = change.before;
  if (before !== null && before.length >= IN_PLACE_HASH_BYTES && (await fs.holds(abs, before)) === true) {
    return { bytes: before, version: await versionOf(before) };
  }
  const bytes = await fs.read(abs);
  return { bytes, version: bytes === null ? null : await versionOf(bytes) };
}

/** The current version of each file as the backend holds it (null: absent). */
async function currentVersions(
  fs: BackendFs,
  sandbox: Sandbox,
  changes: PendingChange[],
  base: Base,
): Promise<(Version | null)[]> {
  const actuals: (Version | null)[] = new Array(changes.length).fill(null);
  await inPool(changes, CONCURRENCY, async (change, i) => {
    const current = await currentOf(fs, sandbox, change);
    actuals[i] = current.version;
    base.originals.set(change.path, current.bytes);
    base.modes.set(change.path, current.bytes === null ? null : await fs.mode(sandbox.abs(change.path)));
  });
  return actuals;
}

/** 1. Compare-and-swap: the backend must still hold every base version (`stale_base` otherwise). */
async function readBase(fs: BackendFs, sandbox: Sandbox, changes: PendingChange[]): Promise<Base> {
  const base: Base = { originals: new Map(), modes: new Map() };
  const actuals = await currentVersions(fs, sandbox, changes, base);
  const stale = changes.flatMap((change, i) =>
    actuals[i] !== change.baseVersion
      ? [{ path: change.path, expected: change.baseVersion, actual: actuals[i]! }]
      : []
  );
  if (stale.length > 0) throw staleError(stale);
  return base;
}

/** The journal of a transaction: one entry per change, the originals back to back in one pack. */
async function planJournal(
  changes: PendingChange[],
  tx: { base: Base; root: string },
): Promise<UnsealedJournal> {
  const { base, root } = tx;
  const journal: UnsealedJournal = {
    graver_journal: JOURNAL_FORMAT,
    txid: newTxid(),
    root,
    state: "prepared",
    pack: false,
    entries: [],
  };
  let packSize = 0;
  for (const c of changes) {
    const original = base.originals.get(c.path) ?? null;
    journal.entries.push({
      path: c.path,
      existed: original !== null,
      tmp: c.after !== null,
      offset: original === null ? 0 : packSize,
      length: original?.length ?? 0,
      before: c.baseVersion,
      after: c.after === null ? null : await afterVersionOf(c),
      mode: base.modes.get(c.path) ?? null,
    });
    packSize += original?.length ?? 0;
  }
  journal.pack = journal.entries.some((e) => e.existed);
  return journal;
}

/**
 * The originals back to back, as the backup pack holds them. A single original is the pack itself, written
 * from the bytes in hand: a large file's edit holds no copy of it.
 */
function packOf(changes: PendingChange[], base: Base): Uint8Array {
  const backups = changes.flatMap((c) => base.originals.get(c.path) ?? []);
  if (backups.length === 1) return backups[0]!;
  const pack = new Uint8Array(backups.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of backups) {
    pack.set(b, at);
    at += b.length;
  }
  return pack;
}

/** Where a commit writes, and the lock it holds while it does. */
interface Target {
  fs: BackendFs;
  sandbox: Sandbox;
  held: HeldLock;
}

/** 2. Temp files and one backup pack, then the journal; nothing in the tree is touched yet. */
async function prepare(
  { fs, sandbox, held }: Target,
  tx: { journal: UnsealedJournal; changes: PendingChange[]; base: Base },
): Promise<void> {
  const { journal, changes, base } = tx;
  await checkTxRoot(fs, sandbox); // a planted link: never a temp file or backup written through it
  await fs.mkdirp(txDir(sandbox, journal.txid));
  if (journal.pack) {
    await fs.write(packPath(sandbox, journal.txid), packOf(changes, base), { parentExists: true });
  }
  await inPool(journal.entries, CONCURRENCY, async (e, i) => {
    if (!e.tmp) return;
    const tmp = tmpPath(sandbox, journal.txid, i);
    await fs.write(tmp, changes[i]!.after!, { parentExists: true });
    // The file renamed into place keeps the mode of the one it replaces (or the one asked for).
    const mode = changes[i]!.mode ?? e.mode ?? null;
    if (mode !== null) await fs.chmod(tmp, mode);
  });
  await held.check(); // fencing: never a journal over the one of a writer that broke our lease
  await writeJournal(fs, sandbox, journal); // from here on a crash leaves a journal to recover
}

/**
 * Re-read a file immediately before its rename: a writer outside graver (no
 * lock binds it) that changed it since the compare-and-swap makes the commit
 * refuse (`stale_base`) and roll back, instead of renaming over its bytes.
 */
async function recheckBase(
  fs: BackendFs,
  target: string,
  base: { entry: JournalEntry; original: Uint8Array | null },
): Promise<void> {
  const { original } = base;
  // A large file is compared piece by piece as it is read (no second whole copy); the window left to a
  // writer outside graver is that read and the rename that follows it.
  const same = original !== null && original.length >= IN_PLACE_HASH_BYTES
    ? await fs.holds(target, original)
    : null;
  if (same === true) return;
  const current = await fs.read(target);
  // Otherwise compared byte for byte with the original in memory, with no await before the rename that
  // follows: the window left to a writer outside graver is one read and one rename.
  if (same === null && sameBytes(current, original)) return;
  const actual = current === null ? null : await versionOf(current);
  throw staleError([{ path: base.entry.path, expected: base.entry.before, actual }]);
}

function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * 3. Renames (and deletions) into place, each one fenced (it happens only
 * while the lock file still carries our token) and each file re-checked
 * against the version the commit is based on just before it is replaced.
 */
async function land({ fs, sandbox, held }: Target, journal: UnsealedJournal, base: Base): Promise<void> {
  const dirs = new DirCache(fs);
  await inPool(journal.entries, CONCURRENCY, async (e, i) => {
    const target = sandbox.abs(e.path);
    if (e.tmp) await dirs.ensureParent(target);
    await held.check();
    await recheckBase(fs, target, { entry: e, original: base.originals.get(e.path) ?? null });
    if (e.tmp) await fs.rename(tmpPath(sandbox, journal.txid, i), target, { parentExists: true });
    else await fs.remove(target);
  });
  await removeEmptiedDirs(fs, sandbox, journal.entries.filter((e) => !e.tmp).map((e) => e.path));
}

async function commitLocked(
  target: Target,
  changes: PendingChange[],
  options: CommitOptions,
): Promise<CommittedChange[]> {
  const { fs, sandbox, held } = target;
  // 0. A journal left behind (its writer died, or its lock was broken) is finished or rolled back first,
  // under our lock; a journal graver did not write refuses the commit.
  if (await journalPresent(fs, sandbox)) await recoverLocked(fs, sandbox);
  const base = await readBase(fs, sandbox, changes);
  const journal = await planJournal(changes, { base, root: sandbox.root });
  try {
    await prepare(target, { journal, changes, base });
  } catch (err) {
    await cleanupTransaction(fs, sandbox, journal).catch(() => {});
    throw err;
  }
  try {
    await land(target, journal, base);
    if (options.onLanded) await options.onLanded(landedChanges(changes, base.modes));
    await held.check();
    journal.state = "committed";
    await writeJournal(fs, sandbox, journal);
  } catch (err) {
    try {
      await rollbackJournal(fs, sandbox, journal, { originals: base.originals });
      await cleanupTransaction(fs, sandbox, journal).catch(() => {});
    } catch (rollbackErr) {
      throw new Error(
        `Cannot commit and cannot roll back: the journal in "${INTERNAL_DIR}/" restores the files when the workspace is next opened`,
        { cause: new AggregateError([err, rollbackErr]) },
      );
    }
    throw err;
  }
  await cleanupTransaction(fs, sandbox, journal).catch(() => {
    // Landed; a leftover "committed" journal is cleaned when the workspace next opens.
  });
  return await describeChanges(changes, { ...options, modes: base.modes });
}

/** What landed, with the modes before and after, for {@linkcode CommitOptions.onLanded}. */
function landedChanges(changes: PendingChange[], modes: Map<string, number | null>): LandedChange[] {
  return changes.map((c) => {
    const beforeMode = modes.get(c.path) ?? null;
    return {
      path: c.path,
      before: c.before,
      after: c.after,
      beforeMode,
      afterMode: c.after === null ? null : c.mode ?? beforeMode,
    };
  });
}

/**
 * The permission bits each change's file has on the backend now (null: absent
 * or not kept), for {@linkcode describeChanges} in a dry run.
 *
 * @param fs Wrapped backend.
 * @param sandbox Root mapping.
 * @param changes From {@linkcode Stage.changes}.
 * @returns Relative path to mode.
 */
export async function modesOf(
  fs: BackendFs,
  sandbox: Sandbox,
  changes: PendingChange[],
): Promise<Map<string, number | null>> {
  const modes = new Map<string, number | null>();
  await inPool(changes, CONCURRENCY, async (c) => {
    modes.set(c.path, c.before === null ? null : await fs.mode(sandbox.abs(c.path)));
  });
  return modes;
}

/** Options for {@linkcode describeChanges}. */
export interface DescribeOptions {
  /** Lines of context in the diffs (default 3). */
  context?: number;
  /** Renames to report as one diff: destination path -> source path. */
  renames?: Map<string, string> | undefined;
  /** Permission bits of each file before the change (absent or null: unknown, shown as 0o644). */
  modes?: Map<string, number | null>;
}

/**
 * The versions and git-style diffs of pending changes, as a commit reports
 * them (a dry run shows the same): a move is one rename diff, and a mode
 * change is named (`old mode 100644` / `new mode 100755`).
 *
 * @param changes From {@linkcode Stage.changes}.
 * @param options Diff context, renames and the files' modes before.
 * @returns One entry per file (a move's source is folded into its destination).
 *
 * @example A created file
 * ```ts
 * import { describeChanges } from "@graver/core/fs";
 * import assert from "node:assert/strict";
 *
 * const after = new TextEncoder().encode("hi\n");
 * const [c] = await describeChanges([{ path: "a.txt", baseVersion: null, before: null, after }]);
 * assert.equal(c!.before_version, null);
 * assert.match(c!.diff, /^new file mode 100644$/m);
 * ```
 */
export async function describeChanges(
  changes: PendingChange[],
  options: DescribeOptions = {},
): Promise<CommittedChange[]> {
  const out: CommittedChange[] = [];
  const renamedFrom = new Set(options.renames?.values() ?? []);
  for (const change of changes) {
    const fromPath = options.renames?.get(change.path);
    if (change.after === null && renamedFrom.has(change.path)) continue;
    const before = fromPath !== undefined
      ? changes.find((c) => c.path === fromPath)?.before ?? null
      : change.before;
    const oldMode = options.modes?.get(fromPath ?? change.path) ?? null;
    const newMode = change.mode ?? (fromPath === undefined ? oldMode : null);
    const diffOptions: {
      context?: number;
      fromPath?: string;
      oldMode: number | null;
      newMode: number | null;
    } = {
      oldMode,
      newMode,
    };
    if (options.context !== undefined) diffOptions.context = options.context;
    if (fromPath !== undefined) diffOptions.fromPath = fromPath;
    out.push({
      path: change.path,
      before_version: change.baseVersion,
      after_version: change.after === null ? null : await afterVersionOf(change),
      diff: unifiedDiff(change.path, before, change.after, diffOptions),
    });
  }
  return out;
}
