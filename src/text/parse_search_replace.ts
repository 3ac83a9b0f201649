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
import type { EditBlock, FileOp } from "./types.ts";

const HEAD = /^\s*(?:<{5,9}|-{5,9})\s?SEARCH\s*$/;
const DIVIDER = /^\s*={5,9}\s*$/;
const TAIL = /^\s*(?:>{5,9}|\+{5,9})\s?REPLACE\s*$/;
const FENCE = /^\s*(`{3,}|~{3,})\s*(\S*)\s*$/;

/** True when `text` holds at least one SEARCH marker line. */
export function looksLikeSearchReplace(text: string): boolean {
  return /^\s*(?:<{5,9}|-{5,9})\s?SEARCH\s*$/m.test(text);
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
  const lines = inputLines(text);
  const cur: Cursor = { lines, i: 0 };
  const ops: (FileOp & { kind: "edit" })[] = [];
  let current: string | null = null;
  /** Where the last block ended: a file name above the next block is looked for below it. */
  let floor = 0;
  for (; cur.i < lines.length; cur.i++) {
    const line = lines[cur.i]!;
    if (TAIL.test(line)) {
      throw malformed("search-replace", {
        line: cur.i + 1,
        what: `"${line.trim()}" outside a block`,
        hint:
          "Start every block with a line <<<<<<< SEARCH, then the old lines, =======, the new lines and >>>>>>> REPLACE",
      });
    }
    if (!HEAD.test(line)) continue;
    const headLine = cur.i + 1;
    current = nameAbove(lines, cur.i, floor) ?? current;
    if (current === null) {
      throw malformed("search-replace", {
        line: headLine,
        what: "the block names no file",
        hint: "Put the file path alone on the line above the block (or above its ``` fence)",
      });
    }
    const block = readBlock(cur, headLine);
    floor = cur.i + 1;
    const last = ops[ops.length - 1];
    if (last && last.path === current) last.blocks.push(block);
    else ops.push({ kind: "edit", path: current, blocks: [block], inputLine: headLine });
  }
  return ops;
}

/** The input's lines and the index of the one being read. */
interface Cursor {
  lines: string[];
  i: number;
}

/** The block whose SEARCH marker is at the cursor; the cursor ends on its REPLACE marker. */
function readBlock(cur: Cursor, headLine: number): EditBlock {
  const search: string[] = [];
  for (cur.i++; cur.i < cur.lines.length && !DIVIDER.test(cur.lines[cur.i]!); cur.i++) {
    const line = cur.lines[cur.i]!;
    if (HEAD.test(line) || TAIL.test(line)) {
      throw malformed("search-replace", {
        line: cur.i + 1,
        what: `"${line.trim()}" before the ======= divider of the block at input line ${headLine}`,
        hint: "Separate the SEARCH lines from the REPLACE lines with a line =======",
      });
    }
    search.push(line);
  }
  if (cur.i >= cur.lines.length) {
    throw malformed("search-replace", {
      line: headLine,
      what: "the block has no ======= divider",
      hint: "End the SEARCH lines with =======, then the new lines and >>>>>>> REPLACE",
    });
  }
  const divider = cur.lines[cur.i]!;
  const replace = replaceSide(cur, headLine);
  const block: EditBlock = { search, replace, inputLine: headLine };
  const alternatives = otherReadings(block, divider);
  if (alternatives.length > 0) block.alternatives = alternatives;
  return block;
}

/** The REPLACE lines after the divider at the cursor; the cursor ends on the REPLACE marker. */
function replaceSide(cur: Cursor, headLine: number): string[] {
  const replace: string[] = [];
  for (cur.i++; cur.i < cur.lines.length && !TAIL.test(cur.lines[cur.i]!); cur.i++) {
    if (HEAD.test(cur.lines[cur.i]!)) {
      throw malformed("search-replace", {
        line: cur.i + 1,
        what: `a new SEARCH marker before the >>>>>>> REPLACE line of the block at input line ${headLine}`,
        hint: "Close every block with a line >>>>>>> REPLACE",
      });
    }
    replace.push(cur.lines[cur.i]!);
  }
  if (cur.i >= cur.lines.length) {
    throw malformed("search-replace", {
      line: headLine,
      what: "the block has no >>>>>>> REPLACE line",
      hint: "Close every block with a line >>>>>>> REPLACE",
    });
  }
  return replace;
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
