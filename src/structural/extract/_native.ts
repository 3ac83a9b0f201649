/**
 * The Go and Rust half of extract function's builder, the phases both
 * families share: each parameter's and result's type from its declaration
 * (refused when not written nor certain), how each value is passed, the
 * statements' refusals, the results and the call, the signature with the
 * type parameters it needs. What differs is each family's implementation of
 * {@linkcode NativeFamily} (Go: `_go.ts`, Rust: `_rust.ts`), picked by the
 * profile's flow family ({@linkcode nativeFamilyOf}).
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import { firstAtOrAfter } from "../../syntax/binding_model.ts";
import { at, type Context, details, outputsOf } from "./_context.ts";
import { endedFunction } from "./_body_end.ts";
import { nodeOf, type Variable } from "../shared/data_flow.ts";
import { strategyFor } from "../shared/family_strategies.ts";
import {
  type CopiedGenerics,
  copiedGenerics,
  type NativeFamily,
  type NativeState,
} from "./_native_family.ts";
import type { Placement } from "./_placement.ts";
import type { WrittenType } from "../shared/written_types.ts";
import type { TextEdit } from "../edit/source.ts";
import { GO_NATIVE } from "./_go.ts";
import { RUST_NATIVE } from "./_rust.ts";
import { enclosingItem, refuseUse, VALUE_KINDS } from "./_native_uses.ts";

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

/**
 * The Go or Rust pieces of an extraction.
 *
 * @param ctx The extraction.
 * @param placement Where the new function goes.
 * @returns The signature, body edits, epilogue and call.
 */
export function nativeParts(ctx: Context, placement: Placement): NativeParts {
  const native = nativeFamilyOf(ctx.rules);
  const s = nativeSignatureOf(ctx, placement, native);
  passParameters(s);
  native.checkStatements(s);
  shapeResultsAndCall(s);
  const generics = genericsOf(s);
  native.checkSignature(s);
  return {
    header: native.header(s, generics),
    bodyEdits: s.bodyEdits,
    epilogue: s.epilogue,
    call: s.call,
    parameters: [
      ...(placement.receiver && native.receiverIsParameter ? ["self"] : []),
      ...s.params.map((v) => v.name),
    ],
    returns: s.names,
    async: s.isAsync,
  };
}

/**
 * The native family's implementation of a language's extraction.
 *
 * @param rules The family's rules (Go's or Rust's).
 * @returns Its implementation.
 */
export function nativeFamilyOf(rules: Context["rules"]): NativeFamily {
  return strategyFor(NATIVE_FAMILIES, rules.family);
}

/** The parameters, outputs and their written types (refusing shadowed names and unwritten types). */
function nativeSignatureOf(ctx: Context, placement: Placement, native: NativeFamily): NativeState {
  const { flow } = ctx;
  const outputs = outputsOf(ctx);
  const params = flow.variables.filter((v) =>
    v.param || (native.passesAssignedOutputs && v.output && !v.declared)
  );
  refuseShadowedNames(ctx, params, outputs);
  const callee = (call: Node) => calleeOf(ctx, call);
  const typeOf = (v: Variable, role: string): WrittenType =>
    (v.declaration?.parent ? native.declaredType(v.declaration, callee) : null) ??
      typesRequired(ctx, v, role);
  const paramTypes = params.map((v) => typeOf(v, "a parameter"));
  const outTypes = outputs.map((v) => typeOf(v, "a return value"));
  return {
    ctx,
    placement,
    native,
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
  const { ctx } = s;
  const live = (v: Variable) => v.output || v.reassignedAfter || liveAfter(ctx, v);
  s.params.forEach((v, i) => {
    s.native.passParameter(s, v, { type: s.paramTypes[i]!.text, live: () => live(v) });
  });
}

/** What the new function returns and the statement that calls it. */
function shapeResultsAndCall(s: NativeState): void {
  const { ctx, native } = s;
  const { facts, name } = ctx;
  const ended = endedFunction(ctx);
  const returnsOut = ended !== null && (facts.returns.length > 0 || native.tailReturns(ctx));
  const qualifier = s.placement.qualifier ?? "";
  native.shapeCall(s, `${qualifier}${name}(${s.args.join(", ")})`);
  if (returnsOut) {
    const ret = ended!.childForFieldName(ctx.rules.resultField);
    s.results = ret ? ret.text : "";
    s.call = native.returnCall(s.expr, s.results);
  } else {
    native.shapeResults(s);
  }
}

/** The type parameters the signature (or the statements) name, refusing those declared around the function. */
function genericsOf(s: NativeState): CopiedGenerics {
  const { ctx, placement } = s;
  const fn = enclosingItem(ctx);
  const texts = [...s.paramTypes.map((t) => t.text), ...s.outTypes.map((t) => t.text), s.results];
  texts.push(...ctx.flow.typeParameters.map((b) => b.name));
  const generics = copiedGenerics(s.native, fn, {
    texts,
    outerNames: s.native.outerTypeParameters(fn, placement),
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

/** Each native family's implementation, by the family the profile's flow names. */
const NATIVE_FAMILIES: readonly NativeFamily[] = [GO_NATIVE, RUST_NATIVE];
