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
import { lock, type LockOptions, tryLock } from "./commit_lock.ts";
import { INTERNAL_DIR, type Sandbox } from "./sandbox.ts";
import { confined } from "./beneath.ts";
import { afterVersionOf } from "./change_facts.ts";
import type { PendingChange } from "./stage.ts";
import { unifiedDiff } from "./unified_diff.ts";
import { shortVersion, type Version, versionOf } from "./version.ts";

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

interface JournalEntry {
  path: string;
  existed: boolean;
  /** Temp file holding the new bytes (null: delete). */
  tmp: string | null;
  /** Where the original bytes sit in the backup pack (existing files only). */
  offset: number;
  length: number;
  /** Permission bits of the original (null: absent or not kept by the backend). */
  mode?: number | null;
}

interface Journal {
  txid: string;
  state: "prepared" | "committed";
  /** One file with every original's bytes back to back (null: nothing existed). */
  pack: string | null;
  entries: JournalEntry[];
}

const JOURNAL = "journal.json";

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

function internal(sandbox: Sandbox, ...parts: string[]): string {
  return [sandbox.abs(INTERNAL_DIR), ...parts].join("/");
}

async function retry<T>(fn: () => Promise<T>, attempts = 3): Promise<T> {
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      return await fn();
    } catch (err) {
      last = err;
    }
  }
  throw last;
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

async function writeJournal(fs: BackendFs, sandbox: Sandbox, journal: Journal): Promise<void> {
  const tmp = internal(sandbox, `${JOURNAL}.${journal.txid}.tmp`);
  await fs.write(tmp, new TextEncoder().encode(JSON.stringify(journal)), { parentExists: true });
  await fs.rename(tmp, internal(sandbox, JOURNAL), { parentExists: true });
}

/**
 * Remove a transaction's files: temp files not renamed into place, the backup
 * pack, the journal and the transaction directory.
 */
async function cleanup(
  fs: BackendFs,
  sandbox: Sandbox,
  journal: Journal,
  renamed: Set<string>,
): Promise<void> {
  for (const e of journal.entries) if (e.tmp && !renamed.has(e.tmp)) await fs.remove(e.tmp);
  if (journal.pack) await fs.remove(journal.pack);
  await fs.remove(internal(sandbox, `${JOURNAL}.${journal.txid}.tmp`));
  await fs.remove(internal(sandbox, JOURNAL));
  await fs.removeDir(internal(sandbox, "tx", journal.txid));
  await fs.removeDir(internal(sandbox, "tx")); // only when empty: nothing is left behind
}

/**
 * Remove graver's own directory once it is empty (after the lock is released):
 * a root where nothing is being committed holds no `.graver/`.
 */
