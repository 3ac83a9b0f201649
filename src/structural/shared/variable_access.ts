/**
 * How an occurrence touches its variable — a declaration, a plain write, a
 * read-and-write or a read — read from the syntax around it. Each family's
 * assignment forms differ (Python's `x += …` and tuple targets, ECMAScript's
 * destructuring, Go's `:=` and `x++`, Rust's `&mut x`), so each family has one
 * implementation, chosen by the profile's flow family.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import type { Occurrence } from "../../syntax/binding_model.ts";
import { type FamilyStrategy, strategyFor } from "./family_strategies.ts";
import type { FamilyRules } from "./statement_ranges.ts";

/** How an occurrence touches its variable. */
export type Access = "read" | "write" | "readwrite" | "declare";

/** ECMAScript destructuring pattern nodes. */
export const JS_PATTERNS: ReadonlySet<string> = new Set([
  "array_pattern",
  "object_pattern",
  "pair_pattern",
  "rest_pattern",
  "assignment_pattern",
  "object_assignment_pattern",
  "shorthand_property_identifier_pattern",
]);

/** Python assignment-target pattern nodes. */
export const PY_PATTERNS: ReadonlySet<string> = new Set([
  "pattern_list",
  "tuple_pattern",
  "list_pattern",
  "list_splat_pattern",
]);

/** Whether `child` is the node in `parent`'s field. */
function isField(parent: Node, field: string, child: Node): boolean {
  const f = parent.childForFieldName(field);
  return f !== null && f.id === child.id;
}

/** One family's reading of an occurrence's access (its node has a parent). */
interface AccessReader extends FamilyStrategy {
  access(o: Occurrence, node: Node): Access;
}

/**
 * How an occurrence touches its variable: a declaration, a plain write
 * (`x = …`, destructuring, a loop target), a read-and-write (`x += …`,
 * `x++`) or a read.
 *
 * @param o The occurrence.
 * @param node Its identifier node.
 * @param rules The family's rules (its family picks the reading).
 * @returns The access.
 */
export function accessOf(o: Occurrence, node: Node, rules: FamilyRules): Access {
  if (!node.parent) return "read";
  return strategyFor(ACCESS_READERS, rules.family).access(o, node);
}

/** Python: augmented assignment, a bare annotation, tuple and list targets, loop targets. */
function pythonAccess(o: Occurrence, node: Node): Access {
  const p = node.parent!;
  if (p.type === "augmented_assignment" && isField(p, "left", node)) return "readwrite";
  if (p.type === "assignment" && isField(p, "left", node) && !p.childForFieldName("right")) {
    return "declare";
  }
  if (o.kind === "definition") return "write";
  let top = node;
  while (top.parent && PY_PATTERNS.has(top.parent.type)) top = top.parent;
  const q = top.parent;
  if (
    q && top.id !== node.id &&
    ((q.type === "assignment" || q.type === "for_statement" || q.type === "for_in_clause") &&
      isField(q, "left", top))
  ) return "write";
  return "read";
}

/** ECMAScript: assignments, updates, `for … in/of` targets, declarators and destructuring leaves. */
function ecmaAccess(o: Occurrence, node: Node): Access {
  const p = node.parent!;
  if (p.type === "augmented_assignment_expression" && isField(p, "left", node)) return "readwrite";
  if (p.type === "update_expression") return "readwrite";
  if (p.type === "assignment_expression" && isField(p, "left", node)) return "write";
  if (p.type === "for_in_statement" && isField(p, "left", node)) return "write";
  if (p.type === "variable_declarator" && isField(p, "name", node)) {
    return p.childForFieldName("value") ? "write" : "declare";
  }
  // A destructuring leaf: a write when the pattern is assigned or declared (a default value is a read).
  let top = node;
  while (top.parent && JS_PATTERNS.has(top.parent.type)) {
    const up = top.parent;
    if (
      (up.type === "assignment_pattern" || up.type === "object_assignment_pattern") &&
      !isField(up, "left", top)
    ) {
      return "read";
    }
    if (up.type === "pair_pattern" && !isField(up, "value", top)) return "read";
    top = up;
  }
  if (top.id !== node.id || node.type === "shorthand_property_identifier_pattern") {
    const q = top.parent;
    if (
      q && (q.type === "assignment_expression" || q.type === "for_in_statement") && isField(q, "left", top)
    ) {
      return "write";
    }
    if (q && q.type === "variable_declarator" && isField(q, "name", top)) return "write";
  }
  return o.kind === "definition" || o.kind === "shorthand_pattern" ? "declare" : "read";
}

