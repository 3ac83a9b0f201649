/**
 * Decorations: decorators, attributes and annotations, written above a definition (`@cache`, `#[derive]`,
 * `[Obsolete]`) or inside its own node (Java's and Kotlin's modifiers, C#'s and PHP's attribute lists) — what
 * a selected definition takes in with it, and where the definition proper starts after them.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import type { SymbolRules } from "../../syntax/queries.ts";

/**
 * Whether a node type is a decoration: a decorator, attribute or annotation
 * (the language's `decorations` rule, or a type named like one, e.g. Java's
 * `marker_annotation`, C#'s `attribute_list`).
 *
 * @param type Node type.
 * @param rules The language's symbol rules.
 * @returns True for a decoration.
 */
export function isDecoration(type: string, rules: SymbolRules): boolean {
  return rules.decorations.includes(type) || /decorator|attribute|annotation/.test(type);
}

/**
 * Where a definition proper starts after the decorations written inside its
 * own node (Java and Kotlin annotations in `modifiers`, C# and PHP attribute
 * lists): the first token that is neither a decoration nor a comment.
 *
 * @param node The definition node.
 * @param rules The language's symbol rules.
 * @returns That offset, or null when the node starts with no decoration.
 */
export function afterInnerDecorations(node: Node, rules: SymbolRules): number | null {
  const scan = (parent: Node, nested: boolean): { found: boolean; stop: number | null } => {
    let found = false;
    for (const c of parent.children) {
      if (!c) continue;
      if (isDecoration(c.type, rules)) {
        found = true;
        continue;
      }
      if (rules.comments.includes(c.type)) continue;
      if (!nested && c.childCount > 0 && /modifier/.test(c.type)) {
        const inner = scan(c, true);
        if (inner.found) {
          found = true;
          if (inner.stop !== null) return { found, stop: inner.stop };
          continue; // the modifiers were all decorations
        }
      }
      return { found, stop: c.startIndex };
    }
    return { found, stop: null };
  };
  const { found, stop } = scan(node, false);
  return found ? stop : null;
}

/**
 * Where the decorations before a definition start (its attached comments aside), or where it starts.
 *
 * @param outer The definition's outermost wrapper (see definitionLevels).
 * @param rules The language's symbol rules.
 * @returns The offset of the first decorator or attribute above it, else its own start.
 */
export function decorationsStart(outer: Node, rules: SymbolRules): number {
  let start = outer.startIndex;
  for (let sib = outer.previousSibling; sib; sib = sib.previousSibling) {
    const decoration = isDecoration(sib.type, rules);
    if (!decoration && !rules.comments.includes(sib.type)) break;
    if (decoration) start = sib.startIndex;
  }
  return start;
}
