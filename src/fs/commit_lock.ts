/**
 * The commit lock: one file, `.graver/lock`, created exclusively, so that
 * two processes (or two workspaces) over one store never interleave a
 * compare-and-swap with another commit's renames.
 *
 * The lock says who holds it: `{ pid, host, started, token, fence, acquired }`.
 * A holder is judged gone — and its lock broken at once — when its process
 * is dead on this host (the adapter's {@linkcode ProcessIdentity} tells), when
 * it is this very process but no commit of ours holds that token, when the
 * lock is dated implausibly in the future (planted, or left before a clock
 * step back), or when the lock cannot be read. Where liveness cannot be
 * known (another host, a browser) the lock is a lease of `staleMs`. Whoever
 * holds it checks, before each step that touches the tree, that the lock
 * file still carries its token ({@linkcode HeldLock.check}: the fencing
 * check), so a writer whose lease was broken while it was paused stops.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import type { BackendFs } from "./backend.ts";
import { checkInternalDir } from "./journal.ts";
import type { ProcessIdentity } from "./process_identity.ts";
import { INTERNAL_DIR, type Sandbox } from "./sandbox.ts";

/** Lock timing and identity; `now` and `identity` are injectable for tests. */
export interface LockOptions {
  /** A lock whose holder's liveness is unknown is abandoned after this long (default 10 000 ms). */
  staleMs?: number;
  /** How long to wait for a live lock (default 10 000 ms). */
  waitMs?: number;
  /** Clock (default `Date.now`). */
  now?: () => number;
  /** Who we are and who is alive (default: the backend's, else the web realm's). */
  identity?: ProcessIdentity;
}

/** A held lock; release it exactly once. */
export interface HeldLock {
  /** What the lock file says about us. */
  readonly holder: LockHolder;
  /**
   * The fencing check: throws `limit_exceeded` when the lock file no longer
   * carries our token (another writer judged our lease stale and broke it).
   */
  check(): Promise<void>;
  /** Remove the lock if it is still ours. */
  release(): Promise<void>;
}

/** The content of `.graver/lock`. */
export interface LockHolder {
  /** Format marker. */
  graver_lock: 1;
  /** The holder's process id (null: none to name). */
  pid: number | null;
  /** The holder's host. */
  host: string;
  /** When the holder's process started (ms since the epoch). */
  started: number;
  /** Random per acquisition: what the fencing check compares. */
  token: string;
  /** One more than the fence of the lock this one replaced (1 for a lock taken free). */
  fence: number;
  /** When the lock was taken, by the holder's clock (ms since the epoch). */
  acquired: number;
}

/** How far in the future a lock's stamp may be (clock skew between processes) before it is implausible. */
export const FUTURE_SKEW_MS = 60_000;
/** A lock of a live process on this host is broken after this long all the same (its pid was reused). */
const LIVE_MAX_MS = 10 * 60_000;

/** How long a lock file may stay unreadable (its taker between creating and writing it) before it is broken. */
const UNREADABLE_GRACE_MS = 1_000;

/**
 * Tokens of the locks this realm holds right now: a lock of ours with another token is abandoned. Kept on
 * the global object, so that two copies of this module in one process (two bundles) share it.
 */
const HELD_KEY = Symbol.for("graver.heldLocks");
const HELD_HERE = ((globalThis as Record<symbol, unknown>)[HELD_KEY] ??= new Set<string>()) as Set<string>;

/**
 * Backend path of the lock file.
 *
 * @param sandbox Root mapping.
 * @returns `<root>/.graver/lock`.
 */
export function lockPath(sandbox: Sandbox): string {
  return `${sandbox.abs(INTERNAL_DIR)}/lock`;
}

/** Parse a lock file: the JSON holder, or the older `"<ms> <token>"` stamp; null when unreadable. */
function parseHolder(text: string): Partial<LockHolder> & { acquired: number } | null {
  try {
    const j = JSON.parse(text) as Partial<LockHolder>;
    if (j && typeof j === "object" && typeof j.acquired === "number" && Number.isFinite(j.acquired)) {
      return j as Partial<LockHolder> & { acquired: number };
    }
  } catch {
    // the older stamp, below
  }
  const since = Number(text.split(" ", 1)[0]);
  return Number.isFinite(since) && text.includes(" ") ? { acquired: since } : null;
}

