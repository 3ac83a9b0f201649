/**
 * Inlining a function: its one returned expression in place of each call,
 * parameters replaced by the arguments (defaults for missing ones), each
 * substitution parenthesised where precedence needs it. An argument with an
 * effect must be used exactly once, unconditionally, in argument order, with
 * no other effect of the body before it; free names of the body must mean
 * the same at the call.
 *
 * @module
 */
import { profileOf } from "../../languages/profiles.ts";
import type { Node } from "web-tree-sitter";
import type { Binding, Occurrence } from "../../syntax/bindings.ts";
import { lookup } from "../../syntax/binding_model.ts";
import { nodeOf } from "../shared/data_flow.ts";
import { lineOf } from "../shared/statement_ranges.ts";
import {
  asserted,
  conditionalAround,
  effectBefore,
  hasEffect,
  narrowingTest,
  parenthesised,
} from "./_expr.ts";
import { typed } from "../shared/written_types.ts";
import { checkNames, type InlineContext, inlineRefusal, usesOf } from "./_context.ts";
import { applyTextEdits, type TextEdit } from "../edit/source.ts";

interface Parameter {
  name: string;
  binding: Binding | null;
  fallback: Node | null;
  /** TypeScript: the written type each use asserts its argument to (null: none, or it names a type parameter). */
  type: string | null;
}

/** The one expression a function returns, or the refusal naming what else its body holds. */
function returnedExpression(ctx: InlineContext, fn: Node): Node {
  const body = fn.childForFieldName("body");
  if (!body) {
    throw inlineRefusal(
      ctx,
      "invalid_args",
      { why: "it has no body", hint: "Inline a function with a body", offset: fn.startIndex },
    );
  }
  if (fn.type === "arrow_function" && body.type !== "statement_block") return body;
  const items = body.namedChildren.filter((c): c is Node => c !== null && !c.type.includes("comment"));
  const docstring = profileOf(ctx.file.language).functions.docstrings &&
    items[0]?.type === "expression_statement" &&
    items[0].namedChild(0)?.type === "string";
  const statements = docstring ? items.slice(1) : items;
  const only = statements.length === 1 ? statements[0]! : null;
  const value = only?.type === "return_statement" ? only.namedChildren.find((c) => c !== null) ?? null : null;
  if (!value) {
    const returns = countReturns(body);
    throw inlineRefusal(
      ctx,
      "control_flow_escapes",
      {
        why: `its body is ${statements.length} statement${
          statements.length === 1 ? "" : "s"
        } with ${returns} return${returns === 1 ? "" : "s"}, not one returned expression`,
        hint:
          "Inline functions whose body is a single `return expression`; extract the rest first, or edit the call sites by hand",
        offset: body.startIndex,
      },
    );
  }
  return value;
}

function countReturns(node: Node): number {
  let n = node.type === "return_statement" ? 1 : 0;
  for (const c of node.namedChildren) {
    if (c && !/function|lambda|arrow|class|method/.test(c.type)) n += countReturns(c);
  }
  return n;
}

/** The parameters: name, binding and default; refused for rest, destructured and keyword-only shapes. */
function parametersOf(ctx: InlineContext, fn: Node): Parameter[] {
  const list = fn.childForFieldName("parameters") ?? fn.childForFieldName("parameter");
  if (!list) return [];
  if (list.type === "identifier") {
    return [{ name: list.text, binding: bindingAt(ctx, list), fallback: null, type: null }];
  }
  const out: Parameter[] = [];
  for (const p of list.namedChildren) {
    if (!p || p.type.includes("comment")) continue;
    let name: Node | null = null;
    let fallback: Node | null = null;
    if (p.type === "identifier") name = p;
    else if (p.type === "assignment_pattern") {
      [name, fallback] = [p.childForFieldName("left"), p.childForFieldName("right")];
    } else if (p.type === "required_parameter" || p.type === "optional_parameter") {
      name = p.childForFieldName("pattern");
      fallback = p.childForFieldName("value");
    } else if (p.type === "default_parameter" || p.type === "typed_default_parameter") {
      name = p.childForFieldName("name");
      fallback = p.childForFieldName("value");
    } else if (p.type === "typed_parameter") {
      name = p.namedChildren.find((c) => c?.type === "identifier") ?? null;
    }
    if (!name || name.type !== "identifier") {
      throw inlineRefusal(
        ctx,
        "unsupported_call_site",
        {
          why:
            `its parameter "${p.text}" is not a plain name (rest, destructuring, keyword-only or positional-only markers)`,
          hint: "Inline functions with plain parameters only",
          offset: p.startIndex,
        },
      );
    }
    out.push({ name: name.text, binding: bindingAt(ctx, name), fallback, type: writtenType(ctx, fn, p) });
  }
  return out;
}

