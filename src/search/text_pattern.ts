/**
 * A text search's pattern compiled once per search: the linear-time program (RE2, through the refusals of
 * `syntax/linear_regex.ts`), how case, whole words and fixed strings change it (ripgrep's rules), and the
 * literal text a prefilter looks for before the program runs.
 *
 * @module
 */
import type { RE2JS } from "re2js";
import { refuseLongPattern } from "../syntax/regex_length.ts";
import { requiredLiterals } from "./required_literals.ts";
import type { SearchTextQuery } from "./types.ts";

/** A pattern ready to run over file texts. */
export interface TextPattern {
  /**
   * The program; its match (or group 1, in word mode) is the occurrence. Null for a fixed string the scan
   * finds without one (`plain` or `foldedPlain`, not `multiline`), unless a program was asked for: re2js is
   * then not even loaded.
   */
  re: RE2JS | null;
  /** The group of `re` that is the occurrence: 1 when `word` wrapped the pattern in word boundaries. */
  group: 0 | 1;
  /** Literals one of which every match contains, or null: every line is a candidate. */
  needles: string[] | null;
  /**
   * The prefilter: the needles as an alternation of escaped fixed strings (case-folded with `iu` when the
   * pattern ignores case), or null. A fixed-string alternation runs in linear time on any engine, so the
   * native one is used here, where its speed matters; the user's pattern itself runs only on RE2.
   */
  prefilter: RegExp | null;
  /** Whether matching ignores case. */
  fold: boolean;
  /** A case-sensitive fixed string without word boundaries: its `indexOf` hits are the matches themselves. */
  plain: string | null;
  /**
   * A fixed string of ASCII characters matched regardless of case, without word boundaries: the prefilter's
   * hits are the matches themselves (JavaScript's `iu` and RE2 fold such a string alike — ASCII case, the
   * Kelvin sign for k, the long s for s — and to the same length), so no line runs through the program (a
   * minified file's one long line would cost ~100 ns a character there).
   */
  foldedPlain: string | null;
  /** Whether a match may span lines. */
  multiline: boolean;
}

/** Index just past the escape at `pattern[i]`, braces included (`\p{Lu}`, `\x{41}`). */
function skipEscape(pattern: string, i: number): number {
  return pattern[i + 2] === "{" && /[pPx]/.test(pattern[i + 1] ?? "")
    ? Math.max(pattern.indexOf("}", i) + 1, i + 2)
    : i + 2;
}

/**
 * Whether a pattern holds an upper-case letter of its own (ripgrep's smart case: escapes such as `\W` or
 * `\p{Lu}` and group names do not count).
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { hasUpperCaseLiteral } from "./text_pattern.ts";
 *
 * assert.equal(hasUpperCaseLiteral("foo\\W+bar"), false);
 * assert.equal(hasUpperCaseLiteral("(?P<Name>foo)"), false);
 * assert.equal(hasUpperCaseLiteral("Foo"), true);
 * ```
 *
 * @param pattern A regular expression (RE2 syntax), or a fixed string with `literal`.
 * @param literal Whether `pattern` is a fixed string.
 * @returns True when a letter of the pattern is upper-case.
 */
export function hasUpperCaseLiteral(pattern: string, literal = false): boolean {
  if (literal) return pattern !== pattern.toLowerCase();
  for (let i = 0; i < pattern.length;) {
    const c = pattern[i]!;
    if (c === "\\") {
      i = skipEscape(pattern, i);
      continue;
    }
    if (c === "(" && pattern[i + 1] === "?") {
      const name = /^\(\?P?<[^>]*>/.exec(pattern.slice(i, i + 300));
      if (name) {
        i += name[0].length;
        continue;
      }
    }
    if (c !== c.toLowerCase()) return true;
    i++;
  }
  return false;
}

/**
 * Escape a fixed string for RE2 (and for a `u`-mode `RegExp`: the same characters).
 *
 * @param text The fixed string.
 * @returns A pattern that matches exactly it.
 */
export function quoteLiteral(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$/]/g, "\\$&");
}

/**
 * Whether a pattern is a fixed string (`literal`, or no character RE2 reads as syntax) of ASCII characters other
 * than a line end, its own one needle.
 */
function isFoldableFixedString(
  query: { pattern: string; literal: boolean },
  needles: string[] | null,
): boolean {
  const { pattern } = query;
  if (pattern === "" || needles?.length !== 1 || needles[0] !== pattern) return false;
  if (!query.literal && quoteLiteral(pattern) !== pattern) return false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern.charCodeAt(i);
    if (c > 127 || c === 10 || c === 13) return false;
  }
  return true;
}

