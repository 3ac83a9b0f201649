/**
 * Which structural primitive a freeform edit maps to: the candidates for a
 * shape, in their default order, reordered by a `prefer` list.
 *
 * @module
 */
import { bracketsBalance } from "./edit_shape.ts";
import type { EditShape, ShapeHunk } from "./types.ts";

/** The structural primitives a suggestion may name. */
export type TargetTool =
  | "edit_apply_node"
  | "edit_insert_at_anchor"
  | "edit_rename_symbol"
  | "edit_safe_text_patch"
  | "replace_symbol";

/** Whether a replacement only adds text (somewhere in or around the old text), removing none. */
function isInsertion(h: ShapeHunk): boolean {
  const [a, b] = [h.oldText, h.newText];
  if (b.length <= a.length) return false;
  let p = 0;
  while (p < a.length && a[p] === b[p]) p++;
  let s = 0;
  while (s < a.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  return p + s === a.length;
}

/**
 * The primitives an edit maps to, best first: a rename to edit_rename_symbol,
 * an insertion next to existing code to edit_insert_at_anchor, text that
 * spans whole nodes (balanced brackets) or a whole-file rewrite to
 * edit_apply_node, other text (cutting through nodes) to edit_safe_text_patch.
 *
 * @param shape The edit.
 * @param rename Whether it reads as a symbol rename (single hunk, rename-capable language).
 * @returns The candidates in default order.
 */
export function candidateTargets(shape: EditShape, rename: boolean): TargetTool[] {
  if (rename) return ["edit_rename_symbol", "edit_apply_node", "edit_safe_text_patch"];
  if (shape.kind === "whole_file") {
    return ["edit_apply_node", "edit_insert_at_anchor", "edit_safe_text_patch"];
  }
  if (shape.kind === "edit_text") return ["edit_apply_node", "edit_safe_text_patch"];
  const hunks = shape.kind === "str_replace" ? [shape.hunk] : shape.hunks;
  if (hunks.every(isInsertion)) return ["edit_insert_at_anchor", "edit_apply_node", "edit_safe_text_patch"];
  if (hunks.every((h) => bracketsBalance(h.oldText) && bracketsBalance(h.newText))) {
    return ["edit_apply_node", "replace_symbol", "edit_safe_text_patch"];
  }
  return ["edit_safe_text_patch", "edit_apply_node"];
}

/**
 * Order candidates by a preference list: the preferred ones first, in the
 * list's order, then the rest in their default order. A tool in `prefer`
 * that is not a candidate for this edit is ignored.
 *
 * @param candidates The candidates, default order.
 * @param prefer The persona's or the option's `prefer` list.
 * @returns The ordered candidates.
 *
 * @example A persona preferring node edits nudges a text patch toward edit_apply_node
 * ```ts
 * import { orderTargets } from "./targets.ts";
 * import assert from "node:assert/strict";
 *
 * const order = orderTargets(["edit_safe_text_patch", "edit_apply_node"], ["edit_apply_node"]);
 * assert.deepEqual(order, ["edit_apply_node", "edit_safe_text_patch"]);
 * ```
 */
export function orderTargets(candidates: readonly TargetTool[], prefer: readonly string[]): TargetTool[] {
  const preferred = prefer.filter((t): t is TargetTool => candidates.includes(t as TargetTool));
  return [...new Set([...preferred, ...candidates])];
}
