/**
 * What a search remembers of the byte arrays it read, by the array's identity: the decoded text (or that the
 * bytes look binary), its line starts (found only as far as a match needed) and the version (SHA-256) of the
 * bytes. A source that hands out the same array for an unchanged file (a stage, a session's read cache) so
 * gets a warm search that neither decodes, counts the lines of nor hashes an unchanged file again.
 *
 * Bounds. Texts and line starts are held within a byte budget ({@linkcode DECODED_TEXT_BYTES} by default; a
 * text is charged one byte per character when it is all ASCII, two otherwise, and its line starts 8 bytes
 * each, counted again at each use), least recently used first out — but a search never pushes out what it or
 * the search before it used: when only those are left, a new text is decoded for the search and not kept (nor
 * is any later one of that search), so a search over more than the budget keeps what it read first, and the
 * next search reuses all of it, instead of cycling the whole tree through the budget. Whether bytes look binary and their version are kept for as long as
 * the byte array lives (a weak map: nothing here keeps the array alive), about 100 bytes per array, so at most
 * one per file the source holds.
 *
 * @module
 */
import { holdsNul } from "../fs/text.ts";
import { LineStarts } from "./matched_lines.ts";

/** What the searches of a process hold at most by default in decoded texts and their line starts, in bytes. */
export const DECODED_TEXT_BYTES = 64 * 1024 * 1024;

/** What one held entry costs beyond its text and line starts (the entry, its place in the order). */
const ENTRY_BYTES = 96;

/** Bytes charged per line start found. */
const LINE_START_BYTES = 8;

const DECODER = new TextDecoder();

/** What is remembered of one byte array. */
interface Remembered {
  /** Its text; null when it looks binary; undefined when not held (never decoded, or pushed out). */
  text: string | null | undefined;
  /** The line starts of `text`, while it is held. */
  lines: LineStarts | undefined;
  /** The version of the bytes, once hashed. */
  version: string | undefined;
  /** Bytes charged against the budget while the text is held. */
  charged: number;
  /** The search that last used it. */
  gen: number;
}

/** What a {@linkcode DecodedTexts} holds and has done. */
export interface DecodedTextCounts {
  /** Texts held now. */
  texts: number;
  /** Bytes charged for them now. */
  bytes: number;
  /** The budget, in bytes. */
  maxBytes: number;
  /** Decodes so far (a held text's reuse is not one). */
  decodes: number;
}

/**
 * Texts, line starts and versions of byte arrays, by identity, within a byte budget.
 *
 * @example A held text is reused; one pushed out is decoded again
 * ```ts
 * import assert from "node:assert/strict";
 * import { DecodedTexts } from "./decoded_texts.ts";
 *
 * const texts = new DecodedTexts({ maxBytes: 200 });
 * const a = new TextEncoder().encode("a".repeat(64));
 * const b = new TextEncoder().encode("b".repeat(64));
 * texts.textOf(a);
 * texts.textOf(a);
 * assert.equal(texts.counts().decodes, 1);
 * texts.textOf(b); // over the budget: `a`, the least recently used, goes
 * texts.textOf(a);
 * assert.equal(texts.counts().decodes, 3);
 * ```
 */
export class DecodedTexts {
  #maxBytes: number;
  readonly #byBytes = new WeakMap<Uint8Array, Remembered>();
  /** Entries whose text is held, least recently used first. */
  readonly #held = new Set<Remembered>();
  #bytes = 0;
  #gen = 0;
  /** The search in which a new text last found no room: it keeps no more new texts. */
  #fullGen = -1;
  #decodes = 0;

  /**
   * An empty store.
   *
   * @param options `maxBytes`: the budget of texts and line starts (default {@linkcode DECODED_TEXT_BYTES}).
   */
  constructor(options: { maxBytes?: number } = {}) {
    this.#maxBytes = options.maxBytes ?? DECODED_TEXT_BYTES;
  }

  /**
   * Change the budget; texts over the new one go at once (least recently used first).
   *
   * @param maxBytes The budget in bytes (0: hold no text).
   */
  setMaxBytes(maxBytes: number): void {
    this.#maxBytes = maxBytes;
    for (const entry of this.#held) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#release(entry);
    }
  }

  /**
   * Start a search: what it decodes or uses is not pushed out by what it decodes later (see the module).
   */
  newScan(): void {
    this.#gen++;
  }

