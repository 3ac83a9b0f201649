/**
 * The one error type agents see. Its `code` is the wire contract; the class
 * name is not.
 *
 * @module
 */

/** Every wire error code graver can return; docs/errors.md says what each means and what the caller does next. */
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
  | "permission_denied"
  | "unauthorized"
  | "internal";

/** A tool call an agent can make next, attached to an error or reminder. */
export interface SuggestedCall {
  /** Tool name from the catalogue. */
  tool: string;
  /** Arguments that would succeed (or make progress). */
  args: Record<string, unknown>;
}

/**
 * What an answer (a result or a refusal) displayed of one file: lines with
 * their text and numbers (a read, a symbol's body, a did-you-mean window), or
 * only the file's outline. The read ledger counts shown lines as read. It is
 * a fact for the pipeline, never part of the wire result.
 */
export interface ShownLines {
  /** Path relative to the workspace root. */
  path: string;
  /** The line ranges shown with their text (1-based, inclusive; an empty file is `{1, 0}`). */
  lines: readonly { start_line: number; end_line: number }[];
  /** The version they were read at: recorded only while the file still has it (absent: as it is now). */
  version?: string;
  /** Only the names and lines of the file's definitions were shown (an outline): no line counts as read. */
  outline?: boolean;
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
  /** What the refusal displayed of files (a did-you-mean window), for the read ledger; not on the wire. */
  shown?: readonly ShownLines[];
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
  /** What the refusal displayed of files (a did-you-mean window), for the read ledger; not in {@linkcode toJSON}. */
  readonly shown: readonly ShownLines[];

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
    this.shown = options.shown ?? [];
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

/** Deno's native error names, for a Deno-native backend, by the errno code they stand for. */
const DENO_ERRORS: Readonly<Record<string, string>> = {
  NotFound: "ENOENT",
  AlreadyExists: "EEXIST",
  PermissionDenied: "EACCES",
  IsADirectory: "EISDIR",
  NotADirectory: "ENOTDIR",
  FilesystemLoop: "ELOOP",
};

/**
 * The code of a native fs error (`ENOENT`, `EEXIST`, ...), or undefined.
 *
 * @param err Anything caught.
 * @returns The errno code, if it has one.
 */
export function errnoCode(err: unknown): string | undefined {
  if (err && typeof err === "object" && "code" in err) {
    const code = (err as { code: unknown }).code;
    if (typeof code === "string") return code;
  }
  if (err && typeof err === "object" && "name" in err) {
    const name = (err as { name: unknown }).name;
    if (typeof name === "string") return DENO_ERRORS[name];
  }
  return undefined;
}

/** What each errno a tool can meet means to an agent: the code, what happened, and what to do next. */
const ERRNO: Readonly<Record<string, { code: ErrorCode; what: string; hint: string }>> = {
  ENAMETOOLONG: {
    code: "limit_exceeded",
    what: "its name is too long for the file system (at most 255 bytes per name, 4096 per path)",
    hint: "Use a shorter file name or a shallower path",
  },
  EACCES: {
    code: "permission_denied",
    what: "permission denied",
    hint:
      "graver runs without the permission to do this; change the file's or directory's permissions, or leave it",
  },
  EPERM: {
    code: "permission_denied",
    what: "the operation is not permitted",
    hint:
      "graver runs without the permission to do this; change the file's owner or permissions, or leave it",
  },
  EROFS: {
    code: "permission_denied",
    what: "the file system is read-only",
    hint: "Nothing can be written there; work on a writable copy",
  },
  ELOOP: {
    code: "sandbox_violation",
    what: "too many levels of symbolic links",
    hint: "A symbolic link on the way loops; point the path at a real file",
  },
  ENOTDIR: {
    code: "not_found",
    what: "a part of the path is a file, not a directory",
    hint: "Check the path with list_files",
  },
  ENOENT: { code: "not_found", what: "no such file or directory", hint: "Check the path with list_files" },
  EISDIR: {
    code: "is_directory",
    what: "it is a directory",
    hint: "Pass a file path; call list_files to see what the directory holds",
  },
  EEXIST: { code: "already_exists", what: "it already exists", hint: "Pick another path, or read it first" },
  ENOSPC: { code: "limit_exceeded", what: "the disk is full", hint: "Free some space, then retry" },
  EDQUOT: { code: "limit_exceeded", what: "the disk quota is used up", hint: "Free some space, then retry" },
  EMFILE: {
    code: "limit_exceeded",
    what: "too many open files",
    hint: "Retry with fewer calls at once, or raise the process's open-file limit",
  },
  ENFILE: {
    code: "limit_exceeded",
    what: "too many open files on the system",
    hint: "Retry later, or raise the system's open-file limit",
  },
};

/**
 * What the operating system said, as a refusal an agent can act on (permission denied, a name too long, a
 * link loop, a full disk, ...), or null for an error that is graver's own bug. Its message names the path
 * the system named.
 *
 * @example
 * ```ts
 * import { errnoError } from "@graver/core";
 * import assert from "node:assert/strict";
 *
 * const err = Object.assign(new Error("EACCES: permission denied, scandir '/w/secret'"), {
 *   code: "EACCES",
 *   path: "/w/secret",
 * });
 * assert.equal(errnoError(err)?.code, "permission_denied");
 * assert.equal(errnoError(new TypeError("x is undefined")), null);
 * ```
 *
 * @param err Anything caught.
 * @param options `relOf`: the workspace path of a backend path (null outside), so the message names it.
 * @returns The refusal, or null.
 */
export function errnoError(
  err: unknown,
  options: { relOf?: (path: string) => string | null } = {},
): RecoverableError | null {
  const errno = errnoCode(err);
  const known = errno === undefined ? undefined : ERRNO[errno];
  if (!known) return null;
  const raw = (err as { path?: unknown }).path;
  const path = typeof raw === "string" ? options.relOf?.(raw) || raw : undefined;
  const where = path !== undefined ? `"${path}"` : "a path";
  return new RecoverableError(known.code, `Cannot use ${where}: ${known.what} (${errno})`, {
    hint: known.hint,
    details: { errno, ...(typeof path === "string" ? { path } : {}) },
    cause: err,
  });
}
