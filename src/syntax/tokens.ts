/**
 * The punctuation around a definition that belongs to it: the comma that
 * separates list items and the `;` that ends a C/C++ `struct S {...};`.
 * One place for the rules the edit tools share when they add or remove an item.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";

/**
 * Whether `node` is the anonymous token `type` (a `,` or `;`, not a named node of that type).
 *
 * @param node A node, or null.
 * @param type The token's text.
 * @returns Whether it is that token.
 */
export function isToken(node: Node | null, type: string): node is Node {
  return node !== null && !node.isNamed && node.type === type;
}

/**
 * Whether `node` is a `,` token.
 *
 * @param node A node, or null.
 * @returns Whether it is a comma.
 */
export function isComma(node: Node | null): node is Node {
  return isToken(node, ",");
}

/**
 * The `;` that ends a definition outside its node (a C/C++ `struct S {...};`), or null.
 * After a list's last item (`let a, b;`) the `;` ends the list, not the item.
 *
 * @param outer The definition's outermost node.
 * @returns The `;` token, or null.
 */
export function terminatorAfter(outer: Node): Node | null {
  if (isComma(outer.previousSibling)) return null;
  const next = outer.nextSibling;
  return isToken(next, ";") ? next : null;
}
