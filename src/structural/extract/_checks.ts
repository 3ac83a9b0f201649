/**
 * The refusals of extract function: control flow that leaves the statements,
 * hoisting, class bodies, `arguments`, values a Python function could not
 * always return, names that clash where the call or the function goes, and
 * TypeScript parameters whose types are not written.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import type { Binding, FileBindings } from "../../syntax/bindings.ts";
import { lookup } from "../../syntax/binding_model.ts";
import type { DataFlow, Variable } from "../shared/data_flow.ts";
import { nodeOf, nodeOfScope } from "../shared/data_flow.ts";
import type { FamilyRules, FlowFacts, LineRange, StatementRun } from "../shared/statement_ranges.ts";
import { lineOf } from "../shared/statement_ranges.ts";
import { declaredType, typed, type WrittenType } from "../shared/written_types.ts";
import type { SourceFile } from "../edit/source.ts";

/** What the checks and the builder share about one extraction. */
export interface Context {
  /** The source file. */
  file: SourceFile;
  /** Its bindings. */
  fb: FileBindings;
  /** The language family's rules. */
  rules: FamilyRules;
  /** The statements extracted. */
  run: StatementRun;
  /** What they do to control flow. */
  facts: FlowFacts;
  /** What flows in and out of them. */
  flow: DataFlow;
  /** "lines a-b of "path"", for messages. */
  where: string;
  /** The new function's name. */
  name: string;
  /** The calling tool. */
  tool: string;
  /** The range asked for. */
  range: LineRange;
}

/** Details every refusal carries. */
export function details(ctx: Context, more: Record<string, unknown> = {}): Record<string, unknown> {
  return { path: ctx.file.rel, start_line: ctx.range.start_line, end_line: ctx.range.end_line, ...more };
}

/** 1-based line of an offset. */
export function at(ctx: Context, offset: number): number {
  return lineOf(ctx.file.text, offset);
}

/** Refuse control flow, hoisting and class bodies the extraction cannot keep. */
export function checkFlow(ctx: Context): void {
  refuseClassBody(ctx);
  refuseEscapingJump(ctx);
  refuseDefer(ctx);
  const end = bodyEndOf(ctx);
  refuseInnerBlockValue(ctx, end);
  if (ctx.facts.returns.length > 0 || end.tail) refuseReturns(ctx, end);
  refuseDivergingEnd(ctx, end);
  refuseUsedBlockEnd(ctx, end);
  refuseTryOperator(ctx, end);
  refuseAsyncYield(ctx);
  refuseUnsafeNames(ctx);
}

/** How the statements relate to the end of the enclosing body (Go, Rust: the function they end, a block's tail). */
interface BodyEnd {
  /** The language writes typed signatures (Go, Rust). */
  native: boolean;
  /** The enclosing function whose body the statements end, or null. */
  ended: Node | null;
  /** The block's value expression among the statements (Rust), or null. */
  tail: Node | null;
}

/** The enclosing function the statements end and the block value they hold. */
function bodyEndOf(ctx: Context): BodyEnd {
  const native = ctx.rules.typedSignatures;
  const ended = native ? endedFunction(ctx) : null;
  const tail = ctx.rules.blockValues ? rustTail(ctx.run) : null;
  return { native, ended, tail };
}

/** Refuse statements of a class body. */
function refuseClassBody(ctx: Context): void {
  if (ctx.flow.blockScope.kind !== "class") return;
  throw new RecoverableError(
    "invalid_args",
    `Cannot extract ${ctx.where}: they are statements of a class body`,
    {
      hint:
        "Extract statements of a function or method body, or move members with insert_code / remove_symbol",
      details: details(ctx),
    },
  );
}

/** Refuse a break, continue, goto or fallthrough that jumps across the range's edge. */
function refuseEscapingJump(ctx: Context): void {
  const { run, facts, where } = ctx;
  const escape = facts.escapes[0];
  if (!escape) return;
  const word = escape.type.replace(/_(?:statement|expression)$/, "");
  const outside = escape.startIndex < run.start || escape.endIndex > run.end;
  const target = word === "goto" || outside ? "a label" : word === "fallthrough" ? "a case" : "a loop";
  throw new RecoverableError(
    "control_flow_escapes",
    `Cannot extract ${where}: the ${word} at line ${at(ctx, escape.startIndex)} ${
      outside ? `(outside them) jumps to ${target} inside them` : `jumps to ${target} outside them`
    }`,
    {
      hint: outside
        ? "Include the jump in the range, or leave the labelled statement out of it"
        : "Include the whole loop (or labelled statement) in the range, or extract only statements that do not jump out of it",
      details: details(ctx, { line: at(ctx, escape.startIndex) }),
    },
  );
}

