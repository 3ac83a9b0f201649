/**
 * The Go rules of extract function: values whose copy would differ (a method
 * call on a struct value, `&x`, a function literal capturing a variable the
 * caller changes, a changed value receiver), a local left without a use, and
 * the statement that receives the results (`:=`, `=`, `var x T`).
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { indentOfLine } from "../../fs/lines.ts";
import { type Binding, firstAtOrAfter } from "../../syntax/binding_model.ts";
import type { Context } from "./_checks.ts";
import { nodeOf, type Variable } from "../shared/data_flow.ts";
import { accessOf } from "../shared/variable_access.ts";
import { goPassing } from "./_native_types.ts";
import { enclosingItem, methodCallOn, refuseUse, VALUE_KINDS } from "./_native_uses.ts";
import type { Placement } from "./_placement.ts";
import type { WrittenType } from "../shared/written_types.ts";

/** Go: refuse a method call or `&x` on a value whose copy the new function would change. */
export function goCheckCopy(
  ctx: Context,
  v: Variable,
  { type, uses }: { type: string; uses: { node: Node }[] },
): void {
  goCheckShared(ctx, v, uses);
  if (goPassing(type, ctx.file.tree.rootNode) !== "copy") return;
  for (const { node } of uses) {
    if (methodCallOn(node)) {
      refuseUse(
        ctx,
        v,
        {
          node,
          why:
            `of type ${type} has a method called on it; passed as a parameter it would be a copy, and the method may change it`,
        },
      );
    }
  }
}

/**
 * Go: refuse what would tie the new function's own variable to the caller's — its address taken (`&x`: the
 * pointer would point at the new function's copy), or a closure capturing it while the caller still changes it.
 */
export function goCheckShared(ctx: Context, v: Variable, uses: { node: Node }[]): void {
  for (const { node } of uses) {
    const p = node.parent;
    if (p?.type === "unary_expression" && p.childForFieldName("operator")?.text === "&") {
      refuseUse(
        ctx,
        v,
        { node, why: "has its address taken; the pointer would point at the new function's own variable" },
      );
    }
    if (v.reassignedAfter || v.output) {
      for (let up = node.parent; up && up.startIndex >= ctx.run.start; up = up.parent) {
        if (up.type === "func_literal") {
          refuseUse(
            ctx,
            v,
            {
              node,
              why:
                "is captured by a function literal while the code after the statements changes it; the literal would see the new function's copy",
            },
          );
        }
      }
    }
  }
}

/** Go: refuse leaving a local declared before the statements with no use (Go rejects "declared and not used"). */
export function goCheckLeftUnused(ctx: Context): void {
  const { fb, run, file } = ctx;
  const fn = enclosingItem(ctx);
  const seen = new Set<Binding>();
  const end = firstAtOrAfter(fb.occurrences, run.end);
  for (let i = firstAtOrAfter(fb.occurrences, run.start); i < end; i++) {
    const b = fb.occurrences[i]!.binding;
    if (!b || seen.has(b) || b.kind === "parameter" || b.scope.start < fn.startIndex) continue;
    if (ctx.flow.variables.some((v) => v.binding === b && (v.param || v.output))) continue; // still used by the call
    seen.add(b);
    const all = fb.occurrences.filter((o) => o.binding === b && VALUE_KINDS.has(o.kind));
    const decl = all.find((o) => o.kind === "definition");
    if (!decl || decl.start >= run.start) continue;
    if (all.every((o) => o === decl || (o.start >= run.start && o.start < run.end))) {
      const node = nodeOf(file, decl);
      refuseUse(
        ctx,
        { name: b.name } as Variable,
        {
          node,
          why:
            "is declared before the statements and used only in them; left behind, Go would reject it as declared and not used — include its declaration in the range",
          code: "invalid_args",
        },
      );
    }
  }
}

/** Go: a value receiver is a copy in the new method too — refuse when the statements may change it. */
export function goCheckReceiver(ctx: Context, placement: Placement): void {
  if (/\*/.test(placement.receiver ?? "")) return;
  for (const o of ctx.flow.receiverUses) {
    const node = nodeOf(ctx.file, o);
    const access = accessOf(o, node, ctx.rules);
    if (access !== "read" || methodCallOn(node)) {
      const r = { name: o.name, declaration: null } as unknown as Variable;
      refuseUse(
        ctx,
        r,
        {
          node,
          why:
            `is a value receiver the statements may change (an assignment, a method call or its address); the new method would change its own copy`,
        },
      );
    }
  }
}

/** The Go statement that calls the new function and receives its results. */
export function goCall(
  ctx: Context,
  outputs: Variable[],
  { types, expr }: { types: WrittenType[]; expr: string },
): string {
  if (outputs.length === 0) return expr;
  const names = outputs.map((v) => v.name).join(", ");
  const fresh = outputs.filter((v) => v.declared && !declaredInBlock(ctx, v.name));
  const sameBlock = outputs.every((v) => v.declared || declaredInBlock(ctx, v.name));
  if (fresh.length === 0) return `${names} = ${expr}`;
  if (sameBlock) return `${names} := ${expr}`;
  const indent = indentOfLine(ctx.file.text, ctx.run.start);
  const decls = fresh.map((v) => `var ${v.name} ${types[outputs.indexOf(v)]!.text}`);
  return [...decls, `${names} = ${expr}`].join(`${ctx.file.eol}${indent}`);
}

/** Go nodes between a declared name and its statement. */
const DECLARING = /^(?:expression_list|short_var_declaration|var_spec|var_spec_list|var_declaration)$/;

/** Go: whether `name` is declared before the statements in their block, or is a parameter of the function whose body it is. */
function declaredInBlock(ctx: Context, name: string): boolean {
  const { fb, run, file } = ctx;
  for (const o of fb.occurrences) {
    if (o.start >= run.start) break;
    if (o.name !== name || o.kind !== "definition") continue;
    // Declared by a statement of the block itself (not inside one of its nested blocks or closures).
    let n: Node | null = nodeOf(file, o);
    while (n && n.parent && n.parent.id !== run.container.id && DECLARING.test(n.parent.type)) n = n.parent;
    if (n?.parent?.id === run.container.id) return true;
  }
  const fn = run.container.parent?.parent;
  if (fn && /^(?:function_declaration|method_declaration|func_literal)$/.test(fn.type)) {
    const lists = [
      fn.childForFieldName("parameters"),
      fn.childForFieldName("result"),
      fn.childForFieldName("receiver"),
    ];
    return lists.some((l) =>
      l?.namedChildren.some((p) => p?.childrenForFieldName("name").some((n) => n?.text === name))
    );
  }
  return false;
}
