/**
 * Where the extracted statements stand at the end of their enclosing body
 * (Go, Rust): the named function whose body they end, whether a Rust block's
 * value is used, the block value the statements hold (a tail expression), and
 * the enclosing function's written `Result<…>`/`Option<…>` a `?` returns
 * through.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import type { StatementRun } from "../shared/statement_ranges.ts";
import type { Context } from "./_context.ts";

/** Go and Rust function declarations (not closures). */
const NAMED_FUNCTIONS = /^(?:function_declaration|method_declaration|function_item)$/;

/** The enclosing function (Go, Rust) when the statements end its body, else null (also inside closures). */
export function endedFunction(ctx: Omit<Context, "flow">): Node | null {
  const { run, rules } = ctx;
  let fn: Node | null = run.container;
  while (fn && !rules.functions.has(fn.type)) fn = fn.parent;
  if (!fn || !NAMED_FUNCTIONS.test(fn.type)) return null;
  let body = fn.childForFieldName("body");
  const list = rules.bodyStatements;
  if (list) body = body?.namedChildren.find((c) => c?.type === list) ?? null;
  if (!body || body.id !== run.container.id) return null;
  const lastCode = body.namedChildren.filter((c) => c && !c.type.includes("comment")).pop();
  return lastCode && lastCode.endIndex <= run.end ? fn : null;
}

/** Whether a Rust block's value is certainly unused: a loop body, or an `if`/`else`/bare block used as a statement. */
export function unusedBlockValue(block: Node): boolean {
  let n = block;
  for (let p = n.parent; p; n = p, p = p.parent) {
    if (/^(?:loop_expression|while_expression|for_expression)$/.test(p.type)) {
      return p.childForFieldName("body")?.id === n.id;
    }
    if (p.type === "expression_statement") return p.lastChild?.type === ";" || isUnitStatement(p);
    if (p.type === "else_clause" || p.type === "if_expression" || p.type === "unsafe_block") continue;
    if (p.type === "block" && n.type !== "block") return false;
    if (p.type === "block") return true; // a bare block among statements
    return false;
  }
  return false;
}

/** A block-like statement without `;` that is not its block's value (another statement follows it). */
function isUnitStatement(stmt: Node): boolean {
  let next = stmt.nextNamedSibling;
  while (next && next.type.includes("comment")) next = next.nextNamedSibling;
  return next !== null;
}

/** A Rust block's value in the statements: its last expression, written without `;`. */
export function rustTail(run: StatementRun): Node | null {
  const last = run.container.namedChildren.filter((c) => c && !c.type.includes("comment")).pop();
  if (!last || last.endIndex > run.end) return null;
  if (/^(?:let_declaration|empty_statement)$/.test(last.type) || /_item$|_declaration$/.test(last.type)) {
    return null;
  }
  if (last.type === "expression_statement" && last.lastChild?.type === ";") return null;
  if (last.type === "expression_statement") {
    const inner = last.namedChildren[0];
    // A block-like statement of unit type (`if c { f(); }`) is no value; one whose blocks end in an expression is.
    if (!inner || !blockValued(inner)) return null;
  }
  return last;
}

/** Whether a block-like expression's blocks end in a value (an `if`/`match` used as the block's value). */
function blockValued(n: Node): boolean {
  if (n.type === "block") {
    const last = n.namedChildren.filter((c) => c && !c.type.includes("comment")).pop();
    return last !== undefined && last !== null &&
      !(last.type === "expression_statement" && last.lastChild?.type === ";") &&
      last.type !== "let_declaration" && !/_item$/.test(last.type) &&
      (last.type !== "expression_statement" || blockValued(last.namedChildren[0]!));
  }
  if (n.type === "if_expression") {
    const c = n.childForFieldName("consequence");
    return c !== null && blockValued(c);
  }
  if (n.type === "match_expression") {
    return n.childForFieldName("body")?.namedChildren.some((arm) => {
      const v = arm?.childForFieldName("value");
      return v !== null && v !== undefined && (v.type !== "block" || blockValued(v));
    }) === true;
  }
  return n.type !== "loop_expression" && n.type !== "while_expression" && n.type !== "for_expression";
}

/**
 * The enclosing Rust function's `Result<…>` / `Option<…>` return type, which a new function with a `?` inside
 * can share (its first type argument replaced), or null.
 */
export function tryCarrier(ctx: Omit<Context, "flow">): { type: Node; wrap: "Ok" | "Some" } | null {
  let fn: Node | null = ctx.run.container;
  while (fn && !ctx.rules.functions.has(fn.type)) fn = fn.parent;
  if (!fn || fn.type !== "function_item") return null;
  const ret = fn.childForFieldName("return_type");
  if (ret?.type !== "generic_type") return null;
  const name = ret.childForFieldName("type")?.text.split("::").pop();
  if (name !== "Result" && name !== "Option") return null;
  if (!ret.childForFieldName("type_arguments")?.namedChildren[0]) return null;
  return { type: ret, wrap: name === "Result" ? "Ok" : "Some" };
}