/** Refuse a Go defer, which would run when the new function returns. */
function refuseDefer(ctx: Context): void {
  const defer = ctx.facts.defers[0];
  if (!defer) return;
  throw new RecoverableError(
    "control_flow_escapes",
    `Cannot extract ${ctx.where}: the defer at line ${
      at(ctx, defer.startIndex)
    } would run when the new function returns, not when the enclosing function does`,
    {
      hint: "Leave the defer statement out of the range (extract the statements before or after it)",
      details: details(ctx, { line: at(ctx, defer.startIndex) }),
    },
  );
}

/** Refuse the value expression of a block that is not the function body. */
function refuseInnerBlockValue(ctx: Context, { ended, tail }: BodyEnd): void {
  if (!tail || ended) return;
  throw new RecoverableError(
    "control_flow_escapes",
    `Cannot extract ${ctx.where}: the expression at line ${
      at(ctx, tail.startIndex)
    } is the value of its block, which is not the function body`,
    {
      hint:
        "Leave the block's last expression out of the range, or extract the whole block's statements of a function body",
      details: details(ctx, { line: at(ctx, tail.startIndex) }),
    },
  );
}

/** Whether the statements end the enclosing function's body (so a return there can become the call's). */
function endsFunctionBody(ctx: Context, { native, ended }: BodyEnd): boolean {
  if (native) return ended !== null;
  const { file, flow, run } = ctx;
  const fn = nodeOfScope(file, flow.functionScope);
  const body = fn?.childForFieldName("body");
  const lastCode = run.container.namedChildren.filter((c) => c && !c.type.includes("comment")).pop();
  return flow.functionScope.kind === "function" && body?.id === run.container.id &&
    lastCode !== undefined && lastCode !== null && lastCode.endIndex <= run.end;
}

/** Refuse returns (or a tail value) unless they end the function body with nothing else flowing out. */
function refuseReturns(ctx: Context, end: BodyEnd): void {
  const { facts, where } = ctx;
  const endsBody = endsFunctionBody(ctx, end);
  const outputs = outputsOf(ctx);
  if (!endsBody || outputs.length > 0) {
    const r = facts.returns[0] ?? end.tail!;
    throw new RecoverableError(
      "control_flow_escapes",
      `Cannot extract ${where}: the ${facts.returns[0] ? "return" : "value"} at line ${
        at(ctx, r.startIndex)
      } leaves the enclosing function${
        endsBody ? ` while ${outputs.map((v) => `"${v.name}"`).join(", ")} must also flow out` : ""
      }`,
      {
        hint:
          "Extend the range to the end of the function body (the call then returns the new function's result), or leave the return out of the range",
        details: details(ctx, { line: at(ctx, r.startIndex) }),
      },
    );
  }
  if (
    ctx.rules.namedResults &&
    end.ended?.childForFieldName(ctx.rules.resultField)?.namedChildren.some((c) =>
      c?.type === "parameter_declaration" && c.childForFieldName("name")
    )
  ) {
    const r = facts.returns[0]!;
    throw new RecoverableError(
      "control_flow_escapes",
      `Cannot extract ${where}: the return at line ${
        at(ctx, r.startIndex)
      } returns the enclosing function's named results, which the new function would not have`,
      {
        hint: "Leave the return statements out of the range",
        details: details(ctx, { line: at(ctx, r.startIndex) }),
      },
    );
  }
}

/** Refuse statements that end a value-returning body without a return (they end in a diverging call). */
function refuseDivergingEnd(ctx: Context, { native, ended, tail }: BodyEnd): void {
  if (!native || !ended || ctx.facts.returns.length !== 0 || tail) return;
  // The statements end a body that must produce a value: they end in a diverging call (panic), which a new
  // function without that result would not.
  const result = ended.childForFieldName(ctx.rules.resultField);
  if (!result || result.text === "()") return;
  const last = ctx.run.statements.filter((n) => !n.type.includes("comment")).pop()!;
  throw new RecoverableError(
    "control_flow_escapes",
    `Cannot extract ${ctx.where}: they end the body of a function returning ${result.text} without a return, so their last statement (line ${
      at(ctx, last.startIndex)
    }) does not finish normally (a panic), which the new function's call would not show`,
    {
      hint: "Leave the last statement out of the range",
      details: details(ctx, { line: at(ctx, last.startIndex) }),
    },
  );
}

