/**
 * Where the comments of a TypeScript text are, found by a lexer instead of a
 * parse: what lets a project-wide name search skip, unparsed, a file that
 * names a symbol only in its comments (a doc mentioning `Observable`).
 *
 * The lexer answers only when it is sure. ECMAScript's one lexical ambiguity
 * is a `/`: a division or the start of a regular expression, which only the
 * grammar knows. The lexer decides it where the token before settles it (an
 * operator, `return` or the `)` of an `if (…)` before a regular expression; a
 * name, a number, a `]`, any other `)` or a literal before a division) and
 * gives up (null) everywhere else: after `}`, `>`, `++`, `.` or a contextual
 * keyword (`of`, `yield`, `await`).
 * It also gives up on non-ASCII code, an unterminated literal or comment,
 * and HTML-like comments. TSX and JavaScript are not lexed at all: JSX text
 * can hold quotes and slashes that are neither strings nor comments.
 *
 * @module
 */

/** A comment: [start, end) in UTF-16 offsets, its delimiters included. */
export interface CommentSpan {
  /** Offset of the first `/`. */
  start: number;
  /** Offset just past the end (after the closing `*\/`, or at the line break of a line comment). */
  end: number;
}

/** Keywords after which a `/` starts a regular expression. */
const REGEX_AFTER = new Set([
  "return",
  "typeof",
  "instanceof",
  "in",
  "new",
  "delete",
  "void",
  "throw",
  "case",
  "do",
  "else",
  "extends",
  "default",
]);

/** Keywords whose parenthesised condition a statement follows. */
const CONDITION = new Set(["if", "while", "for", "with"]);

/** Names that are keywords in some places only: what a `/` after them is, only the grammar knows. */
const AMBIGUOUS = new Set([
  "of",
  "yield",
  "await",
  "async",
  "let",
  "static",
  "get",
  "set",
  "as",
  "satisfies",
]);

/** Punctuators after which a `/` starts a regular expression (a `+` or `-` only when not `++` / `--`). */
const BEFORE_REGEX = new Set([..."(,=:[!&|?{;+-*%<~^"].map((c) => c.charCodeAt(0)));

const enum Prev {
  /** An operand ended (a name, a number, a literal, `]`): a `/` divides. */
  Value,
  /** An operator, an opening bracket or the start: a `/` starts a regular expression. */
  Operator,
  /** Only the grammar knows: a `/` here gives up. */
  Unknown,
}

const NL = 10;
const CR = 13;
const SLASH = 47;
const STAR = 42;
const BACKSLASH = 92;
const BACKTICK = 96;

function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
}

function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57);
}

/**
 * The comments of a TypeScript (not TSX) text, in order, or null when the lexer cannot be sure of them.
 *
 * @example
 * ```ts
 * import { commentSpans } from "./comment_spans.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(commentSpans('const s = "//"; // note\n'), [{ start: 16, end: 23 }]);
 * assert.deepEqual(commentSpans("f(x) / 2; // half\n"), [{ start: 10, end: 17 }]); // after a call's `)`, a division
 * assert.equal(commentSpans("x++ / 2 // or a regular expression?\n"), null); // after `++`: only the grammar knows
 * ```
 *
 * @param text The text (BOM stripped).
 * @param until Stop once this offset is passed (the spans after it are not needed).
 * @returns The comment spans up to `until`, or null.
 */
