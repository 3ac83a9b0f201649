/**
 * Words in source text: the one rule for "this text holds that name as a
 * whole word" (no letter, digit, `_` or `$` on either side), and the word
 * index of a project view, which answers which files mention a word. The
 * index is filled on demand, one word at a time, and remembers each file's
 * answer, so the second search for a name (a rename asks again for every
 * module that re-exports it) reads no file again. It lives as long as its
 * view (one call) and remembers at most {@linkcode WORD_ANSWERS} answers
 * (the words asked least recently go first).
 *
 * @module
 */

/** A character that continues an identifier in the languages graver reads, as a regular-expression class. */
const WORD_CLASS = "[\\p{L}\\p{N}_$]";
/** {@linkcode WORD_CLASS} as a pattern of one character. */
const WORD_CHAR = new RegExp(WORD_CLASS, "u");

/**
 * A pattern that finds `word` as a whole word, by the rule of {@linkcode wordOffsets}: for a caller that
 * needs a regular expression (to replace each occurrence, or to walk them with `matchAll`).
 *
 * @param word The word (its characters are matched literally).
 * @param flags More flags ("g"); the pattern is always Unicode-aware ("u").
 * @returns The pattern.
 *
 * @example
 * ```ts
 * import { wordPattern } from "./words.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal("$a a ab a$ é_a a".replace(wordPattern("a", "g"), "b"), "$a b ab a$ é_a b");
 * ```
 */
export function wordPattern(word: string, flags = ""): RegExp {
  const escaped = word.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return new RegExp(
    `(?<!${WORD_CLASS})${escaped}(?!${WORD_CLASS})`,
    flags.includes("u") ? flags : `${flags}u`,
  );
}

/**
 * The offsets where `text` holds `word` as a whole word.
 *
 * @param text The text searched.
 * @param word The word (an identifier).
 * @param limit Most offsets returned.
 * @returns Offsets in UTF-16 code units, in order.
 */
export function wordOffsets(text: string, word: string, limit = Infinity): number[] {
  const out: number[] = [];
  if (word === "") return out;
  for (let i = text.indexOf(word); i >= 0 && out.length < limit; i = text.indexOf(word, i + 1)) {
    const before = i > 0 ? text[i - 1]! : "";
    const after = text[i + word.length] ?? "";
    if (!(before && WORD_CHAR.test(before)) && !(after && WORD_CHAR.test(after))) out.push(i);
  }
  return out;
}

/**
 * Whether `text` holds `word` as a whole word.
 *
 * @param text The text searched.
 * @param word The word.
 * @returns True at the first whole-word occurrence.
 */
export function hasWord(text: string, word: string): boolean {
  return wordOffsets(text, word, 1).length > 0;
}

/** Where the word index reads a file's text (null: unreadable, or skipped by a limit). */
export type TextSource = (path: string) => Promise<string | null>;

/** How many (word, file) answers a word index remembers at most by default (some 50 bytes each). */
export const WORD_ANSWERS = 1_000_000;

/** Which files mention which words, learnt one (word, file) pair at a time. */
export class WordIndex {
  readonly #read: TextSource;
  readonly #maxAnswers: number;
  /** word -> path -> whether the file holds the word; words in the order last asked. */
  readonly #known = new Map<string, Map<string, boolean>>();
  #answers = 0;

  /**
   * An empty index.
   *
   * @param read Where texts come from (the view's cached reads).
   * @param options `maxAnswers`: most answers remembered (default {@linkcode WORD_ANSWERS}).
   */
  constructor(read: TextSource, options: { maxAnswers?: number } = {}) {
    this.#read = read;
    this.#maxAnswers = options.maxAnswers ?? WORD_ANSWERS;
  }

  /** How many answers are remembered now. */
  get answers(): number {
    return this.#answers;
  }

  /**
   * Whether the file at `path` holds `word` as a whole word (an unreadable file holds none).
   *
   * @param path Relative path.
   * @param word The word.
   * @returns The answer, remembered.
   */
  async mentions(path: string, word: string): Promise<boolean> {
    const hit = this.#known.get(word)?.get(path);
    if (hit !== undefined) return hit;
    const text = await this.#read(path);
    const found = text !== null && hasWord(text, word);
    this.#remember(word, path, found);
    return found;
  }

  /** Remember one answer; while over the bound, the words asked least recently are forgotten first. */
  #remember(word: string, path: string, found: boolean): void {
    let byPath = this.#known.get(word);
    this.#known.delete(word);
    for (const [old, answers] of this.#known) {
      if (this.#answers < this.#maxAnswers) break;
      this.#known.delete(old);
      this.#answers -= answers.size;
    }
    if (this.#answers >= this.#maxAnswers && byPath) {
      this.#answers -= byPath.size; // only this word's answers left: start it afresh
      byPath = undefined;
    }
    byPath ??= new Map();
    this.#known.set(word, byPath);
    if (!byPath.has(path)) this.#answers++;
    byPath.set(path, found);
  }

  /**
   * The files of `paths` that hold `word` as a whole word, in the order given.
   *
   * @param word The word.
   * @param paths The files to look in.
   * @returns Those that mention it.
   */
  async filesMentioning(word: string, paths: Iterable<string>): Promise<string[]> {
    const out: string[] = [];
    for (const path of paths) if (await this.mentions(path, word)) out.push(path);
    return out;
  }
}
