/**
 * Whether a text's brackets balance ({@linkcode bracketsBalance}): the one rule the compass (does an edit's
 * text span whole syntax nodes?) and the pattern compiler (was a pattern cut short?) share.
 *
 * @module
 */

const OPEN = "([{";
const CLOSE = ")]}";

/**
 * Whether a text's brackets balance (outside string quotes, roughly: a quote other than a backtick ends at
 * its line's end): text that does likely spans whole syntax nodes; text that does not cuts through nodes, or
 * was cut short (`f($A`).
 *
 * @param text Code.
 * @returns True when every bracket closes, in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bracketsBalance } from "./brackets.ts";
 *
 * assert.deepEqual(["import {$$$A} from $B", "f($A", 'f(")")', "f(]"].map(bracketsBalance), [true, false, true, false]);
 * ```
 */
export function bracketsBalance(text: string): boolean {
  const stack: string[] = [];
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== null) {
      if (c === "\\") i++;
      else if (c === quote || (c === "\n" && quote !== "`")) quote = null;
      continue;
    }
    if (c === '"' || c === "'" || c === "`") quote = c;
    else if (OPEN.includes(c)) stack.push(CLOSE[OPEN.indexOf(c)]!);
    else if (CLOSE.includes(c) && stack.pop() !== c) return false;
  }
  return stack.length === 0;
}
