/**
 * Edit text parsed as it arrives: chunks in, each file, search side, block and operation reported as soon as
 * its closing line is read, by the same line readers the one-shot parsers run (so a rule lives in one place).
 * Lines are read once: only the incomplete last line is carried from one chunk to the next. The format is
 * decided by the first line that decides it (`*** Begin Patch`, a SEARCH marker, a `@@`, `diff --git` or
 * `---`/`+++` line); lines before it wait for it. A malformed input throws the one-shot parser's error.
 *
 * @module
 */
import { LineSplitter } from "./_stream_lines.ts";
import { ApplyPatchReader, isBeginPatch } from "./parse_apply_patch.ts";
import { type FormatOption, noEdit, unknownFormat } from "./parse_edits.ts";
import { isSearchMarker, SearchReplaceReader } from "./parse_search_replace.ts";
import { decidesUnifiedDiff, UnifiedDiffReader } from "./parse_udiff.ts";
import type { EditFormat, EditSink, LineReader } from "./types.ts";

/**
 * A parser of edit text fed in chunks.
 *
 * @example Blocks reported as their markers arrive
 * ```ts
 * import { EditStreamParser } from "@graver/core/text";
 * import assert from "node:assert/strict";
 *
 * const closed: string[] = [];
 * const parser = new EditStreamParser({ op: () => {}, block: (b) => closed.push(b.replace.join("\n")) });
 * parser.write("a.txt\n<<<<<<< SEA");
 * parser.write("RCH\none\n=======\n1\n>>>>>>> REP");
 * assert.deepEqual(closed, []);
 * parser.write("LACE\n");
 * assert.deepEqual(closed, ["1"]);
 * assert.equal(parser.end(), "search-replace");
 * ```
 */
export class EditStreamParser {
  #sink: EditSink;
  #lines = new LineSplitter();
  #format: EditFormat | null;
  #reader: LineReader | null = null;
  /** Lines read before the format was decided. */
  #waiting: string[] = [];
  #seen = { minus: false };
  #ops = 0;
  #ended = false;

  /**
   * @param sink Where each file, search side, block and operation is reported.
   * @param options `format` to force one (default "auto": the first deciding line).
   */
  constructor(sink: EditSink, options: { format?: FormatOption } = {}) {
    this.#sink = {
      ...sink,
      op: (op) => {
        this.#ops++;
        sink.op(op);
      },
    };
    this.#format = options.format === undefined || options.format === "auto" ? null : options.format;
    if (this.#format !== null) this.#reader = this.#readerFor(this.#format);
  }

  /** The format, once decided. */
  get format(): EditFormat | null {
    return this.#format;
  }

  /**
   * Read the next chunk: every line it completes is read now.
   *
   * @param chunk The next piece of the edit text.
   * @throws RecoverableError `invalid_args` at a malformed line (the one-shot parser's error).
   */
  write(chunk: string): void {
    for (const line of this.#lines.push(chunk)) this.#line(line);
  }

  /**
   * The text ended: its last line is read and what is open closed.
   *
   * @returns The format.
   * @throws RecoverableError `invalid_args` for an unknown format, an unclosed block, or no edit at all.
   */
  end(): EditFormat {
    for (const line of this.#lines.finish()) this.#line(line);
    this.#ended = true;
    if (this.#format === null || this.#reader === null) throw unknownFormat();
    this.#reader.finish();
    if (this.#ops === 0) throw noEdit(this.#format);
    return this.#format;
  }

  #line(line: string): void {
    if (this.#ended) return;
    if (this.#reader !== null) {
      if (!(this.#reader instanceof ApplyPatchReader && this.#reader.done)) this.#reader.line(line);
      return;
    }
    this.#waiting.push(line);
    const format = isBeginPatch(line)
      ? "apply-patch"
      : isSearchMarker(line)
      ? "search-replace"
      : decidesUnifiedDiff(line, this.#seen)
      ? "udiff"
      : null;
    if (format === null) return;
    this.#format = format;
    const reader = this.#reader = this.#readerFor(format);
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const l of waiting) reader.line(l);
  }

  #readerFor(format: EditFormat): LineReader {
    return format === "search-replace"
      ? new SearchReplaceReader(this.#sink)
      : format === "udiff"
      ? new UnifiedDiffReader(this.#sink)
      : new ApplyPatchReader(this.#sink);
  }
}
