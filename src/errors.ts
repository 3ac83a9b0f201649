/**
 * The one error type agents see. Its `code` is the wire contract; the class
 * name is not.
 *
 * @module
 */

/** Every wire error code graver can return (DESIGN.md, "Result and error shapes"). */
export type ErrorCode =
  | "invalid_args"
  | "not_found"
  | "sandbox_violation"
  | "stale_base"
  | "no_match"
  | "ambiguous"
  | "already_applied"
  | "unread_range"
  | "definition_gate"
  | "syntax_error"
  | "unsupported_language"
  | "invalid_query"
  | "name_clash"
  | "unresolved"
  | "control_flow_escapes"
  | "types_required"
  | "parameter_in_use"
  | "value_reference"
  | "unsupported_call_site"
  | "overrides_present"
  | "visibility_required"
  | "destination_conflict"
  | "import_cycle"
  | "binary_file"
  | "encoding"
  | "already_exists"
  | "is_directory"
  | "limit_exceeded"
  | "unauthorized"
  | "internal";

/** A tool call an agent can make next, attached to an error or reminder. */
export interface SuggestedCall {
  /** Tool name from the catalogue. */
  tool: string;
  /** Arguments that would succeed (or make progress). */
  args: Record<string, unknown>;
}

/** Options accepted by {@linkcode RecoverableError}. */
export interface RecoverableErrorOptions {
  /** What to do next, in one sentence. */
  hint: string;
  /** The exact call that would succeed, when graver can name it. */
  suggestedCall?: SuggestedCall;
  /** Facts about the failure: paths, versions, lines, candidates. */
  details?: Record<string, unknown>;
  /** The lower-level error this wraps. */
  cause?: unknown;
}

/**
 * A condition an agent must handle: refused input, a stale base, an ambiguous
 * match. Nothing was written when one is thrown out of a tool.
 *
 * @example Branch on the code, never on the message
 * ```ts
 * import { RecoverableError } from "@graver/core";
 * import assert from "node:assert/strict";
 *
 * const err = new RecoverableError("stale_base", 'Cannot commit "a.ts": file changed', {
 *   hint: "Read the file again and retry with its new version",
 * });
 * assert.equal(err.code, "stale_base");
 * assert.equal(err.toJSON().hint, "Read the file again and retry with its new version");
 * ```
 */
export class RecoverableError extends Error {
  /** The wire code. */
  readonly code: ErrorCode;
  /** What to do next. */
  readonly hint: string;
  /** The call that would succeed, if known. */
  readonly suggestedCall: SuggestedCall | undefined;
  /** Facts about the failure. */
  readonly details: Record<string, unknown> | undefined;
  /** The public entry that raised it, e.g. `graver.read_file`. */
  caller: string | undefined;

  /**
   * Make a refusal an agent can act on.
   *
   * @param code One of the wire codes.
   * @param message Sentence case, action first, no trailing period.
   * @param options Hint (required), suggested call, details, cause.
   */
  constructor(code: ErrorCode, message: string, options: RecoverableErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "RecoverableError";
    this.code = code;
    this.hint = options.hint;
    this.suggestedCall = options.suggestedCall;
    this.details = options.details;
    this.caller = undefined;
  }

  /** The JSON shape of `error` in a failed ToolResult. */
  toJSON(): ErrorPayload {
    const out: ErrorPayload = { code: this.code, message: this.message, hint: this.hint };
    if (this.suggestedCall) out.suggested_call = this.suggestedCall;
    if (this.details) out.details = this.details;
    return out;
  }
}

/** The wire shape of an error. */
export interface ErrorPayload {
  /** The wire code. */
  code: ErrorCode;
  /** What happened and where. */
  message: string;
  /** What to do next. */
  hint: string;
  /** The call that would succeed, if known. */
  suggested_call?: SuggestedCall;
  /** Facts about the failure. */
  details?: Record<string, unknown>;
}

/**
 * True when `err` is a {@linkcode RecoverableError}, optionally with `code`.
 *
 * @param err Anything caught.
 * @param code The code to match, if any.
 * @returns Whether it is a recoverable error (with that code).
 */
export function isRecoverable(err: unknown, code?: ErrorCode): err is RecoverableError {
  return err instanceof RecoverableError && (code === undefined || err.code === code);
}
