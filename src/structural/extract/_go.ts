/**
 * The Go half of extract function's native builder: types from what is
 * written or certain in the source (composite literals, `&T{}`, basic
 * literals, `new`/`make`, a called function's written results), how a value
 * of a type is passed (shared, basic, or a copy); the refusals of values whose
 * copy would differ (a method call on a struct value, `&x`, a function
 * literal capturing a variable the caller changes, a changed value receiver)
 * and of a local left without a use; the statement that receives the results
 * (`:=`, `=`, `var x T`) and the `func` header with its receiver.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { indentOfLine } from "../../fs/lines.ts";
import { type Binding, firstAtOrAfter } from "../../syntax/binding_model.ts";
import type { Context } from "./_context.ts";
import { nodeOf, type Variable } from "../shared/data_flow.ts";
import { accessOf } from "../shared/variable_access.ts";
import { enclosingItem, methodCallOn, refuseUse, usesInside, VALUE_KINDS } from "./_native_uses.ts";
import {
  type CalleeOf,
  calleeResultOf,
  COMPARISON,
  type CopiedGenerics,
  literal,
  type NativeFamily,
  type NativeState,
  written,
} from "./_native_family.ts";
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

function goDeclaredType(id: Node, callee: CalleeOf): WrittenType | null {
  const p = id.parent!;
  const type = p.childForFieldName("type");
  switch (p.type) {
    case "parameter_declaration":
      return type ? written(type) : null;
    case "variadic_parameter_declaration":
      return type ? { text: `[]${type.text}`, annotated: true, node: type } : null;
    case "const_spec":
      return type ? written(type) : null; // an untyped constant has no one type
    case "var_spec": {
      if (type) return written(type);
      const names = p.childrenForFieldName("name").filter((n): n is Node => n !== null);
      const values = p.childForFieldName("value")?.namedChildren ?? [];
      const i = names.findIndex((n) => n.id === id.id);
      if (values.length === 1 && names.length > 1) {
        return goCalleeResult(values[0]!, { i, n: names.length }, callee);
      }
      return names.length === values.length
        ? goLiteralType(values[i] ?? null) ?? goCalleeResult(values[i] ?? null, { i: 0, n: 1 }, callee)
        : null;
    }
    case "expression_list": {
      const decl = p.parent;
      if (decl?.type !== "short_var_declaration" || decl.childForFieldName("left")?.id !== p.id) return null;
      const values = decl.childForFieldName("right")?.namedChildren ?? [];
      const i = p.namedChildren.findIndex((n) => n?.id === id.id);
      if (values.length === 1 && p.namedChildCount > 1) {
        return goCalleeResult(values[0]!, { i, n: p.namedChildCount }, callee);
      }
      return p.namedChildCount === values.length
        ? goLiteralType(values[i] ?? null) ?? goCalleeResult(values[i] ?? null, { i: 0, n: 1 }, callee)
        : null;
    }
  }
  return null;
}

/** The `i`-th of `n` results a called function's written signature returns (unnamed results only). */
function goCalleeResult(
  call: Node | null,
  { i, n }: { i: number; n: number },
  callee: CalleeOf,
): WrittenType | null {
  return calleeResultOf(call, callee, {
    field: "result",
    pick: (result) => {
      if (result.type !== "parameter_list") return n === 1 ? written(result) : null;
      const types = result.namedChildren.filter((c): c is Node => c?.type === "parameter_declaration");
      if (types.length !== n || types.some((t) => t.childForFieldName("name"))) return null;
      const t = types[i]!.childForFieldName("type");
      return t ? written(t) : null;
    },
  });
}

/** The type of a Go initialiser when it is certain: literals, `&T{}`, `new(T)`, `make(T, …)`, a function literal. */
function goLiteralType(v: Node | null): WrittenType | null {
  if (!v) return null;
  switch (v.type) {
    case "composite_literal": {
      const t = v.childForFieldName("type");
      return t && !t.text.includes("[...]") ? written(t) : null;
    }
    case "unary_expression": {
      const operand = v.childForFieldName("operand");
      if (v.childForFieldName("operator")?.text === "!") return literal("bool");
      if (v.childForFieldName("operator")?.text !== "&" || operand?.type !== "composite_literal") return null;
      const t = goLiteralType(operand);
      return t ? { ...t, text: `*${t.text}` } : null;
    }
    case "int_literal":
      return literal("int");
    case "float_literal":
      return literal("float64");
    case "imaginary_literal":
      return literal("complex128");
    case "rune_literal":
      return literal("rune");
    case "interpreted_string_literal":
    case "raw_string_literal":
      return literal("string");
    case "true":
    case "false":
      return literal("bool");
    case "parenthesized_expression":
      return goLiteralType(v.namedChildren[0] ?? null);
    case "binary_expression":
      return COMPARISON.test(v.childForFieldName("operator")?.text ?? "") ? literal("bool") : null;
    case "func_literal": {
      const params = v.childForFieldName("parameters");
      const result = v.childForFieldName("result");
      return params
        ? { text: `func${params.text}${result ? ` ${result.text}` : ""}`, annotated: true, node: v }
        : null;
    }
    case "call_expression": {
      const fn = v.childForFieldName("function")?.text;
      const first = v.childForFieldName("arguments")?.namedChildren[0];
      if (fn === "len" || fn === "cap") return literal("int");
      if (fn && GO_BASIC.test(fn) && fn !== "error" && fn !== "any") return literal(fn); // a conversion: string(b)
      if (!first || (fn !== "new" && fn !== "make")) return null;
      return { text: fn === "new" ? `*${first.text}` : first.text, annotated: true, node: first };
    }
  }
  return null;
}

