/**
 * Shared types of the tool layer: definitions, contexts and results.
 *
 * @module
 */
import type { ErrorPayload } from "../errors.ts";
import type { CommittedChange } from "../fs/commit.ts";
import type { BackendFs } from "../fs/backend.ts";
import type { LockOptions } from "../fs/commit_lock.ts";
import type { Sandbox } from "../fs/sandbox.ts";
import type { Stage } from "../fs/stage.ts";
import type { Parsing, SyntaxGuardMode } from "../syntax/types.ts";
import type { TelemetrySink } from "../telemetry.ts";

/** A JSON Schema object (draft 2020-12). */
export type JsonSchema = Record<string, unknown>;

/** A reminder attached to a result (compass providers). */
export interface Reminder {
  /** Which provider produced it. */
  provider: string;
  /** The text for the model. */
  text: string;
  /** Whether a harness should keep it when compacting context. */
  preserve_on_compact: boolean;
}

/**
 * What dispatch and the tools need of their host: the wrapped backend, the
 * sandbox, grammars and parse cache, telemetry and the policies. A
 * `Workspace` satisfies it structurally; tools never see the workspace itself.
 */
export interface ToolHost extends Parsing {
  /** Wrapped backend. */
  readonly fs: BackendFs;
  /** Root mapping. */
  readonly sandbox: Sandbox;
  /** Counters and events sink. */
  readonly telemetry: TelemetrySink;
  /** The syntax guard's default for this host. */
  readonly syntaxGuard: SyntaxGuardMode;
  /** Commit-lock timing. */
  readonly lock: LockOptions;
  /** Whether the low-confidence fuzzy tier may write when a call does not say (default false). */
  readonly fuzzy?: boolean;
}

/** What a handler sees. */
export interface ToolContext {
  /** The host the call runs in (a `Workspace`, seen through its narrow tool interface). */
  workspace: ToolHost;
  /** A fresh stage for this call; dispatch commits it. */
  stage: Stage;
  /** Session id (ledger scope). */
  session: string;
  /** True when nothing will be written. */
  dryRun: boolean;
}

/** What a handler returns; dispatch adds changes and the envelope. */
export interface HandlerResult {
  /** Tool-specific data. */
  data?: Record<string, unknown>;
  /** Non-fatal notes for the caller. */
  warnings?: string[];
  /** Moves to report as one rename diff: destination -> source. */
  renames?: Map<string, string>;
  /** Skip the syntax guard (e.g. a move, which changes no content). */
  skipSyntaxCheck?: boolean;
  /** Override the workspace's syntax guard mode for this call ("refuse" | "warn" | "off"). */
  syntaxGuard?: SyntaxGuardMode;
}

/** One tool of the catalogue. */
export interface ToolDefinition<A = Record<string, unknown>> {
  /** snake_case name. */
  name: string;
  /** One paragraph: what it does and when to use it. */
  description: string;
  /** JSON Schema of the single args object. */
  inputSchema: JsonSchema;
  /** Whether the tool can change files (it then accepts `dry_run`). */
  mutates: boolean;
  /** Always a preview: dispatch never commits this tool's stage (edit_dry_run). */
  previewOnly?: boolean;
  /** The logic; throws RecoverableError for refusals. */
  handler(args: A, ctx: ToolContext): Promise<HandlerResult>;
}

/** A successful call. */
export interface ToolSuccess {
  /** Always true. */
  ok: true;
  /** Tool name. */
  tool: string;
  /** applied | dry_run | no_change | read. */
  status: "applied" | "dry_run" | "no_change" | "read";
  /** Files changed (or that would change, on a dry run). */
  changes: CommittedChange[];
  /** Tool-specific data. */
  data: Record<string, unknown>;
  /** Non-fatal notes. */
  warnings: string[];
  /** Compass reminders. */
  reminders: Reminder[];
}

/** A refused or failed call; nothing was written. */
export interface ToolFailure {
  /** Always false. */
  ok: false;
  /** Tool name. */
  tool: string;
  /** What went wrong and what to do next. */
  error: ErrorPayload;
  /** Compass reminders. */
  reminders: Reminder[];
}

/** Every call returns one of these. */
export type ToolResult = ToolSuccess | ToolFailure;
