/**
 * Who holds the commit lock: the identity of the running process (pid, host,
 * start time) and a way to ask whether another process is still alive. The
 * core cannot know these with web standards alone; a runtime adapter hands
 * one in (`createDiskBackend()` on Deno, Node and Bun attaches it to the
 * backend), and {@linkcode webProcessIdentity} is the honest default where
 * nothing more can be known (browsers, workers, in-memory stores).
 *
 * @module
 */

/** The running process as a lock holder, and what it can tell about others. */
export interface ProcessIdentity {
  /** The operating-system process id, or null where there is none to name (a browser tab, a worker). */
  readonly pid: number | null;
  /** The machine's name; a random per-realm name where the runtime cannot tell. */
  readonly host: string;
  /** When this process (or realm) started, in ms since the epoch. */
  readonly started: number;
  /**
   * Whether process `pid` on this host is alive: true, false, or null when
   * this runtime cannot tell (the lock then falls back to its time lease).
   */
  isAlive(pid: number): boolean | null;
}

const REALM_KEY = Symbol.for("graver.realmIdentity");

/**
 * One identity per realm, shared by every copy of this module in it (two bundles in one page), made on
 * first use: workerd forbids random values at a module's top level.
 */
function realm(): { host: string; started: number } {
  const global = globalThis as Record<symbol, unknown>;
  return (global[REALM_KEY] ??= {
    host: `web-${crypto.getRandomValues(new Uint32Array(2)).join("-")}`,
    started: Date.now(),
  }) as { host: string; started: number };
}

/**
 * The identity of a JavaScript realm without process facts: no pid, a
 * random host name (so no other realm ever looks like "this host"), and no
 * liveness answer. A lock held by another realm is judged by its age only;
 * one left by this very realm is recognised through its token.
 *
 * @returns The realm's identity (the same object shape on every call).
 *
 * @example
 * ```ts
 * import { webProcessIdentity } from "./process_identity.ts";
 * import assert from "node:assert/strict";
 *
 * const me = webProcessIdentity();
 * assert.equal(me.pid, null);
 * assert.equal(me.isAlive(1), null);
 * ```
 */
export function webProcessIdentity(): ProcessIdentity {
  const { host, started } = realm();
  return { pid: null, host, started, isAlive: () => null };
}