const GO_BASIC =
  /^(?:u?int(?:8|16|32|64)?|uintptr|float(?:32|64)|complex(?:64|128)|string|bool|byte|rune|error|any)$/;

/**
 * How a Go value of a type behaves when passed: "shared" (a pointer, map, slice, channel, function or
 * interface: the callee sees the same thing), "basic" (a number, string, bool: no method changes it), or
 * "copy" (a struct, an array or a type declared elsewhere: the callee gets a copy its methods may change).
 *
 * @param text The type's text.
 * @param root The file's syntax tree, to read the declarations of its named types.
 * @returns The kind.
 */
export function goPassing(text: string, root: Node): "shared" | "basic" | "copy" {
  const t = text.trim();
  if (GO_BASIC.test(t)) return "basic";
  if (/^(?:\*|\[\]|map\[|chan\b|<-chan\b|func\b|interface\s*\{)/.test(t)) return "shared";
  if (/^[\p{L}_][\p{L}\p{N}_]*$/u.test(t)) {
    const spec = findTypeSpec(root, t);
    const kind = spec?.childForFieldName("type")?.type;
    if (
      kind && /^(?:pointer_type|slice_type|map_type|channel_type|function_type|interface_type)$/.test(kind)
    ) {
      return "shared";
    }
    if (kind === "type_identifier" && GO_BASIC.test(spec!.childForFieldName("type")!.text)) return "basic";
  }
  return "copy";
}

function findTypeSpec(n: Node, name: string): Node | null {
  for (const c of n.namedChildren) {
    if (!c) continue;
    if (c.type === "type_spec" && c.childForFieldName("name")?.text === name) return c;
    if (c.type === "type_declaration") {
      const hit = findTypeSpec(c, name);
      if (hit) return hit;
    }
  }
  return null;
}

/** The receiver's type arguments of a method, which a new function placed outside the method cannot see. */
function goOuterTypeParameters(fn: Node, placement: Placement): string[] {
  if (placement.kind === "method" || fn.type !== "method_declaration") return [];
  const recv = fn.childForFieldName("receiver")?.namedChildren[0]?.childForFieldName("type");
  const args = recv?.descendantsOfType("type_arguments")[0];
  return (args?.namedChildren ?? []).filter((c): c is Node => c !== null).map((c) => c.text);
}

/** The new function's first line, through `{`: `func [(r *T)] name[…](…) results {`. */
function goHeader(s: NativeState, generics: CopiedGenerics): string {
  const { placement, paramList, results } = s;
  const recv = placement.kind === "method" ? `${placement.receiver} ` : "";
  return `func ${recv}${s.ctx.name}${generics.params}(${paramList.join(", ")})${
    results ? ` ${results}` : ""
  } {`;
}

/** Go's part of extract function. */
export const GO_NATIVE: NativeFamily = {
  family: "go",
  passesAssignedOutputs: false,
  receiverIsParameter: false,
  declaredType: goDeclaredType,
  passParameter(s, v, { type }) {
    goCheckCopy(s.ctx, v, { type, uses: usesInside(s.ctx, v) });
    s.args.push(v.name);
    s.paramList.push(`${v.name} ${type}`);
  },
  checkStatements({ ctx, outputs, params, placement }) {
    for (const v of outputs) if (!params.includes(v)) goCheckShared(ctx, v, usesInside(ctx, v));
    goCheckLeftUnused(ctx);
    if (placement.kind === "method") goCheckReceiver(ctx, placement);
  },
  tailReturns: () => false,
  shapeCall(s, plain) {
    s.expr = plain;
  },
  // A Go function without results cannot `return f()`: the call is the body's last statement anyway.
  returnCall: (expr, results) => results !== "" ? `return ${expr}` : expr,
  shapeResults(s) {
    const { ctx, outputs, outTypes } = s;
    if (outputs.length > 0) {
      s.results = outTypes.length === 1 ? outTypes[0]!.text : `(${outTypes.map((t) => t.text).join(", ")})`;
      s.epilogue = `return ${s.names.join(", ")}`;
    }
    s.call = goCall(ctx, outputs, { types: outTypes, expr: s.expr });
  },
  checkSignature: () => {},
  header: goHeader,
  outerTypeParameters: goOuterTypeParameters,
  typeParameterDecls(fn) {
    const decls: { names: string[]; text: string }[] = [];
    for (const d of fn.childForFieldName("type_parameters")?.namedChildren ?? []) {
      if (d?.type !== "type_parameter_declaration") continue;
      const constraint = d.childForFieldName("type")?.text ?? "any";
      for (const n of d.childrenForFieldName("name")) {
        if (n) decls.push({ names: [n.text], text: `${n.text} ${constraint}` });
      }
    }
    return decls;
  },
  wherePredicates: () => [],
  typeParameterClause: (texts) => `[${texts.join(", ")}]`,
  memberClashes: (kind) => kind === "member_definition",
};
