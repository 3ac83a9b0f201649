/**
 * Extract function: whole statements of one block become a new function (or
 * a method of the class, when they use `this` / `self`), called where they
 * were. Names the statements read from the enclosing function become
 * parameters (in first-use order); names they assign that the code after
 * them uses are returned (`const x = f()`, `const { a, b } = f()`,
 * `a, b = f()`); `await` makes an async function and an awaited call,
 * `yield` a generator called by delegation (`yield*`, `yield from`).
 * Go and Rust use the same steps with their own signature, passing and
 * call (`_native.ts`): typed parameters and results, a method of the
 * receiver's type or of the `impl`, `&` / `&mut` for Rust values, `?` and
 * `.await` kept.
 * Refused with `control_flow_escapes` (a `return`, `break`, `continue`,
 * `goto` or label leaving the statements — a `return` is allowed when the
 * statements end the function's body —, a Go `defer`), `types_required`
 * (TypeScript, Go, Rust: a parameter or result whose type is not written in
 * its declaration), `name_clash`, `unresolved` (`this` outside a method,
 * `arguments`, `super` outside a method) and `unsupported_language`.
 *
 * @module
 */
import { RecoverableError } from "../../errors.ts";
import { columnsOf, indentOfLine } from "../../fs/lines.ts";
import type { Stage } from "../../fs/stage.ts";
import { encloses } from "../../syntax/bindings.ts";
import { type Binding, functionScope } from "../../syntax/binding_model.ts";
import type { Parsing } from "../../syntax/types.ts";
import { definitionStarts, insertionEdit } from "../edit/anchors.ts";
import type { Context } from "./_context.ts";
import { checkFlow } from "./_flow_checks.ts";
import { checkClash } from "./_name_checks.ts";
import { checkCapturedNarrowing, checkMemberNarrowing, parameterTypes } from "./_type_checks.ts";
import { dataFlow, nodeOfScope, scopeOfNode, type Variable } from "../shared/data_flow.ts";
import { basePlacement, methodPlacement, type Placement } from "./_placement.ts";
import { flowFacts, lineOf, type LineRange, statementsInRange } from "../shared/statement_ranges.ts";
import { EXTRACT_LANGUAGES } from "../shared/refactor_languages.ts";
import {
  declaredType,
  typed,
  typeParametersFor,
  writtenReturnType,
  type WrittenType,
} from "../shared/written_types.ts";
import { isValidName } from "../shared/names.ts";
import { reindent } from "../edit/reindent.ts";
import { nodeTarget } from "../edit/selectors.ts";
import { applyTextEdits, codeLineRoles, type TextEdit, withIndentUnit } from "../edit/source.ts";
import { nativeParts } from "./_native.ts";
import { scriptWriterOf } from "./_script_writers.ts";
import { checkNativeClash } from "./_native_clash.ts";
import { checkImplementers } from "./_implementers.ts";
import { openBound } from "../shared/bound_source.ts";

export type { LineRange } from "../shared/statement_ranges.ts";

export { extractLanguages } from "../shared/refactor_languages.ts";

/** Options of {@linkcode planExtract}. */
export interface ExtractOptions {
  /** Tool name for messages. */
  tool: string;
  /** Version of the file the caller holds. */
  expectedVersion?: string | undefined;
}

/** What an extraction does. */
export interface ExtractPlan {
  /** Relative path. */
  path: string;
  /** The file's new text. */
  text: string;
  /** The new function's name. */
  name: string;
  /** Its parameters, in order (the receiver of a Python method first). */
  parameters: string[];
  /** The names it returns to the caller, in order. */
  returns: string[];
  /** Whether it is async. */
  async: boolean;
  /** Whether it is a generator (called by delegation). */
  generator: boolean;
  /** "function" (module level) or "method" (of the enclosing class). */
  kind: "function" | "method";
  /** The call that replaced the statements. */
  call: string;
  /** 1-based line of the new function's first line in the new text. */
  line: number;
}

/**
 * Plan an extraction: resolve the range to statements, check what they do,
 * build the new function and the call.
 *
 * @param parsing Grammars and parse cache.
 * @param stage The call's stage.
 * @param path The file.
 * @param range 1-based, inclusive lines of whole statements.
 * @param name The new function's name.
 * @param options Tool name and expected version.
 * @returns The plan; a RecoverableError (`control_flow_escapes`, `types_required`, `name_clash`, `unresolved`,
 *   `invalid_args`, `unsupported_language`) when the result cannot be proven.
 */
