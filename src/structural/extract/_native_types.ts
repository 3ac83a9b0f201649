/**
 * Go and Rust types an extracted function can write from the source alone:
 * a parameter's or variable's written type, or the type of an initialiser
 * whose type is certain (a composite literal, `&T{}`, a Go basic literal, a
 * Rust suffixed or string literal, `String::new()`); how a value of a type
 * is passed (Go: by pointer or reference already, or a copy; Rust: `Copy`);
 * and the type parameters (lifetimes, `where` predicates) those types use.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import type { WrittenType } from "../shared/written_types.ts";

const written = (node: Node): WrittenType => ({ text: node.text, annotated: true, node });
const literal = (text: string): WrittenType => ({ text, annotated: false, node: null });

/** The declaration of the function a call names (a top-level function of the file), or null. */
export type CalleeOf = (call: Node) => Node | null;

/**
 * The type a Go or Rust variable is declared with, or null when it cannot be written with certainty.
 *
 * @param family "go" or "rust".
 * @param declaration The identifier node of the declaration.
 * @param callee Finds the declaration of a called top-level function: its written result type is certain.
 * @returns The type.
 */
export function nativeDeclaredType(
  family: "go" | "rust",
  declaration: Node | null,
  callee: CalleeOf = () => null,
): WrittenType | null {
  if (!declaration?.parent) return null;
  return family === "go" ? goDeclaredType(declaration, callee) : rustDeclaredType(declaration, callee);
}

/** The `i`-th of `n` results a call returns, from the called function's written signature (no type parameters). */
function calleeResult(
  call: Node | null,
  i: number,
  n: number,
  family: "go" | "rust",
  callee: CalleeOf,
): WrittenType | null {
  if (call?.type !== "call_expression") return null;
  const fn = callee(call);
  if (!fn || fn.childForFieldName("type_parameters")) return null;
  const result = fn.childForFieldName(family === "go" ? "result" : "return_type");
  if (!result) return null;
  if (family === "rust") {
    // A borrow's lifetime or Self would mean something else in another signature.
    return n === 1 && !/[&']|\bSelf\b|\bimpl\b/.test(result.text) ? written(result) : null;
  }
  if (result.type !== "parameter_list") return n === 1 ? written(result) : null;
  const types = result.namedChildren.filter((c): c is Node => c?.type === "parameter_declaration");
  if (types.length !== n || types.some((t) => t.childForFieldName("name"))) return null;
  const t = types[i]!.childForFieldName("type");
  return t ? written(t) : null;
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
        return calleeResult(values[0]!, i, names.length, "go", callee);
      }
      return names.length === values.length
        ? goLiteralType(values[i] ?? null) ?? calleeResult(values[i] ?? null, 0, 1, "go", callee)
        : null;
    }
    case "expression_list": {
      const decl = p.parent;
      if (decl?.type !== "short_var_declaration" || decl.childForFieldName("left")?.id !== p.id) return null;
      const values = decl.childForFieldName("right")?.namedChildren ?? [];
      const i = p.namedChildren.findIndex((n) => n?.id === id.id);
      if (values.length === 1 && p.namedChildCount > 1) {
        return calleeResult(values[0]!, i, p.namedChildCount, "go", callee);
      }
      return p.namedChildCount === values.length
        ? goLiteralType(values[i] ?? null) ?? calleeResult(values[i] ?? null, 0, 1, "go", callee)
        : null;
    }
  }
  return null;
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

function rustDeclaredType(id: Node, callee: CalleeOf): WrittenType | null {
  const p = id.parent!;
  if (
    (p.type === "parameter" || p.type === "let_declaration") && p.childForFieldName("pattern")?.id === id.id
  ) {
    const type = p.childForFieldName("type");
    if (type) return written(type);
    if (p.type !== "let_declaration") return null;
    const value = p.childForFieldName("value");
    return rustLiteralType(value) ?? calleeResult(value, 0, 1, "rust", callee);
  }
  return null;
}

/** Operators whose result is a boolean in Go and Rust. */
const COMPARISON = /^(?:==|!=|<|<=|>|>=|&&|\|\|)$/;

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
export function rustIsMut(declaration: Node | null): boolean {
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
export function rustCopy(text: string): boolean {
  return RUST_COPY.test(text.trim());
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

/** The type parameter clauses an extracted function copies. */
export interface CopiedGenerics {
  /** Go `[K comparable, V any]`, Rust `<'a, T: Clone>`, or "". */
  params: string;
  /** Rust ` where T: Debug`, or "". */
  where: string;
  /** Type parameters the types use that the enclosing function does not declare (an impl's, a receiver's). */
  foreign: string[];
}

const word = (name: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}_'])${name.replace(/[$]/g, "\\$")}(?![\\p{L}\\p{N}_])`, "u");

/**
 * The type parameters of the enclosing function that the copied types (or the statements) name, with what
 * their constraints name in turn, in declaration order.
 *
 * @param family "go" or "rust".
 * @param fn The enclosing function's node.
 * @param texts The copied types' texts and the names of type parameters the statements use.
 * @param outerNames Type parameter names declared around the function (an impl's, a receiver's).
 * @returns The clauses to write.
 */
export function copiedGenerics(
  family: "go" | "rust",
  fn: Node,
  { texts, outerNames }: { texts: string[]; outerNames: string[] },
): CopiedGenerics {
  const list = fn.childForFieldName("type_parameters");
  const decls: { names: string[]; text: string }[] = [];
  for (const d of list?.namedChildren ?? []) {
    if (!d) continue;
    if (family === "go" && d.type === "type_parameter_declaration") {
      const constraint = d.childForFieldName("type")?.text ?? "any";
      for (const n of d.childrenForFieldName("name")) {
        if (n) decls.push({ names: [n.text], text: `${n.text} ${constraint}` });
      }
    } else if (family === "rust") {
      const name = d.type === "lifetime_parameter"
        ? d.childForFieldName("name")?.text
        : d.childForFieldName("name")?.text;
      if (name) decls.push({ names: [name], text: d.text });
    }
  }
  const where = family === "rust"
    ? (fn.namedChildren.find((c) => c?.type === "where_clause")?.namedChildren ?? []).filter((c): c is Node =>
      c?.type === "where_predicate"
    )
    : [];
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
    params: chosen.length === 0
      ? ""
      : family === "go"
      ? `[${chosen.map((d) => d.text).join(", ")}]`
      : `<${chosen.map((d) => d.text).join(", ")}>`,
    where: preds.length === 0 ? "" : ` where ${preds.map((p) => p.text).join(", ")}`,
    foreign: outerNames.filter((n) => !names.includes(n) && all.some((t) => word(n).test(t))),
  };
}