/**
 * TypeScript: the type written on a parameter (or the function's return), which the body was checked against and
 * each argument (or the inlined expression) is asserted to: `(xhr as any)`, a lambda typed by it. Null when there
 * is none, or when it names one of the function's type parameters (inferred per call, not nameable at the call).
 */
function writtenType(ctx: InlineContext, fn: Node, holder: Node): string | null {
  if (!typed(ctx.file.language)) return null;
  const t = holder.childForFieldName(holder.id === fn.id ? "return_type" : "type");
  const inner = t?.type === "type_annotation" ? t.namedChildren[0] : null;
  if (!inner) return null;
  const own = fn.childForFieldName("type_parameters")?.namedChildren.map((c) =>
    c?.childForFieldName("name")?.text
  );
  const named = own?.some((n) =>
    n && new RegExp(`(?<![\\w$.])${n.replace(/\$/g, "\\$")}(?![\\w$])`).test(inner.text)
  );
  return named ? null : inner.text;
}

/** TypeScript: refuse a type predicate or assertion signature (`x is T`): the call narrowed its argument. */
function checkPredicate(ctx: InlineContext, fn: Node): void {
  const t = fn.childForFieldName("return_type");
  if (!typed(ctx.file.language) || !t || t.type === "type_annotation") return;
  throw inlineRefusal(
    ctx,
    "types_required",
    {
      why: `its return type \`${
        t.text.replace(/^:\s*/, "")
      }\` narrows the argument where it is called; the inlined expression would not`,
      hint: "Keep the function (its calls narrow types), or edit the call sites by hand",
      offset: t.startIndex,
    },
  );
}

function bindingAt(ctx: InlineContext, node: Node): Binding | null {
  return ctx.fb.occurrences.find((o) => o.start === node.startIndex)?.binding ?? null;
}

/** Refuse async functions, generators, decorated functions, recursion and `this` / `arguments` / `super`. */
function checkShape(ctx: InlineContext, fn: Node, expr: Node): void {
  const refuse = (why: string, at: number): never => {
    throw inlineRefusal(ctx, "unsupported_call_site", {
      why,
      hint: "Edit the call sites by hand",
      offset: at,
    });
  };
  if (fn.children.some((c) => c?.type === "async" || c?.type === "*") || /generator/.test(fn.type)) {
    refuse("it is async or a generator", fn.startIndex);
  }
  if (fn.parent?.type === "decorated_definition") refuse("it is decorated", fn.startIndex);
  if (ctx.binding.scope.kind === "class") refuse("it is a method", fn.startIndex);
  const self = ctx.fb.occurrences.find((o) =>
    o.binding === ctx.binding && o.start > fn.startIndex && o.end <= fn.endIndex && o !== ctx.declaration
  );
  if (self) refuse("it calls itself", self.start);
  const visit = (n: Node): void => {
    if (n.type === "this" || n.type === "super" || (n.type === "identifier" && n.text === "arguments")) {
      refuse(`it uses "${n.text}"`, n.startIndex);
    }
    if (/^(?:yield|yield_expression|await|await_expression)$/.test(n.type)) {
      refuse(`it uses ${n.type}`, n.startIndex);
    }
    for (const c of n.namedChildren) {
      if (c && !/^(?:function_expression|function_declaration|class)$/.test(c.type)) visit(c);
    }
  };
  visit(expr);
}

/** Arguments by parameter: the node passed, or the default, or null (`undefined`). */
function argumentsFor(ctx: InlineContext, call: Node, params: Parameter[]): (Node | null)[] {
  const list = call.childForFieldName("arguments");
  const refuse = (why: string, at: number): never => {
    throw inlineRefusal(
      ctx,
      "unsupported_call_site",
      { why, hint: "Edit this call by hand, or inline the other calls one by one", offset: at },
    );
  };
  if (!list || list.type === "template_string") refuse("the call has no argument list", call.startIndex);
  const out: (Node | null)[] = params.map(() => null);
  const given = params.map(() => false);
  let i = 0;
  for (const a of list!.namedChildren) {
    if (!a || a.type.includes("comment")) continue;
    if (/spread|splat/.test(a.type)) refuse(`the argument "${a.text}" is spread`, a.startIndex);
    if (a.type === "keyword_argument") {
      const k = params.findIndex((p) => p.name === a.childForFieldName("name")?.text);
      if (k < 0 || given[k]) {
        refuse(`the keyword argument "${a.text}" matches no free parameter`, a.startIndex);
      }
      out[k] = a.childForFieldName("value");
      given[k] = true;
      continue;
    }
    if (i >= params.length) {
      if (profileOf(ctx.file.language).functions.checksArity || hasEffect(a)) {
        refuse(`the extra argument "${a.text}"`, a.startIndex);
      }
      i++;
      continue;
    }
    out[i] = a;
    given[i++] = true;
  }
  params.forEach((p, k) => {
    if (given[k]) return;
    if (p.fallback) {
      if (hasEffect(p.fallback) || p.fallback.namedChildCount > 0 && p.fallback.type !== "unary_expression") {
        refuse(`the default of "${p.name}" is not a literal`, call.startIndex);
      }
      out[k] = p.fallback;
    } else if (profileOf(ctx.file.language).functions.checksArity) {
      refuse(`no argument for "${p.name}"`, call.startIndex);
    }
  });
  return out;
}

