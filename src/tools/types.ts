/**
 * Shared types of the tool layer: definitions, contexts and results.
 *
 * @module
 */
import type { ErrorPayload, RecoverableError, ShownLines } from "../errors.ts";
import type { ToolKind } from "../tool_kinds.ts";
import type { CommittedChange } from "../fs/commit.ts";
import type { BackendFs } from "../fs/backend.ts";
import type { LockOptions } from "../fs/commit_lock.ts";
import type { Sandbox } from "../fs/sandbox.ts";
import type { Checkpoints } from "../fs/checkpoints.ts";
import type { LandedChange } from "../fs/commit.ts";
import type { PendingChange, Stage } from "../fs/stage.ts";
import type { Parsing, SyntaxGuardMode } from "../syntax/types.ts";
import type { ReadGuardMode } from "../guards/read_guard.ts";
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
 * How big one `read_file` answer may be: a token budget and how tokens are
 * counted (default 15,000 tokens, counted as characters / 4 rounded up).
 */
export interface ReadBudget {
  /** Most tokens of content one read returns (default 15,000). */
  tokens?: number;
  /** Count the tokens of a text (default: `Math.ceil(text.length / 4)`). */
  countTokens?: (text: string) => number;
}

export type { ReadGuardMode } from "../guards/read_guard.ts";

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
  /** Steps plugged into dispatch between validation and the handler (router, guards), in order. */
  readonly steps?: readonly PipelineStep[];
  /** Whether the low-confidence fuzzy tier may write when a call does not say (default false). */
  readonly fuzzy?: boolean;
  /** The shadow checkpoint repository, when the host records checkpoints (workspace option `checkpoints`). */
  readonly checkpoints?: Checkpoints | null;
  /** The size cap of one `read_file` answer (default 15,000 tokens ≈ characters / 4). */
  readonly readBudget?: ReadBudget;
  /** Most characters one result holds as JSON (default 100,000: `result_fit.ts`). */
  readonly resultChars?: number;
}

/** One call as it moves through dispatch's pipeline; a route step may rewrite its tool and args. */
export interface CallInProgress {
  /** The tool that will run (a route step may swap it). */
  tool: ToolDefinition;
  /**
   * The tool the caller named, whatever a route step swapped in: guards that
   * judge what the agent asked for (a freeform edit) look at it too, so a
   * substitution (the compass's rewrite mode) never lets a call past them.
   */
  readonly calledTool: string;
  /** Its validated args (a route step may rewrite them; they are validated again). */
  args: Record<string, unknown>;
  /** Session id. */
  session: string;
  /**
   * True when the caller named the session (library `session` option, CLI
   * `--session`); false when `session` is the implicit "default". Session
   * policies (the read guard) apply only to named sessions unless asked.
   */
  explicitSession: boolean;
  /** The read guard's mode asked for this call (overrides the session policy), when given. */
  readGuard?: ReadGuardMode;
  /** The definition gate's mode asked for this call (overrides the session policy), when given. */
  gate?: "off" | "warn" | "refuse";
  /** True when nothing will be written. */
  dryRun: boolean;
  /** Notes steps attach to the result. */
  warnings: string[];
  /** Reminders steps attach to the result. */
  reminders: Reminder[];
  /**
   * What the handler staged, relative to the files' bases: empty for route and
   * guard steps, filled before `review` steps run (what an edit would change).
   */
  changes: readonly PendingChange[];
  /** True for an op of a plan (edit_dry_run): previewed on a forked stage, never committed. */
  nested: boolean;
  /**
   * What the final answer displayed of files (set by dispatch before `after` steps run): the handler's
   * {@linkcode HandlerResult.shown} on a success, the refusal's `shown` on a failure.
   */
  shown?: readonly ShownLines[];
}

/**
 * A step plugged into dispatch: `route` steps run first (the compass router:
 * may rewrite the call), then `guard` steps (may refuse it by throwing a
 * `RecoverableError`), then the handler, then `review` steps (may refuse the
 * staged result: `call.changes` holds what the edit would change, e.g. the
 * ledger's coverage of the modified lines). `after` sees every final result
 * of a top-level call (the ledger records reads and the session's own
 * writes). Every surface, and every op of an edit_dry_run plan, goes through
 * the same steps.
 */
export interface PipelineStep {
  /** Short id, for telemetry and messages. */
  readonly name: string;
  /** Where `run` happens: before the guards (route), before the handler (guard), or after it (review). */
  readonly stage: "route" | "guard" | "review";
  /** Inspect, rewrite (route) or refuse (throw) the call. */
  run(call: CallInProgress, host: ToolHost): void | Promise<void>;
  /**
   * Called once with the outcome of a top-level call (success or refusal,
   * after commit); not for a plan's nested ops. Must not throw.
   */
  after?(call: CallInProgress, result: ToolResult, host: ToolHost): void | Promise<void>;
  /**
   * Called under the commit lock once a top-level call's files have landed,
   * before the commit is final, with what landed and the handler's `data`
   * (checkpoints record here). Throwing rolls the commit back and refuses the call.
   */
  landed?(
    call: CallInProgress,
    landed: LandedChange[],
    data: Record<string, unknown>,
    host: ToolHost,
  ): Promise<void>;
}

