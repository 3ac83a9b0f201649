/**
 * The declaration side of a signature change: the function a target names
 * (a function, a method, a constructor, an arrow or function expression bound
 * to a name), its parameter lists (the implementation's and its overload
 * signatures'), each parameter's role and text, and the rebuilt list.
 *
 * @module
 */
import { profileOf } from "../../languages/profiles.ts";
import type { Node, Tree } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import type { FileBindings, Occurrence, Scope } from "../../syntax/bindings.ts";
import { TextIndex } from "../../syntax/text_index.ts";
import { type Param, paramSyntaxOf } from "./_param_syntax.ts";

/** A parameter list as written. */
export interface ParamList {
  /** Start of the span a rebuilt list replaces (its `(`, or a bare arrow parameter). */
  start: number;
  /** End of that span. */
  end: number;
  /** An arrow function's bare parameter (`x => …`): the rebuilt list needs parentheses. */
  bare: boolean;
  /** Parameters no call passes: TypeScript's `this:` and a Python method's `self`/`cls`. */
  receiver: Param[];
  /** The other parameters, in order. */
  params: Param[];
  /** Whitespace between `(` and the first parameter. */
  leading: string;
  /** Text between the last parameter and `)` (a trailing comma, whitespace, comments). */
  trailing: string;
}

/** The function a signature change edits. */
export interface FunctionDecl {
  /** Language id. */
  language: string;
  /** Its name (the class's for a constructor). */
  name: string;
  /** function | method | constructor. */
  kind: "function" | "method" | "constructor";
  /** The function node's span. */
  start: number;
  /** End of the function node. */
  end: number;
  /** 1-based first line. */
  line: number;
  /** Its function scope. */
  scope: Scope;
  /** The implementation's parameter list. */
  list: ParamList;
  /** Overload signatures' lists (TypeScript). */
  overloads: ParamList[];
  /** The 1-based line of each overload signature, in the order of `overloads`. */
  overloadLines: number[];
  /** The class around a method or constructor. */
  classScope: Scope | null;
  /** That class's name. */
  className: string | null;
  /** The occurrence whose references are the call sites (the function's name, the class's for a constructor). */
  callee: Occurrence;
  /** Start offsets of the names that declare it (the callee's, its overload signatures'). */
  nameStarts: number[];
  /** A static method (TS/JS) or @staticmethod (Python). */
  isStatic: boolean;
  /** Python: a regular method, whose `Class.m(obj, …)` calls pass self explicitly. */
  pythonInstanceMethod: boolean;
  /** TypeScript's `override` modifier. */
  override: boolean;
  /**
   * TypeScript: the type parameters a call infers from its arguments — those the implementation and its
   * overload signatures declare, and for a constructor its class's.
   */
  typeParameters: string[];
}

const FUNCTION_NODES = new Set([
  "function_declaration",
  "generator_function_declaration",
  "function_expression",
  "generator_function",
  "arrow_function",
  "method_definition",
  "function_definition",
]);
const SIGNATURES = new Set(["function_signature", "method_signature", "abstract_method_signature"]);

/**
 * The refusal for a target that is not a function graver can edit.
 *
 * @param path The file.
 * @param name The target's name.
 * @param line Its 1-based line.
 * @param why Why.
 * @returns The error.
 */
export function notAFunction(
  path: string,
  name: string,
  { line, why }: { line: number; why: string },
): RecoverableError {
  return new RecoverableError(
    "invalid_args",
    `Cannot change the signature of "${name}" in "${path}" line ${line}: ${why}`,
    {
      hint:
        'Target a function, a method ("Class/method") or a constructor ("Class/constructor", "Class/__init__")',
      suggestedCall: { tool: "outline", args: { path } },
      details: { path, name, line },
    },
  );
}

/**
 * Locate the function a declaring occurrence names, and read its parameters.
 *
 * @param fb The file's bindings.
 * @param tree Its parse (same version).
 * @param occ The declaring occurrence (function, method, class or variable name).
 * @returns The function.
 */