export async function planExtract(
  parsing: Parsing,
  stage: Stage,
  { path, range, name, ...options }: { path: string; range: LineRange; name: string } & ExtractOptions,
): Promise<ExtractPlan> {
  const bound = await openBound(parsing, stage, {
    path,
    ...options,
    doing: "extracting a function",
    languages: EXTRACT_LANGUAGES,
  });
  const { fb, rules } = bound;
  const file = withIndentUnit(bound.file, "");
  const where = `lines ${range.start_line}-${range.end_line} of "${file.rel}"`;
  if (!isValidName(file.language, name)) {
    throw new RecoverableError(
      "invalid_args",
      `Cannot extract ${where} as "${name}": not a valid ${file.language} name`,
      {
        hint: "Choose an identifier that is not a reserved word",
        details: { path: file.rel, name },
      },
    );
  }
  const run = statementsInRange(file, rules, range);
  const facts = flowFacts(run, rules);
  const pre = { file, fb, rules, run, facts, where, name, tool: options.tool, range };
  const base = basePlacement(pre, functionScope(scopeOfNode(fb, run.container)));
  const ctx: Context = { ...pre, flow: dataFlow(file, fb, { run, rules, outer: base.outer }) };
  checkFlow(ctx);
  const placement = methodPlacement(ctx, base);
  checkClash(ctx, placement);
  checkMemberNarrowing(ctx);
  checkCapturedNarrowing(ctx);
  if (rules.typedSignatures) {
    await checkNativeClash(parsing, stage, { ctx, placement });
  }
  if (typed(file.language)) await checkImplementers(parsing, stage, { ctx, placement });
  return await build(parsing, ctx, placement);
}

async function build(parsing: Parsing, ctx: Context, placement: Placement): Promise<ExtractPlan> {
  if (ctx.rules.typedSignatures) {
    return await buildNative(parsing, ctx, placement);
  }
  const { file, facts, flow, rules, name } = ctx;
  const writer = scriptWriterOf(rules);
  const ts = typed(file.language);
  const params = flow.variables.filter((v) => v.param);
  const outputs = flow.variables.filter((v) => v.output);
  const types = parameterTypes(ctx, params);
  const outTypes = outputs.map((v) => declaredType(v.declaration));
  const isAsync = facts.awaits;
  const generator = facts.yields;
  const returns = facts.returns.length > 0;

  // The signature.
  const paramList = params.map((v) => ts ? `${v.name}: ${types.get(v)!.text}` : v.name);
  if (placement.receiver) paramList.unshift(placement.receiver);
  const { typeParams, typeArgs, returnType } = ts
    ? typedSignature(ctx, placement, { types, outputs, outTypes, isAsync, generator, returns })
    : { typeParams: "", typeArgs: "", returnType: "" };
  const header = writer.header(ctx, placement, { paramList, typeParams, returnType });
  const prologue = writer.prologue(flow);
  const epilogue = writer.epilogue(outputs, { ts, returnType, outTypes });

  // The call.
  const receiver = placement.kind === "method" ? writer.receiver(placement) : null;
  const delegate = generator ? writer.delegation : isAsync ? "await " : "";
  const expr = `${delegate}${receiver ? `${receiver}.` : ""}${name}${typeArgs}(${
    params.map((v) => v.name).join(", ")
  })`;
  const call = writer.call(ctx, { expr, outputs, outTypes, returns });
  const { text, line } = await place(parsing, ctx, placement, {
    header,
    prologue,
    bodyEdits: [],
    epilogue,
    closer: writer.closer,
    call,
  });
  return {
    path: file.rel,
    text,
    name,
    parameters: paramList.map((p) => p.replace(/:.*$/s, "")),
    returns: outputs.map((v) => v.name),
    async: isAsync,
    generator,
    kind: placement.kind,
    call,
    line,
  };
}

/**
 * TypeScript: the new function's type parameters, the type arguments its call passes and its return type.
 * Statements that end the enclosing function's body carry its written return type (their returned values are
 * typed against it). The call names the type arguments when a type parameter appears in no parameter's type:
 * nothing at the call would infer it.
 */
function typedSignature(
  ctx: Context,
  placement: Placement,
  sig: {
    types: Map<Variable, WrittenType>;
    outputs: Variable[];
    outTypes: (WrittenType | null)[];
    isAsync: boolean;
    generator: boolean;
    returns: boolean;
  },
): { typeParams: string; typeArgs: string; returnType: string } {
  const { file, flow } = ctx;
  const { outputs, outTypes, isAsync } = sig;
  const classScope = placement.kind === "method" ? placement.classNode : null;
  const visible = (b: Binding) =>
    encloses(b.scope, placement.outer) ||
    (classScope !== null && b.scope.kind === "class" && b.scope.start === classScope.startIndex);
  const fn = nodeOfScope(file, flow.functionScope);
  // Its return type fits the new function only when both are async (or generators) alike.
  const alike = fn !== null && fn.children.some((c) => c?.type === "async") === isAsync &&
    (fn.type.includes("generator") || fn.children.some((c) => c?.type === "*")) === sig.generator;
  const enclosing = sig.returns && alike ? writtenReturnType(fn, classScope !== null) : null;
  let returnType = enclosing ? `: ${enclosing.text}` : "";
  if (!sig.returns && !sig.generator && outputs.length > 0 && outTypes.every((t) => t?.annotated)) {
    const inner = outputs.length === 1
      ? outTypes[0]!.text
      : `{ ${outputs.map((v, i) => `${v.name}: ${outTypes[i]!.text}`).join("; ")} }`;
    returnType = `: ${isAsync ? `Promise<${inner}>` : inner}`;
  }
  const written = [
    ...sig.types.values(),
    ...outTypes.filter((t) => t !== null),
    ...(enclosing ? [enclosing] : []),
  ];
  const list = typeParametersFor(file, ctx.fb, { used: flow.typeParameters, types: written, visible });
  const inferable = new Set(
    typeParametersFor(file, ctx.fb, { used: [], types: [...sig.types.values()], visible }),
  );
  const typeArgs = list.some((t) => !inferable.has(t)) ? `<${list.map(typeParameterName).join(", ")}>` : "";
  return { typeParams: list.length > 0 ? `<${list.join(", ")}>` : "", typeArgs, returnType };
}

