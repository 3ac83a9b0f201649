/**
 * What inlining needs to know about an expression: whether evaluating it has
 * an effect (a call, an assignment, `await`, a fresh object whose identity
 * counts), whether it is atomic (never needs parentheses), whether a place
 * takes any expression without parentheses, whether a use may not be
 * evaluated (under a condition, in a loop or a nested function), and the
 * one parenthesisation rule every substitution goes through.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { isEffect } from "./_effects.ts";

/** Node types that make a fresh object each time (evaluating them twice is not the same). */
const FRESH = new Set([
  "array",
  "object",
  "regex",
  "function_expression",
  "arrow_function",
  "class",
  "list",
  "dictionary",
  "set",
  "list_comprehension",
  "set_comprehension",
  "dictionary_comprehension",
  "generator_expression",
  "lambda",
]);

/** Expressions that never need parentheses wherever an expression goes. */
const ATOMIC = new Set([
  "identifier",
  "number",
  "string",
  "template_string",
  "true",
  "false",
  "null",
  "undefined",
  "this",
  "member_expression",
  "subscript_expression",
  "call_expression",
  "parenthesized_expression",
  "array",
  "regex",
  "property_identifier",
  "integer",
  "float",
  "none",
  "attribute",
  "subscript",
  "call",
  "list",
  "dictionary",
  "set",
  "tuple",
  "list_comprehension",
  "set_comprehension",
  "dictionary_comprehension",
  "generator_expression",
  "concatenated_string",
]);

/** Parents in which a child expression of any precedence needs no parentheses (comma expressions aside). */
const OPEN_SLOTS = new Set([
  "arguments",
  "argument_list",
  "array",
  "list",
  "set",
  "variable_declarator",
  "expression_statement",
  "return_statement",
  "parenthesized_expression",
  "template_substitution",
  "pair",
  "keyword_argument",
  "interpolation",
]);

/** Parents in which only the child in a given field takes any expression. */
const OPEN_FIELDS: Record<string, string> = {
  assignment_expression: "right",
  assignment: "right",
  subscript_expression: "index",
  subscript: "subscript",
  augmented_assignment_expression: "right",
  augmented_assignment: "right",
  if_statement: "condition",
  while_statement: "condition",
};

/** Constructs whose parts may run zero or many times, or later. */
const CONDITIONAL = new Set([
  "ternary_expression",
  "conditional_expression",
  "if_statement",
  "switch_statement",
  "try_statement",
  "for_statement",
  "for_in_statement",
  "while_statement",
  "do_statement",
  "function_declaration",
  "function_expression",
  "arrow_function",
  "method_definition",
  "lambda",
  "function_definition",
  "list_comprehension",
  "set_comprehension",
  "dictionary_comprehension",
  "generator_expression",
  "with_statement",
]);

/** The part of a conditional construct that runs exactly once, first. */
const ONCE_FIELDS: Record<string, string> = {
  for_in_statement: "right",
  for_statement: "right",
  if_statement: "condition",
  ternary_expression: "condition",
  switch_statement: "value",
  with_statement: "with_clause",
};

/**
 * Whether evaluating a node may have an effect, or makes a fresh object.
 *
 * @param node An expression.
 * @returns True for a call, an assignment, `await`, `yield`, a literal object or function…
 */
export function hasEffect(node: Node): boolean {
  if (isEffect(node) || FRESH.has(node.type)) return true;
  for (const c of node.namedChildren) if (c && hasEffect(c)) return true;
  return false;
}

/**
 * A side effect inside `root` that completes before `offset` (a call among
 * the arguments before it, an assignment to its left); not the constructs
 * that hold `offset` — a call runs after its arguments.
 *
 * @param root A statement or expression.
 * @param offset Where the substituted expression goes.
 * @returns The node, or null.
 */
export function effectBefore(root: Node, offset: number): Node | null {
  if (root.startIndex >= offset) return null;
  if (root.endIndex <= offset && isEffect(root)) return root;
  for (const c of root.namedChildren) {
    const inner = c ? effectBefore(c, offset) : null;
    if (inner) return inner;
  }
  return null;
}

/**
 * Whether the expression at `use` may be evaluated other than exactly once,
 * in order, when `root` is: under a condition or a short-circuit, in a loop,
 * in a nested function (`root` itself included).
 *
 * @param use A node inside `root`.
 * @param root The enclosing expression or statement.
 * @returns The construct that makes it so, or null.
 */