export function locateFunction(fb: FileBindings, tree: Tree, occ: Occurrence): FunctionDecl {
  const index = new TextIndex(fb.text);
  const lineOf = (o: number) => index.position(o).line;
  const refuse = (why: string) => notAFunction(fb.path, occ.name, { line: lineOf(occ.start), why });
  const nameNode = tree.rootNode.descendantForIndex(occ.start, occ.end);
  const parent = nameNode?.parent ?? null;
  if (!nameNode || !parent) throw refuse("no declaration here");
  const declared = declaredFunction(parent, fb.language, refuse);
  const classNode = enclosingClass(declared.fn);
  const classScope = classNode
    ? fb.scopes.find((s) => s.kind === "class" && s.start === classNode.startIndex) ?? null
    : null;
  const kind = memberKind(declared, classNode);
  const fn = implementationNode(declared.fn, refuse);
  const callee = kind === "constructor" ? constructorCallee(fb, classNode ?? parent, refuse) : occ;
  const scope = fb.scopes.find((s) =>
    s.kind === "function" && s.start === fn.startIndex && s.end === fn.endIndex
  );
  if (!scope) throw refuse("graver found no scope for it");
  return describeFunction(fb, {
    occ,
    fn,
    kind,
    classNode,
    classScope,
    holder: parent,
    callee,
    scope,
    lineOf,
  });
}

/** The function node a declaring name's parent declares (a class: its constructor); refused when none. */
function declaredFunction(
  parent: Node,
  language: string,
  refuse: (why: string) => Error,
): { fn: Node; kind: FunctionDecl["kind"] } {
  let kind: FunctionDecl["kind"] = "function";
  let fn: Node | null = null;
  if (parent.type === "variable_declarator") {
    const value = parent.childForFieldName("value");
    if (value && FUNCTION_NODES.has(value.type)) fn = value;
  } else if (/class/.test(parent.type)) {
    kind = "constructor";
    fn = constructorOf(parent, language);
    if (!fn) throw refuse("the class declares no constructor to change");
  } else if (FUNCTION_NODES.has(parent.type) || SIGNATURES.has(parent.type)) {
    fn = parent;
  }
  if (!fn) throw refuse(`it is a ${parent.type}, not a function`);
  return { fn, kind };
}

/** A function declared in a class is a method, or the constructor when named so. */
function memberKind(
  { fn, kind }: { fn: Node; kind: FunctionDecl["kind"] },
  classNode: Node | null,
): FunctionDecl["kind"] {
  const methodName = fn.childForFieldName("name")?.text ?? "";
  if (kind === "function" && classNode && (fn.type === "method_definition" || classMember(fn))) {
    return methodName === "constructor" || methodName === "__init__" ? "constructor" : "method";
  }
  return kind;
}

/** The implementation of an overload signature (the node itself when it has a body); refused when none. */
function implementationNode(fn: Node, refuse: (why: string) => Error): Node {
  if (!SIGNATURES.has(fn.type)) return fn;
  const impl = implementationOf(fn);
  if (!impl) throw refuse("it is a signature without an implementation");
  return impl;
}

/** The class name's occurrence: a constructor's callers name the class. */
function constructorCallee(fb: FileBindings, cls: Node, refuse: (why: string) => Error): Occurrence {
  const nameOf = cls.childForFieldName("name");
  const clsOcc = nameOf ? fb.occurrences.find((o) => o.start === nameOf.startIndex) : undefined;
  if (!clsOcc) throw refuse("its class has no name");
  return clsOcc;
}

/** What {@linkcode describeFunction} reads a located function from. */
interface Located {
  occ: Occurrence;
  fn: Node;
  kind: FunctionDecl["kind"];
  classNode: Node | null;
  classScope: FunctionDecl["classScope"];
  /** The parent of the declaring name (the class for a constructor found by its class name). */
  holder: Node;
  callee: Occurrence;
  scope: FunctionDecl["scope"];
  lineOf: (offset: number) => number;
}

