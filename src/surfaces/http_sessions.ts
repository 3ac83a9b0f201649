/**
 * The named sessions a server keeps, and when it lets them go. Each named
 * session holds a read ledger and the compass's state in the workspace; a
 * server that never dropped them grew without bound (3,000 named sessions
 * took 1.4 GB). The table holds at most `maxSessions` (default 1,000) and
 * drops a session idle for `idleMs` (default 30 minutes), least recently
 * used first, never one with a call in flight. A session that asks to
 * survive (`persist`) has its ledger written to
 * `.graver/sessions/<id>.json` when it is dropped or the server stops, and
 * read back when it calls again (asking again).
 *
 * One-shot calls (no session header) are not sessions: the HTTP route
 * forgets what they leave behind as soon as they finish.
 *
 * @module
 */
import { INTERNAL_DIR } from "../fs/sandbox.ts";
import { ignoreInternalDir } from "../fs/internal_dir.ts";
import type { Workspace } from "../workspace.ts";
import { type CallRunner, workspaceRunner } from "./call_runner.ts";
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS } from "./http_limits.ts";

export { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS } from "./http_limits.ts";

/** Largest persisted ledger read back (a bigger file is ignored: the session starts empty). */
const MAX_PERSISTED_BYTES = 8 * 1024 * 1024;

/** Options of {@linkcode SessionTable}. */
export interface SessionTableOptions {
  /** Most named sessions held (default {@linkcode DEFAULT_MAX_SESSIONS}). */
  maxSessions?: number;
  /** Idle time in ms after which a session is dropped (default {@linkcode DEFAULT_SESSION_IDLE_MS}; 0: never). */
  idleMs?: number;
  /** The clock (ms); tests pass their own. */
  now?: () => number;
  /** Where the ledgers live (default: the workspace; see `call_runner.ts`). */
  runner?: CallRunner;
}

interface Entry {
  lastUsed: number;
  active: number;
  persist: boolean;
}

/**
 * The named sessions of one server over one workspace.
 *
 * @example At most two sessions are held; the least recently used goes
 * ```ts
 * import { createMemoryBackend, createWorkspace } from "@graver/core";
 * import { SessionTable } from "./http_sessions.ts";
 * import assert from "node:assert/strict";
 *
 * const workspace = await createWorkspace({ backend: createMemoryBackend({ "/a.txt": "hi\n" }) });
 * const table = new SessionTable(workspace, { maxSessions: 2 });
 * for (const id of ["s1", "s2", "s3"]) {
 *   await table.begin(id);
 *   await workspace.call("read_file", { path: "a.txt" }, { session: id });
 *   await table.end(id);
 * }
 * assert.deepEqual(table.ids(), ["s2", "s3"]);
 * assert.equal(workspace.sessionCount, 2);
 * ```
 */
export class SessionTable {
  readonly #workspace: Workspace;
  readonly #runner: CallRunner;
  readonly #max: number;
  readonly #idleMs: number;
  readonly #now: () => number;
  /** Least recently used first. */
  readonly #entries = new Map<string, Entry>();

  /**
   * Keep the named sessions of a workspace.
   *
   * @param workspace The workspace whose sessions these are.
   * @param options The bounds and the clock.
   */
  constructor(workspace: Workspace, options: SessionTableOptions = {}) {
    this.#workspace = workspace;
    this.#runner = options.runner ?? workspaceRunner(workspace);
    // The runner lost every ledger (a worker was replaced): nothing is left to hold or persist.
    this.#runner.onReset(() => this.#entries.clear());
    this.#max = Math.max(1, options.maxSessions ?? DEFAULT_MAX_SESSIONS);
    this.#idleMs = options.idleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.#now = options.now ?? (() => Date.now());
  }

