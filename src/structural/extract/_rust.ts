/**
 * The Rust half of extract function's native builder: types from what is
 * written or certain in the source (suffixed and string literals,
 * `String::new()`, a called function's written result), each value passed by
 * value, `&T` or `&mut T` with the uses inside rewritten through `*x`, results
 * as a tuple or through the enclosing `Result`/`Option` for `?`, the
 * `const`/`unsafe`/`async` the new function shares, and Rust's refusals (local
 * items, inline format arguments, `Self` outside an impl, unnamed lifetimes).
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import { firstAtOrAfter } from "../../syntax/binding_model.ts";
import { at, type Context, details } from "./_context.ts";
import { rustTail, tryCarrier } from "./_body_end.ts";
import { nodeOf, type Variable } from "../shared/data_flow.ts";
import { accessOf } from "../shared/variable_access.ts";
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
import type { TextEdit } from "../edit/source.ts";
import {
  enclosingItem,
  FORMAT_MACROS,
  macroAround,
  methodCallOn,
  refuseUse,
  usesInside,
  VALUE_KINDS,
} from "./_native_uses.ts";

function rustDeclaredType(id: Node, callee: CalleeOf): WrittenType | null {
  const p = id.parent!;
  if (
    (p.type === "parameter" || p.type === "let_declaration") && p.childForFieldName("pattern")?.id === id.id
  ) {
    const type = p.childForFieldName("type");
    if (type) return written(type);
    if (p.type !== "let_declaration") return null;
    const value = p.childForFieldName("value");
    return rustLiteralType(value) ?? rustCalleeResult(value, callee);
  }
  return null;
}

/** The result a called function's written signature returns, unless it borrows or names `Self`. */
function rustCalleeResult(call: Node | null, callee: CalleeOf): WrittenType | null {
  return calleeResultOf(call, callee, {
    field: "return_type",
    // A borrow's lifetime or Self would mean something else in another signature.
    pick: (result) => !/[&']|\bSelf\b|\bimpl\b/.test(result.text) ? written(result) : null,
  });
}

const RUST_SUFFIX = /(?:[iu](?:8|16|32|64|128|size)|f32|f64)$/;

/** The type of a Rust initialiser when it is certain: string, char, bool and suffixed literals, `String::new()`. */
function rustLiteralType(v: Node | null): WrittenType | null {
  if (!v) return null;
  switch (v.type) {
    case "string_literal":
    case "raw_string_literal":
      return literal("&str");
    case "boolean_literal":
      return literal("bool");
    case "binary_expression":
      return COMPARISON.test(v.childForFieldName("operator")?.text ?? "") ? literal("bool") : null;
    case "char_literal":
      return literal("char");
    case "integer_literal":
    case "float_literal": {
      const m = RUST_SUFFIX.exec(v.text.replace(/_/g, ""));
      return m ? literal(m[0]) : null;
    }
    case "macro_invocation":
      return v.childForFieldName("macro")?.text === "format" ? literal("String") : null;
    case "call_expression": {
      const fn = v.childForFieldName("function")?.text.replace(/\s+/g, "");
      return fn && /^String::(?:new|from|with_capacity)$/.test(fn) ? literal("String") : null;
    }
    case "struct_expression": {
      const name = v.childForFieldName("name");
      return name?.type === "type_identifier" ? written(name) : null;
    }
  }
  return null;
}

/** Whether a Rust variable's declaration is `mut` (`let mut x`, `mut x: T`). */
function rustIsMut(declaration: Node | null): boolean {
  const p = declaration?.parent;
  return p !== null && p !== undefined && p.children.some((c) => c?.type === "mutable_specifier");
}

const RUST_COPY = /^(?:[iu](?:8|16|32|64|128|size)|f32|f64|bool|char|\(\)|&(?!mut\b)[^]*)$/;

/**
 * Whether a Rust type is certainly `Copy`: the primitive numbers, `bool`, `char`, `()` and shared references.
 *
 * @param text The type's text.
 * @returns True when certainly Copy.
 */
function rustCopy(text: string): boolean {
  return RUST_COPY.test(text.trim());
}

/** How a Rust parameter is passed, and the edits of its uses inside. */
function rustPassing(
  ctx: Context,
  v: Variable,
  type: string,
  live: boolean,
): { mode: "value" | "ref" | "mut"; edits: TextEdit[] } {
  const uses = usesInside(ctx, v);
  const mutable = rustIsMut(v.declaration);
  const changed = uses.some((u) => accessOf(u.occ, u.node, ctx.rules) !== "read") ||
    (mutable && uses.some((u) => methodCallOn(u.node) !== null));
  const isMutRef = /^&\s*(?:'\w+\s+)?mut\b/.test(type);
  if (isMutRef) {
    // A `&mut T` passed on is reborrowed: usable after the call. Rebinding it is not kept.
    const rebound = uses.find((u) => accessOf(u.occ, u.node, ctx.rules) === "write");
    if (rebound) {
      refuseUse(ctx, v, {
        node: rebound.node,
        why: "is assigned a new reference there, which the caller would not see",
      });
    }
    return { mode: "value", edits: [] };
  }
  let mode: "value" | "ref" | "mut";
  if (changed) mode = "mut";
  else if (rustCopy(type) || !live) return { mode: "value", edits: [] };
  else mode = "ref";
  const edits: TextEdit[] = [];
  const copy = rustCopy(type);
  for (const { node } of uses) {
    const p = node.parent!;
    const macro = macroAround(node);
    if (macro) {
      if (!FORMAT_MACROS.has(macro.childForFieldName("macro")?.text ?? "")) {
        refuseUse(
          ctx,
          v,
          {
            node,
            why: `is an argument of the macro ${
              macro.childForFieldName("macro")?.text
            }!, which could not be checked through a reference`,
          },
        );
      }
      continue;
    }
    if (
      methodCallOn(node) || (p.type === "field_expression" && p.childForFieldName("value")?.id === node.id)
    ) continue;
    if (p.type === "index_expression" && p.namedChildren[0]?.id === node.id) continue;
    const deref = { start: node.startIndex, end: node.endIndex, text: `*${v.name}` };
    if (p.type === "reference_expression") edits.push(deref);
    else if (
      (p.type === "assignment_expression" || p.type === "compound_assignment_expr") &&
      p.childForFieldName("left")?.id === node.id
    ) edits.push(deref);
    else if (
      p.type === "binary_expression" &&
      /^(?:==|!=|<|>|<=|>=)$/.test(p.childForFieldName("operator")?.text ?? "")
    ) {
      edits.push(deref);
    } else if (p.type === "shorthand_field_initializer" && copy) {
      edits.push({ start: node.startIndex, end: node.endIndex, text: `${v.name}: *${v.name}` });
    } else if (copy && p.type !== "shorthand_field_initializer") edits.push(deref);
    else {
      refuseUse(
        ctx,
        v,
        {
          node,
          why: `is used by value there; it is ${
            mode === "mut" ? "changed" : "used after the statements"
          }, so it would be passed by reference, and its type is not certainly Copy`,
        },
      );
    }
  }
  return { mode, edits };
}

/** Rust: the result (a tuple, or through the enclosing `Result`/`Option` for `?`) and the `let` that calls. */
function shapeRustResults(s: NativeState): void {
  const { ctx, outputs, outTypes, names } = s;
  const value = outputs.length === 0 ? "()" : outputs.length === 1 ? names[0]! : `(${names.join(", ")})`;
  const type = outputs.length === 0
    ? "()"
    : outputs.length === 1
    ? outTypes[0]!.text
    : `(${outTypes.map((t) => t.text).join(", ")})`;
  const carrier = ctx.facts.tries.length > 0 ? tryCarrier(ctx) : null;
  if (carrier) {
    const args = carrier.type.childForFieldName("type_arguments")!;
    const first = args.namedChildren[0]!;
    s.results = `${carrier.type.text.slice(0, first.startIndex - carrier.type.startIndex)}${type}${
      carrier.type.text.slice(first.endIndex - carrier.type.startIndex)
    }`;
    s.epilogue = `${carrier.wrap}(${value})`;
    s.expr += "?";
  } else if (outputs.length > 0) {
    s.results = type;
    s.epilogue = value;
  }
  const mut = (v: Variable) => rustIsMut(v.declaration) && changedAfter(ctx, v) ? "mut " : "";
  const pattern = outputs.length === 1
    ? `${mut(outputs[0]!)}${names[0]}`
    : `(${outputs.map((v) => `${mut(v)}${v.name}`).join(", ")})`;
  s.call = outputs.length === 0 ? `${s.expr};` : `let ${pattern} = ${s.expr};`;
}

/** Rust: refuse a borrowed result without a lifetime when elision could not tell which parameter it borrows. */
function refuseUnnamedLifetime(s: NativeState): void {
  const { ctx, results, paramList } = s;
  if (!/&(?!\s*')/.test(results) || /&/.test(s.placement.receiver ?? "")) return;
  const refs = paramList.filter((p) => /&/.test(p.slice(p.indexOf(":")))).length;
  if (refs === 1) return;
  throw new RecoverableError(
    "types_required",
    `Cannot extract ${ctx.where}: the result type ${results} borrows without a named lifetime, and the new function would take ${refs} references, so Rust could not tell which one it borrows from`,
    {
      hint:
        "Name the lifetime in the enclosing signature (fn f<'a>(x: &'a str) -> &'a str), or extract statements that return owned values",
      details: details(ctx),
    },
  );
}

/** Rust: refuse a signature that names `Self` outside an impl, then a borrowed result without a lifetime. */
function checkRustSignature(s: NativeState): void {
  const { ctx, placement } = s;
  const signature = [...s.paramList, s.results].join(", ");
  if (placement.classNode === null && /(?<![\p{L}\p{N}_])Self(?![\p{L}\p{N}_])/u.test(signature)) {
    throw new RecoverableError(
      "types_required",
      `Cannot extract ${ctx.where}: the new function's signature would name Self, which only an impl can`,
      {
        hint:
          "Extract statements whose result does not use Self, or write the type out in the enclosing signature",
        details: details(ctx),
      },
    );
  }
  refuseUnnamedLifetime(s);
}

/** The new function's first line, through `{`: `[const] [unsafe] [async] fn name<…>(…) -> T where … {`. */
function rustHeader(s: NativeState, generics: CopiedGenerics): string {
  const { placement, paramList, results } = s;
  const all = placement.receiver ? [placement.receiver, ...paramList] : paramList;
  return `${s.modifiers.map((m) => `${m} `).join("")}${
    s.isAsync ? "async " : ""
  }fn ${s.ctx.name}${generics.params}(${all.join(", ")})${
    results && results !== "()" ? ` -> ${results}` : ""
  }${generics.where} {`;
}

/** Rust: the `const` / `unsafe` modifiers of a function the new one shares. */
function rustModifiers(fn: Node): string[] {
  const mods = fn.namedChildren.find((c) => c?.type === "function_modifiers");
  const words = mods ? mods.text.split(/\s+/) : [];
  return ["const", "unsafe"].filter((m) => words.includes(m));
}

/**
 * Rust: whether the code after the statements may change a variable (a write, `&mut`, a method call, or any use
 * inside a macro's tokens, where `assert_eq!(v.pop(), …)` is no call the tree shows).
 */
function changedAfter(ctx: Context, v: Variable): boolean {
  return ctx.fb.occurrences.some((o) => {
    if (o.binding !== v.binding || o.start < ctx.run.end || !VALUE_KINDS.has(o.kind)) return false;
    const node = nodeOf(ctx.file, o);
    return accessOf(o, node, ctx.rules) !== "read" || methodCallOn(node) !== null ||
      macroAround(node) !== null;
  });
}

/** An impl's type parameters, which a new function placed outside the impl cannot see. */
function rustOuterTypeParameters(fn: Node, placement: Placement): string[] {
  if (placement.kind === "method") return [];
  const holder = fn.parent?.type === "declaration_list" ? fn.parent.parent : null;
  const list = holder?.childForFieldName("type_parameters");
  return (list?.namedChildren ?? []).map((d) => d?.childForFieldName("name")?.text ?? "").filter((n) =>
    n !== ""
  );
}

/**
 * Rust: refuse when the enclosing function declares an item outside the statements (a `use`, a nested `fn` or
 * type): the new function, placed outside it, would not see it — and a `use` of a trait brings methods
 * (`a.borrow_mut()`) that no name in the statements shows.
 */
function checkLocalItems(ctx: Context): void {
  const fn = enclosingItem(ctx);
  const body = fn.childForFieldName("body");
  if (!body) return;
  for (const item of body.descendantsOfType([...ctx.rules.immovable])) {
    if (!item || (item.startIndex >= ctx.run.start && item.endIndex <= ctx.run.end)) continue;
    const line = at(ctx, item.startIndex);
    const text = item.text.split("\n")[0]!.trim();
    throw new RecoverableError(
      "unresolved",
      `Cannot extract ${ctx.where}: the enclosing function declares \`${text}\` at line ${line}, which a new function outside it would not see`,
      {
        hint: "Move that declaration to the module (or into the range), then extract",
        details: details(ctx, { line }),
      },
    );
  }
}

/** Rust: refuse inline format arguments (`"{x}"`) naming a variable the statements share: they are not bindings. */
function checkFormatArguments(ctx: Context): void {
  const fn = enclosingItem(ctx);
  const shared = new Set<string>();
  const end = firstAtOrAfter(ctx.fb.occurrences, ctx.run.end);
  for (let i = firstAtOrAfter(ctx.fb.occurrences, ctx.run.start); i < end; i++) {
    const o = ctx.fb.occurrences[i]!;
    if (o.binding && o.binding.scope.start >= fn.startIndex && o.binding.scope.end <= fn.endIndex) {
      shared.add(o.name);
    }
  }
  for (const s of fn.descendantsOfType("string_literal")) {
    if (!s || !macroAround(s)) continue;
    for (const m of s.text.replace(/\{\{/g, "").matchAll(/\{([\p{L}_][\p{L}\p{N}_]*)(?=[}:])/gu)) {
      if (!shared.has(m[1]!)) continue;
      const line = at(ctx, s.startIndex);
      throw new RecoverableError(
        "unresolved",
        `Cannot extract ${ctx.where}: the format string at line ${line} names "${m[1]}" inline ({${
          m[1]
        }}), which is not followed as a use of the variable`,
        {
          hint: `Write it as a positional argument (\`"{}", ${m[1]}\`), then extract`,
          details: details(ctx, { name: m[1], line }),
        },
      );
    }
  }
}

/** Rust's part of extract function. */
export const RUST_NATIVE: NativeFamily = {
  family: "rust",
  passesAssignedOutputs: true,
  receiverIsParameter: true,
  declaredType: rustDeclaredType,
  passParameter(s, v, { type, live }) {
    const { mode, edits } = rustPassing(s.ctx, v, type, live());
    s.bodyEdits.push(...edits);
    s.args.push(mode === "mut" ? `&mut ${v.name}` : mode === "ref" ? `&${v.name}` : v.name);
    s.paramList.push(`${v.name}: ${mode === "mut" ? "&mut " : mode === "ref" ? "&" : ""}${type}`);
  },
  checkStatements({ ctx }) {
    checkFormatArguments(ctx);
    checkLocalItems(ctx);
  },
  tailReturns: (ctx) => rustTail(ctx.run) !== null,
  shapeCall(s, plain) {
    // A const fn's statements are const-evaluable (the new function is const too); an unsafe fn's may call
    // unsafe code (the new function is unsafe, called in an unsafe block).
    s.modifiers = rustModifiers(enclosingItem(s.ctx));
    s.expr = s.modifiers.includes("unsafe") ? `unsafe { ${plain} }` : plain;
    s.isAsync = s.ctx.facts.awaits;
    if (s.isAsync) s.expr += ".await";
  },
  returnCall: (expr) => expr,
  shapeResults: shapeRustResults,
  checkSignature: checkRustSignature,
  header: rustHeader,
  outerTypeParameters: rustOuterTypeParameters,
  typeParameterDecls(fn) {
    const decls: { names: string[]; text: string }[] = [];
    for (const d of fn.childForFieldName("type_parameters")?.namedChildren ?? []) {
      const name = d?.childForFieldName("name")?.text;
      if (d && name) decls.push({ names: [name], text: d.text });
    }
    return decls;
  },
  wherePredicates: (fn) =>
    (fn.namedChildren.find((c) => c?.type === "where_clause")?.namedChildren ?? []).filter((c): c is Node =>
      c?.type === "where_predicate"
    ),
  typeParameterClause: (texts) => `<${texts.join(", ")}>`,
  memberClashes: () => true,
};
