/**
 * The literal text every match of a regular expression must contain, so that a search finds candidate
 * lines with the engine's native `indexOf` and runs the (much slower) linear-time regex only on them. A
 * pattern of alternatives needs one literal per alternative (`TODO|FIXME` -> both); a pattern where some
 * match needs no literal at all (`\w+`, `a|.*`) has none, and the search runs the regex over the whole text.
 * The reading is conservative: a group, a class or an escape it does not know ends a run of literal text.
 *
 * @module
 */

/** Escapes that stand for one literal character. */
const PUNCTUATION = /^[^0-9A-Za-z]$/;

/** Index just past the group that opens at `pattern[i]` ("("), skipping classes and escapes. */
function groupEnd(pattern: string, i: number): number {
  let depth = 0;
  for (let j = i; j < pattern.length; j++) {
    const c = pattern[j]!;
    if (c === "\\") j++;
    else if (c === "[") j = classEnd(pattern, j) - 1;
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return j + 1;
  }
  return pattern.length;
}

/** Index just past the character class that opens at `pattern[i]` ("["). */
function classEnd(pattern: string, i: number): number {
  let j = i + 1;
  if (pattern[j] === "^") j++;
  if (pattern[j] === "]") j++;
  for (; j < pattern.length; j++) {
    const c = pattern[j]!;
    if (c === "\\") j++;
    else if (c === "[" && pattern[j + 1] === ":") {
      const close = pattern.indexOf(":]", j + 2);
      if (close !== -1) j = close + 1;
    } else if (c === "]") return j + 1;
  }
  return pattern.length;
}

/**
 * Index just past the escape at `pattern[i]` ("\\"): `\x41`, `\x{…}`, `\u0041`, `\pL`, `\p{…}`, `\cJ` and octal
 * digits take their arguments along (skipping too much only loses a literal, never a match).
 */
function escapeEnd(pattern: string, i: number): number {
  const e = pattern[i + 1] ?? "";
  if (!/[xupPc0-7]/.test(e)) return i + 2;
  if (pattern[i + 2] === "{") {
    const close = pattern.indexOf("}", i + 3);
    return close === -1 ? pattern.length : close + 1;
  }
  if (e === "p" || e === "P" || e === "c") return i + 3;
  let j = i + 2;
  while (j < i + 6 && j < pattern.length && /[0-9A-Fa-f]/.test(pattern[j]!)) j++;
  return j;
}

/** The branches of `pattern` split at its top-level `|` (outside groups and classes). */
function topLevelBranches(pattern: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\") i++;
    else if (c === "[") i = classEnd(pattern, i) - 1;
    else if (c === "(") i = groupEnd(pattern, i) - 1;
    else if (c === "|") {
      out.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  out.push(pattern.slice(start));
  return out;
}

/** Whether a quantifier starts at `pattern[i]`, and whether it lets the atom before it be absent. */
function quantifierAt(pattern: string, i: number): { optional: boolean; length: number } | null {
  const c = pattern[i];
  let length = 0;
  let optional = false;
  if (c === "*" || c === "?") [length, optional] = [1, true];
  else if (c === "+") length = 1;
  else if (c === "{") {
    const m = /^\{(\d*)(?:,\d*)?\}/.exec(pattern.slice(i, i + 24));
    if (!m) return null;
    [length, optional] = [m[0].length, (m[1] ?? "") === "" || Number(m[1]) === 0];
  } else return null;
  if (pattern[i + length] === "?" || pattern[i + length] === "+") length++; // lazy or possessive
  return { optional, length };
}

/** The longest run of literal text that every match of one branch (no top-level `|`) contains. */
function longestRun(branch: string): string {
  let best = "";
  let run = "";
  const end = () => {
    if (run.length > best.length) best = run;
    run = "";
  };
  for (let i = 0; i < branch.length;) {
    const c = branch[i]!;
    let atom: string | null = null;
    let next = i + 1;
    if (c === "\\") {
      const e = branch[i + 1] ?? "";
      if (PUNCTUATION.test(e)) atom = e;
      next = escapeEnd(branch, i);
    } else if (c === "[") next = classEnd(branch, i);
    else if (c === "(") next = groupEnd(branch, i);
    else if (!".^$)*+?{|".includes(c)) atom = c;
    const q = quantifierAt(branch, next);
    if (atom !== null && q === null) run += atom;
    else if (atom !== null && q !== null && !q.optional) {
      run += atom; // `a+`: one `a` is there, but the run stops after it
      end();
    } else end();
    i = q === null ? next : next + q.length;
  }
  end();
  return best;
}

/**
 * The literal strings such that every match of `pattern` contains at least one of them, or null when some
 * match needs no literal text (then every line is a candidate).
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { requiredLiterals } from "./required_literals.ts";
 *
 * assert.deepEqual(requiredLiterals("new\\s+Error\\("), ["Error("]);
 * assert.deepEqual(requiredLiterals("TODO|FIXME"), ["TODO", "FIXME"]);
 * assert.equal(requiredLiterals("\\w+|foo"), null);
 * ```
 *
 * @param pattern A regular expression (RE2 syntax).
 * @returns One literal per top-level alternative, or null.
 */
export function requiredLiterals(pattern: string): string[] | null {
  const out: string[] = [];
  for (const branch of topLevelBranches(pattern)) {
    const run = longestRun(branch);
    if (run === "") return null;
    out.push(run);
  }
  return [...new Set(out)];
}