export function conditionalAround(use: Node, root: Node): Node | null {
  let child = use;
  for (let n = use.parent; n; child = n, n = n.parent) {
    // What a loop iterates and an if's condition run once, before the rest.
    const once = ONCE_FIELDS[n.type];
    if (once && n.childForFieldName(once)?.id === child.id) {
      if (n.id === root.id) break;
      continue;
    }
    if (CONDITIONAL.has(n.type)) return n;
    if (
      n.type === "binary_expression" && /^(?:&&|\|\||\?\?)$/.test(n.childForFieldName("operator")?.type ?? "")
    ) {
      return n;
    }
    if (n.type === "boolean_operator") return n;
    if (n.id === root.id) break;
  }
  return null;
}

/** Binary operator precedence (higher binds tighter), per node type. */
const PRECEDENCE: Record<string, Record<string, number>> = {
  binary_expression: {
    "||": 3,
    "&&": 4,
    "|": 5,
    "^": 6,
    "&": 7,
    "==": 8,
    "!=": 8,
    "===": 8,
    "!==": 8,
    "<": 9,
    ">": 9,
    "<=": 9,
    ">=": 9,
    instanceof: 9,
    in: 9,
    "<<": 10,
    ">>": 10,
    ">>>": 10,
    "+": 11,
    "-": 11,
    "*": 12,
    "/": 12,
    "%": 12,
    "**": 13,
  },
  binary_operator: {
    "|": 1,
    "^": 2,
    "&": 3,
    "<<": 4,
    ">>": 4,
    "+": 5,
    "-": 5,
    "*": 6,
    "/": 6,
    "//": 6,
    "%": 6,
    "@": 6,
    "**": 7,
  },
};

/** Whether a binary expression may stand unparenthesised as an operand of a binary parent of the same kind. */
function bindsTighter(expr: Node, slot: Node): boolean {
  const p = slot.parent;
  const table = PRECEDENCE[expr.type];
  if (!p || !table || p.type !== expr.type) return false;
  const mine = table[expr.childForFieldName("operator")?.type ?? ""];
  const theirs = table[p.childForFieldName("operator")?.type ?? ""];
  if (mine === undefined || theirs === undefined) return false;
  if (mine > theirs) return true;
  // Same level: fine on the left of a left-associative operator.
  const op = p.childForFieldName("operator")?.type;
  return mine === theirs && op !== "**" && p.childForFieldName("left")?.id === slot.id;
}

/**
 * The one parenthesisation rule: the text of `expr` as it must be written in
 * place of `slot` (the node it replaces), wrapped unless the expression is
 * atomic or the place takes any expression.
 *
 * @param expr The expression node placed.
 * @param text Its text (possibly already rewritten).
 * @param slot The node it replaces.
 * @returns The text to write.
 */
export function parenthesised(expr: Node, text: string, slot: Node): string {
  const comma = expr.type === "sequence_expression" || expr.type === "expression_list";
  if (!comma && (ATOMIC.has(expr.type) || bindsTighter(expr, slot))) return text;
  const p = slot.parent;
  if (!comma && slot.type === "shorthand_property_identifier") return text; // becomes a pair's value
  if (!comma && p) {
    if (OPEN_SLOTS.has(p.type)) {
      // A declarator's value, a pair's value: only the value side.
      const value = p.childForFieldName("value");
      if (!(p.type === "variable_declarator" || p.type === "pair") || value?.id === slot.id) return text;
    }
    const field = OPEN_FIELDS[p.type];
    if (field && p.childForFieldName(field)?.id === slot.id) return text;
  }
  return `(${text})`;
}

/** The expression inside any parentheses. */
export function unwrapped(node: Node): Node {
  let n = node;
  while (n.type === "parenthesized_expression" && n.namedChildCount === 1) n = n.namedChild(0)!;
  return n;
}

/**
 * An expression written as a TypeScript type assertion to `type` (`(xhr as any)`), parenthesised whole and
 * around the expression unless it is atomic, so it stands in any slot.
 *
 * @param expr The expression node.
 * @param text Its text.
 * @param type The type's text.
 * @returns The text to write.
 */
export function asserted(expr: Node, text: string, type: string): string {
  return `(${ATOMIC.has(expr.type) ? text : `(${text})`} as ${type})`;
}