/** Refuse the last statements of a block whose value is used (Rust), which may diverge. */
function refuseUsedBlockEnd(ctx: Context, { ended }: BodyEnd): void {
  const { run } = ctx;
  if (!ctx.rules.blockValues || ended || unusedBlockValue(run.container)) return;
  const last = run.container.namedChildren.filter((c) => c && !c.type.includes("comment")).pop();
  if (!last || last.endIndex > run.end) return;
  throw new RecoverableError(
    "control_flow_escapes",
    `Cannot extract ${ctx.where}: they end a block whose value is used (line ${
      at(ctx, run.container.startIndex)
    }), and its last statement may diverge (panic!, unreachable!) where a call would not`,
    {
      hint: "Leave the block's last statement out of the range",
      details: details(ctx, { line: at(ctx, last.startIndex) }),
    },
  );
}

/** Refuse a `?` whose enclosing function's return type is not a written Result or Option. */
function refuseTryOperator(ctx: Context, { ended }: BodyEnd): void {
  const tryOp = ctx.facts.tries[0];
  if (!tryOp || ended || tryCarrier(ctx)) return;
  throw new RecoverableError(
    "control_flow_escapes",
    `Cannot extract ${ctx.where}: the ? at line ${
      at(ctx, tryOp.startIndex)
    } returns from the enclosing function, whose return type is not a Result<…> or Option<…> written out`,
    {
      hint:
        "Leave the expression with ? out of the range, or handle its error inside the range (match / unwrap_or)",
      details: details(ctx, { line: at(ctx, tryOp.startIndex) }),
    },
  );
}

/** Refuse a yield inside an async generator where the language cannot delegate to one. */
function refuseAsyncYield(ctx: Context): void {
  const { facts, file, flow } = ctx;
  const asyncFunction = () =>
    nodeOfScope(file, flow.functionScope)?.children.some((c) => c?.type === "async") === true;
  if (!facts.yields || ctx.rules.delegatesInAsyncGenerators || !(facts.awaits || asyncFunction())) return;
  throw new RecoverableError(
    "control_flow_escapes",
    `Cannot extract ${ctx.where}: they yield inside an async generator`,
    {
      hint:
        "Python cannot delegate to an async generator (no `yield from` there): leave the yield out of the range",
      details: details(ctx),
    },
  );
}

/** Refuse names used before their declaration, possibly unbound, or the `arguments` object. */
function refuseUnsafeNames(ctx: Context): void {
  refuseHoisted(ctx);
  refuseMaybeUnbound(ctx);
  const args = ctx.flow.free.find((o) => o.name === "arguments" && ctx.rules.argumentsObject);
  if (args) {
    throw new RecoverableError(
      "unresolved",
      `Cannot extract ${ctx.where}: "arguments" at line ${
        at(ctx, args.start)
      } means the enclosing function's arguments`,
      { hint: "Name the parameters you need instead of arguments, then extract", details: details(ctx) },
    );
  }
}

/** Refuse a name declared in the statements but used before them. */
function refuseHoisted(ctx: Context): void {
  const hoisted = ctx.flow.usedBefore[0];
  if (!hoisted) return;
  throw new RecoverableError(
    "invalid_args",
    `Cannot extract ${ctx.where}: "${hoisted.variable.name}" is declared there but used before, at line ${
      at(ctx, hoisted.at)
    }`,
    {
      hint: `Extend the range to line ${
        at(ctx, hoisted.at)
      }, or leave the declaration of "${hoisted.variable.name}" out of it`,
      details: details(ctx, { name: hoisted.variable.name, line: at(ctx, hoisted.at) }),
    },
  );
}