/**
 * The edits that put a function's returned expression in place of its calls.
 *
 * @param ctx The inlining.
 * @param fn The function node (declaration, arrow, function expression, Python def).
 * @param statement The statement that declares it.
 * @returns The edits, the lines of the calls, and the declaration's statement.
 */
export function inlineCalls(
  ctx: InlineContext,
  fn: Node,
  statement: Node,
): { sites: TextEdit[]; lines: number[]; statement: Node } {
  const { file } = ctx;
  const expr = returnedExpression(ctx, fn);
  checkShape(ctx, fn, expr);
  const params = parametersOf(ctx, fn);
  const returnType = writtenType(ctx, fn, fn);
  const paramBindings = new Set(params.map((p) => p.binding).filter((b): b is Binding => b !== null));
  const sites = callSitesOf(ctx, fn);
  checkPredicate(ctx, fn);
  const shape: InlinedFunction = { fn, expr, params, returnType, paramBindings };
  const edits = sites.map((site) => inlinedCall(ctx, site, shape));
  return { sites: edits, lines: sites.map((s) => lineOf(file.text, s.call.startIndex)), statement };
}

/** A call of the function: the name's occurrence and the call node. */
interface CallSite {
  use: Occurrence;
  call: Node;
}

/** What every call site of one function is rewritten with. */
interface InlinedFunction {
  /** The function node. */
  fn: Node;
  /** Its one returned expression. */
  expr: Node;
  params: Parameter[];
  /** TypeScript: its written return type, or null. */
  returnType: string | null;
  /** The parameters' bindings (names the call site need not resolve). */
  paramBindings: Set<Binding>;
}

/** The calls to inline (every call, or the one targeted), refusing uses as a value and no call at all. */
function callSitesOf(ctx: InlineContext, fn: Node): CallSite[] {
  const { file, declaration, target } = ctx;
  const uses = usesOf(ctx).filter((u) => u.start < fn.startIndex || u.start >= fn.endIndex);
  const calls: CallSite[] = [];
  for (const use of uses) {
    const node = nodeOf(file, use);
    const call = node.parent;
    const isCall = call && (call.type === "call_expression" || call.type === "call") &&
      call.childForFieldName("function")?.id === node.id;
    if (isCall) calls.push({ use, call });
    else if (target === declaration && !(call?.type === "export_specifier")) {
      throw inlineRefusal(
        ctx,
        "value_reference",
        {
          why: `it is used as a value at line ${lineOf(file.text, use.start)}, not called`,
          hint: "Inline single calls by their line and column instead; the function stays for its other uses",
          offset: use.start,
        },
      );
    }
  }
  const sites = target === declaration ? calls : calls.filter((c) => c.use === target);
  if (sites.length === 0) {
    throw inlineRefusal(
      ctx,
      "no_match",
      {
        why: target === declaration ? "it is never called" : "the position is not a call of it",
        hint: "Target the function's declaration (every call) or the name in one call",
        offset: target.start,
      },
    );
  }
  return sites;
}

