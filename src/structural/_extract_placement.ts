/**
 * Where an extracted function goes: a method next to the enclosing one (when
 * the statements use `this`, `self` or `super`), a function before the
 * top-level statement that holds module-level statements, or a function
 * right after the statement that declares the enclosing function.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import type { Scope } from "../syntax/binding_model.ts";
import { type Context, notInMethod } from "./_extract_checks.ts";
import { decoratorsOf, nodeOfScope, scopeOfNode } from "./_extract_flow.ts";
import type { FamilyRules } from "./_extract_range.ts";

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
  if (rules.family === "ecmascript" && facts.thisUses.length > 0) {
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

/** A Python method when the statements use its receiver (`self`, `cls`) or `super`. */
export function methodPlacement(ctx: Context, base: Placement): Placement {
  const { flow, file } = ctx;
  if (ctx.rules.family !== "python") return base;
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
    classmethod: decoratorsOf(holder).includes("classmethod"),
    classNode: holder.parent!.parent,
  };
}
