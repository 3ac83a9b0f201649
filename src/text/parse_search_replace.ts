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
  const ops: (FileOp & { kind: "edit" })[] = [];
  let current: string | null = null;
  let floor = 0;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (TAIL.test(line)) {
      throw malformed(
        "search-replace",
        i + 1,
        `"${line.trim()}" outside a block`,
        "Start every block with a line <<<<<<< SEARCH, then the old lines, =======, the new lines and >>>>>>> REPLACE",
      );
    }
    if (!HEAD.test(line)) {
      i++;
      continue;
    }
    const headLine = i + 1;
    const name = nameAbove(lines, i, floor);
    if (name !== null) current = name;
    if (current === null) {
      throw malformed(
        "search-replace",
        headLine,
        "the block names no file",
        "Put the file path alone on the line above the block (or above its ``` fence)",
      );
    }
    const search: string[] = [];
    const replace: string[] = [];
    i++;
    while (i < lines.length && !DIVIDER.test(lines[i]!)) {
      if (HEAD.test(lines[i]!) || TAIL.test(lines[i]!)) {
        throw malformed(
          "search-replace",
          i + 1,
          `"${lines[i]!.trim()}" before the ======= divider of the block at input line ${headLine}`,
          "Separate the SEARCH lines from the REPLACE lines with a line =======",
        );
      }
      search.push(lines[i]!);
      i++;
    }
    if (i >= lines.length) {
      throw malformed(
        "search-replace",
        headLine,
        "the block has no ======= divider",
        "End the SEARCH lines with =======, then the new lines and >>>>>>> REPLACE",
      );
    }
    const dividerAt = i;
    i++;
    while (i < lines.length && !TAIL.test(lines[i]!)) {
      if (HEAD.test(lines[i]!)) {
        throw malformed(
          "search-replace",
          i + 1,
          `a new SEARCH marker before the >>>>>>> REPLACE line of the block at input line ${headLine}`,
          "Close every block with a line >>>>>>> REPLACE",
        );
      }
      replace.push(lines[i]!);
      i++;
    }
    if (i >= lines.length) {
      throw malformed(
        "search-replace",
        headLine,
        "the block has no >>>>>>> REPLACE line",
        "Close every block with a line >>>>>>> REPLACE",
      );
    }
    i++;
    floor = i;
    const block: EditBlock = { search, replace, inputLine: headLine };
    // More `=======` lines: the SEARCH text may hold one (a Markdown underline, a conflict example).
    const alternatives: { search: string[]; replace: string[] }[] = [];
    replace.forEach((line, k) => {
      if (DIVIDER.test(line)) {
        alternatives.push({
          search: [...search, lines[dividerAt]!, ...replace.slice(0, k)],
          replace: replace.slice(k + 1),
        });
      }
    });
    if (alternatives.length > 0) block.alternatives = alternatives;
    const last = ops[ops.length - 1];
    if (last && last.path === current) last.blocks.push(block);
    else ops.push({ kind: "edit", path: current, blocks: [block], inputLine: headLine });
  }
  return ops;
}