/** The edit that replaces one call with the returned expression, its parameters replaced by the arguments. */
function inlinedCall(ctx: InlineContext, { use, call }: CallSite, shape: InlinedFunction): TextEdit {
  const { file } = ctx;
  const { expr, params, returnType } = shape;
  const args = argumentsFor(ctx, call, params);
  checkNames(ctx, expr, { site: use, from: expr.endIndex, skip: shape.paramBindings });
  const replacements: TextEdit[] = [];
  const effectful: { arg: number; at: number }[] = [];
  params.forEach((p, k) => {
    const arg = args[k] ?? null;
    const argText = arg ? file.text.slice(arg.startIndex, arg.endIndex) : "undefined";
    const paramUses = ctx.fb.occurrences.filter((o) =>
      o.binding === p.binding && p.binding !== null && o.start >= expr.startIndex && o.end <= expr.endIndex
    );
    if (!arg) refuseTestedUndefined(ctx, { call, paramUses });
    if (arg && hasEffect(arg)) {
      refuseEffectfulArgument(ctx, { call, expr, p, argText, paramUses });
      effectful.push({ arg: k, at: paramUses[0]!.start });
    }
    for (const o of paramUses) {
      capture(ctx, o, arg, shape.fn);
      const at = nodeOf(file, o);
      const text = !arg ? argText : p.type ? asserted(arg, argText, p.type) : parenthesised(arg, argText, at);
      replacements.push({
        start: o.start - expr.startIndex,
        end: o.end - expr.startIndex,
        text: o.kind === "shorthand" ? `${o.name}: ${text}` : text,
      });
    }
  });
  const inOrder = effectful.every((e, i) => i === 0 || effectful[i - 1]!.at < e.at);
  if (!inOrder) {
    throw inlineRefusal(
      ctx,
      "unsupported_call_site",
      {
        why: "arguments with effects would run in another order",
        hint: "Keep this call, or assign the arguments to variables first",
        offset: call.startIndex,
      },
    );
  }
  const body = applyTextEdits(file.text.slice(expr.startIndex, expr.endIndex), replacements);
  return {
    start: call.startIndex,
    end: call.endIndex,
    text: returnType ? asserted(expr, body, returnType) : parenthesised(expr, body, call),
  };
}

/**
 * TypeScript refuses a test that is always falsy (`undefined || x`, `if (undefined)`): a call that passes no
 * value for a parameter the body tests as it is is not inlined there.
 */
function refuseTestedUndefined(
  ctx: InlineContext,
  { call, paramUses }: { call: Node; paramUses: Occurrence[] },
): void {
  if (!typed(ctx.file.language)) return;
  for (const o of paramUses) {
    const test = narrowingTest(nodeOf(ctx.file, o), { direct: true });
    if (!test) continue;
    throw inlineRefusal(
      ctx,
      "unsupported_call_site",
      {
        why: `the call at line ${
          lineOf(ctx.file.text, call.startIndex)
        } passes no value for "${o.name}", which line ${lineOf(ctx.file.text, o.start)} tests as it is (${
          ctx.file.text.slice(test.parent!.startIndex, test.parent!.endIndex).split("\n")[0]!.slice(0, 60)
        }): inlined, \`undefined\` there is a test TypeScript refuses as always falsy`,
        hint:
          "Keep this call, or pass the value explicitly (e.g. `undefined as T | undefined`) before inlining",
        offset: call.startIndex,
      },
    );
  }
}

/** Refuse an argument with an effect unless the body uses its parameter once, unconditionally, before other effects. */
function refuseEffectfulArgument(
  ctx: InlineContext,
  { call, expr, p, argText, paramUses }: {
    call: Node;
    expr: Node;
    p: Parameter;
    argText: string;
    paramUses: Occurrence[];
  },
): void {
  const u = paramUses.length === 1 ? nodeOf(ctx.file, paramUses[0]!) : null;
  const why = paramUses.length !== 1
    ? `the argument "${argText}" has an effect and the body uses "${p.name}" ${paramUses.length} times`
    : conditionalAround(u!, expr)
    ? `the argument "${argText}" has an effect and the body may evaluate "${p.name}" zero or several times`
    : effectBefore(expr, u!.startIndex)
    ? `the argument "${argText}" has an effect and the body has another effect before "${p.name}"`
    : null;
  if (why) {
    throw inlineRefusal(
      ctx,
      "unsupported_call_site",
      {
        why,
        hint: "Keep this call, or pass a plain name (assign the argument to a variable first)",
        offset: call.startIndex,
      },
    );
  }
}

/** Refuse when a name of the argument would be captured by a binding inside the body (a lambda's parameter). */
function capture(ctx: InlineContext, use: Occurrence, arg: Node | null, fn: Node): void {
  if (!arg) return;
  const names = new Set(
    ctx.fb.occurrences.filter((o) => o.start >= arg.startIndex && o.end <= arg.endIndex).map((o) => o.name),
  );
  for (let s = use.scope; s && s.start > fn.startIndex; s = s.parent!) {
    for (const name of names) {
      if (s.bindings.has(name) && lookup(s, name) !== null) {
        throw inlineRefusal(
          ctx,
          "name_clash",
          {
            why: `"${name}" in the argument would be captured by the "${name}" declared inside the body`,
            hint: `Rename that "${name}" first (edit_rename_symbol), then inline`,
            offset: use.start,
          },
        );
      }
    }
    if (!s.parent) break;
  }
}
