/**
 * Lines out of chunks of text (private): each complete line as soon as its ending arrives, any ending (LF,
 * CRLF, a lone CR) as the one-shot parsers read them, only the incomplete last line carried to the next chunk,
 * and a CR that ends a chunk held until the next one tells whether an LF pairs with it.
 *
 * @module
 */

/** A splitter of chunked text into lines (without their endings). */
export class LineSplitter {
  /** The incomplete last line. */
  #carry = "";
  /** The last chunk ended with a CR: an LF that starts the next belongs to it. */
  #cr = false;

  /**
   * The lines the chunk completes.
   *
   * @param chunk The next piece of text.
   * @returns The complete lines, in order.
   */
  push(chunk: string): string[] {
    const out: string[] = [];
    let i = this.#cr && chunk.charCodeAt(0) === 10 ? 1 : 0;
    if (chunk.length > 0) this.#cr = false;
    let start = i;
    for (; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      out.push(this.#carry + chunk.slice(start, i));
      this.#carry = "";
      if (c === 13) {
        if (i + 1 === chunk.length) this.#cr = true;
        else if (chunk.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    if (start < chunk.length) this.#carry += chunk.slice(start);
    return out;
  }

  /**
   * The text ended: its last line, when it has no ending and is not empty.
   *
   * @returns That line, or nothing.
   */
  finish(): string[] {
    const last = this.#carry;
    this.#carry = "";
    return last === "" ? [] : [last];
  }
}
