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
  return new CommentLexer(text).run(until);
}

/** The lexer's state through one text: where it is, what came before, what is open. */
class CommentLexer {
  readonly out: CommentSpan[] = [];
  /** Open template substitutions (`${`): the `{` depth inside each. */
  readonly templates: number[] = [];
  /** Open parentheses: whether each holds a statement's condition (`if (…)`), after which a statement starts. */
  readonly parens: boolean[] = [];
  /** The last two names read, when nothing but names came since (`for await`). */
  lastWord = "";
  wordBefore = "";
  prev = Prev.Operator;
  i = 0;

  constructor(readonly text: string) {}

  /** Lex up to `until`: the comments, or null where the lexer gives up. */
  run(until: number): CommentSpan[] | null {
    const text = this.text;
    const n = text.length;
    if (text.startsWith("#!")) {
      this.i = text.indexOf("\n");
      if (this.i < 0) return this.out;
    }
    while (this.i < n && this.i <= until) {
      const c = text.charCodeAt(this.i);
      if (c === 32 || c === 9 || c === NL || c === CR || c === 11 || c === 12) {
        this.i++;
        continue;
      }
      if (c >= 128) return null;
      const word = this.lastWord;
      const before = this.wordBefore;
      this.lastWord = this.wordBefore = "";
      if (!this.token(c, { word, before })) return null;
    }
    if (this.i >= n && this.templates.length > 0) return null;
    return this.out;
  }

  /** Read the token starting with `c`; false to give up. */
  token(c: number, names: { word: string; before: string }): boolean {
    if (c === SLASH) return this.slash();
    if (c === 39 || c === 34) return this.quoted(c);
    if (c === BACKTICK) {
      this.i++;
      return this.templateText();
    }
    if (isIdentStart(c) || c === 35 /* # of a private name */) return this.name(names.word);
    if (c >= 48 && c <= 57) {
      this.number(c);
      return true;
    }
    return this.bracket(c, names) ?? this.operator(c);
  }

  /** A comment, a division or a regular expression. */
  slash(): boolean {
    const text = this.text;
    const next = text.charCodeAt(this.i + 1);
    if (next === SLASH) return this.lineComment();
    if (next === STAR) {
      const close = text.indexOf("*/", this.i + 2);
      if (close < 0) return false;
      this.out.push({ start: this.i, end: close + 2 });
      this.i = close + 2;
      return true;
    }
    if (this.prev === Prev.Value) {
      this.i++;
      this.prev = Prev.Operator;
      return true;
    }
    if (this.prev === Prev.Unknown) return false;
    return this.regularExpression();
  }

  /** `// …` up to the line break. */
  lineComment(): boolean {
    const text = this.text;
    let end = this.i + 2;
    while (end < text.length && text.charCodeAt(end) !== NL && text.charCodeAt(end) !== CR) {
      // U+2028 and U+2029 end a line comment for the language, not for every tool: too close to call.
      const ch = text.charCodeAt(end);
      if (ch === 0x2028 || ch === 0x2029) return false;
      end++;
    }
    this.out.push({ start: this.i, end });
    this.i = end;
    return true;
  }

  /** A regular expression: up to an unescaped `/` outside a class, on this line, then its flags. */
  regularExpression(): boolean {
    const text = this.text;
    const n = text.length;
    let inClass = false;
    this.i++;
    for (;;) {
      if (this.i >= n) return false;
      const r = text.charCodeAt(this.i);
      if (r === NL || r === CR || r >= 128) return false;
      if (r === BACKSLASH) this.i++;
      else if (r === 91) inClass = true;
      else if (r === 93) inClass = false;
      else if (r === SLASH && !inClass) break;
      this.i++;
    }
    this.i++;
    while (this.i < n && isIdentPart(text.charCodeAt(this.i))) this.i++;
    this.prev = Prev.Value;
    return true;
  }

  /** A string literal quoted with `quote`, on one line (an escaped line break continues it). */
  quoted(quote: number): boolean {
    const text = this.text;
    this.i++;
    for (;;) {
      if (this.i >= text.length) return false;
      const s = text.charCodeAt(this.i);
      if (s === quote) break;
      if (s === BACKSLASH) {
        this.i += text.charCodeAt(this.i + 1) === CR && text.charCodeAt(this.i + 2) === NL ? 3 : 2;
        continue;
      }
      if (s === NL || s === CR) return false;
      this.i++;
    }
    this.i++;
    this.prev = Prev.Value;
    return true;
  }

