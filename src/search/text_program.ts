/**
 * A text search's linear-time program: the user's pattern compiled by RE2 (re2js, through the refusals of
 * `syntax/linear_regex.ts`), with case folding, whole-word wrapping and `^`/`$` at line edges. Imported by
 * `text_pattern.ts` only when a pattern needs a program: a fixed string found with `indexOf` or the prefilter
 * alone (`graver grep -F`, the search a fresh process makes most) never loads re2js (~12 ms of a cold start).
 *
 * @module
 */
import { RE2JS } from "re2js";
import { compileRe2 } from "../syntax/linear_regex.ts";

/** What a search pattern writes instead of look-around or a backreference. */
const SEARCH_INSTEAD = {
  lookAround:
    "match the surrounding text as part of the pattern (the match then includes it), or search for the text alone and read the lines around it",
  backreference:
    'write the repeated text out (e.g. "(foo) foo" for "(foo) \\1"), or search for the first part and read the matches',
};

/**
 * Compile a search's program: the pattern alone first, so that a refusal names offsets in the caller's own
 * pattern, then wrapped for whole words (as ripgrep's `-w`: the match, group 1, has a non-word character or a
 * line edge on each side), with case folding and `^`/`$` at line edges.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileTextProgram } from "./text_program.ts";
 *
 * const re = compileTextProgram("b+", { word: true, fold: false });
 * assert.ok(re.matcher("a bb c").find());
 * assert.throws(() => compileTextProgram("a(?=b)", { word: false, fold: false }), /look-ahead/);
 * ```
 *
 * @param source The pattern in RE2 syntax (a fixed string already quoted).
 * @param options `word`: whole words only; `fold`: ignore case.
 * @returns The program.
 * @throws RecoverableError `invalid_args` for a pattern RE2 cannot take.
 */
export function compileTextProgram(source: string, options: { word: boolean; fold: boolean }): RE2JS {
  const what = "the search pattern";
  const instead = SEARCH_INSTEAD;
  compileRe2(source, { what, instead });
  const wrapped = options.word ? `(?:^|\\W)(${source})(?:\\W|$)` : source;
  return compileRe2(wrapped, { what, instead, ignoreCase: options.fold, flags: RE2JS.MULTILINE });
}
