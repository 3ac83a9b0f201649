/**
 * Fault injection for the conformance suite: a backend wrapper that counts
 * every call and fails the Nth one (or crashes: fails the Nth and every call
 * after it, like a process that died mid-commit).
 *
 * @module
 */
import type { Backend } from "../../src/mod.ts";

const METHODS = [
  "readFile",
  "writeFile",
  "rename",
  "unlink",
  "mkdir",
  "readdir",
  "stat",
  "lstat",
  "readlink",
  "rmdir",
  "chmod",
] as const;

/** How the wrapper misbehaves. */
export interface FaultPlan {
  /** 1-based index of the call that fails (0: never). */
  failAt: number;
  /** When true, every call from `failAt` on fails too (a crash). */
  crash?: boolean;
}

/** A wrapped backend plus its call counter. */
export interface FaultyBackend {
  /** The backend to hand to graver. */
  backend: Backend;
  /** Calls made so far. */
  calls(): number;
  /** Whether the planned fault has fired. */
  fired(): boolean;
}

/**
 * Wrap a backend so that the planned call fails with an `EIO` error.
 *
 * @param raw The real backend.
 * @param plan Which call fails.
 * @returns The wrapper and its counter.
 */
export function faultyBackend(raw: Backend, plan: FaultPlan): FaultyBackend {
  let count = 0;
  let fired = false;
  const wrapped: Record<string, unknown> = {};
  for (const name of METHODS) {
    const fn = (raw as unknown as Record<string, unknown>)[name];
    if (typeof fn !== "function") continue;
    wrapped[name] = (...args: unknown[]) => {
      count++;
      if (plan.failAt > 0 && (count === plan.failAt || (plan.crash === true && count > plan.failAt))) {
        fired = true;
        const err = new Error(`EIO: injected fault on call ${count} (${name})`) as Error & { code: string };
        err.code = "EIO";
        return Promise.reject(err);
      }
      return (fn as (...a: unknown[]) => Promise<unknown>).apply(raw, args);
    };
  }
  return { backend: wrapped as unknown as Backend, calls: () => count, fired: () => fired };
}