  #entryOf(bytes: Uint8Array): Remembered {
    let entry = this.#byBytes.get(bytes);
    if (entry === undefined) {
      entry = { text: undefined, lines: undefined, version: undefined, charged: 0, gen: 0 };
      this.#byBytes.set(bytes, entry);
    }
    return entry;
  }

  /**
   * The text of `bytes` (UTF-8, a BOM dropped, invalid bytes replaced), or null when they look binary: the
   * held one, else decoded (and held when the budget allows).
   *
   * @param bytes A file's bytes (never changed in place).
   * @returns The text, or null.
   */
  textOf(bytes: Uint8Array): string | null {
    const entry = this.#entryOf(bytes);
    const held = entry.text;
    if (held !== undefined) {
      if (held !== null) this.#touch(entry, bytes);
      return held;
    }
    if (holdsNul(bytes)) return entry.text = null;
    this.#decodes++;
    const text = DECODER.decode(bytes);
    if (this.#admit(entry, bytes, text)) entry.text = text;
    return text;
  }

  /**
   * The line starts of `text`, the text of `bytes`: held with the text (and found no further than asked).
   *
   * @param bytes A file's bytes.
   * @param text Their text ({@linkcode DecodedTexts.textOf}).
   * @returns The line starts.
   */
  lineStartsOf(bytes: Uint8Array, text: string): LineStarts {
    const entry = this.#byBytes.get(bytes);
    if (entry?.text !== text) return new LineStarts(text); // not held: found for this search only
    return entry.lines ??= new LineStarts(text);
  }

  /**
   * The version remembered for `bytes`, if any.
   *
   * @param bytes A file's bytes.
   * @returns Its version, or undefined.
   */
  versionOf(bytes: Uint8Array): string | undefined {
    return this.#byBytes.get(bytes)?.version;
  }

  /**
   * Remember the version of `bytes` (for as long as the array lives).
   *
   * @param bytes A file's bytes.
   * @param version Their version.
   */
  rememberVersion(bytes: Uint8Array, version: string): void {
    this.#entryOf(bytes).version = version;
  }

  /** What is held now, and the decodes so far. */
  counts(): DecodedTextCounts {
    return { texts: this.#held.size, bytes: this.#bytes, maxBytes: this.#maxBytes, decodes: this.#decodes };
  }

  /** What holding `text` (and the line starts found in it) costs. */
  #cost(bytes: Uint8Array, text: string, lines: LineStarts | undefined): number {
    const perChar = text.length === bytes.length ? 1 : 2; // all ASCII: V8 and others store a byte a character
    return ENTRY_BYTES + text.length * perChar + (lines?.found ?? 0) * LINE_START_BYTES;
  }

  /**
   * A held entry used again: moved to the end and charged anew (its line starts may have grown). Growth never
   * pushes out another text (it may be the search's next file): when it does not fit, the line starts go.
   */
  #touch(entry: Remembered, bytes: Uint8Array): void {
    this.#held.delete(entry);
    this.#held.add(entry);
    entry.gen = this.#gen;
    let cost = this.#cost(bytes, entry.text!, entry.lines);
    if (this.#bytes - entry.charged + cost > this.#maxBytes) {
      entry.lines = undefined;
      cost = this.#cost(bytes, entry.text!, undefined);
    }
    this.#bytes += cost - entry.charged;
    entry.charged = cost;
  }

  /**
   * Make room for a new text, least recently used first, but none that this search or the one before it used
   * (a search over more than the budget would otherwise push out, one by one, the texts it is about to reuse);
   * false (nothing changed) when there is no room. Once a search has found no room, it keeps no later text
   * either (a smaller one further on would push out, for nothing, one the next search would reuse), so what a
   * search keeps is what it read first. Outside searches (no {@linkcode DecodedTexts.newScan} yet): plain LRU.
   */
  #admit(entry: Remembered, bytes: Uint8Array, text: string): boolean {
    const gen = this.#gen;
    if (gen > 0 && this.#fullGen === gen) return false;
    const cost = this.#cost(bytes, text, undefined);
    if (cost > this.#maxBytes) return false;
    for (const old of this.#held) {
      if (this.#bytes + cost <= this.#maxBytes) break;
      if (gen > 0 && old.gen >= gen - 1) { // the order is by last use, so every later one is as recent
        this.#fullGen = gen;
        return false;
      }
      this.#release(old);
    }
    if (this.#bytes + cost > this.#maxBytes) return false;
    entry.charged = cost;
    entry.gen = gen;
    this.#held.add(entry);
    this.#bytes += cost;
    return true;
  }

  /** Stop holding an entry's text and line starts (its version stays with the bytes). */
  #release(entry: Remembered): void {
    this.#held.delete(entry);
    this.#bytes -= entry.charged;
    entry.charged = 0;
    entry.text = undefined;
    entry.lines = undefined;
  }
}

/**
 * The store every search of the process shares (texts are keyed by byte arrays, which sessions over the same
 * backend share through its read cache). A host that searches trees larger than the default budget and has
 * the memory may raise it (`decodedTexts.setMaxBytes`).
 */
export const decodedTexts: DecodedTexts = new DecodedTexts();

/**
 * What the shared store holds now ({@linkcode decodedTexts}).
 *
 * @returns Its counts.
 */
export function decodedTextCounts(): DecodedTextCounts {
  return decodedTexts.counts();
}