  /** How many named sessions are held. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * The held sessions, least recently used first.
   *
   * @returns Their ids.
   */
  ids(): string[] {
    return [...this.#entries.keys()];
  }

  /**
   * A call of a session starts: the session is held (and its persisted ledger read back when it asks to
   * persist and is not held yet) until {@linkcode SessionTable.end}.
   *
   * @param id The session id.
   * @param options `persist`: keep the ledger across drops and restarts.
   */
  async begin(id: string, options: { persist?: boolean } = {}): Promise<void> {
    let entry = this.#entries.get(id);
    if (entry) this.#entries.delete(id);
    else {
      entry = { lastUsed: this.#now(), active: 0, persist: false };
      if (options.persist && !(await this.#runner.hasSession(id))) await this.#restore(id);
    }
    if (options.persist) entry.persist = true;
    entry.active++;
    this.#entries.set(id, entry);
  }

  /**
   * A call of a session has finished: it is marked used now, and the sessions over the bounds are dropped.
   *
   * @param id The session id.
   */
  async end(id: string): Promise<void> {
    const entry = this.#entries.get(id);
    if (entry) {
      entry.active = Math.max(0, entry.active - 1);
      entry.lastUsed = this.#now();
      this.#entries.delete(id);
      this.#entries.set(id, entry);
    }
    await this.sweep();
  }

  /** Drop the sessions idle past the idle time, then the least recently used ones over the count. */
  async sweep(): Promise<void> {
    const now = this.#now();
    const drop: string[] = [];
    let kept = this.#entries.size;
    // Least recently used first: once one is neither idle nor surplus, none after it is.
    for (const [id, entry] of this.#entries) {
      if (entry.active > 0) continue;
      const idle = this.#idleMs > 0 && now - entry.lastUsed >= this.#idleMs;
      if (!idle && kept <= this.#max) break;
      drop.push(id);
      kept--;
    }
    for (const id of drop) await this.#drop(id);
  }

  /**
   * Forget a session that is not held (a one-shot call's) in the workspace.
   *
   * @param id The session id.
   */
  async forget(id: string): Promise<void> {
    if (!this.#entries.has(id)) await this.#runner.forgetSession(id);
  }

  /** Drop every session (persisting those that asked): the server is stopping. */
  async close(): Promise<void> {
    for (const id of [...this.#entries.keys()]) await this.#drop(id);
  }

  async #drop(id: string): Promise<void> {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    if (entry.persist) await this.#persist(id);
    await this.#runner.forgetSession(id);
  }

  /** Where a session's ledger is persisted (ids are 1-128 of `A-Z a-z 0-9 . _ : -`: no slash). */
  #file(id: string): { dir: string; file: string } {
    const dir = this.#workspace.sandbox.abs(`${INTERNAL_DIR}/sessions`);
    return { dir, file: `${dir}/${id.replaceAll(":", "%3A")}.json` };
  }

  /** Whether graver's own folders on the way to the sessions folder are real folders (or absent), not links. */
  async #safeDir(): Promise<boolean> {
    const fs = this.#workspace.fs;
    for (const dir of [this.#workspace.sandbox.abs(INTERNAL_DIR), this.#file("x").dir]) {
      const kind = await fs.kind(dir);
      if (kind !== null && kind !== "dir") return false;
    }
    return true;
  }

  async #persist(id: string): Promise<void> {
    try {
      if (!(await this.#safeDir())) throw new Error(".graver/ or .graver/sessions/ is not a folder");
      const data = JSON.stringify(await this.#runner.exportSession(id));
      await this.#workspace.fs.write(this.#file(id).file, new TextEncoder().encode(data));
      await ignoreInternalDir(this.#workspace.fs, this.#workspace.sandbox.abs(INTERNAL_DIR));
    } catch (err) {
      this.#workspace.telemetry.event("graver.session.persist_failed", { session: id, error: String(err) });
    }
  }

  async #restore(id: string): Promise<void> {
    const { file } = this.#file(id);
    try {
      if (!(await this.#safeDir()) || (await this.#workspace.fs.kind(file)) !== "file") return;
      const bytes = await this.#workspace.fs.read(file);
      if (!bytes || bytes.byteLength > MAX_PERSISTED_BYTES) return;
      await this.#runner.importSession(id, JSON.parse(new TextDecoder().decode(bytes)));
      this.#workspace.telemetry.event("graver.session.restored", { session: id });
    } catch (err) {
      // Not a graver ledger (or unreadable): the session starts empty.
      this.#workspace.telemetry.event("graver.session.restore_failed", { session: id, error: String(err) });
    }
  }
}

/** The request and response header naming a call's graver session. */
export const SESSION_HEADER = "Graver-Session";

/** The request header asking that a named session's ledger survive being dropped (`true`). */
export const PERSIST_HEADER = "Graver-Session-Persist";

/** What a session id may look like: 1–128 of `A-Z a-z 0-9 . _ : -`. */
const SESSION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A call's session as its request names it. */
export interface CallSession {
  /** The session id (made up for a one-shot call). */
  id: string;
  /** Whether the request named it (a one-shot call did not). */
  named: boolean;
  /** Whether the request asked that its ledger survive. */
  persist: boolean;
}

/**
 * The session a request names in {@linkcode SESSION_HEADER}, or a fresh id for a one-shot call; null when
 * the header is malformed.
 *
 * @example
 * ```ts
 * import { sessionOf } from "./http_sessions.ts";
 * import assert from "node:assert/strict";
 *
 * const named = sessionOf(new Headers({ "graver-session": "agent-1", "graver-session-persist": "true" }));
 * assert.deepEqual(named, { id: "agent-1", named: true, persist: true });
 * assert.equal(sessionOf(new Headers())?.named, false);
 * assert.equal(sessionOf(new Headers({ "graver-session": "no spaces" })), null);
 * ```
 *
 * @param headers The request's headers.
 * @returns The session, or null for a malformed id.
 */
export function sessionOf(headers: Headers): CallSession | null {
  const given = headers.get(SESSION_HEADER);
  if (given === null) return { id: crypto.randomUUID(), named: false, persist: false };
  if (!SESSION_ID.test(given)) return null;
  return { id: given, named: true, persist: /^(true|1)$/i.test(headers.get(PERSIST_HEADER) ?? "") };
}

/**
 * Run one call in its session's scope: a named session is held by the table for the call (and its bounds
 * applied when the call ends); a one-shot call's session is forgotten as soon as the call settles, so it
 * leaves nothing behind. The bookkeeping follows the call itself and is done before it returns (a caller
 * that answers early, on a time limit, still leaves it to run when the call settles).
 *
 * @param table The server's sessions.
 * @param session The call's session.
 * @param call Starts the call.
 * @returns The call's result.
 */
export async function runInSession<T>(
  table: SessionTable,
  session: CallSession,
  call: () => Promise<T>,
): Promise<T> {
  if (session.named) await table.begin(session.id, { persist: session.persist });
  const work = call();
  const bookkept = work.then(() => {}, () => {})
    .then(() => session.named ? table.end(session.id) : table.forget(session.id))
    .catch(() => {});
  try {
    return await work;
  } finally {
    await bookkept;
  }
}