/** Read a located function's parameters, overloads and flags into a {@linkcode FunctionDecl}. */
function describeFunction(
  fb: FileBindings,
  { occ, fn, kind, classNode, classScope, holder, callee, scope, lineOf }: Located,
): FunctionDecl {
  const decorators = decoratorNames(fn);
  const isStatic = fn.children.some((c) => c.type === "static") || decorators.includes("staticmethod");
  const selfMethod = profileOf(fb.language).flow?.explicitSelf === true && classNode !== null && !isStatic;
  const list = readList(fn, fb.text, fb.language, selfMethod);
  const signatures = overloadSignatures(fn);
  const overloads = signatures.map((s) => readList(s, fb.text, fb.language, false));
  const nameStarts = [
    callee.start,
    occ.start,
    fn.childForFieldName("name")?.startIndex ?? -1,
    ...signatures.map((s) => s.childForFieldName("name")?.startIndex ?? -1),
  ];
  return {
    language: fb.language,
    name: kind === "constructor" ? callee.name : occ.name,
    kind,
    start: fn.startIndex,
    end: fn.endIndex,
    line: lineOf(fn.startIndex),
    scope,
    list,
    overloads,
    overloadLines: signatures.map((sig) => lineOf(sig.startIndex)),
    classScope,
    className: classNode?.childForFieldName("name")?.text ?? null,
    callee,
    nameStarts,
    isStatic,
    pythonInstanceMethod: selfMethod && !decorators.includes("classmethod"),
    override: fn.children.some((c) => c.type === "override_modifier"),
    typeParameters: typeParameterNames([
      fn,
      ...signatures,
      ...(kind === "constructor" ? [classNode ?? holder] : []),
    ]),
  };
}

/** The names the `<…>` lists of these declarations declare, each once. */
function typeParameterNames(holders: Node[]): string[] {
  const names = new Set<string>();
  for (const h of holders) {
    for (const t of h.childForFieldName("type_parameters")?.namedChildren ?? []) {
      const name = t?.type === "type_parameter" ? t.childForFieldName("name")?.text : undefined;
      if (name) names.add(name);
    }
  }
  return [...names];
}

/** A Python function directly in a class body (through its decorators). */
function classMember(fn: Node): boolean {
  let p = fn.parent;
  if (p?.type === "decorated_definition") p = p.parent;
  return p?.type === "block" && p.parent?.type === "class_definition";
}

/** The class whose body holds a method. */
function enclosingClass(fn: Node): Node | null {
  let p = fn.parent;
  if (p?.type === "decorated_definition") p = p.parent;
  if (p?.type === "class_body" || (p?.type === "block" && p.parent?.type === "class_definition")) {
    return p.parent;
  }
  return null;
}

/** The names of a Python function's decorators (`staticmethod`, `classmethod` …). */
function decoratorNames(fn: Node): string[] {
  const d = fn.parent?.type === "decorated_definition" ? fn.parent : null;
  if (!d) return [];
  return d.namedChildren.filter((c) => c?.type === "decorator").map((c) => c!.text.replace(/^@\s*/, ""));
}

/** A class's constructor (`constructor` / `__init__`). */
function constructorOf(cls: Node, language: string): Node | null {
  const body = cls.childForFieldName("body");
  const want = profileOf(language).functions.constructorName;
  for (const c of body?.namedChildren ?? []) {
    const fn = c?.type === "decorated_definition" ? c.childForFieldName("definition") : c;
    if (fn && FUNCTION_NODES.has(fn.type) && fn.childForFieldName("name")?.text === want) return fn;
  }
  return null;
}