/** Refuse a name that may be unbound where it is passed in or returned. */
function refuseMaybeUnbound(ctx: Context): void {
  const { flow, where } = ctx;
  const unsure = flow.unboundBefore[0];
  if (unsure) {
    const name = unsure.variable.name;
    throw new RecoverableError(
      "unresolved",
      `Cannot extract ${where}: "${name}" would be passed in, but it is only assigned in a branch or loop before the range (line ${
        at(ctx, unsure.at)
      }), so it may be unbound where the new function is called`,
      {
        hint:
          `Give "${name}" a value before the range on every path, or extend the range over its assignment`,
        details: details(ctx, { name, line: at(ctx, unsure.at) }),
      },
    );
  }
  const unbound = flow.maybeUnbound[0];
  if (unbound) {
    const name = unbound.variable.name;
    throw new RecoverableError(
      "unresolved",
      `Cannot extract ${where}: "${name}" is not given a value on every path there and is read after it (line ${
        at(ctx, unbound.at)
      }), so the new function could not always return it`,
      {
        hint:
          `Give "${name}" a value where it is declared or before the range, extend the range over its later uses, or leave its declaration and assignments out`,
        details: details(ctx, { name, line: at(ctx, unbound.at) }),
      },
    );
  }
}

/** Refuse: the statements use `this`, `self` or `super` outside a class method. */
export function notInMethod(ctx: Context, what: string, offset: number): never {
  throw new RecoverableError(
    "unresolved",
    `Cannot extract ${ctx.where}: ${what} at line ${at(ctx, offset)} is not inside a class method`,
    {
      hint: "Extract statements that do not use it, or pass the object they need explicitly",
      details: details(ctx, { line: at(ctx, offset) }),
    },
  );
}

/** The names that flow out as return values (Rust: those declared inside; the others are passed `&mut`). */
export function outputsOf(ctx: Context): Variable[] {
  return ctx.flow.variables.filter((v) => v.output && (!ctx.rules.outputsByReference || v.declared));
}

/** Go and Rust function declarations (not closures). */
const NAMED_FUNCTIONS = /^(?:function_declaration|method_declaration|function_item)$/;

/** The enclosing function (Go, Rust) when the statements end its body, else null (also inside closures). */
export function endedFunction(ctx: Omit<Context, "flow">): Node | null {
  const { run, rules } = ctx;
  let fn: Node | null = run.container;
  while (fn && !rules.functions.has(fn.type)) fn = fn.parent;
  if (!fn || !NAMED_FUNCTIONS.test(fn.type)) return null;
  let body = fn.childForFieldName("body");
  const list = rules.bodyStatements;
  if (list) body = body?.namedChildren.find((c) => c?.type === list) ?? null;
  if (!body || body.id !== run.container.id) return null;
  const lastCode = body.namedChildren.filter((c) => c && !c.type.includes("comment")).pop();
  return lastCode && lastCode.endIndex <= run.end ? fn : null;
}

/** Whether a Rust block's value is certainly unused: a loop body, or an `if`/`else`/bare block used as a statement. */
function unusedBlockValue(block: Node): boolean {
  let n = block;
  for (let p = n.parent; p; n = p, p = p.parent) {
    if (/^(?:loop_expression|while_expression|for_expression)$/.test(p.type)) {
      return p.childForFieldName("body")?.id === n.id;
    }
    if (p.type === "expression_statement") return p.lastChild?.type === ";" || isUnitStatement(p);
    if (p.type === "else_clause" || p.type === "if_expression" || p.type === "unsafe_block") continue;
    if (p.type === "block" && n.type !== "block") return false;
    if (p.type === "block") return true; // a bare block among statements
    return false;
  }
  return false;
}

/** A block-like statement without `;` that is not its block's value (another statement follows it). */
function isUnitStatement(stmt: Node): boolean {
  let next = stmt.nextNamedSibling;
  while (next && next.type.includes("comment")) next = next.nextNamedSibling;
  return next !== null;
}

/** A Rust block's value in the statements: its last expression, written without `;`. */
export function rustTail(run: StatementRun): Node | null {
  const last = run.container.namedChildren.filter((c) => c && !c.type.includes("comment")).pop();
  if (!last || last.endIndex > run.end) return null;
  if (/^(?:let_declaration|empty_statement)$/.test(last.type) || /_item$|_declaration$/.test(last.type)) {
    return null;
  }
  if (last.type === "expression_statement" && last.lastChild?.type === ";") return null;
  if (last.type === "expression_statement") {
    const inner = last.namedChildren[0];
    // A block-like statement of unit type (`if c { f(); }`) is no value; one whose blocks end in an expression is.
    if (!inner || !blockValued(inner)) return null;
  }
  return last;
}

