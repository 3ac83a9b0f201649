/**
 * The span a structural match's replacement replaces: the match's own, or, where a fix's `expandStart` /
 * `expandEnd` widened it (ast-grep's FixConfig: a list item with its `,`), the wider one. The one rule every
 * consumer of a rewrite's sites uses (the plan's edits, the preview's fit check, ast-grep's
 * `replacementOffsets`).
 *
 * @module
 */
import type { StructuralHit } from "./types.ts";

/**
 * The span a hit's replacement replaces.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { replacedSpan } from "./replaced_span.ts";
 *
 * assert.deepEqual(replacedSpan({ start: 4, end: 9 }), { start: 4, end: 9 });
 * assert.deepEqual(replacedSpan({ start: 4, end: 9, replaced: { start: 4, end: 10 } }), { start: 4, end: 10 });
 * ```
 *
 * @param hit The match.
 * @returns Its replaced span's start and end offsets (UTF-16).
 */
export function replacedSpan(hit: Pick<StructuralHit, "start" | "end" | "replaced">): {
  start: number;
  end: number;
} {
  return hit.replaced ?? { start: hit.start, end: hit.end };
}
