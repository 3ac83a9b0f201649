/**
 * Array helpers for lists whose length the data decides (the matches of a file, the lines of a rewrite, the
 * children of a node): no spread into a call. `push(...items)` and `Math.max(...values)` pass every item as
 * an argument on the call stack, and a few hundred thousand of them overflow it (`graver grep a` over a line of
 * 200,000 `a`s failed with "Maximum call stack size exceeded").
 *
 * @module
 */

/**
 * Append every item to the end of `target`, one at a time.
 *
 * @param target The array to grow.
 * @param items What to append, in order.
 * @returns `target`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { appendAll } from "./arrays.ts";
 *
 * assert.deepEqual(appendAll([1], [2, 3]), [1, 2, 3]);
 * ```
 */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/**
 * The greatest of the values, or `-Infinity` when there are none (as `Math.max()`).
 *
 * @param values The values.
 * @returns The greatest.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { maxOf } from "./arrays.ts";
 *
 * assert.equal(maxOf([3, 9, 4]), 9);
 * ```
 */
export function maxOf(values: Iterable<number>): number {
  let most = -Infinity;
  for (const v of values) if (v > most || Number.isNaN(v)) most = v;
  return most;
}

/**
 * The least of the values, or `Infinity` when there are none (as `Math.min()`).
 *
 * @param values The values.
 * @returns The least.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { minOf } from "./arrays.ts";
 *
 * assert.equal(minOf([3, 9, 4]), 3);
 * ```
 */
export function minOf(values: Iterable<number>): number {
  let least = Infinity;
  for (const v of values) if (v < least || Number.isNaN(v)) least = v;
  return least;
}
