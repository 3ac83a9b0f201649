/**
 * Whether a file may hold a structural match, decided on its text before any parse: it must hold every
 * literal of the pattern, each of its identifiers as a whole word (`header` inside `headers` does not count),
 * and its token runs together (`program.mayHold`, `structural/search/token_runs.ts`). A file that fails is
 * listed as scanned and never parsed.
 *
 * @module
 */
import type { StructuralProgram } from "./types.ts";

/** Whether `c` (a UTF-16 unit) is an ASCII letter, digit or `_`. */
function isWordUnit(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** Whether `word` occurs in `text` with no word character (`isWordUnit`) next to an end that is one. */
function hasWholeWord(text: string, word: string): boolean {
  const checkBefore = isWordUnit(word.charCodeAt(0));
  const checkAfter = isWordUnit(word.charCodeAt(word.length - 1));
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
    if (checkBefore && at > 0 && isWordUnit(text.charCodeAt(at - 1))) continue;
    const end = at + word.length;
    if (checkAfter && end < text.length && isWordUnit(text.charCodeAt(end))) continue;
    return true;
  }
  return false;
}

/**
 * Whether a file's text may hold a match: it has every literal, every identifier as a whole word, and the
 * program's token runs.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { mayMatch } from "./structural_candidate.ts";
 *
 * const program = { literals: ["header", "("], words: ["header"], match: () => [] };
 * assert.equal(mayMatch(program, "c.req.header(x)"), true);
 * assert.equal(mayMatch(program, "c.req.headers(x)"), false); // header only inside a longer word
 * ```
 *
 * @param program The search's program for the file's language.
 * @param text The file's text.
 * @returns False when no match can be in the text; true when one may be (a parse tells).
 */
export function mayMatch(program: StructuralProgram, text: string): boolean {
  return program.literals.every((l) => text.includes(l)) &&
    (program.words ?? []).every((w) => hasWholeWord(text, w)) && (program.mayHold?.(text) ?? true);
}