  /** Read a template's text from `i` (just past a backtick or a `}` closing a substitution). */
  templateText(): boolean {
    const text = this.text;
    while (this.i < text.length) {
      const c = text.charCodeAt(this.i);
      if (c === BACKSLASH) this.i += 2;
      else if (c === BACKTICK) {
        this.i++;
        this.prev = Prev.Value;
        return true;
      } else if (c === 36 && text.charCodeAt(this.i + 1) === 123) {
        this.i += 2;
        this.templates.push(0);
        this.prev = Prev.Operator;
        return true;
      } else this.i++;
    }
    return false;
  }

  /** A name or keyword: what a `/` after it is follows from which. */
  name(word: string): boolean {
    const text = this.text;
    const start = this.i;
    this.i++;
    while (this.i < text.length && isIdentPart(text.charCodeAt(this.i))) this.i++;
    if (this.i < text.length && (text.charCodeAt(this.i) >= 128 || text.charCodeAt(this.i) === BACKSLASH)) {
      return false;
    }
    const name = text.slice(start, this.i);
    this.prev = REGEX_AFTER.has(name) ? Prev.Operator : AMBIGUOUS.has(name) ? Prev.Unknown : Prev.Value;
    this.wordBefore = word;
    this.lastWord = name;
    return true;
  }

  /** A number: digits, letters, `_` and `.`; a sign only right after the exponent of a decimal number (`1e-7`). */
  number(c: number): void {
    const text = this.text;
    const radix = c === 48 && /[xXbBoO]/.test(text[this.i + 1] ?? "");
    this.i++;
    while (this.i < text.length) {
      const d = text.charCodeAt(this.i);
      if (isIdentPart(d) || d === 46) this.i++;
      else if ((d === 43 || d === 45) && !radix && (text.charCodeAt(this.i - 1) | 32) === 101) this.i++;
      else break;
    }
    this.prev = Prev.Value;
  }

  /** `{`, `}`, `(`, `)` and `]`: what they open and close; undefined for any other character. */
  bracket(c: number, { word, before }: { word: string; before: string }): boolean | undefined {
    if (c === 123) {
      if (this.templates.length > 0) this.templates[this.templates.length - 1]!++;
      this.prev = Prev.Operator;
      this.i++;
      return true;
    }
    if (c === 125) return this.closeBrace();
    if (c === 40) {
      this.parens.push(CONDITION.has(word) || (word === "await" && before === "for"));
      this.prev = Prev.Operator;
      this.i++;
      return true;
    }
    if (c === 41) {
      if (this.parens.length === 0) return false;
      // After a condition a statement starts (`if (x) /re/.test(y)`); after an operand, a `/` divides.
      this.prev = this.parens.pop() ? Prev.Operator : Prev.Value;
      this.i++;
      return true;
    }
    if (c === 93) {
      this.prev = Prev.Value;
      this.i++;
      return true;
    }
    return undefined;
  }

  /** `}`: the end of a template substitution (the template's text goes on) or of a block or object. */
  closeBrace(): boolean {
    const templates = this.templates;
    this.i++;
    if (templates.length > 0) {
      if (templates[templates.length - 1] === 0) {
        templates.pop();
        return this.templateText();
      }
      templates[templates.length - 1]!--;
    }
    this.prev = Prev.Unknown;
    return true;
  }

  /** Any other punctuator: whether a `/` after it starts a regular expression. */
  operator(c: number): boolean {
    const text = this.text;
    const i = this.i;
    // `<!--` and `-->` are comments in scripts but not in modules: too close to call.
    if (c === 60 && text.startsWith("<!--", i)) return false;
    if (c === 45 && text.startsWith("-->", i)) return false;
    if ((c === 43 || c === 45) && text.charCodeAt(i + 1) === c) {
      this.i += 2;
      this.prev = Prev.Unknown;
      return true;
    }
    if (c === 62) {
      // `=>` before an arrow function's body; a lone `>` may close type arguments (`f<T> / 2`).
      this.prev = text.charCodeAt(i - 1) === 61 ? Prev.Operator : Prev.Unknown;
    } else if (c === 33 && text.charCodeAt(i + 1) !== 61) {
      // `!x` before an operand, TypeScript's `x!` after one (then a `/` divides).
      if (this.prev !== Prev.Value) this.prev = this.prev === Prev.Operator ? Prev.Operator : Prev.Unknown;
    } else this.prev = BEFORE_REGEX.has(c) ? Prev.Operator : Prev.Unknown;
    this.i++;
    return true;
  }
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