/** Whether a block-like expression's blocks end in a value (an `if`/`match` used as the block's value). */
function blockValued(n: Node): boolean {
  if (n.type === "block") {
    const last = n.namedChildren.filter((c) => c && !c.type.includes("comment")).pop();
    return last !== undefined && last !== null &&
      !(last.type === "expression_statement" && last.lastChild?.type === ";") &&
      last.type !== "let_declaration" && !/_item$/.test(last.type) &&
      (last.type !== "expression_statement" || blockValued(last.namedChildren[0]!));
  }
  if (n.type === "if_expression") {
    const c = n.childForFieldName("consequence");
    return c !== null && blockValued(c);
  }
  if (n.type === "match_expression") {
    return n.childForFieldName("body")?.namedChildren.some((arm) => {
      const v = arm?.childForFieldName("value");
      return v !== null && v !== undefined && (v.type !== "block" || blockValued(v));
    }) === true;
  }
  return n.type !== "loop_expression" && n.type !== "while_expression" && n.type !== "for_expression";
}

/**
 * The enclosing Rust function's `Result<…>` / `Option<…>` return type, which a new function with a `?` inside
 * can share (its first type argument replaced), or null.
 */
export function tryCarrier(ctx: Omit<Context, "flow">): { type: Node; wrap: "Ok" | "Some" } | null {
  let fn: Node | null = ctx.run.container;
  while (fn && !ctx.rules.functions.has(fn.type)) fn = fn.parent;
  if (!fn || fn.type !== "function_item") return null;
  const ret = fn.childForFieldName("return_type");
  if (ret?.type !== "generic_type") return null;
  const name = ret.childForFieldName("type")?.text.split("::").pop();
  if (name !== "Result" && name !== "Option") return null;
  if (!ret.childForFieldName("type_arguments")?.namedChildren[0]) return null;
  return { type: ret, wrap: name === "Result" ? "Ok" : "Some" };
}

/** Refuse a name already visible where the call or the new function goes. */
export function checkClash(
  ctx: Context,
  placement: { kind: "function" | "method"; classNode: Node | null },
): void {
  const { fb, flow, name, where } = ctx;
  const clash = (offset: number, why: string): never => {
    const line = at(ctx, offset);
    throw new RecoverableError("name_clash", `Cannot extract ${where} as "${name}": ${why} (line ${line})`, {
      hint: "Choose another name",
      details: details(ctx, { name, line }),
    });
  };
  const visible = lookup(flow.blockScope, name);
  if (visible) {
    const decl = fb.occurrences.find((o) => o.binding === visible && o.kind === "definition");
    clash(decl?.start ?? 0, `"${name}" is already declared where the call goes`);
  }
  if (placement.kind === "method") {
    const cls = placement.classNode!;
    const member = fb.occurrences.find((o) =>
      o.name === name && o.start >= cls.startIndex && o.end <= cls.endIndex &&
      (o.kind === "member_definition" || o.kind === "member_this" ||
        (o.kind === "definition" && o.binding?.scope.kind === "class"))
    );
    if (member) clash(member.start, `the class already has a member "${name}"`);
    return;
  }
  const global = fb.occurrences.find((o) => o.name === name && o.binding === null && o.kind === "reference");
  if (global) clash(global.start, `"${name}" is used as a global name, which the new function would shadow`);
}

