/**
 * The control-flow refusals of extract function: statements of a class body,
 * a jump across the range's edge, a Go `defer`, returns (or a Rust block
 * value) that do not end the function body, a body that ends in a diverging
 * call, a Rust `?` without a written Result or Option, a yield in a Python
 * async generator; then the name checks (`_name_checks.ts`).
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import { nodeOfScope } from "../shared/data_flow.ts";
import { at, type Context, details, outputsOf } from "./_context.ts";
import { endedFunction, rustTail, tryCarrier, unusedBlockValue } from "./_body_end.ts";
import { refuseUnsafeNames } from "./_name_checks.ts";

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