/** What a nested call ({@linkcode ToolContext.run}) did on its stage; nothing is committed. */
export type StepResult =
  | {
    ok: true;
    /** The tool that ran (after routing). */
    tool: string;
    /** Tool-specific data. */
    data: Record<string, unknown>;
    /** Warnings, the syntax guard's included. */
    warnings: string[];
    /** Reminders from the pipeline steps. */
    reminders: Reminder[];
    /** What the call changed on its stage, relative to the stage's base. */
    changes: PendingChange[];
    /** Moves: destination -> source. */
    renames?: Map<string, string>;
    /** What the call displayed of files (its handler's `shown`). */
    shown?: readonly ShownLines[];
  }
  | {
    ok: false;
    /** The tool. */
    tool: string;
    /** The same error envelope dispatch returns. */
    error: ErrorPayload;
    /** What the refusal displayed of files (a did-you-mean window). */
    shown?: readonly ShownLines[];
  };

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
  /**
   * Refuse up front (`limit_exceeded`, the parse limit's refusal) when the syntax guard of this call is
   * "refuse" and one of these files (relative paths) has a language and is over the parse limit: the guard
   * could only refuse it once the edit was computed. A handler calls it before computing an edit.
   */
  checkGuardable(rels: string[]): Promise<void>;
  /**
   * Run another tool through the same pipeline (validation, route and guard
   * steps, handler, syntax guard) on `stage`, without committing: how a plan
   * previews its ops.
   */
  run(tool: string, args: unknown, stage: Stage): Promise<StepResult>;
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
  /**
   * A preview that must not count as a success (a plan whose ops failed): dispatch
   * builds the preview's changes, then answers with this error instead.
   */
  refusal?: (changes: CommittedChange[]) => RecoverableError;
  /** Override the workspace's syntax guard mode for this call ("refuse" | "warn" | "off"). */
  syntaxGuard?: SyntaxGuardMode;
  /** What the answer displays of files (lines read, symbol bodies, an outline): the read ledger records it. */
  shown?: readonly ShownLines[];
}

/** How a mutating tool behaves beyond `mutates` (MCP annotations); defaults: destructive, not idempotent. */
export interface ToolBehaviour {
  /** It may remove or overwrite content (false: it only adds). Default true. */
  destructive?: boolean;
  /** Calling it again with the same arguments changes nothing more. Default false. */
  idempotent?: boolean;
}

/** One tool of the catalogue. */
export interface ToolDefinition<A = Record<string, unknown>> {
  /** snake_case name. */
  name: string;
  /** One paragraph: what it does and when to use it. */
  description: string;
  /** JSON Schema of the single args object. */
  inputSchema: JsonSchema;
  /**
   * What the tool is, as the policies read it (`src/tool_kinds.ts`): the read guard, the definition gate
   * and the compass decide from it, never from the tool's name. A tool without one is judged by its
   * `mutates` and its arguments only.
   */
  kind?: ToolKind;
  /** Whether the tool can change files (it then accepts `dry_run`). */
  mutates: boolean;
  /**
   * JSON Schema of the `data` of its successful result (the main fields; others may follow): the catalogue
   * exports and the MCP `outputSchema` are built from it. Absent for a compatibility alias.
   */
  resultData?: JsonSchema;
  /** How a mutating tool behaves beyond `mutates` (the catalogue's MCP annotations). */
  behaviour?: ToolBehaviour;
  /** For a compatibility alias: the tools its calls run as (the catalogue lists them). */
  forwardsTo?: readonly string[];
  /** Always a preview: dispatch never commits this tool's stage (edit_dry_run). */
  previewOnly?: boolean;
  /** Other names models use for an argument: alias -> the name in the schema (e.g. `new_string` -> `new_text`). */
  aliases?: Readonly<Record<string, string>>;
  /**
   * Other shapes of the arguments models use, folded into the schema's after the aliases: a pure function
   * that returns the args unchanged when they are not of that shape (e.g. edit_extract_function takes
   * `start_line`/`end_line` at the top level for its `range`).
   */
  foldArgs?: (args: Record<string, unknown>) => Record<string, unknown>;
  /**
   * A compatibility alias (a tool shape models are trained on, e.g. Anthropic's
   * text editor): dispatch validates the args against this tool's schema, then
   * runs the call `forward` returns in its place, so route, guard and review
   * steps, the ledger and the result all see the real tool. Throws
   * RecoverableError for a call it cannot map.
   */
  forward?(args: A, ctx: ForwardContext): Promise<ForwardedCall>;
  /** The logic; throws RecoverableError for refusals. */
  handler(args: A, ctx: ToolContext): Promise<HandlerResult>;
}

/** What a compatibility alias's {@linkcode ToolDefinition.forward} may look at: the staged view, read-only. */
export interface ForwardContext {
  /** The host. */
  workspace: ToolHost;
  /** The call's stage (read it; never write to it). */
  stage: Stage;
}

/** The real call a compatibility alias stands for. */
export interface ForwardedCall {
  /** A catalogue tool that is not itself an alias. */
  tool: string;
  /** Its args (validated against its schema). */
  args: Record<string, unknown>;
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

/** Per-call options. */
export interface DispatchOptions {
  /** Session id (default "default"; naming one turns on the session's policies, e.g. the read guard). */
  session?: string;
  /** Force a dry run regardless of args. */
  dryRun?: boolean;
  /** The read guard's mode for this call, overriding the session policy ("off" for a one-shot apply). */
  readGuard?: ReadGuardMode;
  /** The definition gate's mode for this call, overriding the session policy (e.g. `--gate` on a one-shot call). */
  gate?: "off" | "warn" | "refuse";
  /**
   * Most characters this call's result holds as JSON, overriding the workspace's `resultChars` (a terminal
   * command that prints every match, such as `graver grep`, passes `Infinity`: nothing is cut).
   */
  resultChars?: number;
}
