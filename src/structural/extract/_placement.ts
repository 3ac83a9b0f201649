/**
 * Where an extracted function goes: a method next to the enclosing one (when
 * the statements use `this`, `self` or `super`), a function before the
 * top-level statement that holds module-level statements, or a function
 * right after the statement that declares the enclosing function.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import { functionScope, type Scope } from "../../syntax/binding_model.ts";
import type { Context } from "./_context.ts";
import { notInMethod } from "./_name_checks.ts";
import { decoratorsOf, nodeOfScope, scopeOfNode } from "../shared/data_flow.ts";
import type { FamilyRules } from "../shared/statement_ranges.ts";

/** Where the new function goes and how it is called. */
export interface Placement {
  /** A module-level (or block-level) function, or a method of the enclosing class. */
  kind: "function" | "method";
  /** The node it goes next to. */
  anchor: Node;
  /** Before or after the anchor. */
  position: "before" | "after";
  /** An ECMAScript `static` method. */
  isStatic: boolean;
  /** A Python method's receiver (`self`, `cls`): its first parameter and the call's object. */
  receiver: string | null;
  /** A Python `@classmethod`. */
  classmethod: boolean;
  /** The class node (method) — its members must not clash. */
  classNode: Node | null;
  /** The scope the new function is declared in: its names (and its parents') stay visible. */
  outer: Scope;
  /** Go, Rust: what the call is prefixed with (`r.`, `self.`, `Self::`), or null for a plain call. */
  qualifier?: string | null;
}

/** The statement of the nearest block (not a class body) above `node` that holds it, and that block. */
function statementAround(rules: FamilyRules, node: Node): { statement: Node; container: Node } | null {
  let child = node;
  for (let p = node.parent; p; child = p, p = p.parent) {
    if (!rules.containers.has(p.type)) continue;
    if (p.parent?.type === "class_definition") continue; // a Python class body: its functions are methods
    return { statement: child, container: p };
  }
  return null;
}

/**
 * Where the new function goes, before the data flow is known: a method next
 * to the enclosing one (ECMAScript statements using `this`), a function
 * before the top-level statement that holds module-level statements, or
 * else a function right after the statement that declares the enclosing
 * function, in the block around it (so that function's surroundings stay
 * visible to it).
 */
export function basePlacement(ctx: Omit<Context, "flow">, fnScope: Scope): Placement {
  const { run, facts, file, rules, fb } = ctx;
  const plain = { isStatic: false, receiver: null, classmethod: false, classNode: null };
  if (rules.typedSignatures) return itemPlacement(ctx, fnScope);
  // Only ECMAScript names its receiver implicitly (`this`) among the languages placed here (Rust went above).
  if (facts.thisUses.length > 0) {
    let fn: Node | null = run.container;
    while (fn && !rules.thisFunctions.has(fn.type)) fn = fn.parent;
    if (!fn || fn.type !== "method_definition" || fn.parent?.type !== "class_body") {
      return notInMethod(ctx as Context, `"${facts.thisUses[0]!.type}"`, facts.thisUses[0]!.startIndex);
    }
    const cls = fn.parent.parent!;
    const around = statementAround(rules, cls);
    return {
      ...plain,
      kind: "method",
      anchor: fn,
      position: "after",
      isStatic: fn.children.some((c) => c?.type === "static"),
      classNode: cls,
      outer: around ? scopeOfNode(fb, around.container) : fb.scopes[0]!,
    };
  }
  const root = file.tree.rootNode;
  if (fnScope.kind === "module") {
    let top: Node = run.container.id === root.id ? run.statements[0]! : run.container;
    while (top.parent && top.parent.id !== root.id) top = top.parent;
    return { ...plain, kind: "function", anchor: top, position: "before", outer: fnScope };
  }
  const fnNode = nodeOfScope(file, fnScope);
  const around = fnNode ? statementAround(rules, fnNode) : null;
  if (!around) {
    let top: Node = run.container;
    while (top.parent && top.parent.id !== root.id) top = top.parent;
    return { ...plain, kind: "function", anchor: top, position: "after", outer: fb.scopes[0]! };
  }
  return {
    ...plain,
    kind: "function",
    anchor: around.statement,
    position: "after",
    outer: scopeOfNode(fb, around.container),
  };
}

/** Go and Rust function declarations the new function can go next to (closures are not). */
const ITEMS = new Set(["function_declaration", "method_declaration", "function_item"]);

/**
 * Go and Rust: right after the top-level function (or method) around the
 * statements; in a Rust inherent `impl`, inside it (a method taking the
 * enclosing one's `&self` / `&mut self` when the statements use `self`, an
 * associated function called `Self::name` otherwise); after a trait's or a
 * trait impl's block as a free function, which then may not use `self`.
 */
