/**
 * Regular expressions from users (query predicates such as `#match?`, and the
 * coming text search) run on a linear-time engine: re2js, a pure-JavaScript
 * port of RE2 (no `eval`, so it runs in workerd). A backtracking engine takes
 * exponential time on `^(a|aa)+c$` against a run of a's; RE2 takes time
 * linear in the text. The price is the two constructs RE2 has no linear-time
 * answer for, look-around and backreferences: they are refused up front,
 * naming the construct and what to write instead. JavaScript spellings
 * (`\u0041`, `\cJ`) are translated; RE2's own (`(?i)`, `(?P<name>…)`) work as
 * in tree-sitter's native query engine.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileLinearRegex } from "./linear_regex.ts";
 *
 * const re = compileLinearRegex("^(a|aa)+c$");
 * assert.equal(re.test("a".repeat(50_000)), false);
 * assert.throws(() => compileLinearRegex("foo(?=bar)"), /look-ahead/);
 * ```
 *
 * @module
 */
import { RE2JS } from "re2js";
import { type ErrorCode, RecoverableError } from "../errors.ts";
import { refuseLongPattern } from "./regex_length.ts";

export { MAX_REGEX_LENGTH } from "./regex_length.ts";

/** A compiled pattern that answers in time linear in the text. */
export interface LinearRegex {
  /** The pattern as given. */
  readonly source: string;
  /** Whether the pattern matches anywhere in `text` (as `RegExp.prototype.test` without flags). */
  test(text: string): boolean;
}

/** Options of {@linkcode compileLinearRegex}. */
export interface LinearRegexOptions {
  /** What the pattern is, for messages ("the #match? predicate"); default "the regular expression". */
  what?: string;
  /** The refusal's code (default `invalid_args`; a query selector says `invalid_query`). */
  code?: Extract<ErrorCode, "invalid_args" | "invalid_query">;
  /** Match regardless of case. */
  ignoreCase?: boolean;
  /**
   * What to write instead of a refused construct, where the default (written for query predicates: `#eq?`,
   * `#not-match?`) does not apply (a text search has no predicates).
   */
  instead?: { lookAround: string; backreference: string };
}

/** A construct RE2 refuses, with its name and what to write instead. */
interface Unsupported {
  construct: string;
  at: number;
  instead: string;
}

/**
 * The first look-around or backreference in `pattern` (outside character classes), or null.
 *
 * @param pattern A regular expression in JavaScript or RE2 syntax.
 * @returns What it is, where, and the alternative; null when RE2 can take it.
 */
export function unsupportedConstruct(pattern: string): Unsupported | null {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\") {
      const next = pattern[i + 1] ?? "";
      if (!inClass && /[1-9]/.test(next)) {
        return { construct: `the backreference \\${next}`, at: i, instead: BACKREFERENCE_INSTEAD };
      }
      if (!inClass && next === "k" && pattern[i + 2] === "<") {
        return { construct: "the named backreference \\k<…>", at: i, instead: BACKREFERENCE_INSTEAD };
      }
      i++;
    } else if (inClass) {
      if (c === "]") inClass = false;
    } else if (c === "[") {
      inClass = true;
      if (pattern[i + 1] === "^") i++;
      if (pattern[i + 1] === "]") i++;
    } else if (c === "(" && pattern[i + 1] === "?") {
      const kind = LOOK_AROUND.find(([open]) => pattern.startsWith(open, i + 1));
      if (kind) return { construct: `the ${kind[1]} (${kind[0]}…)`, at: i, instead: LOOK_AROUND_INSTEAD };
    }
  }
  return null;
}

const LOOK_AROUND: [string, string][] = [
  ["?<=", "look-behind"],
  ["?<!", "negative look-behind"],
  ["?=", "look-ahead"],
  ["?!", "negative look-ahead"],
];

const LOOK_AROUND_INSTEAD =
  "match the surrounding text as part of the pattern (or capture it with a group), or use #not-match? for what must not appear";
