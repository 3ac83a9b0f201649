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
import { isEffect } from "../shared/effects.ts";

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
  // A Python slice copies: `a[:]` is a new list each time it runs.
  "slice",
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

/** Constructs whose test narrows the names it reads for the code it guards: the field holding the test. */
const TEST_FIELDS: Record<string, string> = {
  if_statement: "condition",
  while_statement: "condition",
  do_statement: "condition",
  for_statement: "condition",
  ternary_expression: "condition",
  switch_statement: "value",
};

/**
 * The test that a use is read in, when a type checker that narrows by control flow (TypeScript) narrows the
 * name there for the code after it: the condition of an `if`, a loop or a ternary, a `switch`'s value, or
 * the left side of `&&`, `||`, `??` — through the calls (`isArray(x)`), operators (`typeof x`, `x !== null`,
 * `x instanceof T`) and member accesses (`x.kind === "a"`) around it, never out of a nested function.
 *
 * @param use The identifier of a use.
 * @param options `direct`: only when the use itself (in parentheses at most) is the test or the left side, as
 *   in `x || y` and `if (x)`, where TypeScript refuses a literal `undefined` as always falsy.
 * @returns The test that holds it (its parentheses dropped), or null.
 */
export function narrowingTest(use: Node, options: { direct?: boolean } = {}): Node | null {
  let child = use;
  for (let n = use.parent; n; child = n, n = n.parent) {
    const field = TEST_FIELDS[n.type];
    if (field) return n.childForFieldName(field)?.id === child.id ? unwrapped(child) : null;
    if (
      n.type === "binary_expression" &&
      /^(?:&&|\|\||\?\?)$/.test(n.childForFieldName("operator")?.type ?? "") &&
      n.childForFieldName("left")?.id === child.id
    ) {
      return child;
    }
    if (options.direct && n.type !== "parenthesized_expression") return null;
    if (CONDITIONAL.has(n.type) || n.type.endsWith("_statement") || n.type.endsWith("_declaration")) {
      return null;
    }
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

/** Expressions that read state a call or an assignment elsewhere can change: attributes and items. */
const STATE_READS = new Set([
  "attribute",
  "subscript",
  "member_expression",
  "subscript_expression",
  "selector_expression",
  "field_expression",
  "index_expression",
]);

/** Assignments: they change state only when they write an attribute or an item. */
const ASSIGNMENTS = new Set([
  "assignment",
  "augmented_assignment",
  "assignment_expression",
  "augmented_assignment_expression",
]);

/** Functions whose bodies do not run where they are written. */
const DEFERRED = new Set([
  "function_definition",
  "lambda",
  "function_declaration",
  "function_expression",
  "arrow_function",
  "method_definition",
]);

/** Constructs that run their body again after it ran. */
const LOOPS = new Set([
  "for_statement",
  "for_in_statement",
  "while_statement",
  "do_statement",
  "list_comprehension",
  "set_comprehension",
  "dictionary_comprehension",
  "generator_expression",
]);

/**
 * Every outermost attribute or item the expression reads.
 *
 * @param node An expression.
 * @returns The nodes.
 */
export function stateReads(node: Node): Node[] {
  if (STATE_READS.has(node.type)) return [node];
  return node.namedChildren.flatMap((c) => c ? stateReads(c) : []);
}

/**
 * Where a use stops being evaluated after a value computed at `after`: at the use, or, when the use sits in
 * a loop that starts after `after`, at the end of the outermost such loop (a later iteration reads it again
 * after the rest of the body ran).
 *
 * @param use The use.
 * @param after Where the value's statement starts.
 * @returns An offset.
 */
export function readsUntil(use: Node, after: number): number {
  let until = use.startIndex;
  for (let n = use.parent; n; n = n.parent) {
    if (n.startIndex < after) break;
    if (LOOPS.has(n.type)) until = Math.max(until, n.endIndex);
  }
  return until;
}

/**
 * The name an attribute or item read starts from (`self` in `self.a.b`, `parts` in `parts[0]`).
 *
 * @param read An attribute, member or item expression.
 * @returns The name, or null when it starts from a call or a literal.
 */
export function readRoot(read: Node): string | null {
  let n: Node | null = read;
  while (n && STATE_READS.has(n.type)) {
    n = n.childForFieldName("object") ?? n.childForFieldName("value") ?? n.childForFieldName("operand");
  }
  return n && (n.type === "identifier" || n.type === "this" || n.type === "self") ? n.text : null;
}

/**
 * Code that completes between `from` and `to` and may change what an attribute or item read of `root` sees:
 * a method call on `root` or a call passed `root`, `del`/`delete`, an update or an assignment of an attribute
 * or item of `root`, `await` and `yield` (other code runs). The bodies of functions defined there aside: they
 * do not run there.
 *
 * @param root The tree's root.
 * @param range Start and end offsets, and the name the read starts from.
 * @returns The node, or null.
 */
export function stateChangeBetween(
  root: Node,
  range: { from: number; to: number; name: string },
): Node | null {
  const { from, to } = range;
  if (root.endIndex <= from || root.startIndex >= to) return null;
  if (DEFERRED.has(root.type) && root.startIndex >= from) return null;
  if (root.startIndex >= from && root.endIndex <= to && changesState(root, range.name)) return root;
  for (const c of root.namedChildren) {
    const inner = c ? stateChangeBetween(c, range) : null;
    if (inner) return inner;
  }
  return null;
}

/** Whether `node` holds an attribute or item expression of `name`. */
function touches(node: Node | null, name: string): boolean {
  if (!node) return false;
  if (STATE_READS.has(node.type) && readRoot(node) === name) return true;
  return node.namedChildren.some((c) => c !== null && touches(c, name));
}

function changesState(node: Node, name: string): boolean {
  if (ASSIGNMENTS.has(node.type)) return touches(node.childForFieldName("left"), name);
  if (
    node.type === "delete_statement" || (node.type === "unary_expression" && node.child(0)?.type === "delete")
  ) {
    return touches(node, name);
  }
  if (node.type === "update_expression") return touches(node, name);
  if (node.type === "call" || node.type === "call_expression" || node.type === "new_expression") {
    const callee = node.childForFieldName("function") ?? node.childForFieldName("constructor");
    const args = node.childForFieldName("arguments");
    return (callee !== null && STATE_READS.has(callee.type) && readRoot(callee) === name) ||
      (args?.namedChildren.some((a) => a?.type === "identifier" && a.text === name) ?? false);
  }
  return isEffect(node);
}

/** Values that are the same object however often they run (names, attributes, items, immutable literals). */
const SAME_OBJECT = new Set([
  "identifier",
  "string",
  "integer",
  "float",
  "true",
  "false",
  "none",
  "number",
  "null",
  "undefined",
  "this",
  "attribute",
  "subscript",
  "member_expression",
  "subscript_expression",
  "parenthesized_expression",
]);

/**
 * Whether evaluating the expression twice gives the same object (so a use that changes the object through the
 * variable changes what every other use sees, as before): names, literals, and attributes and items of such.
 *
 * @param node An expression.
 * @returns False when it may make a new object (an operator, a copy, a call…).
 */
export function keepsIdentity(node: Node): boolean {
  if (!SAME_OBJECT.has(node.type)) return false;
  if (node.type === "subscript" || node.type === "subscript_expression") {
    const object = node.childForFieldName("value") ?? node.childForFieldName("object");
    return object !== null && keepsIdentity(object) && !hasEffect(node);
  }
  if (node.type === "attribute" || node.type === "member_expression") {
    const object = node.childForFieldName("object");
    return object !== null && keepsIdentity(object);
  }
  if (node.type === "parenthesized_expression") {
    const inner = node.namedChildren[0];
    return inner !== null && inner !== undefined && keepsIdentity(inner);
  }
  return true;
}

/**
 * Whether a use changes the object it names: `x[i] = …`, `x.a = …`, `del x[i]`, or a method call `x.m(…)`
 * (which may).
 *
 * @param use A use of a variable.
 * @returns True when it does or may.
 */
export function changedThrough(use: Node): boolean {
  const p = use.parent;
  if (!p || !STATE_READS.has(p.type)) return false;
  const object = p.childForFieldName("object") ?? p.childForFieldName("value") ??
    p.childForFieldName("operand");
  if (object?.id !== use.id) return false;
  const q = p.parent;
  if (!q) return false;
  if (ASSIGNMENTS.has(q.type)) return q.childForFieldName("left")?.id === p.id;
  if (q.type === "call" || q.type === "call_expression") return q.childForFieldName("function")?.id === p.id;
  return q.type === "delete_statement" || (q.type === "unary_expression" && q.child(0)?.type === "delete");
}
