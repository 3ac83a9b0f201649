/**
 * The Go and Rust half of extract function's builder: each parameter's and
 * result's type from its declaration, how each value is passed (Go: refused
 * when a method call or `&x` could change a copy; Rust: by value, `&T` for a
 * non-`Copy` value used after the statements, `&mut T` for one they change,
 * with the uses inside rewritten through `*x`), the results (`a, b := f()`,
 * `let (a, b) = f();`, `?` through a shared `Result`), the signature with the
 * type parameters it needs, and the call.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import { firstAtOrAfter } from "../../syntax/binding_model.ts";
import { at, type Context, details, endedFunction, outputsOf, rustTail, tryCarrier } from "./_checks.ts";
import { nodeOf, type Variable } from "../shared/data_flow.ts";
import { accessOf } from "../shared/variable_access.ts";
import { copiedGenerics, nativeDeclaredType, rustCopy, rustIsMut } from "./_native_types.ts";
import type { Placement } from "./_placement.ts";
import type { WrittenType } from "../shared/written_types.ts";
import type { TextEdit } from "../edit/source.ts";
import { goCall, goCheckCopy, goCheckLeftUnused, goCheckReceiver, goCheckShared } from "./_go.ts";
import {
  enclosingItem,
  FORMAT_MACROS,
  macroAround,
  methodCallOn,
  refuseUse,
  usesInside,
  VALUE_KINDS,
} from "./_native_uses.ts";

/** What the builder writes for a Go or Rust extraction. */
export interface NativeParts {
  /** The new function's first line, through `{`. */
  header: string;
  /** Edits of the statements (file offsets): Rust uses of a variable passed by reference. */
  bodyEdits: TextEdit[];
  /** The body's last line (`return a, b`, `(a, b)`, `Ok(x)`), or null. */
  epilogue: string | null;
  /** The statement that replaces the extracted ones. */
  call: string;
  /** Parameter names, in order (a Rust receiver first). */
  parameters: string[];
  /** Names returned, in order. */
  returns: string[];
  /** Rust: an `async fn`. */
  async: boolean;
}

