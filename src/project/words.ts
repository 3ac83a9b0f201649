/**
 * Words in source text: the one rule for "this text holds that name as a
 * whole word" (no letter, digit, `_` or `$` on either side), and the word
 * index of a project view, which answers which files mention a word. The
 * index is filled on demand, one word at a time, and remembers each file's
 * answer, so the second search for a name (a rename asks again for every
 * module that re-exports it) reads no file again.
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

/** Which files mention which words, learnt one (word, file) pair at a time. */
export class WordIndex {
  readonly #read: TextSource;
  /** word -> path -> whether the file holds the word. */
  readonly #known = new Map<string, Map<string, boolean>>();

  /**
   * An empty index.
   *
   * @param read Where texts come from (the view's cached reads).
   */
  constructor(read: TextSource) {
    this.#read = read;
  }

  /**
   * Whether the file at `path` holds `word` as a whole word (an unreadable file holds none).
   *
   * @param path Relative path.
   * @param word The word.
   * @returns The answer, remembered.
   */
  async mentions(path: string, word: string): Promise<boolean> {
    let byPath = this.#known.get(word);
    if (!byPath) this.#known.set(word, byPath = new Map());
    const hit = byPath.get(path);
    if (hit !== undefined) return hit;
    const text = await this.#read(path);
    const found = text !== null && hasWord(text, word);
    byPath.set(path, found);
    return found;
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