async function removeInternalIfEmpty(fs: BackendFs, sandbox: Sandbox): Promise<void> {
  // Only the top folder, which a lock holder's lock file keeps: `tx/` is removed under the lock (cleanup),
  // as another committer may be creating its transaction folder in it by now. A committer that made
  // `.graver/` just before this removes it again (`writeExclusive` retries).
  await fs.removeDir(internal(sandbox));
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

/** Restore every entry of a journal to its pre-commit bytes. */
async function rollback(
  fs: BackendFs,
  sandbox: Sandbox,
  journal: Journal,
  originals: Map<string, Uint8Array | null> | null,
): Promise<void> {
  let pack: Uint8Array | null = null;
  for (const e of journal.entries) {
    const target = sandbox.abs(e.path);
    if (!e.existed) {
      await retry(() => fs.remove(target));
      continue;
    }
    let bytes = originals?.get(e.path) ?? null;
    if (bytes === null) {
      pack ??= journal.pack ? await retry(() => fs.read(journal.pack!)) : null;
      if (pack === null || pack.length < e.offset + e.length) {
        throw new Error(`Cannot roll back "${e.path}": the backup pack is missing or short`);
      }
      bytes = pack.subarray(e.offset, e.offset + e.length);
    }
    const current = await retry(() => fs.read(target));
    const same = current !== null && (await versionOf(current)) === (await versionOf(bytes));
    if (!same) {
      const restore = bytes;
      await retry(() => fs.write(target, restore));
    }
    const mode = e.mode ?? null;
    if (mode !== null && fs.keepsModes && (await retry(() => fs.mode(target))) !== mode) {
      await retry(() => fs.chmod(target, mode)); // a re-created file gets the default mode otherwise
    }
  }
}

/** Remove temp files of commits that crashed before their journal was written. */
async function sweepLeftovers(fs: BackendFs, sandbox: Sandbox): Promise<void> {
  for (const name of await fs.list(internal(sandbox))) {
    if (name.startsWith(`${JOURNAL}.`) && name.endsWith(".tmp")) await fs.remove(internal(sandbox, name));
    if (name.startsWith("lock.") && name.endsWith(".stale")) await fs.remove(internal(sandbox, name));
  }
  for (const tx of await fs.list(internal(sandbox, "tx"))) {
    for (const name of await fs.list(internal(sandbox, "tx", tx))) {
      await fs.remove(internal(sandbox, "tx", tx, name));
    }
    await fs.removeDir(internal(sandbox, "tx", tx));
  }
  await fs.removeDir(internal(sandbox, "tx"));
}

/**
 * Finish or undo a commit interrupted by a crash: a journal in state
 * `prepared` is rolled back from its backups, one in state `committed` only
 * needs its temp files removed.
 *
 * @param fs Wrapped backend.
 * @param sandbox Root mapping.
 * @returns What was done: "none", "rolled_back" or "finished".
 */
export async function recoverJournal(
  fs: BackendFs,
  sandbox: Sandbox,
  options: LockOptions = {},
): Promise<"none" | "busy" | "rolled_back" | "finished"> {
  return await serialised(fs, sandbox.root, async () => {
    // Nothing was ever committed here (or everything was cleaned): create nothing.
    if ((await fs.kind(internal(sandbox))) !== "dir") return "none";
    // A live lock means another process is committing right now: its journal is not ours to undo.
    const held = await tryLock(fs, sandbox, { ...options, waitMs: 0 });
    if (!held) return "busy";
    try {
      return await recoverLocked(fs, sandbox);
    } finally {
      await held.release();
      await removeInternalIfEmpty(fs, sandbox);
    }
  });
}

async function recoverLocked(fs: BackendFs, sandbox: Sandbox): Promise<"none" | "rolled_back" | "finished"> {
  {
    const raw = await fs.read(internal(sandbox, JOURNAL));
    if (raw === null) {
      await sweepLeftovers(fs, sandbox);
      return "none";
    }
    let journal: Journal;
    try {
      journal = JSON.parse(new TextDecoder().decode(raw)) as Journal;
    } catch (cause) {
      throw new Error(`Cannot recover the commit journal in "${INTERNAL_DIR}/": it is not valid JSON`, {
        cause,
      });
    }
    if (journal.state === "prepared") {
      await rollback(fs, sandbox, journal, null);
      await cleanup(fs, sandbox, journal, new Set());
      await sweepLeftovers(fs, sandbox);
      return "rolled_back";
    }
    // Committed: every temp file was renamed into place.
    await cleanup(fs, sandbox, journal, new Set(journal.entries.map((e) => e.tmp ?? "")));
    await sweepLeftovers(fs, sandbox);
    return "finished";
  }
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
      landed = await commitLocked(confined(fs, sandbox.root), sandbox, changes, options); // no link followed under the root
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

async function commitLocked(
  fs: BackendFs,
  sandbox: Sandbox,
  changes: PendingChange[],
  options: CommitOptions,
): Promise<CommittedChange[]> {
  {
    // 1. compare-and-swap: the backend must still hold every base version.
    const originals = new Map<string, Uint8Array | null>();
    const stale: { path: string; expected: Version | null; actual: Version | null }[] = [];
    const modes = new Map<string, number | null>();
    const actuals: (Version | null)[] = new Array(changes.length).fill(null);
    await inPool(changes, CONCURRENCY, async (change, i) => {
      const current = await fs.read(sandbox.abs(change.path));
      actuals[i] = current === null ? null : await versionOf(current);
      originals.set(change.path, current);
      modes.set(change.path, current === null ? null : await fs.mode(sandbox.abs(change.path)));
    });
    changes.forEach((change, i) => {
      if (actuals[i] !== change.baseVersion) {
        stale.push({ path: change.path, expected: change.baseVersion, actual: actuals[i]! });
      }
    });
    if (stale.length > 0) throw staleError(stale);

    const txid = `${Date.now().toString(36)}-${crypto.getRandomValues(new Uint32Array(1))[0]!.toString(36)}`;
    const txdir = internal(sandbox, "tx", txid);
    const journal: Journal = { txid, state: "prepared", pack: null, entries: [] };
    const backups: Uint8Array[] = [];
    let packSize = 0;
    changes.forEach((c, i) => {
      const original = originals.get(c.path) ?? null;
      journal.entries.push({
        path: c.path,
        existed: original !== null,
        tmp: c.after !== null ? `${txdir}/${i}.new` : null,
        offset: packSize,
        length: original?.length ?? 0,
        mode: modes.get(c.path) ?? null,
      });
      if (original !== null) {
        backups.push(original);
        packSize += original.length;
      }
    });
    if (backups.length > 0) journal.pack = `${txdir}/originals.pack`;

    // 2. temp files and one backup pack; nothing in the tree is touched yet.
    const dirs = new DirCache(fs);
    const renamed = new Set<string>();
    try {
      await fs.mkdirp(txdir);
      if (journal.pack) {
        const pack = new Uint8Array(packSize);
        let at = 0;
        for (const b of backups) {
          pack.set(b, at);
          at += b.length;
        }
        await fs.write(journal.pack, pack, { parentExists: true });
      }
      await inPool(journal.entries, CONCURRENCY, async (e, i) => {
        if (!e.tmp) return;
        await fs.write(e.tmp, changes[i]!.after!, { parentExists: true });
        // The file renamed into place keeps the mode of the one it replaces (or the one asked for).
        const mode = changes[i]!.mode ?? e.mode ?? null;
        if (mode !== null) await fs.chmod(e.tmp, mode);
      });
      await writeJournal(fs, sandbox, journal); // from here on a crash leaves a journal to recover
    } catch (err) {
      await cleanup(fs, sandbox, journal, renamed).catch(() => {});
      throw err;
    }

    // 3. renames into place; 4. journal marked committed and cleared.
    try {
      await inPool(journal.entries, CONCURRENCY, async (e) => {
        const target = sandbox.abs(e.path);
        if (e.tmp) {
          await dirs.ensureParent(target);
          await fs.rename(e.tmp, target, { parentExists: true });
          renamed.add(e.tmp);
        } else await fs.remove(target);
      });
      await removeEmptiedDirs(fs, sandbox, journal.entries.filter((e) => e.tmp === null).map((e) => e.path));
      if (options.onLanded) await options.onLanded(landedChanges(changes, modes));
      journal.state = "committed";
      await writeJournal(fs, sandbox, journal);
    } catch (err) {
      try {
        await rollback(fs, sandbox, journal, originals);
        await cleanup(fs, sandbox, journal, renamed).catch(() => {});
      } catch (rollbackErr) {
        throw new Error(
          `Cannot commit and cannot roll back: the journal in "${INTERNAL_DIR}/" restores the files when the workspace is next opened`,
          { cause: new AggregateError([err, rollbackErr]) },
        );
      }
      throw err;
    }
    await cleanup(fs, sandbox, journal, renamed).catch(() => {
      // Landed; a leftover "committed" journal is cleaned when the workspace next opens.
    });

    return await describeChanges(changes, { ...options, modes });
  }
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
