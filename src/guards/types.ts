/**
 * The shapes the read guard works on, shared by its parts: the mode it runs
 * in, the call it judges (dispatch's `CallInProgress` satisfies it), the host
 * it reads files through (a `ToolHost` satisfies it) and the outcome it
 * records (a `ToolResult` satisfies it). Types only.
 *
 * @module
 */
import type { ShownLines } from "../errors.ts";
import type { BackendFs } from "../fs/backend.ts";
import type { Sandbox } from "../fs/sandbox.ts";
import type { PendingChange } from "../fs/stage.ts";
import type { TelemetrySink } from "../telemetry.ts";
import type { ToolKind } from "../tool_kinds.ts";

/** What the guard does with an edit of unseen lines: nothing, a warning, or a refusal. */
export type ReadGuardMode = "off" | "warn" | "refuse";

/** The call as the guard sees it (dispatch's `CallInProgress` satisfies it). */
export interface GuardedCall {
  /**
   * The tool (`previewOnly`: a plan, whose ops are judged one by one as they run; `kind`: `whole_file`
   * needs all of an existing file read, `derived` is judged on the file its `path` names).
   */
  tool: { name: string; mutates: boolean; previewOnly?: boolean; kind?: ToolKind };
  /** Its args. */
  args: Record<string, unknown>;
  /** Session id. */
  session: string;
  /** Whether the caller named the session. */
  explicitSession: boolean;
  /** The mode asked for this call. */
  readGuard?: ReadGuardMode;
  /** Nothing will be written. */
  dryRun: boolean;
  /** An op of a plan. */
  nested: boolean;
  /** Warnings for the result. */
  warnings: string[];
  /** What the handler staged. */
  changes: readonly PendingChange[];
  /** What the final answer displayed of files (lines read, bodies, an outline, did-you-mean windows). */
  shown?: readonly ShownLines[];
}

/** The host as the guard needs it (a `ToolHost` satisfies it). */
export interface GuardHost {
  /** Wrapped backend. */
  readonly fs: BackendFs;
  /** Root mapping. */
  readonly sandbox: Sandbox;
  /** Counters. */
  readonly telemetry: TelemetrySink;
}

/** A call's final outcome as the guard reads it (a `ToolResult` satisfies it). */
export interface GuardedResult {
  /** Success. */
  ok: boolean;
  /** applied | dry_run | no_change | read. */
  status?: string;
  /** Tool data. */
  data?: Record<string, unknown>;
  /** What was committed. */
  changes?: readonly { path: string; after_version: string | null }[];
  /** The refusal. */
  error?: { code: string; details?: Record<string, unknown> };
}