/** What {@linkcode staleReason} judges a lock by. */
export interface LockJudge {
  /** Who we are, and who is alive. */
  me: ProcessIdentity;
  /** Our clock now (ms since the epoch). */
  now: number;
  /** The lease of a holder whose liveness cannot be known. */
  staleMs: number;
}

/**
 * Why a lock is abandoned (and may be broken now), or null while its holder may still be at work.
 *
 * @param text The lock file's content.
 * @param judge Our identity, the time and the lease.
 * @returns A reason naming what was found, or null.
 *
 * @example A dead holder on this host, a lock from the future, a live lease
 * ```ts
 * import { staleReason } from "./commit_lock.ts";
 * import assert from "node:assert/strict";
 *
 * const me = { pid: 1, host: "h", started: 0, isAlive: (pid: number) => pid === 1 };
 * const judge = { me, now: 100_000, staleMs: 10_000 };
 * const lock = (fields: object) => JSON.stringify({ started: 5, token: "t", ...fields });
 * assert.equal(staleReason(lock({ pid: 7, host: "h", acquired: 99_000 }), judge), "its process 7 on h is gone");
 * assert.match(staleReason(lock({ pid: 7, host: "x", acquired: 900_000 }), judge)!, /in the future/);
 * assert.equal(staleReason(lock({ pid: 7, host: "x", acquired: 95_000 }), judge), null);
 * ```
 */
export function staleReason(text: string, judge: LockJudge): string | null {
  const holder = parseHolder(text);
  if (holder === null) return "it cannot be read";
  const { me, now, staleMs } = judge;
  const age = now - holder.acquired;
  if (age < -FUTURE_SKEW_MS) return `it is dated ${Math.round(-age / 1000)} s in the future`;
  if (holder.host === me.host && holder.pid === me.pid && holder.started === me.started) {
    return HELD_HERE.has(String(holder.token)) ? null : "this process holds no commit with its token";
  }
  if (holder.host === me.host && typeof holder.pid === "number" && me.pid !== null) {
    const alive = me.isAlive(holder.pid!);
    if (alive === false) return `its process ${holder.pid} on ${holder.host} is gone`;
    if (alive === true) return age > LIVE_MAX_MS ? `it is ${Math.round(age / 1000)} s old` : null;
  }
  return age > staleMs ? `it is ${Math.round(age / 1000)} s old, past its ${staleMs} ms lease` : null;
}

/**
 * Break a lock abandoned by a dead process. The lock is moved aside first
 * (a rename: only one breaker wins); if what was moved turns out to be a fresh
 * lock someone took after we judged the old one stale, it is put back.
 */
async function breakStale(fs: BackendFs, path: string, seen: string, token: string): Promise<void> {
  const aside = `${path}.${token}.stale`;
  // Judged on what was read a while ago: a lock taken since (by its holder again) is not moved aside, which
  // would make the live holder's fence check fail while it is away.
  const now = await fs.read(path);
  if (now === null || new TextDecoder().decode(now) !== seen) return;
  try {
    await fs.rename(path, aside, { parentExists: true });
  } catch {
    return; // another breaker moved it first
  }
  const moved = await fs.read(aside);
  if (moved !== null && new TextDecoder().decode(moved) !== seen) {
    await fs.writeExclusive(path, moved); // a live lock: give it back to its holder
  }
  await fs.remove(aside);
}

function heldLock(fs: BackendFs, path: string, holder: LockHolder): HeldLock {
  const ours = async () => {
    const held = await fs.read(path);
    return held !== null && parseHolder(new TextDecoder().decode(held))?.token === holder.token;
  };
  return {
    holder,
    async check() {
      if (await ours()) return;
      throw new RecoverableError(
        "limit_exceeded",
        `Cannot finish the commit: "${path}" no longer holds this process's lock (another writer judged its lease stale and broke it)`,
        {
          hint: "Read the files again and retry the call; what this commit had landed was rolled back",
          details: { lock: path, token: holder.token },
        },
      );
    },
    async release() {
      // The file goes first: while it exists, this process's token must say it is held (or another workspace
      // of this process would judge it abandoned and break it).
      try {
        if (await ours()) await fs.remove(path);
      } finally {
        HELD_HERE.delete(holder.token);
      }
    },
  };
}

