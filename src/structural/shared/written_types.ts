/**
 * TypeScript types an extracted function can write from local annotations
 * alone: a parameter's or variable's declared type (or the type of a literal
 * initialiser), and the type parameters those types and the statements use.
 *
 * @module
 */
import { profileOf } from "../../languages/profiles.ts";
import type { Node } from "web-tree-sitter";
import { type Binding, firstAtOrAfter } from "../../syntax/binding_model.ts";
import type { FileBindings } from "../../syntax/bindings.ts";
import type { SourceFile } from "../edit/source.ts";
import { nodeOf } from "./data_flow.ts";

/** A type written from the source. */
export interface WrittenType {
  /** The type's text. */
  text: string;
  /** Whether it was written by the author (an annotation), not read off a literal. */
  annotated: boolean;
  /** Where the text came from (to find the type parameters it names), when it is an annotation. */
  node: Node | null;
}

/** Whether a file's types must be written (TypeScript, TSX). */
export function typed(language: string): boolean {
  return profileOf(language).functions.writesTypes;
}

function annotation(holder: Node): WrittenType | null {
  const t = holder.childForFieldName("type");
  if (!t) return null;
  const inner = t.type === "type_annotation" ? t.namedChildren[0] ?? null : t;
  if (!inner) return null;
  return { text: inner.text, annotated: true, node: inner };
}

/** The type of a literal initialiser, widened (`1` → number), or the type of an `as` expression. */
function literalType(value: Node | null): WrittenType | null {
  if (!value) return null;
  switch (value.type) {
    case "number":
      return { text: "number", annotated: false, node: null };
    case "string":
    case "template_string":
      return { text: "string", annotated: false, node: null };
    case "true":
    case "false":
      return { text: "boolean", annotated: false, node: null };
    case "new_expression": {
      // `new Set<T>()`: the class with its written type arguments.
      const ctor = value.childForFieldName("constructor");
      const args = value.childForFieldName("type_arguments");
      if (!ctor || !args || !/^[\w$.]+$/.test(ctor.text)) return null;
      return { text: `${ctor.text}${args.text}`, annotated: true, node: value };
    }
    case "as_expression": {
      const t = value.namedChildren[1];
      if (!t || t.text === "const") return null;
      return { text: t.text, annotated: true, node: t };
    }
  }
  return null;
}

/**
 * The type a variable is declared with, read from its declaration: a
 * parameter's annotation (`| undefined` added for an optional one), a
 * variable's annotation, else the type of a literal initialiser.
 *
 * @param declaration The identifier node of the declaration.
 * @returns The type, or null when it cannot be written from the source.
 */
export function declaredType(declaration: Node | null): WrittenType | null {
  let id = declaration;
  if (!id) return null;
  let p = id.parent;
  if (p?.type === "rest_pattern") {
    id = p;
    p = p.parent;
  }
  if (!p) return null;
  if (
    (p.type === "required_parameter" || p.type === "optional_parameter") &&
    p.childForFieldName("pattern")?.id === id.id
  ) {
    const t = annotation(p);
    if (!t) return literalType(p.childForFieldName("value"));
    if (p.type === "optional_parameter") return { ...t, text: `${t.text} | undefined` };
    return t;
  }
  if (p.type === "variable_declarator" && p.childForFieldName("name")?.id === id.id) {
    return annotation(p) ?? literalType(p.childForFieldName("value"));
  }
  return null;
}

/**
 * The return type written on a function (`function f<T>(): OperatorFunction<T, T>`), which an extracted
 * function whose statements end that function's body must carry: the returned expressions are typed against
 * it (a generic call infers its type arguments from it), and without it they would be inferred on their own
 * (`OperatorFunction<unknown, unknown>`). Null when none is written, or when it cannot be written elsewhere:
 * a type predicate (`x is T`, `asserts x`), or a `this` type outside a method of the same class.
 *
 * @param fn The enclosing function's node.
 * @param inClass Whether the new function goes into the same class (a method).
 * @returns The type, or null.
 */
export function writtenReturnType(fn: Node | null, inClass: boolean): WrittenType | null {
  const holder = fn?.childForFieldName("return_type");
  if (!holder || holder.type !== "type_annotation") return null;
  const inner = holder.namedChildren[0];
  if (!inner || (!inClass && /\bthis\b/.test(inner.text))) return null;
  return { text: inner.text, annotated: true, node: inner };
}

/** The `const` / `let` / `var` keyword of a variable's declaration (null: not a variable declaration). */
export function declarationKeyword(declaration: Node | null): "const" | "let" | "var" | null {
  const decl = declaration?.parent?.type === "variable_declarator" ? declaration.parent.parent : null;
  if (!decl) return null;
  if (decl.type === "variable_declaration") return "var";
  if (decl.type !== "lexical_declaration") return null;
  return decl.childForFieldName("kind")?.text === "let" ? "let" : "const";
}

/**
 * The type parameter declarations (`T extends X`) an extracted function must
 * declare: those `used` names, those the copied types name, and those their
 * constraints name, in source order; `visible` ones (the class's, for a
 * method) are left out.
 *
 * @param file The source file.
 * @param fb Its bindings.
 * @param used Type parameters the statements use.
 * @param types The copied types.
 * @param visible Whether a type parameter is already visible where the function goes.
 * @returns The declarations' texts, in order.
 */
export function typeParametersFor(
  file: SourceFile,
  fb: FileBindings,
  { used, types, visible }: { used: Binding[]; types: WrittenType[]; visible: (b: Binding) => boolean },
): string[] {
  const isTypeParameter = (b: Binding | null): b is Binding =>
    b !== null && b.kind === "parameter" && declarationOf(file, fb, b)?.parent?.type === "type_parameter";
  const found = new Set<Binding>(used);
  const namedIn = (node: Node) => {
    const out: Binding[] = [];
    const end = firstAtOrAfter(fb.occurrences, node.endIndex);
    for (let i = firstAtOrAfter(fb.occurrences, node.startIndex); i < end; i++) {
      const b = fb.occurrences[i]!.binding;
      if (isTypeParameter(b)) out.push(b);
    }
    return out;
  };
  for (const t of types) if (t.node) { for (const b of namedIn(t.node)) found.add(b); }
  const queue = [...found];
  while (queue.length > 0) {
    const b = queue.pop()!;
    const decl = declarationOf(file, fb, b)?.parent;
    if (!decl) continue;
    for (const other of namedIn(decl)) {
      if (!found.has(other)) {
        found.add(other);
        queue.push(other);
      }
    }
  }
  return [...found].filter((b) => !visible(b))
    .map((b) => declarationOf(file, fb, b)!.parent!)
    .sort((a, b) => a.startIndex - b.startIndex)
    .map((n) => n.text);
}

function declarationOf(file: SourceFile, fb: FileBindings, b: Binding): Node | null {
  const occ = fb.occurrences.find((o) => o.binding === b && o.kind === "definition");
  return occ ? nodeOf(file, occ) : null;
}
