/**
 * The bound on a user's pattern's length, and its refusal: the one rule a regular expression (compiled by
 * `linear_regex.ts`) and a fixed string searched without a program (`search/text_pattern.ts`) both follow.
 * Kept apart from the engine so that a search for a fixed string checks it without loading re2js.
 *
 * @module
 */
import { type ErrorCode, RecoverableError } from "../errors.ts";

/** Longest pattern accepted (characters); RE2 also bounds the compiled program. */
export const MAX_REGEX_LENGTH = 4096;

/**
 * Refuse a pattern longer than {@linkcode MAX_REGEX_LENGTH}.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { refuseLongPattern } from "./regex_length.ts";
 *
 * refuseLongPattern("short", {});
 * assert.throws(() => refuseLongPattern("x".repeat(5000), { what: "the search pattern" }), /over the limit/);
 * ```
 *
 * @param pattern The pattern as the engine would compile it.
 * @param options What it is (for messages; default "the regular expression") and the refusal's code (default
 *   `invalid_args`).
 * @throws RecoverableError when it is too long.
 */
export function refuseLongPattern(
  pattern: string,
  options: { what?: string; code?: Extract<ErrorCode, "invalid_args" | "invalid_query"> },
): void {
  if (pattern.length <= MAX_REGEX_LENGTH) return;
  const what = options.what ?? "the regular expression";
  throw new RecoverableError(
    options.code ?? "invalid_args",
    `Cannot use ${what}: it is ${pattern.length} characters long, over the limit of ${MAX_REGEX_LENGTH}`,
    { hint: "Write a shorter pattern, or several patterns", details: { length: pattern.length } },
  );
}