/** Whether the pattern turns on case folding itself (`(?i)`, `(?i:…)`). */
function foldsInline(pattern: string): boolean {
  return /\(\?[a-zA-Z]*i[a-zA-Z-]*[:)]/.test(pattern);
}

/**
 * Compile a query's pattern: the refusals of the linear-time engine (look-around, backreferences, syntax
 * errors: `invalid_args` naming the construct and what to write instead), then case (`ignore_case`, or
 * `smart_case`: case-insensitive when the pattern has no upper-case letter), whole words (as ripgrep's `-w`:
 * the match has a non-word character or a line edge on each side) and `^`/`$` at line edges. The RE2 program
 * (`text_program.ts`, with re2js) is loaded and compiled only when the scan needs one: a fixed string it finds
 * with `indexOf` or the prefilter alone gets none (`re` null), unless `program` asks for it.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileTextPattern } from "./text_pattern.ts";
 *
 * const p = await compileTextPattern({ pattern: "todo", literal: false, ignoreCase: false, smartCase: true,
 *   word: true, multiline: false });
 * assert.equal(p.fold, true);
 * assert.deepEqual(p.needles, ["todo"]);
 * assert.equal(p.prefilter!.flags, "giu");
 * const fixed = await compileTextPattern({ pattern: "a.b", literal: true, ignoreCase: false, smartCase: false,
 *   word: false, multiline: false });
 * assert.equal(fixed.plain, "a.b");
 * assert.equal(fixed.re, null);
 * ```
 *
 * @param query The pattern and how to read it.
 * @param options `program`: compile the RE2 program even where the scan needs none (a replacement reads
 *   the program's groups).
 * @returns The compiled pattern.
 * @throws RecoverableError `invalid_args` for a pattern RE2 cannot take.
 */
export async function compileTextPattern(
  query: Pick<SearchTextQuery, "pattern" | "literal" | "ignoreCase" | "smartCase" | "word" | "multiline">,
  options: { program?: boolean } = {},
): Promise<TextPattern> {
  const source = query.literal ? quoteLiteral(query.pattern) : query.pattern;
  const fold = query.ignoreCase ||
    (query.smartCase && !hasUpperCaseLiteral(query.pattern, query.literal));
  const program = async () =>
    (await import("./text_program.ts")).compileTextProgram(source, { word: query.word, fold });
  // A pattern with syntax is compiled (and refused) before anything else reads it; a fixed string, only if
  // the scan turns out to need a program.
  let re = mayGoWithoutProgram(query, options) ? null : await program();
  const literals = query.literal ? [query.pattern] : requiredLiterals(query.pattern);
  const foldNeedles = fold || (!query.literal && foldsInline(query.pattern));
  const needles = literals !== null && literals.every((l) => l !== "") ? literals : null;
  // A regex without syntax (`x`, `TODO`) is its own fixed string: found with `indexOf`, as `-F` is, and not
  // by the program one match at a time (150 lines of 100,000 `x`s: 15 million calls into re2js, ~15 s).
  const fixed = query.literal || (!query.multiline && quoteLiteral(query.pattern) === query.pattern &&
    !/[\r\n]/.test(query.pattern));
  const plain = fixed && !fold && !query.word && query.pattern !== "" ? query.pattern : null;
  const foldedPlain = fold && !query.word && isFoldableFixedString(query, needles) ? query.pattern : null;
  if (re === null && plain === null && foldedPlain === null) re = await program();
  // A fixed string quoted for RE2 meets no refusal of the engine but its length bound.
  if (re === null) refuseLongPattern(source, { what: "the search pattern" });
  return {
    re,
    group: query.word ? 1 : 0,
    needles,
    prefilter: needles === null
      ? null
      : new RegExp(needles.map(quoteLiteral).join("|"), foldNeedles ? "giu" : "gu"),
    fold: foldNeedles,
    plain,
    foldedPlain,
    multiline: query.multiline,
  };
}

/**
 * Whether a query may be scanned without a program: a fixed string (`literal`, or no character RE2 reads as
 * syntax), not empty, without whole words or `multiline`, and no program asked for.
 */
function mayGoWithoutProgram(
  query: Pick<SearchTextQuery, "pattern" | "literal" | "word" | "multiline">,
  options: { program?: boolean },
): boolean {
  if (options.program === true || query.word || query.multiline || query.pattern === "") return false;
  return query.literal || quoteLiteral(query.pattern) === query.pattern;
}