function typesRequired(ctx: Context, v: Variable, role: string): never {
  const line = v.declaration ? at(ctx, v.declaration.startIndex) : null;
  throw new RecoverableError(
    "types_required",
    `Cannot extract ${ctx.where}: the type of "${v.name}" (${
      line ? `declared at line ${line}` : "declared elsewhere"
    }) is not written in its declaration nor certain from its value, and it would become ${role}`,
    {
      hint:
        `Write the type where "${v.name}" is declared (e.g. \`var ${v.name} T\`, \`let ${v.name}: T\`), or include its declaration and every use in the range, then extract`,
      details: details(ctx, { name: v.name, ...(line ? { line } : {}) }),
    },
  );
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

/**
 * The Go or Rust pieces of an extraction.
 *
 * @param ctx The extraction.
 * @param placement Where the new function goes.
 * @returns The signature, body edits, epilogue and call.
 */
export function nativeParts(ctx: Context, placement: Placement): NativeParts {
  const go = ctx.rules.family === "go";
  const s = nativeSignatureOf(ctx, placement, go);
  passParameters(s);
  checkNativeStatements(s);
  shapeResultsAndCall(s);
  const generics = genericsOf(s);
  const signature = [...s.paramList, s.results].join(", ");
  if (!go && placement.classNode === null && /(?<![\p{L}\p{N}_])Self(?![\p{L}\p{N}_])/u.test(signature)) {
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
  return {
    header: headerOf(s, generics),
    bodyEdits: s.bodyEdits,
    epilogue: s.epilogue,
    call: s.call,
    parameters: [...(placement.receiver && !go ? ["self"] : []), ...s.params.map((v) => v.name)],
    returns: s.names,
    async: s.isAsync,
  };
}

/** What the phases of {@link nativeParts} build up for one extraction. */
interface NativeState {
  ctx: Context;
  placement: Placement;
  /** Go (else Rust). */
  go: boolean;
  family: "go" | "rust";
  params: Variable[];
  outputs: Variable[];
  /** The outputs' names. */
  names: string[];
  paramTypes: WrittenType[];
  outTypes: WrittenType[];
  bodyEdits: TextEdit[];
  /** The call's arguments. */
  args: string[];
  /** The signature's parameters. */
  paramList: string[];
  /** Rust: `const`, `unsafe` copied from the enclosing function. */
  modifiers: string[];
  isAsync: boolean;
  /** The call expression. */
  expr: string;
  /** The result type ("" for none). */
  results: string;
  epilogue: string | null;
  call: string;
}

/** The parameters, outputs and their written types (refusing shadowed names and unwritten types). */
function nativeSignatureOf(ctx: Context, placement: Placement, go: boolean): NativeState {
  const { flow } = ctx;
  const family = go ? "go" : "rust";
  const outputs = outputsOf(ctx);
  const params = flow.variables.filter((v) => v.param || (!go && v.output && !v.declared));
  refuseShadowedNames(ctx, params, outputs);
  const typeOf = (v: Variable, role: string): WrittenType =>
    nativeDeclaredType(family, v.declaration, (call) => calleeOf(ctx, call)) ?? typesRequired(ctx, v, role);
  const paramTypes = params.map((v) => typeOf(v, "a parameter"));
  const outTypes = outputs.map((v) => typeOf(v, "a return value"));
  return {
    ctx,
    placement,
    go,
    family,
    params,
    outputs,
    names: outputs.map((v) => v.name),
    paramTypes,
    outTypes,
    bodyEdits: [],
    args: [],
    paramList: [],
    modifiers: [],
    isAsync: false,
    expr: "",
    results: "",
    epilogue: null,
    call: "",
  };
}

/** Refuse one name standing for two different variables among the parameters and outputs. */
function refuseShadowedNames(ctx: Context, params: Variable[], outputs: Variable[]): void {
  const seen = new Map<string, Variable>();
  for (const v of [...params, ...outputs]) {
    const other = seen.get(v.name);
    if (other && other.binding !== v.binding && !(params.includes(other) && outputs.includes(v))) {
      refuseUse(
        ctx,
        v,
        {
          node: v.declaration ?? nodeOf(ctx.file, { start: v.first, end: v.first }),
          why: "names two different variables in the statements (one shadows the other)",
        },
      );
    }
    seen.set(v.name, v);
  }
}

/** How each parameter is passed: its argument, its signature entry and (Rust) the body's edits. */
function passParameters(s: NativeState): void {
  const { ctx, go } = s;
  const live = (v: Variable) => v.output || v.reassignedAfter || liveAfter(ctx, v);
  s.params.forEach((v, i) => {
    const t = s.paramTypes[i]!.text;
    if (go) {
      goCheckCopy(ctx, v, { type: t, uses: usesInside(ctx, v) });
      s.args.push(v.name);
      s.paramList.push(`${v.name} ${t}`);
      return;
    }
    const { mode, edits } = rustPassing(ctx, v, t, live(v));
    s.bodyEdits.push(...edits);
    s.args.push(mode === "mut" ? `&mut ${v.name}` : mode === "ref" ? `&${v.name}` : v.name);
    s.paramList.push(`${v.name}: ${mode === "mut" ? "&mut " : mode === "ref" ? "&" : ""}${t}`);
  });
}

/** The Go and Rust refusals about the statements themselves. */
function checkNativeStatements(s: NativeState): void {
  const { ctx, go, placement } = s;
  if (go) {
    for (const v of s.outputs) if (!s.params.includes(v)) goCheckShared(ctx, v, usesInside(ctx, v));
    goCheckLeftUnused(ctx);
  }
  if (go && placement.kind === "method") goCheckReceiver(ctx, placement);
  if (!go) checkFormatArguments(ctx);
  if (!go) checkLocalItems(ctx);
}

/** What the new function returns and the statement that calls it. */
function shapeResultsAndCall(s: NativeState): void {
  const { ctx, go, outputs, outTypes } = s;
  const { facts, name } = ctx;
  const ended = endedFunction(ctx);
  const returnsOut = ended !== null && (facts.returns.length > 0 || (!go && rustTail(ctx.run) !== null));
  const qualifier = s.placement.qualifier ?? "";
  // Rust: a const fn's statements are const-evaluable (the new function is const too); an unsafe fn's may call
  // unsafe code (the new function is unsafe, called in an unsafe block).
  s.modifiers = go ? [] : rustModifiers(enclosingItem(ctx));
  s.expr = `${qualifier}${name}(${s.args.join(", ")})`;
  if (s.modifiers.includes("unsafe")) s.expr = `unsafe { ${s.expr} }`;
  s.isAsync = !go && facts.awaits;
  if (s.isAsync) s.expr += ".await";
  if (returnsOut) {
    const ret = ended!.childForFieldName(go ? "result" : "return_type");
    s.results = ret ? ret.text : "";
    // A Go function without results cannot `return f()`: the call is the body's last statement anyway.
    s.call = go && s.results !== "" ? `return ${s.expr}` : s.expr;
  } else if (go) {
    if (outputs.length > 0) {
      s.results = outTypes.length === 1 ? outTypes[0]!.text : `(${outTypes.map((t) => t.text).join(", ")})`;
      s.epilogue = `return ${s.names.join(", ")}`;
    }
    s.call = goCall(ctx, outputs, { types: outTypes, expr: s.expr });
  } else {
    shapeRustResults(s);
  }
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

/** The type parameters the signature (or the statements) name, refusing those declared around the function. */
function genericsOf(s: NativeState): ReturnType<typeof copiedGenerics> {
  const { ctx, placement } = s;
  const fn = enclosingItem(ctx);
  const texts = [...s.paramTypes.map((t) => t.text), ...s.outTypes.map((t) => t.text), s.results];
  texts.push(...ctx.flow.typeParameters.map((b) => b.name));
  const generics = copiedGenerics(s.family, fn, {
    texts,
    outerNames: outerTypeParameters(ctx, fn, placement),
  });
  if (generics.foreign.length > 0) {
    throw new RecoverableError(
      "types_required",
      `Cannot extract ${ctx.where}: the types use ${
        generics.foreign.map((n) => `"${n}"`).join(", ")
      }, a type parameter declared around the enclosing function, which a new function there could not name`,
      {
        hint: "Extract statements whose parameters do not use the type parameters of the impl or receiver",
        details: details(ctx, { type_parameters: generics.foreign }),
      },
    );
  }
  return generics;
}

/** Rust: refuse a borrowed result without a lifetime when elision could not tell which parameter it borrows. */
function refuseUnnamedLifetime(s: NativeState): void {
  const { ctx, results, paramList } = s;
  if (s.go || !/&(?!\s*')/.test(results) || /&/.test(s.placement.receiver ?? "")) return;
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

/** The new function's first line, through `{`. */
function headerOf(s: NativeState, generics: ReturnType<typeof copiedGenerics>): string {
  const { placement, paramList, results } = s;
  const name = s.ctx.name;
  if (s.go) {
    const recv = placement.kind === "method" ? `${placement.receiver} ` : "";
    return `func ${recv}${name}${generics.params}(${paramList.join(", ")})${results ? ` ${results}` : ""} {`;
  }
  const all = placement.receiver ? [placement.receiver, ...paramList] : paramList;
  return `${s.modifiers.map((m) => `${m} `).join("")}${
    s.isAsync ? "async " : ""
  }fn ${name}${generics.params}(${all.join(", ")})${
    results && results !== "()" ? ` -> ${results}` : ""
  }${generics.where} {`;
}

/** Whether a variable is read after the statements (or before them in an enclosing loop). */
function liveAfter(ctx: Context, v: Variable): boolean {
  const { fb, run } = ctx;
  let loop: Node | null = null;
  for (let p = run.container.parent; p && !ctx.rules.functions.has(p.type); p = p.parent) {
    if (ctx.rules.loops.has(p.type)) loop = p;
  }
  return fb.occurrences.some((o) =>
    o.binding === v.binding && VALUE_KINDS.has(o.kind) &&
    (o.start >= run.end || (loop !== null && o.start < run.start && o.start >= loop.startIndex))
  );
}

/**
 * The declaration of the top-level function a call names (`f(x)`: the binding of `f` in this file), or null for
 * anything else (a method, a path, a closure, a function of another file).
 */
function calleeOf(ctx: Context, call: Node): Node | null {
  const fn = call.childForFieldName("function");
  if (fn?.type !== "identifier") return null;
  const occ = ctx.fb.occurrences[firstAtOrAfter(ctx.fb.occurrences, fn.startIndex)];
  const b = occ && occ.start === fn.startIndex ? occ.binding : null;
  if (!b || b.scope !== ctx.fb.scopes[0]) return null;
  const decl = ctx.fb.occurrences.find((o) => o.binding === b && o.kind === "definition");
  const holder = decl ? nodeOf(ctx.file, decl).parent : null;
  return holder && /^(?:function_declaration|function_item)$/.test(holder.type) ? holder : null;
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

/** Type parameters declared around the function that a new function placed where it goes cannot see. */
function outerTypeParameters(ctx: Context, fn: Node, placement: Placement): string[] {
  if (ctx.rules.family === "go") {
    if (placement.kind === "method" || fn.type !== "method_declaration") return [];
    const recv = fn.childForFieldName("receiver")?.namedChildren[0]?.childForFieldName("type");
    const args = recv?.descendantsOfType("type_arguments")[0];
    return (args?.namedChildren ?? []).filter((c): c is Node => c !== null).map((c) => c.text);
  }
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