/** The name a type parameter declaration (`T extends X = Y`, `const T`, `in out T`) declares. */
function typeParameterName(declaration: string): string {
  return /^(?:(?:const|in|out)\s+)*([\w$]+)/.exec(declaration)?.[1] ?? declaration;
}

/** Go and Rust: the signature, the passing of each value and the call from {@linkcode nativeParts}. */
async function buildNative(parsing: Parsing, ctx: Context, placement: Placement): Promise<ExtractPlan> {
  const parts = nativeParts(ctx, placement);
  const { text, line } = await place(parsing, ctx, placement, {
    header: [parts.header],
    prologue: [],
    bodyEdits: parts.bodyEdits,
    epilogue: parts.epilogue,
    closer: "}",
    call: parts.call,
  });
  return {
    path: ctx.file.rel,
    text,
    name: ctx.name,
    parameters: parts.parameters,
    returns: parts.returns,
    async: parts.async,
    generator: false,
    kind: placement.kind,
    call: parts.call,
    line,
  };
}

/** The new function's text around the moved statements, inserted where the placement says; the call replaces them. */
async function place(
  parsing: Parsing,
  ctx: Context,
  placement: Placement,
  parts: {
    header: string[];
    prologue: string[];
    bodyEdits: TextEdit[];
    epilogue: string | null;
    closer: string | null;
    call: string;
  },
): Promise<{ text: string; line: number }> {
  const { file, run } = ctx;
  const { call } = parts;
  // The body: the statements, moved one level in from the new function's line.
  const unit = file.unit;
  const bodyText = applyTextEdits(
    file.text.slice(run.start, run.end),
    parts.bodyEdits.map((e) => ({ ...e, start: e.start - run.start, end: e.end - run.start })),
  );
  const roles = await codeLineRoles(parsing, file.language, bodyText);
  const body = reindent(bodyText, {
    indent: unit,
    eol: "\n",
    unit,
    codeUnit: unit,
    firstColumn: columnsOf(indentOfLine(file.text, run.start)),
    keepLines: roles.keepLines,
    alignLines: roles.alignLines,
  });
  const lines = [...parts.header, ...parts.prologue.map((l) => `${unit}${l}`)];
  const bodyFirst = lines.length;
  lines.push(body);
  if (parts.epilogue !== null) lines.push(`${unit}${parts.epilogue}`);
  if (parts.closer !== null) lines.push(parts.closer);
  const code = lines.join("\n");
  const shift = (set: ReadonlySet<number>) => new Set([...set].map((i) => i + bodyFirst));

  // Both edits, applied together.
  const defs = await definitionStarts(parsing, file);
  const insertion = insertionEdit(file, nodeTarget(file, placement.anchor), {
    position: placement.position,
    rawCode: code,
    defs,
    keepLines: (c) => c === code ? shift(roles.keepLines) : new Set(),
    alignLines: (c) => c === code ? shift(roles.alignLines) : new Set(),
    codeUnit: unit,
    firstColumn: 0,
  });
  const replacement = { start: run.start, end: run.end, text: call };
  const text = applyTextEdits(file.text, [insertion, replacement]);
  // Where the new function's first line lands in the new text.
  const moved = insertion.start > run.start ? call.length - (run.end - run.start) : 0;
  const firstLine = code.split("\n")[0]!.trim();
  const line = lineOf(text, insertion.start + moved + Math.max(0, insertion.text.indexOf(firstLine)));
  return { text, line };
}

/**
 * Stage an extraction plan: write the file's new text (its BOM kept).
 *
 * @param stage The call's stage.
 * @param plan The plan.
 */
export async function stageExtract(stage: Stage, plan: ExtractPlan): Promise<void> {
  const current = await stage.readText(plan.path);
  await stage.writeText(plan.path, { text: plan.text, bom: current.bom });
}