export function commentSpans(text: string, until = text.length): CommentSpan[] | null {
  const out: CommentSpan[] = [];
  const n = text.length;
  /** Open template substitutions (`${`): the `{` depth inside each. */
  const templates: number[] = [];
  /** Open parentheses: whether each holds a statement's condition (`if (…)`), after which a statement starts. */
  const parens: boolean[] = [];
  /** The last two names read, when nothing but names came since (`for await`). */
  let lastWord = "";
  let wordBefore = "";
  let prev = Prev.Operator;
  let i = 0;
  if (text.startsWith("#!")) {
    i = text.indexOf("\n");
    if (i < 0) return out;
  }
  /** Read a template's text from `i` (just past a backtick or a `}` closing a substitution). */
  const templateText = (): boolean => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === BACKSLASH) i += 2;
      else if (c === BACKTICK) {
        i++;
        prev = Prev.Value;
        return true;
      } else if (c === 36 && text.charCodeAt(i + 1) === 123) {
        i += 2;
        templates.push(0);
        prev = Prev.Operator;
        return true;
      } else i++;
    }
    return false;
  };
  while (i < n && i <= until) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === NL || c === CR || c === 11 || c === 12) {
      i++;
      continue;
    }
    if (c >= 128) return null;
    const word = lastWord;
    const before = wordBefore;
    lastWord = wordBefore = "";
    if (c === SLASH) {
      const next = text.charCodeAt(i + 1);
      if (next === SLASH) {
        let end = i + 2;
        while (end < n && text.charCodeAt(end) !== NL && text.charCodeAt(end) !== CR) {
          // U+2028 and U+2029 end a line comment for the language, not for every tool: too close to call.
          const ch = text.charCodeAt(end);
          if (ch === 0x2028 || ch === 0x2029) return null;
          end++;
        }
        out.push({ start: i, end });
        i = end;
        continue;
      }
      if (next === STAR) {
        const close = text.indexOf("*/", i + 2);
        if (close < 0) return null;
        out.push({ start: i, end: close + 2 });
        i = close + 2;
        continue;
      }
      if (prev === Prev.Value) {
        i++;
        prev = Prev.Operator;
        continue;
      }
      if (prev === Prev.Unknown) return null;
      // A regular expression: up to an unescaped `/` outside a class, on this line.
      let inClass = false;
      i++;
      for (;;) {
        if (i >= n) return null;
        const r = text.charCodeAt(i);
        if (r === NL || r === CR || r >= 128) return null;
        if (r === BACKSLASH) i++;
        else if (r === 91) inClass = true;
        else if (r === 93) inClass = false;
        else if (r === SLASH && !inClass) break;
        i++;
      }
      i++;
      while (i < n && isIdentPart(text.charCodeAt(i))) i++;
      prev = Prev.Value;
      continue;
    }
    if (c === 39 || c === 34) {
      i++;
      for (;;) {
        if (i >= n) return null;
        const s = text.charCodeAt(i);
        if (s === c) break;
        if (s === BACKSLASH) {
          i += text.charCodeAt(i + 1) === CR && text.charCodeAt(i + 2) === NL ? 3 : 2;
          continue;
        }
        if (s === NL || s === CR) return null;
        i++;
      }
      i++;
      prev = Prev.Value;
      continue;
    }
    if (c === BACKTICK) {
      i++;
      if (!templateText()) return null;
      continue;
    }
    if (isIdentStart(c) || c === 35 /* # of a private name */) {
      const start = i;
      i++;
      while (i < n && isIdentPart(text.charCodeAt(i))) i++;
      if (i < n && (text.charCodeAt(i) >= 128 || text.charCodeAt(i) === BACKSLASH)) return null;
      const name = text.slice(start, i);
      prev = REGEX_AFTER.has(name) ? Prev.Operator : AMBIGUOUS.has(name) ? Prev.Unknown : Prev.Value;
      wordBefore = word;
      lastWord = name;
      continue;
    }
    if (c >= 48 && c <= 57) {
      // Digits, letters, `_` and `.`; a sign only right after the exponent of a decimal number (`1e-7`).
      const radix = c === 48 && /[xXbBoO]/.test(text[i + 1] ?? "");
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (isIdentPart(d) || d === 46) i++;
        else if ((d === 43 || d === 45) && !radix && (text.charCodeAt(i - 1) | 32) === 101) i++;
        else break;
      }
      prev = Prev.Value;
      continue;
    }
    if (c === 123) {
      if (templates.length > 0) templates[templates.length - 1]!++;
      prev = Prev.Operator;
      i++;
      continue;
    }
    if (c === 125) {
      i++;
      if (templates.length > 0) {
        if (templates[templates.length - 1] === 0) {
          templates.pop();
          if (!templateText()) return null;
          continue;
        }
        templates[templates.length - 1]!--;
      }
      prev = Prev.Unknown;
      continue;
    }
    if (c === 40) {
      parens.push(CONDITION.has(word) || (word === "await" && before === "for"));
      prev = Prev.Operator;
      i++;
      continue;
    }
    if (c === 41) {
      if (parens.length === 0) return null;
      // After a condition a statement starts (`if (x) /re/.test(y)`); after an operand, a `/` divides.
      prev = parens.pop() ? Prev.Operator : Prev.Value;
      i++;
      continue;
    }
    if (c === 93) {
      prev = Prev.Value;
      i++;
      continue;
    }
    // `<!--` and `-->` are comments in scripts but not in modules: too close to call.
    if (c === 60 && text.startsWith("<!--", i)) return null;
    if (c === 45 && text.startsWith("-->", i)) return null;
    if ((c === 43 || c === 45) && text.charCodeAt(i + 1) === c) {
      i += 2;
      prev = Prev.Unknown;
      continue;
    }
    if (c === 62) {
      // `=>` before an arrow function's body; a lone `>` may close type arguments (`f<T> / 2`).
      prev = text.charCodeAt(i - 1) === 61 ? Prev.Operator : Prev.Unknown;
      i++;
      continue;
    }
    if (c === 33 && text.charCodeAt(i + 1) !== 61) {
      // `!x` before an operand, TypeScript's `x!` after one (then a `/` divides).
      i++;
      if (prev !== Prev.Value) prev = prev === Prev.Operator ? Prev.Operator : Prev.Unknown;
      continue;
    }
    prev = BEFORE_REGEX.has(c) ? Prev.Operator : Prev.Unknown;
    i++;
  }
  if (i >= n && templates.length > 0) return null;
  return out;
}

/**
 * Whether every one of a name's occurrences in a TypeScript text is inside a comment, as far as
 * {@linkcode commentSpans} can be sure (false when it cannot, or when there is no occurrence).
 *
 * @param text The text.
 * @param at The occurrences' offsets, in increasing order.
 * @param length The name's length.
 * @returns True only when every occurrence is in a comment.
 */
export function onlyInComments(text: string, at: readonly number[], length: number): boolean {
  if (at.length === 0) return false;
  const spans = commentSpans(text, at[at.length - 1]!);
  if (!spans) return false;
  let k = 0;
  for (const offset of at) {
    while (k < spans.length && spans[k]!.end <= offset) k++;
    const s = spans[k];
    if (!s || s.start > offset || s.end < offset + length) return false;
  }
  return true;
}