/** The type of each parameter (TypeScript), or the `types_required` refusal. */
export function parameterTypes(ctx: Context, params: Variable[]): Map<Variable, WrittenType> {
  const out = new Map<Variable, WrittenType>();
  if (!typed(ctx.file.language)) return out;
  for (const v of params) {
    const t = declaredType(v.declaration);
    if (!t) {
      const line = v.declaration ? at(ctx, v.declaration.startIndex) : null;
      throw new RecoverableError(
        "types_required",
        `Cannot extract ${ctx.where}: the type of "${v.name}" (${
          line ? `declared at line ${line}` : "declared elsewhere"
        }) is not written in its declaration, and it would become a parameter`,
        {
          hint:
            `Annotate "${v.name}" where it is declared (e.g. \`${v.name}: SomeType\`), or include its declaration in the range, then extract`,
          details: details(ctx, { name: v.name, ...(line ? { line } : {}) }),
        },
      );
    }
    const test = narrowedBefore(ctx, v, t);
    if (test) {
      const line = at(ctx, test.startIndex);
      throw new RecoverableError(
        "types_required",
        `Cannot extract ${ctx.where}: "${v.name}" is tested or assigned before the range (line ${line}: \`${
          test.text.split("\n")[0]!.slice(0, 60)
        }\`), where TypeScript narrows its type; as a parameter it would have its declared type \`${t.text}\``,
        {
          hint:
            `Include the test of "${v.name}" in the range, or give the range a variable of the narrowed type (\`const x: Narrowed = ${v.name};\`) and extract after it`,
          details: details(ctx, { name: v.name, line }),
        },
      );
    }
    out.set(v, t);
  }
  return out;
}

/** Node types whose first operand (or condition) narrows a name it tests. */
const TESTS = new Set([
  "if_statement",
  "while_statement",
  "ternary_expression",
  "binary_expression",
  "unary_expression",
]);

/**
 * Where a parameter-to-be whose declared type can narrow (a union, optional or `unknown`) is tested or assigned
 * before the statements in their function (an `if`/`while` condition, a ternary's, the left of `&&`/`||`/`??`,
 * `typeof`, `!`, `x = …`): TypeScript may give it a narrower type at the statements than the declaration says.
 */
function narrowedBefore(ctx: Context, v: Variable, t: WrittenType): Node | null {
  if (!canNarrow(t.text, v.declaration?.parent ?? null)) return null;
  const fn = nodeOfScope(ctx.file, ctx.flow.functionScope);
  for (const o of ctx.fb.occurrences) {
    if (o.binding !== v.binding || o.start >= ctx.run.start || (fn && o.start < fn.startIndex)) continue;
    const at = narrowingAt(ctx, ctx.file.tree.rootNode.descendantForIndex(o.start, o.end));
    if (at) return at;
  }
  return null;
}

/** Whether a declared type can narrow: a union, `unknown`, an optional (`x?: T`, `x?`). */
function canNarrow(type: string, declaration: Node | null): boolean {
  return /\||\bunknown\b|\?/.test(type) || /\?\s*:/.test(declaration?.text ?? "");
}

/**
 * The test or assignment that narrows the name (or `this.x`) at `node`, a use before the statements: `node`
 * inside an `if`/`while` condition, a ternary's, the left of `&&`/`||`/`??`, `typeof`, `!`, or the left side
 * of `=`. Null when the use narrows nothing the statements see.
 */
function narrowingAt(ctx: Context, node: Node | null): Node | null {
  let child = node;
  if (
    child?.parent?.type === "member_expression" && child.parent.childForFieldName("property")?.id === child.id
  ) {
    child = child.parent; // `this.x`: the whole access is tested or assigned
  }
  for (let n = child?.parent ?? null; n && child; child = n, n = n.parent) {
    if (TESTS.has(n.type)) {
      const tested = n.childForFieldName("condition") ?? n.childForFieldName("left") ??
        n.childForFieldName("argument");
      if (tested && child.startIndex >= tested.startIndex && child.endIndex <= tested.endIndex) return n;
    }
    if (n.type === "assignment_expression" && n.childForFieldName("left")?.id === child.id) return n;
    // A statement over before the range: only an `if` (an early exit narrows what follows) counts.
    if (n.endIndex < ctx.run.start && n.type.endsWith("statement")) break;
  }
  return null;
}

/**
 * TypeScript: refuse (`types_required`) statements that read `this.x` where the enclosing function tested or
 * assigned `this.x` before them, and the class declares x with a type that can narrow (or does not declare it):
 * in a new method, `this.x` has its declared type again (rxjs's Subject.next: `this.currentObservers`, set when
 * null just before, is `Observer<T>[] | null` in the new method).
 *
 * @param ctx The extraction.
 */