/** The implementation after an overload signature (same name, among its next siblings). */
function implementationOf(sig: Node): Node | null {
  const name = sig.childForFieldName("name")?.text;
  const holder = sig.parent?.type === "export_statement" ? sig.parent : sig;
  for (let n = holder.nextNamedSibling; n; n = n.nextNamedSibling) {
    if (n.type === "comment") continue;
    const d = n.type === "export_statement" ? n.childForFieldName("declaration") : n;
    if (!d || d.childForFieldName("name")?.text !== name) return null;
    if (FUNCTION_NODES.has(d.type)) return d;
    if (!SIGNATURES.has(d.type)) return null;
  }
  return null;
}

/** The overload signatures before an implementation. */
function overloadSignatures(fn: Node): Node[] {
  const name = fn.childForFieldName("name")?.text;
  if (!name) return [];
  const out: Node[] = [];
  const holder = fn.parent?.type === "export_statement" ? fn.parent : fn;
  for (let n = holder.previousNamedSibling; n; n = n.previousNamedSibling) {
    if (n.type === "comment") continue;
    const d = n.type === "export_statement" ? n.childForFieldName("declaration") : n;
    if (!d || !SIGNATURES.has(d.type) || d.childForFieldName("name")?.text !== name) break;
    out.unshift(d);
  }
  return out;
}

/** Read a function's parameter list. */
function readList(fn: Node, text: string, language: string, selfMethod: boolean): ParamList {
  const bare = fn.childForFieldName("parameter");
  if (bare) {
    const p: Param = {
      name: bare.text,
      text: bare.text,
      start: bare.startIndex,
      end: bare.endIndex,
      nameStart: bare.startIndex,
      role: "positional",
      hasDefault: false,
      optional: false,
      positionalOnly: false,
    };
    return {
      start: bare.startIndex,
      end: bare.endIndex,
      bare: true,
      receiver: [],
      params: [p],
      leading: "",
      trailing: "",
    };
  }
  const node = fn.childForFieldName("parameters")!;
  const kids = node.namedChildren.filter((c): c is Node => c !== null && c.type !== "comment");
  const params: Param[] = [];
  const receiver: Param[] = [];
  let at = node.startIndex + 1;
  let afterStar = false;
  for (const [i, k] of kids.entries()) {
    const sep = i === 0 ? -1 : text.indexOf(",", at);
    const from = sep >= 0 && sep < k.startIndex ? sep + 1 : at;
    const raw = text.slice(from, k.endIndex);
    const lead = raw.length - raw.trimStart().length;
    const p = paramSyntaxOf(language).read(k, { index: i, afterStar });
    p.text = raw.trimStart();
    p.start = from + lead;
    if (p.role === "star" || p.role === "rest") afterStar = true;
    at = k.endIndex;
    const isReceiver = (i === 0 && selfMethod && p.role === "positional") ||
      (profileOf(language).functions.thisParameter && p.name === "this");
    (isReceiver ? receiver : params).push(p);
  }
  const close = node.endIndex - 1;
  const first = kids[0];
  const leading = first ? text.slice(node.startIndex + 1, first.startIndex).match(/^\s*/)![0] : "";
  const trailing = kids.length > 0 ? text.slice(at, close) : "";
  // Parameters before a `/` marker are positional-only (only a language with the marker has one).
  const slash = params.findIndex((p) => p.role === "slash");
  for (let i = 0; i < slash; i++) params[i]!.positionalOnly = true;
  return { start: node.startIndex, end: node.endIndex, bare: false, receiver, params, leading, trailing };
}

/**
 * The text that replaces a parameter list's span.
 *
 * @param list The list as written.
 * @param items The new parameters' texts (receiver excluded).
 * @returns The new span text (parentheses included).
 */
export function rebuildList(list: ParamList, items: string[]): string {
  const all = [...list.receiver.map((r) => r.text), ...items];
  if (all.length === 0) return "()";
  const hadAny = list.receiver.length + list.params.length > 0;
  const leading = hadAny ? list.leading : "";
  const multiline = leading.includes("\n");
  const sep = multiline ? `,${leading}` : ", ";
  const trailing = hadAny ? list.trailing : "";
  return `(${leading}${all.join(sep)}${trailing})`;
}
