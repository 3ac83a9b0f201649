/**
 * The interface each native family (Go, Rust) implements for extract
 * function's native builder ({@linkcode NativeFamily}), the state the
 * builder's phases share ({@linkcode NativeState}), and what both families'
 * types have in common: a type read from a called function's written
 * signature, and the type parameters the copied types name
 * ({@linkcode copiedGenerics}). Go's implementation is `_go.ts`, Rust's
 * `_rust.ts`; `_native.ts` picks one by the profile's flow family.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import type { Context } from "./_context.ts";
import type { Placement } from "./_placement.ts";
import type { Variable } from "../shared/data_flow.ts";
import type { FamilyStrategy } from "../shared/family_strategies.ts";
import type { WrittenType } from "../shared/written_types.ts";
import type { TextEdit } from "../edit/source.ts";

/** What the phases of the native builder build up for one extraction. */
export interface NativeState {
  ctx: Context;
  placement: Placement;
  /** The family's implementation. */
  native: NativeFamily;
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

/** The declaration of the function a call names (a top-level function of the file), or null. */
export type CalleeOf = (call: Node) => Node | null;

/** One type parameter declaration of the enclosing function: the names it declares and its text to copy. */
export interface TypeParameterDecl {
  /** The names it declares. */
  names: string[];
  /** Its text as the new function writes it (Go: `K comparable`; Rust: `T: Clone`, `'a`). */
  text: string;
}

/** The type parameter clauses an extracted function copies. */
export interface CopiedGenerics {
  /** Go `[K comparable, V any]`, Rust `<'a, T: Clone>`, or "". */
  params: string;
  /** Rust ` where T: Debug`, or "". */
  where: string;
  /** Type parameters the types use that the enclosing function does not declare (an impl's, a receiver's). */
  foreign: string[];
}

/** One native family's part of extract function: its types, how it passes values, its results and header. */
export interface NativeFamily extends FamilyStrategy {
  /** Outputs assigned in the statements but declared before them are passed in (Rust: by `&mut`). */
  passesAssignedOutputs: boolean;
  /** A method's receiver is named among the new function's parameters (Rust's `self`). */
  receiverIsParameter: boolean;
  /**
   * The type a variable is declared with, or null when it cannot be written with certainty.
   *
   * @param declaration The identifier node of the declaration (it has a parent).
   * @param callee Finds the declaration of a called top-level function: its written result type is certain.
   */
  declaredType(declaration: Node, callee: CalleeOf): WrittenType | null;
  /** Pass one parameter: its argument, its signature entry and the body's edits. */
  passParameter(s: NativeState, v: Variable, passing: { type: string; live: () => boolean }): void;
  /** The family's refusals about the statements themselves. */
  checkStatements(s: NativeState): void;
  /** Whether the statements end the enclosing function with a tail expression (Rust) rather than `return`. */
  tailReturns(ctx: Context): boolean;
  /**
   * The call expression around the plain call (`f(a, b)`), with the modifiers and `async` the new function
   * shares with the enclosing one (Rust: `unsafe { f(a) }`, `f(a).await`): sets `expr`, `modifiers`, `isAsync`.
   */
  shapeCall(s: NativeState, plain: string): void;
  /** The statement that calls a new function which returns from the enclosing one. */
  returnCall(expr: string, results: string): string;
  /** The results, epilogue and call of a new function that does not end the enclosing one. */
  shapeResults(s: NativeState): void;
  /** The family's refusals about the finished signature (Rust: `Self` outside an impl, unnamed lifetimes). */
  checkSignature(s: NativeState): void;
  /** The new function's first line, through `{`. */
  header(s: NativeState, generics: CopiedGenerics): string;
  /** Type parameters declared around the function that a new function placed where it goes cannot see. */
  outerTypeParameters(fn: Node, placement: Placement): string[];
  /** The enclosing function's type parameter declarations. */
  typeParameterDecls(fn: Node): TypeParameterDecl[];
  /** The enclosing function's `where` predicates (Rust), or none. */
  wherePredicates(fn: Node): Node[];
  /** The clause that declares the chosen type parameters (`[…]`, `<…>`). */
  typeParameterClause(texts: string[]): string;
  /** Whether a member occurrence of this kind elsewhere clashes with a new method of the same name. */
  memberClashes(kind: string): boolean;
}

/** A type as written at a node. */
export const written = (node: Node): WrittenType => ({ text: node.text, annotated: true, node });
/** A type certain from a literal, written by us. */
export const literal = (text: string): WrittenType => ({ text, annotated: false, node: null });

/** Operators whose result is a boolean in Go and Rust. */
export const COMPARISON = /^(?:==|!=|<|<=|>|>=|&&|\|\|)$/;

/**
 * The result a call returns, from the called function's written signature (no type parameters).
 *
 * @param call The value node, a call or not.
 * @param callee Finds the called top-level function.
 * @param result The field of the function's result type and how to read the wanted result from it.
 * @returns The type, or null.
 */
export function calleeResultOf(
  call: Node | null,
  callee: CalleeOf,
  result: { field: string; pick: (type: Node) => WrittenType | null },
): WrittenType | null {
  if (call?.type !== "call_expression") return null;
  const fn = callee(call);
  if (!fn || fn.childForFieldName("type_parameters")) return null;
  const type = fn.childForFieldName(result.field);
  return type ? result.pick(type) : null;
}

const word = (name: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}_'])${name.replace(/[$]/g, "\\$")}(?![\\p{L}\\p{N}_])`, "u");

/**
 * The type parameters of the enclosing function that the copied types (or the statements) name, with what
 * their constraints name in turn, in declaration order.
 *
 * @param native The family.
 * @param fn The enclosing function's node.
 * @param texts The copied types' texts and the names of type parameters the statements use.
 * @param outerNames Type parameter names declared around the function (an impl's, a receiver's).
 * @returns The clauses to write.
 */
export function copiedGenerics(
  native: NativeFamily,
  fn: Node,
  { texts, outerNames }: { texts: string[]; outerNames: string[] },
): CopiedGenerics {
  const decls = native.typeParameterDecls(fn);
  const where = native.wherePredicates(fn);
  const used = new Set<number>();
  const pending = [...texts];
  while (pending.length > 0) {
    const t = pending.pop()!;
    decls.forEach((d, i) => {
      if (used.has(i) || !d.names.some((n) => word(n).test(t))) return;
      used.add(i);
      pending.push(d.text.slice(d.names[0]!.length));
      for (const p of where) {
        if (word(d.names[0]!).test(p.childForFieldName("left")?.text ?? "")) pending.push(p.text);
      }
    });
  }
  const chosen = decls.filter((_, i) => used.has(i));
  const names = chosen.map((d) => d.names[0]!);
  const preds = where.filter((p) => names.some((n) => word(n).test(p.childForFieldName("left")?.text ?? "")));
  const all = [...texts, ...chosen.map((d) => d.text), ...preds.map((p) => p.text)];
  return {
    params: chosen.length === 0 ? "" : native.typeParameterClause(chosen.map((d) => d.text)),
    where: preds.length === 0 ? "" : ` where ${preds.map((p) => p.text).join(", ")}`,
    foreign: outerNames.filter((n) => !names.includes(n) && all.some((t) => word(n).test(t))),
  };
}
