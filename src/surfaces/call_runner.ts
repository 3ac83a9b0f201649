/**
 * Where a server's tool calls run. By default on the workspace itself, in
 * the server's own event loop; a runtime adapter may run them in a worker
 * that holds its own workspace (Deno's `graver serve --isolate`), so that a
 * call stuck in synchronous work can be stopped at its time limit (the
 * worker is ended and a fresh one takes the next call) while the server
 * keeps answering. The session bookkeeping (`http_sessions.ts`) reaches the
 * ledgers through the same runner, wherever they live.
 *
 * @module
 */
import type { LedgerData } from "../guards/ledger.ts";
import type { DispatchOptions } from "../tools/dispatch.ts";
import type { ToolResult } from "../tools/types.ts";
import type { Workspace } from "../workspace.ts";

/** Runs tool calls and keeps the sessions' ledgers. */
export interface CallRunner {
  /** Run one call through dispatch. */
  call(tool: string, args: unknown, options: DispatchOptions): Promise<ToolResult>;
  /** Whether a session has a ledger. */
  hasSession(session: string): Promise<boolean>;
  /** A session's ledger, serialised. */
  exportSession(session: string): Promise<LedgerData>;
  /** Restore a session's ledger. */
  importSession(session: string, data: unknown): Promise<void>;
  /** Forget a session. */
  forgetSession(session: string): Promise<void>;
  /** Be told when every session's state was lost (a worker was ended and replaced). */
  onReset(listener: () => void): void;
  /**
   * True when the runner itself stops a call at the time limit (answering `limit_exceeded`): the server
   * then leaves the time limit to it, and a call is never left running past it.
   */
  readonly stopsCalls?: boolean;
}

/**
 * The runner of calls on the workspace itself.
 *
 * @example
 * ```ts
 * import { createMemoryBackend, createWorkspace } from "@graver/core";
 * import { workspaceRunner } from "./call_runner.ts";
 * import assert from "node:assert/strict";
 *
 * const workspace = await createWorkspace({ backend: createMemoryBackend({ "/a.txt": "hi\n" }) });
 * const runner = workspaceRunner(workspace);
 * assert.ok((await runner.call("read_file", { path: "a.txt" }, { session: "s" })).ok);
 * assert.ok(await runner.hasSession("s"));
 * await runner.forgetSession("s");
 * assert.equal(await runner.hasSession("s"), false);
 * ```
 *
 * @param workspace The workspace.
 * @returns Its runner (it never resets).
 */
export function workspaceRunner(workspace: Workspace): CallRunner {
  return {
    call: (tool, args, options) => workspace.call(tool, args, options),
    hasSession: (session) => Promise.resolve(workspace.readGuard.ledgers.has(session)),
    exportSession: (session) => Promise.resolve(workspace.exportSession(session)),
    importSession: (session, data) => Promise.resolve(workspace.importSession(session, data)),
    forgetSession: (session) => Promise.resolve(workspace.forgetSession(session)),
    onReset: () => {},
  };
}
