/**
 * SEARCH/REPLACE blocks as models write them: `<<<<<<< SEARCH` / `=======` /
 * `>>>>>>> REPLACE` with 5–9 marker characters (or the `------- SEARCH` /
 * `+++++++ REPLACE` variant), the file name on the line above the block or
 * above its code fence, and blocks without a name inheriting the previous
 * block's file.
 *
 * @module
 */
import { fileNameOf, inputLines, malformed } from "./_input.ts";
import type { EditBlock, EditSink, FileOp, LineReader } from "./types.ts";

const HEAD = /^\s*(?:<{5,9}|-{5,9})\s?SEARCH\s*$/;
const DIVIDER = /^\s*={5,9}\s*$/;
const TAIL = /^\s*(?:>{5,9}|\+{5,9})\s?REPLACE\s*$/;
const FENCE = /^\s*(`{3,}|~{3,})\s*(\S*)\s*$/;

/** True when `text` holds at least one SEARCH marker line. */
export function looksLikeSearchReplace(text: string): boolean {
  return HEAD_IN_TEXT.test(text);
}

const HEAD_IN_TEXT = new RegExp(HEAD.source, "m");

/** True when one line of edit input is a SEARCH marker (it decides the SEARCH/REPLACE format). */
export function isSearchMarker(line: string): boolean {
  return HEAD.test(line);
}

function nameAbove(lines: string[], head: number, floor: number): string | null {
  let i = head - 1;
  while (i >= floor && lines[i]!.trim() === "") i--;
  if (i < floor) return null;
  const fence = FENCE.exec(lines[i]!);
  if (fence) {
    const info = fence[2] ?? "";
    if (info.includes("/") || info.includes(".")) {
      const named = fileNameOf(info);
      if (named) return named;
    }
    i--;
    while (i >= floor && lines[i]!.trim() === "") i--;
    if (i < floor) return null;
  }
  const line = lines[i]!;
  if (FENCE.test(line) || TAIL.test(line) || DIVIDER.test(line)) return null;
  return fileNameOf(line);
}

/**
 * Parse SEARCH/REPLACE blocks into one `edit` op per run of blocks on the same file.
 *
 * @param text The model's response.
 * @returns The operations, in input order.
 * @throws RecoverableError `invalid_args` naming the malformed input line.
 *
 * @example Two blocks, the second inheriting the file name
 * ```ts
 * import { parseSearchReplace } from "@graver/core/text";
 * import assert from "node:assert/strict";
 *
 * const ops = parseSearchReplace([
 *   "src/a.ts",
 *   "<<<<<<< SEARCH",
 *   "const a = 1;",
 *   "=======",
 *   "const a = 2;",
 *   ">>>>>>> REPLACE",
 * ].join("\n"));
 * assert.equal(ops[0]!.path, "src/a.ts");
 * ```
 */
export function parseSearchReplace(text: string): (FileOp & { kind: "edit" })[] {
  const ops: (FileOp & { kind: "edit" })[] = [];
  const reader = new SearchReplaceReader({ op: (op) => ops.push(op as FileOp & { kind: "edit" }) });
  for (const line of inputLines(text)) reader.line(line);
  reader.finish();
  return ops;
}

/** Where the reader is: between blocks, in a block's SEARCH lines, or in its REPLACE lines. */
type Place = "outside" | "search" | "replace";

/**
 * SEARCH/REPLACE blocks read one line at a time: the file named above a block (or the previous block's),
 * the search lines reported at the `=======` divider, the block at its `>>>>>>> REPLACE` line, and an edit
 * operation for each run of blocks on one file once the next file starts or the input ends.
 *
 * @example Blocks reported as they close
 * ```ts
 * import { SearchReplaceReader } from "./parse_search_replace.ts";
 * import type { FileOp } from "./types.ts";
 * import assert from "node:assert/strict";
 *
 * const ops: FileOp[] = [];
 * const seen: string[] = [];
 * const reader = new SearchReplaceReader({ op: (op) => ops.push(op), search: (b) => seen.push(b.search[0]!) });
 * for (const line of ["a.txt", "<<<<<<< SEARCH", "old", "======="]) reader.line(line);
 * assert.deepEqual(seen, ["old"]);
 * for (const line of ["new", ">>>>>>> REPLACE"]) reader.line(line);
 * reader.finish();
 * assert.equal(ops.length, 1);
 * ```
 */
export class SearchReplaceReader implements LineReader {
  #sink: EditSink;
  /** Lines read: the 1-based number of the last one. */
  #n = 0;
  #place: Place = "outside";
  /** The lines since the last block ended: a file name above the next block is looked for in them. */
  #between: string[] = [];
  /** The file of the block being read (or of the last one: a block naming none inherits it). */
  #current: string | null = null;
  #op: (FileOp & { kind: "edit" }) | null = null;
  #block: EditBlock | null = null;
  #divider = "";

  /** @param sink Where each file, search side, block and operation is reported. */
  constructor(sink: EditSink) {
    this.#sink = sink;
  }

  /** Read the next line. */
  line(line: string): void {
    this.#n++;
    if (this.#place === "outside") this.#outside(line);
    else if (this.#place === "search") this.#searchLine(line);
    else this.#replaceLine(line);
  }

  /** The input ended: an open block is malformed; the last operation is reported. */
  finish(): void {
    const headLine = this.#block?.inputLine ?? 0;
    if (this.#place === "search") {
      throw malformed("search-replace", {
        line: headLine,
        what: "the block has no ======= divider",
        hint: "End the SEARCH lines with =======, then the new lines and >>>>>>> REPLACE",
      });
    }
    if (this.#place === "replace") {
      throw malformed("search-replace", {
        line: headLine,
        what: "the block has no >>>>>>> REPLACE line",
        hint: "Close every block with a line >>>>>>> REPLACE",
      });
    }
    if (this.#op) this.#sink.op(this.#op);
    this.#op = null;
  }

  /** A line between blocks: a stray REPLACE marker is malformed, a SEARCH marker opens a block. */
  #outside(line: string): void {
    if (TAIL.test(line)) {
      throw malformed("search-replace", {
        line: this.#n,
        what: `"${line.trim()}" outside a block`,
        hint:
          "Start every block with a line <<<<<<< SEARCH, then the old lines, =======, the new lines and >>>>>>> REPLACE",
      });
    }
    if (!HEAD.test(line)) {
      this.#between.push(line);
      return;
    }
    this.#current = nameAbove(this.#between, this.#between.length, 0) ?? this.#current;
    if (this.#current === null) {
      throw malformed("search-replace", {
        line: this.#n,
        what: "the block names no file",
        hint: "Put the file path alone on the line above the block (or above its ``` fence)",
      });
    }
    this.#between = [];
    if (this.#op?.path !== this.#current) {
      if (this.#op) this.#sink.op(this.#op);
      this.#op = { kind: "edit", path: this.#current, blocks: [], inputLine: this.#n };
      this.#sink.file?.({ path: this.#current, op: "edit", inputLine: this.#n });
    }
    this.#block = { search: [], replace: [], inputLine: this.#n };
    this.#place = "search";
  }

  /** A line of the SEARCH side: the divider ends it. */
  #searchLine(line: string): void {
    const block = this.#block!;
    if (DIVIDER.test(line)) {
      this.#divider = line;
      this.#place = "replace";
      this.#sink.search?.(block);
      return;
    }
    if (HEAD.test(line) || TAIL.test(line)) {
      throw malformed("search-replace", {
        line: this.#n,
        what: `"${line.trim()}" before the ======= divider of the block at input line ${block.inputLine}`,
        hint: "Separate the SEARCH lines from the REPLACE lines with a line =======",
      });
    }
    block.search.push(line);
  }

  /** A line of the REPLACE side: the REPLACE marker closes the block. */
  #replaceLine(line: string): void {
    const block = this.#block!;
    if (HEAD.test(line)) {
      throw malformed("search-replace", {
        line: this.#n,
        what:
          `a new SEARCH marker before the >>>>>>> REPLACE line of the block at input line ${block.inputLine}`,
        hint: "Close every block with a line >>>>>>> REPLACE",
      });
    }
    if (!TAIL.test(line)) {
      block.replace.push(line);
      return;
    }
    const alternatives = otherReadings(block, this.#divider);
    if (alternatives.length > 0) block.alternatives = alternatives;
    this.#op!.blocks.push(block);
    this.#block = null;
    this.#place = "outside";
    this.#sink.block?.(block);
  }
}
/**
 * More `=======` lines in the REPLACE side: the SEARCH text may hold one (a Markdown underline, a conflict
 * example), so each later divider is another reading of the block.
 */
function otherReadings(block: EditBlock, divider: string): { search: string[]; replace: string[] }[] {
  const { search, replace } = block;
  const out: { search: string[]; replace: string[] }[] = [];
  replace.forEach((line, k) => {
    if (DIVIDER.test(line)) {
      out.push({ search: [...search, divider, ...replace.slice(0, k)], replace: replace.slice(k + 1) });
    }
  });
  return out;
}
