/**
 * The top-level fields of a JSON object read as its text streams in (private): each string, number, boolean
 * or null value reported as soon as it closes, escapes decoded even when a chunk splits them (`\n`, `\"`, a
 * `\uXXXX` cut anywhere, a surrogate pair cut between its halves). Nested objects and arrays are skipped;
 * the whole text is still parsed once, at the end, by the call itself. Each character is read once.
 *
 * @module
 */

/** Where the scanner is between tokens of the top-level object. */
type Expect = "key" | "colon" | "value" | "comma";

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/** A scanner of a JSON object's top-level fields. */
export class JsonFieldScanner {
  #onField: (key: string, value: unknown) => void;
  #depth = 0;
  #expect: Expect = "key";
  #key = "";
  /** Inside a string: its text so far (kept only for strings of the top-level object). */
  #string: string | null = null;
  #inString = false;
  #escape = false;
  /** The hex digits of a `\u` escape read so far (null outside one). */
  #hex: string | null = null;
  /** A number, boolean or null being read. */
  #literal: string | null = null;

  #onClose: () => void;

  /**
   * @param onField Called with each top-level field as its value closes.
   * @param onClose Called when the top-level object closes.
   */
  constructor(onField: (key: string, value: unknown) => void, onClose: () => void = () => {}) {
    this.#onField = onField;
    this.#onClose = onClose;
  }

  /** Read the next chunk of the JSON text. */
  write(chunk: string): void {
    for (let i = 0; i < chunk.length; i++) {
      if (this.#inString) i = this.#stringPart(chunk, i);
      else this.#token(chunk[i]!);
    }
  }

  /** Read string characters from `i` up to an escape or the closing quote; the index of the last one read. */
  #stringPart(chunk: string, i: number): number {
    if (this.#hex !== null) return this.#hexDigit(chunk[i]!, i);
    if (this.#escape) {
      this.#escape = false;
      const c = chunk[i]!;
      if (c === "u") this.#hex = "";
      else this.#append(ESCAPES[c] ?? c);
      return i;
    }
    let j = i;
    while (j < chunk.length && chunk[j] !== '"' && chunk[j] !== "\\") j++;
    this.#append(chunk.slice(i, j));
    if (j === chunk.length) return j - 1;
    if (chunk[j] === "\\") this.#escape = true;
    else this.#closeString();
    return j;
  }

  #hexDigit(c: string, i: number): number {
    this.#hex += c;
    if (this.#hex!.length === 4) {
      this.#append(String.fromCharCode(parseInt(this.#hex!, 16)));
      this.#hex = null;
    }
    return i;
  }

  #append(text: string): void {
    if (this.#string !== null) this.#string += text;
  }

  #closeString(): void {
    this.#inString = false;
    const text = this.#string;
    this.#string = null;
    if (text === null) return;
    if (this.#expect === "key") {
      this.#key = text;
      this.#expect = "colon";
    } else {
      this.#onField(this.#key, text);
      this.#expect = "comma";
    }
  }

  /** One character outside strings. */
  #token(c: string): void {
    if (this.#literal !== null) {
      if (!/[\s,}\]]/.test(c)) {
        this.#literal += c;
        return;
      }
      this.#closeLiteral();
    }
    if (c === '"') {
      this.#inString = true;
      this.#string = this.#depth === 1 && this.#expect !== "comma" ? "" : null;
    } else if (c === "{" || c === "[") {
      if (this.#depth === 1) this.#expect = "comma";
      this.#depth++;
    } else if (c === "}" || c === "]") {
      if (--this.#depth === 0) this.#onClose();
    } else if (this.#depth !== 1 || /\s/.test(c)) return;
    else if (c === ":") this.#expect = "value";
    else if (c === ",") this.#expect = "key";
    else if (this.#expect === "value") this.#literal = c;
  }

  #closeLiteral(): void {
    const text = this.#literal!;
    this.#literal = null;
    this.#expect = "comma";
    try {
      this.#onField(this.#key, JSON.parse(text));
    } catch {
      // Not JSON: the call's own parse refuses the arguments at the end.
    }
  }
}