export function checkMemberNarrowing(ctx: Context): void {
  if (!typed(ctx.file.language)) return;
  const { fb, run } = ctx;
  const read = new Set(
    fb.occurrences.filter((o) => o.kind === "member_this" && o.start >= run.start && o.start < run.end)
      .map((o) => o.name),
  );
  if (read.size === 0) return;
  const fn = nodeOfScope(ctx.file, ctx.flow.functionScope);
  for (const o of fb.occurrences) {
    if (
      o.kind !== "member_this" || !read.has(o.name) || o.start >= run.start || (fn && o.start < fn.startIndex)
    ) {
      continue;
    }
    const narrowing = narrowingAt(ctx, ctx.file.tree.rootNode.descendantForIndex(o.start, o.end));
    if (!narrowing || !memberCanNarrow(ctx, o.name, o.start)) continue;
    const line = at(ctx, narrowing.startIndex);
    throw new RecoverableError(
      "types_required",
      `Cannot extract ${ctx.where}: they read \`this.${o.name}\`, which line ${line} (\`${
        narrowing.text.split("\n")[0]!.slice(0, 60)
      }\`) tests or assigns before them, where TypeScript narrows its type; in a new method it would have its declared type`,
      {
        hint:
          `Include line ${line} in the range, or read \`this.${o.name}\` into a local of the narrowed type before the range (\`const ${o.name} = this.${o.name};\`) and use that in the statements`,
        details: details(ctx, { name: `this.${o.name}`, line }),
      },
    );
  }
}

/**
 * TypeScript: refuse (`types_required`) statements that read a name they do not get as a parameter (the new
 * function sees it where it is declared) when their function tested or assigned it before them, and its type can
 * narrow or is not written: a function declaration does not keep a narrowing of a name it captures (rxjs's
 * TestScheduler: `if (!map) throw …` then `map.set(…)`, where `map` is `Map<…> | undefined` again).
 *
 * @param ctx The extraction.
 */
export function checkCapturedNarrowing(ctx: Context): void {
  if (!typed(ctx.file.language)) return;
  const { fb, run, file } = ctx;
  const passed = new Set(ctx.flow.variables.filter((v) => v.param || v.declared).map((v) => v.binding));
  const fn = nodeOfScope(file, ctx.flow.functionScope);
  const checked = new Set<Binding>();
  for (const o of fb.occurrences) {
    const b = o.binding;
    if (o.start < run.start || o.start >= run.end || !b || passed.has(b) || checked.has(b)) continue;
    if (o.kind !== "reference" && o.kind !== "shorthand") continue;
    checked.add(b);
    const def = fb.occurrences.find((d) => d.binding === b && d.kind === "definition");
    if (!def || def.start >= run.start || b.kind === "import" || b.scope.kind === "class") continue;
    const type = declaredType(nodeOf(file, def));
    if (type && !canNarrow(type.text, nodeOf(file, def).parent)) continue;
    for (const u of fb.occurrences) {
      if (u.binding !== b || u.start >= run.start || (fn && u.start < fn.startIndex) || u === def) continue;
      const narrowing = narrowingAt(ctx, file.tree.rootNode.descendantForIndex(u.start, u.end));
      if (!narrowing) continue;
      const line = at(ctx, narrowing.startIndex);
      throw new RecoverableError(
        "types_required",
        `Cannot extract ${ctx.where}: they read "${o.name}", which line ${line} (\`${
          narrowing.text.split("\n")[0]!.slice(0, 60)
        }\`) tests or assigns before them, where TypeScript narrows its type; the new function would see it ${
          type ? `as its declared \`${type.text}\`` : "with its declared type"
        }`,
        {
          hint:
            `Include line ${line} in the range, or copy "${o.name}" into a local before the range (\`const x = ${o.name};\`) so it is passed in with the narrowed type`,
          details: details(ctx, { name: o.name, line }),
        },
      );
    }
  }
}

/** Whether the class around `offset` declares the member with a type that can narrow (or not at all). */
function memberCanNarrow(ctx: Context, name: string, offset: number): boolean {
  const def = ctx.fb.occurrences.find((o) =>
    o.kind === "member_definition" && o.name === name && o.scope.start <= offset && offset < o.scope.end
  );
  if (!def) return true; // inherited or declared elsewhere: its type is not known here
  const field = ctx.file.tree.rootNode.descendantForIndex(def.start, def.end)?.parent ?? null;
  if (field?.type !== "public_field_definition") return false; // a method
  const type = field.childForFieldName("type");
  return type ? canNarrow(type.text, field) : true;
}