const BACKREFERENCE_INSTEAD =
  "write the repeated text out, or capture both parts and compare them with #eq? @a @b in a query";

/** The alternative a refusal names: the caller's for this kind of construct, or the default. */
function insteadOf(unsupported: Unsupported, instead: LinearRegexOptions["instead"]): string {
  if (instead === undefined) return unsupported.instead;
  return unsupported.instead === BACKREFERENCE_INSTEAD ? instead.backreference : instead.lookAround;
}

/** Options of {@linkcode compileRe2}: those of {@linkcode compileLinearRegex} plus RE2's own flags. */
export interface Re2Options extends LinearRegexOptions {
  /** RE2JS flags (`RE2JS.MULTILINE`, `RE2JS.DOTALL` …), or-ed with case folding when `ignoreCase`. */
  flags?: number;
}

/**
 * Compile a user's regular expression for a linear-time engine.
 *
 * @param pattern JavaScript or RE2 syntax.
 * @param options What it is (for messages), the refusal code, case folding.
 * @returns The compiled pattern.
 * @throws RecoverableError (`invalid_args` by default) for look-around, backreferences, a syntax error or a
 *   pattern over {@linkcode MAX_REGEX_LENGTH}.
 */
export function compileLinearRegex(pattern: string, options: LinearRegexOptions = {}): LinearRegex {
  const compiled = compileRe2(pattern, options);
  return { source: pattern, test: (text) => compiled.test(text) };
}

/**
 * Compile a user's regular expression to an RE2JS program, for callers that need match positions (text
 * search): the same refusals as {@linkcode compileLinearRegex}, with RE2's flags passed through.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { RE2JS } from "re2js";
 * import { compileRe2 } from "./linear_regex.ts";
 *
 * const m = compileRe2("^b", { flags: RE2JS.MULTILINE }).matcher("a\nb");
 * assert.ok(m.find());
 * assert.equal(m.start(), 2);
 * ```
 *
 * @param pattern JavaScript or RE2 syntax.
 * @param options What it is (for messages), the refusal code, case folding, RE2 flags.
 * @returns The RE2JS program.
 * @throws RecoverableError as {@linkcode compileLinearRegex} does.
 */
export function compileRe2(pattern: string, options: Re2Options = {}): RE2JS {
  const what = options.what ?? "the regular expression";
  const code = options.code ?? "invalid_args";
  refuseLongPattern(pattern, { what, code });
  const unsupported = unsupportedConstruct(pattern);
  if (unsupported) {
    throw new RecoverableError(
      code,
      `Cannot use ${what} ${JSON.stringify(pattern)}: ${unsupported.construct} at offset ${unsupported.at} ` +
        "has no linear-time match, and graver runs user patterns on a linear-time engine (RE2)",
      {
        hint: `Rewrite it without ${unsupported.construct}: ${insteadOf(unsupported, options.instead)}`,
        details: { pattern, offset: unsupported.at, construct: unsupported.construct, engine: "RE2" },
      },
    );
  }
  const flags = (options.flags ?? 0) | (options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  try {
    return RE2JS.compile(RE2JS.translateRegExp(pattern), flags);
  } catch (cause) {
    const message = (cause as Error).message ?? String(cause);
    throw new RecoverableError(code, `Cannot compile ${what} ${JSON.stringify(pattern)}: ${message}`, {
      hint: compileHint(message),
      details: { pattern, engine: "RE2" },
      cause,
    });
  }
}

/** What to do about a pattern RE2 would not compile, by its complaint. */
function compileHint(message: string): string {
  if (/invalid repeat count|invalid nested repetition/.test(message)) {
    return "RE2 takes a repeat count of at most 1000, counts nested inside each other multiplied (x{1001} and " +
      "(x{100}){100} are over it) and no repetition of a repetition (x{2}{3}): use a smaller count, + or *, or " +
      "write the repeated part out";
  }
  return "Fix the pattern: RE2 syntax (as in tree-sitter's own query engine), without look-around or backreferences";
}