function itemPlacement(ctx: Omit<Context, "flow">, fnScope: Scope): Placement {
  const { run, facts, file, fb, rules } = ctx;
  const plain = { isStatic: false, receiver: null, classmethod: false, classNode: null, qualifier: null };
  if (fnScope.kind === "module") {
    throw new RecoverableError(
      "invalid_args",
      `Cannot extract ${ctx.where}: they are not statements of a function`,
      {
        hint: "Give the lines of statements inside a function body",
        details: { path: file.rel, start_line: ctx.range.start_line, end_line: ctx.range.end_line },
      },
    );
  }
  let fn: Node | null = null;
  for (let p: Node | null = run.container; p; p = p.parent) if (ITEMS.has(p.type)) fn = p;
  if (!fn) return notInMethod(ctx as Context, "the statements", run.start);
  const holder = fn.parent;
  const moduleScope = scopeOfNode(fb, holder ?? file.tree.rootNode);
  const outer = functionScope(moduleScope);
  if (rules.receiverParameters) return { ...plain, kind: "function", anchor: fn, position: "after", outer };
  const impl = holder?.type === "declaration_list" ? holder.parent : null;
  const usesSelf = facts.thisUses.length > 0 || facts.selfTypes.length > 0;
  if (impl?.type === "impl_item" && !impl.childForFieldName("trait")) {
    const selfParam = fn.childForFieldName("parameters")?.namedChildren.find((c) =>
      c?.type === "self_parameter"
    );
    if (facts.thisUses.length > 0) {
      if (!selfParam) return notInMethod(ctx as Context, '"self"', facts.thisUses[0]!.startIndex);
      if (!selfParam.children.some((c) => c?.type === "&")) {
        throw new RecoverableError(
          "unresolved",
          `Cannot extract ${ctx.where}: the enclosing method takes \`${selfParam.text}\` by value, and a second method taking it would move it`,
          {
            hint:
              "Extract statements that do not use self, or change the method to take &self / &mut self first",
            details: { path: file.rel, start_line: ctx.range.start_line, end_line: ctx.range.end_line },
          },
        );
      }
    }
    return {
      ...plain,
      kind: "method",
      anchor: fn,
      position: "after",
      receiver: facts.thisUses.length > 0 ? selfParam!.text : null,
      qualifier: facts.thisUses.length > 0 ? "self." : "Self::",
      classNode: impl,
      outer,
    };
  }
  if (usesSelf) {
    const use = facts.thisUses[0] ?? facts.selfTypes[0]!;
    const line = use.startPosition.row + 1;
    const where = impl?.type === "impl_item"
      ? "a trait impl"
      : impl?.type === "trait_item"
      ? "a trait"
      : "a function outside any impl";
    throw new RecoverableError(
      "unresolved",
      `Cannot extract ${ctx.where}: they use "${use.text}" (line ${line}) in ${where}, which cannot take another method, and a free function has no ${use.text}`,
      {
        hint:
          "Extract statements that do not use self / Self, or move the logic into an inherent impl method first (impl Type { ... })",
        details: { path: file.rel, start_line: ctx.range.start_line, end_line: ctx.range.end_line, line },
      },
    );
  }
  const item = impl?.type === "impl_item" || impl?.type === "trait_item" ? impl : fn;
  return { ...plain, kind: "function", anchor: item, position: "after", outer };
}

/**
 * The method a Go extraction becomes when the statements use the enclosing
 * method's receiver: `func (r *T) name(…)`, called `r.name(…)`.
 */
function goMethodPlacement(ctx: Context, base: Placement): Placement {
  const { flow } = ctx;
  if (flow.receiverUses.length === 0 || !flow.receiver) return base;
  const assigned = flow.receiverUses.find((o) => o.kind === "definition");
  if (assigned) notInMethod(ctx, `the assignment to "${flow.receiver.name}"`, assigned.start);
  const method = base.anchor;
  const receiver = method.childForFieldName("receiver");
  if (method.type !== "method_declaration" || !receiver) return base;
  return {
    ...base,
    kind: "method",
    receiver: receiver.text,
    qualifier: `${flow.receiver.name}.`,
    classNode: method,
  };
}

/** A Python method when the statements use its receiver (`self`, `cls`) or `super`; a Go method when they use its receiver. */
export function methodPlacement(ctx: Context, base: Placement): Placement {
  if (ctx.rules.receiverParameters) return goMethodPlacement(ctx, base);
  const { flow, file } = ctx;
  if (!ctx.rules.explicitSelf) return base;
  const superUse = flow.free.find((o) => o.name === "super");
  if (flow.receiverUses.length === 0 && !superUse) return base;
  const def = nodeOfScope(file, flow.functionScope);
  if (!flow.receiver || !def) return notInMethod(ctx, '"super"', superUse!.start);
  const assigned = flow.receiverUses.find((o) => o.kind === "definition");
  if (assigned) notInMethod(ctx, `the assignment to "${flow.receiver.name}"`, assigned.start);
  const holder = def.parent?.type === "decorated_definition" ? def.parent : def;
  return {
    ...base,
    kind: "method",
    anchor: def,
    position: "after",
    receiver: flow.receiver.name,
    // A method whose receiver is the class (`@classmethod`, or `__new__` and the like by the language's rule)
    // hands the class on: the extracted method is a class method, called on it.
    classmethod: decoratorsOf(holder).includes("classmethod") ||
      ctx.rules.classReceiverMethods.has(def.childForFieldName("name")?.text ?? ""),
    classNode: holder.parent!.parent,
  };
}