/**
 * Go and Rust: the place expression the name is the root of (`x`, `x.f`, `x[i]`, `x.f[i].g`), so that a place
 * written through (`x.f = …`, `x[i] += …`, `&mut x`) counts as a read-and-write of `x`.
 */
function placeOf(node: Node): Node {
  let place = node;
  for (let up = place.parent; up; up = up.parent) {
    const root = up.childForFieldName(up.type === "selector_expression" ? "operand" : "value") ??
      (up.type === "index_expression" ? up.namedChildren[0] : null);
    const chain = up.type === "selector_expression" || up.type === "field_expression" ||
      up.type === "index_expression";
    if (!chain || !root || root.id !== place.id) break;
    // A method call on the place is not a write of it by itself (the caller decides from its type).
    if (up.parent?.type === "call_expression" && up.parent.childForFieldName("function")?.id === up.id) break;
    place = up;
  }
  return place;
}

/** Go: `x++`, `&x`, `=` and `op=` assignments, `:=`, range and receive targets, `var` specs. */
function goAccess(o: Occurrence, node: Node): Access {
  const place = placeOf(node);
  const p = place.parent!;
  const through = place.id !== node.id;
  if (p.type === "inc_statement" || p.type === "dec_statement") return "readwrite";
  if (p.type === "unary_expression" && p.childForFieldName("operator")?.text === "&") return "readwrite";
  const list = p.type === "expression_list" ? p.parent : null;
  if (list && list.childForFieldName("left")?.id === p.id) {
    if (list.type === "assignment_statement") {
      return through || list.childForFieldName("operator")?.text !== "=" ? "readwrite" : "write";
    }
    if (
      list.type === "short_var_declaration" || list.type === "range_clause" ||
      list.type === "receive_statement"
    ) {
      return "write";
    }
  }
  if (p.type === "var_spec" && isField(p, "name", node)) {
    return p.childForFieldName("value") ? "write" : "declare";
  }
  return o.kind === "definition" ? "write" : "read";
}

/** Rust: compound and plain assignments to a place, `&mut x`, `let` patterns (without a value: a declaration). */
function rustAccess(o: Occurrence, node: Node): Access {
  const place = placeOf(node);
  const p = place.parent!;
  const through = place.id !== node.id;
  if (p.type === "compound_assignment_expr" && isField(p, "left", place)) return "readwrite";
  if (p.type === "assignment_expression" && isField(p, "left", place)) return through ? "readwrite" : "write";
  if (p.type === "reference_expression" && p.children.some((c) => c?.type === "mutable_specifier")) {
    return "readwrite";
  }
  if (o.kind !== "definition") return "read";
  let top: Node = node;
  while (top.parent && /pattern$/.test(top.parent.type)) top = top.parent;
  const holder = top.parent;
  if (holder?.type === "let_declaration" && !holder.childForFieldName("value")) return "declare";
  return "write";
}

/** Each family's reading, by the family its profile's flow names. */
const ACCESS_READERS: readonly AccessReader[] = [
  { family: "ecmascript", access: ecmaAccess },
  { family: "python", access: pythonAccess },
  { family: "go", access: goAccess },
  { family: "rust", access: rustAccess },
];