/** The fence of a lock file's content (0 when it has none). */
function fenceOf(text: string | null): number {
  const fence = text === null ? 0 : parseHolder(text)?.fence;
  return typeof fence === "number" && Number.isSafeInteger(fence) ? fence : 0;
}

/**
 * Take the commit lock, waiting for a live holder and breaking an abandoned one.
 *
 * @param fs Wrapped backend.
 * @param sandbox Root mapping.
 * @param options Timing and identity.
 * @returns The held lock, or null when `waitMs` elapsed with the lock still live.
 */
export async function tryLock(
  fs: BackendFs,
  sandbox: Sandbox,
  options: LockOptions = {},
): Promise<HeldLock | null> {
  const now = options.now ?? Date.now;
  const me = options.identity ?? fs.processIdentity;
  const judge = { me, staleMs: options.staleMs ?? 10_000 };
  const deadline = now() + (options.waitMs ?? 10_000);
  const path = lockPath(sandbox);
  const token = crypto.getRandomValues(new Uint32Array(2)).join("-");
  await checkInternalDir(fs, sandbox); // never a lock written through a planted link
  let fence = 1;
  let unreadableSince: number | null = null;
  for (let delay = 2;; delay = Math.min(delay * 2, 50)) {
    const holder: LockHolder = {
      graver_lock: 1,
      pid: me.pid,
      host: me.host,
      started: me.started,
      token,
      fence,
      acquired: now(),
    };
    HELD_HERE.add(token); // before the file exists: a lock of ours is never judged abandoned while we take it
    if (await fs.writeExclusive(path, new TextEncoder().encode(JSON.stringify(holder)))) {
      return heldLock(fs, path, holder);
    }
    HELD_HERE.delete(token);
    const held = await fs.read(path);
    const seen = held === null ? null : new TextDecoder().decode(held);
    // A lock that cannot be read may be one its taker is still writing (created empty, then written): it is
    // abandoned only once it has stayed unreadable for a while.
    const unreadable = seen !== null && parseHolder(seen) === null;
    if (!unreadable) unreadableSince = null;
    else unreadableSince ??= now();
    const settled = !unreadable || now() - unreadableSince! > UNREADABLE_GRACE_MS;
    if (seen !== null && settled && staleReason(seen, { ...judge, now: now() }) !== null) {
      fence = fenceOf(seen) + 1;
      await breakStale(fs, path, seen, token);
      continue;
    }
    if (now() >= deadline) return null;
    await new Promise((r) => setTimeout(r, delay));
  }
}

/**
 * Who holds the lock, in words, for messages: "process 123 on host h since 12:00:01Z".
 *
 * @param fs Wrapped backend.
 * @param sandbox Root mapping.
 * @returns The description, or null when nobody holds it.
 */
export async function describeHolder(fs: BackendFs, sandbox: Sandbox): Promise<string | null> {
  const raw = await fs.read(lockPath(sandbox));
  if (raw === null) return null;
  const holder = parseHolder(new TextDecoder().decode(raw));
  if (holder === null) return "an unreadable lock";
  const since = new Date(holder.acquired).toISOString();
  const who = typeof holder.pid === "number" ? `process ${holder.pid}` : "a process with no pid";
  return holder.host === undefined
    ? `a lock of an older graver since ${since}`
    : `${who} on ${holder.host} since ${since}`;
}

/**
 * Take the commit lock or fail with a recoverable error naming the lock
 * file, its holder and how to clear it.
 *
 * @param fs Wrapped backend.
 * @param sandbox Root mapping.
 * @param options Timing and identity.
 * @returns The held lock.
 */
export async function lock(fs: BackendFs, sandbox: Sandbox, options: LockOptions = {}): Promise<HeldLock> {
  const held = await tryLock(fs, sandbox, options);
  if (held) return held;
  const path = lockPath(sandbox);
  const holder = await describeHolder(fs, sandbox) ?? "another graver process";
  throw new RecoverableError(
    "limit_exceeded",
    `Cannot commit in "${sandbox.root}": "${path}" is held by ${holder}, for longer than this call waits`,
    {
      hint: `Retry the same call in a few seconds; nothing was written. If no graver process is running ` +
        `there, remove "${path}" to clear it`,
      details: { lock: path, holder },
    },
  );
}
