/**
 * What the Go and Rust halves of extract function share about the uses of a
 * variable in the statements: its occurrences, whether one is a method
 * call's object or a macro's argument, the refusal naming such a use, and
 * the function around the statements.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import { firstAtOrAfter, type Occurrence } from "../../syntax/binding_model.ts";
import { at, type Context, details } from "./_context.ts";
import { nodeOf, type Variable } from "../shared/data_flow.ts";

/** Macros whose arguments are only formatted (taken by reference): a `&T` passed in prints the same. */
export const FORMAT_MACROS = new Set([
  "println",
  "print",
  "eprintln",
  "eprint",
  "format",
  "format_args",
  "write",
  "writeln",
  "panic",
]);

export const VALUE_KINDS = new Set(["definition", "reference", "shorthand", "shorthand_pattern"]);

/** The occurrences of a variable inside the statements. */
export function usesInside(ctx: Context, v: Variable): { occ: Occurrence; node: Node }[] {
  const { fb, run, file } = ctx;
  const out: { occ: Occurrence; node: Node }[] = [];
  const end = firstAtOrAfter(fb.occurrences, run.end);
  for (let i = firstAtOrAfter(fb.occurrences, run.start); i < end; i++) {
    const o = fb.occurrences[i]!;
    if (o.binding === v.binding && VALUE_KINDS.has(o.kind)) out.push({ occ: o, node: nodeOf(file, o) });
  }
  return out;
}

/** Whether a name node is the object of a method call (`x.m()`, also `x.f.m()`). */
export function methodCallOn(node: Node): Node | null {
  let place = node;
  for (let up = node.parent; up; up = up.parent) {
    if (up.type !== "selector_expression" && up.type !== "field_expression") return null;
    const root = up.childForFieldName(up.type === "selector_expression" ? "operand" : "value");
    if (root?.id !== place.id) return null;
    if (up.parent?.type === "call_expression" && up.parent.childForFieldName("function")?.id === up.id) {
      return up.parent;
    }
    place = up;
  }
  return null;
}

/** The macro whose token tree holds a node, if any. */
export function macroAround(node: Node): Node | null {
  for (let p = node.parent; p; p = p.parent) if (p.type === "macro_invocation") return p;
  return null;
}

/** Refuse when a name is used in a way a copy (Go) or a reference (Rust) would change. */
export function refuseUse(
  ctx: Context,
  v: Variable,
  { node, why, code = "types_required" }: {
    node: Node;
    why: string;
    code?: "types_required" | "invalid_args";
  },
): never {
  const line = at(ctx, node.startIndex);
  throw new RecoverableError(
    code,
    `Cannot extract ${ctx.where}: "${v.name}" ${why} (line ${line})`,
    {
      hint:
        `Leave that use of "${v.name}" out of the range, or include "${v.name}"'s declaration and every use in it`,
      details: details(ctx, { name: v.name, line }),
    },
  );
}

/** The innermost Go or Rust function declaration around the statements. */
export function enclosingItem(ctx: Context): Node {
  let fn: Node | null = ctx.run.container;
  while (fn && !/^(?:function_declaration|method_declaration|function_item)$/.test(fn.type)) fn = fn.parent;
  return fn ?? ctx.run.container;
}
