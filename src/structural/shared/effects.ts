/**
 * Which expressions have a side effect when evaluated — the one rule the
 * refactors that move, drop or duplicate an expression (inline, change
 * signature) share.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";

/** Node types (ECMAScript, Python) whose evaluation has a side effect. */
export const SIDE_EFFECT_TYPES: readonly string[] = [
  // ECMAScript
  "call_expression",
  "new_expression",
  "assignment_expression",
  "augmented_assignment_expression",
  "update_expression",
  "await_expression",
  "yield_expression",
  // Python
  "call",
  "assignment",
  "augmented_assignment",
  "named_expression",
  "await",
  "yield",
];

const SET: ReadonlySet<string> = new Set(SIDE_EFFECT_TYPES);

/**
 * Node types to look for among a node's descendants before walking them:
 * none of these below a node means no side effect there.
 */
export const MAYBE_EFFECT_TYPES: readonly string[] = [...SIDE_EFFECT_TYPES, "unary_expression"];

/**
 * Whether evaluating this node itself has a side effect (its children aside):
 * a call, an assignment, an update, `await`, `yield`, or `delete`.
 *
 * @param node A node.
 * @returns True when it does.
 */
export function isEffect(node: Node): boolean {
  return SET.has(node.type) || (node.type === "unary_expression" && node.child(0)?.type === "delete");
}
