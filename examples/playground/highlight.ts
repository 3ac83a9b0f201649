/**
 * Syntax highlighting from a tree-sitter parse, by node kinds (no per-language
 * query files): comments, strings, numbers, constants, keywords, types,
 * function and property names, each leaf token classified from its kind and
 * its parent's. Spans are UTF-16 offsets into the parsed text, as
 * web-tree-sitter reports them on a JS string.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";

/** A highlight class, the CSS class `tok-<kind>` in the page. */
export type TokenKind =
  | "comment"
  | "string"
  | "number"
  | "constant"
  | "keyword"
  | "type"
  | "function"
  | "property"
  | "error";

/** One highlighted span: UTF-16 offsets `[from, to)`. */
export interface TokenSpan {
  /** First UTF-16 offset. */
  from: number;
  /** One past the last UTF-16 offset. */
  to: number;
  /** Its class. */
  kind: TokenKind;
}

/** Kinds painted whole (their inside is not classified further), by node type. */
const WHOLE = new Map<string, TokenKind>([
  ["string", "string"],
  ["string_literal", "string"],
  ["raw_string_literal", "string"],
  ["interpreted_string_literal", "string"],
  ["char_literal", "string"],
  ["character_literal", "string"],
  ["regex", "string"],
]);

/** Node types whose text (outside substitutions) is string content. */
const STRING_CONTAINERS = new Set(["template_string"]);

/** Substitutions inside a string: their content is code again. */
const SUBSTITUTIONS = new Set(["template_substitution", "interpolation", "string_interpolation"]);

const TYPES = new Set(["type_identifier", "predefined_type", "primitive_type", "builtin_type"]);
const CONSTANTS = new Set(["true", "false", "null", "undefined", "none", "nil", "this", "self", "super"]);
const FUNCTION_PARENTS = new Set([
  "function_declaration",
  "function_definition",
  "method_definition",
  "method_declaration",
  "function_item",
  "generator_function_declaration",
]);
const CALLS = new Set(["call_expression", "call", "method_invocation"]);

/**
 * The class of one leaf node, or null for plain text (identifiers, punctuation).
 *
 * @param node A leaf (no children) or a node painted whole.
 * @returns Its class.
 */
export function classify(node: Node): TokenKind | null {
  const type = node.type;
  if (node.isError || node.isMissing) return "error";
  if (type.includes("comment")) return "comment";
  if (TYPES.has(type)) return "type";
  // An anonymous token is a keyword or punctuation, whatever its spelling (`number` in a type is a keyword).
  if (!node.isNamed) return /^[a-z_]+$/i.test(type) ? "keyword" : null;
  const whole = WHOLE.get(type);
  if (whole) return whole;
  if (/number|integer|float/.test(type)) return "number";
  if (CONSTANTS.has(type.toLowerCase())) return "constant";
  const parent = node.parent;
  if (type === "identifier" || type === "property_identifier" || type === "field_identifier") {
    if (parent && FUNCTION_PARENTS.has(parent.type) && parent.childForFieldName("name")?.id === node.id) {
      return "function";
    }
    if (parent && CALLS.has(parent.type) && parent.childForFieldName("function")?.id === node.id) {
      return "function";
    }
    if (parent?.type === "member_expression" && parent.parent && CALLS.has(parent.parent.type)) {
      if (parent.childForFieldName("property")?.id === node.id) return "function";
    }
    if (type !== "identifier") return "property";
  }
  return null;
}

/**
 * The highlighted spans of a tree, in document order, not overlapping.
 *
 * @example Highlight a TypeScript line
 * ```ts ignore -- needs a grammar; tests/playground/highlight_test.ts runs this with the real one
 * const tree = parser.parse('const n = 1; // one')!;
 * highlightSpans(tree.rootNode); // [{ from: 0, to: 5, kind: "keyword" }, …, { kind: "comment" }]
 * ```
 *
 * @param root The root node.
 * @returns The spans.
 */
export function highlightSpans(root: Node): TokenSpan[] {
  const out: TokenSpan[] = [];
  const push = (from: number, to: number, kind: TokenKind) => {
    if (to > from) out.push({ from, to, kind });
  };
  const visit = (node: Node, inString: boolean): void => {
    if (
      node.childCount === 0 || WHOLE.has(node.type) || TYPES.has(node.type) || node.type.includes("comment")
    ) {
      const kind = classify(node) ?? (inString ? "string" : null);
      if (kind) push(node.startIndex, node.endIndex, kind);
      return;
    }
    const container = STRING_CONTAINERS.has(node.type);
    let at = node.startIndex;
    for (const child of node.children) {
      if (!child) continue;
      // String text between children (a template's raw parts are not nodes).
      if (container && child.startIndex > at) push(at, child.startIndex, "string");
      visit(child, SUBSTITUTIONS.has(child.type) ? false : inString || container);
      at = child.endIndex;
    }
    if (container && node.endIndex > at) push(at, node.endIndex, "string");
  };
  visit(root, false);
  return out;
}
