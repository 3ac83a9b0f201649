/**
 * The commit lock: one file, `.graver/lock`, created exclusively, so that
 * two processes (or two workspaces) over one store never interleave a
 * compare-and-swap with another commit's renames. A lock older than
 * `staleMs` belongs to a process that died and is broken.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import type { BackendFs } from "./backend.ts";
import { checkInternalDir } from "./journal.ts";
import { INTERNAL_DIR, type Sandbox } from "./sandbox.ts";

/** Lock timing; `now` and `sleep` are injectable for tests. */
export interface LockOptions {
  /** A lock older than this is considered abandoned (default 10 000 ms). */
  staleMs?: number;
  /** How long to wait for a live lock (default 10 000 ms). */
  waitMs?: number;
  /** Clock (default `Date.now`). */
  now?: () => number;
}

/** A held lock; release it exactly once. */
export interface HeldLock {
  /** Remove the lock if it is still ours. */
  release(): Promise<void>;
}

function lockPath(sandbox: Sandbox): string {
  return `${sandbox.abs(INTERNAL_DIR)}/lock`;
}

/**
 * Break a lock abandoned by a dead process. The lock is moved aside first
 * (a rename: only one breaker wins); if what was moved turns out to be a fresh
 * lock someone took after we judged the old one stale, it is put back.
 */
async function breakStale(fs: BackendFs, path: string, seen: string, token: string): Promise<void> {
  const aside = `${path}.${token.replaceAll(" ", "-")}.stale`;
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

/**
 * Take the commit lock, waiting for a live holder and breaking a stale one.
 *
 * @param fs Wrapped backend.
 * @param sandbox Root mapping.
 * @param options Timing.
 * @returns The held lock, or null when `waitMs` elapsed with the lock still live.
 */
export async function tryLock(
  fs: BackendFs,
  sandbox: Sandbox,
  options: LockOptions = {},
): Promise<HeldLock | null> {
  const now = options.now ?? Date.now;
  const staleMs = options.staleMs ?? 10_000;
  const deadline = now() + (options.waitMs ?? 10_000);
  const path = lockPath(sandbox);
  const token = `${now()} ${crypto.getRandomValues(new Uint32Array(2)).join("-")}`;
  const bytes = new TextEncoder().encode(token);
  await checkInternalDir(fs, sandbox); // never a lock written through a planted link
  for (let delay = 2;; delay = Math.min(delay * 2, 50)) {
    if (await fs.writeExclusive(path, bytes)) {
      return {
        async release() {
          const held = await fs.read(path);
          if (held !== null && new TextDecoder().decode(held) === token) await fs.remove(path);
        },
      };
    }
    const held = await fs.read(path);
    const seen = held === null ? null : new TextDecoder().decode(held);
    const since = seen === null ? NaN : Number(seen.split(" ", 1)[0]);
    if (seen !== null && (!Number.isFinite(since) || now() - since > staleMs)) {
      await breakStale(fs, path, seen, token);
      continue;
    }
    if (now() >= deadline) return null;
    await new Promise((r) => setTimeout(r, delay));
  }
}

/**
 * Take the commit lock or fail with a recoverable error.
 *
 * @param fs Wrapped backend.
 * @param sandbox Root mapping.
 * @param options Timing.
 * @returns The held lock.
 */
export async function lock(fs: BackendFs, sandbox: Sandbox, options: LockOptions = {}): Promise<HeldLock> {
  const held = await tryLock(fs, sandbox, options);
  if (held) return held;
  throw new RecoverableError(
    "limit_exceeded",
    `Cannot commit in "${sandbox.root}": another graver process has held "${INTERNAL_DIR}/lock" too long`,
    {
      hint: "Retry the same call in a few seconds; nothing was written",
      details: { lock: lockPath(sandbox) },
    },
  );
}
