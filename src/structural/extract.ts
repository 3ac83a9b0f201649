/**
 * Extract function: whole statements of one block become a new function (or
 * a method of the class, when they use `this` / `self`), called where they
 * were. Names the statements read from the enclosing function become
 * parameters (in first-use order); names they assign that the code after
 * them uses are returned (`const x = f()`, `const { a, b } = f()`,
 * `a, b = f()`); `await` makes an async function and an awaited call,
 * `yield` a generator called by delegation (`yield*`, `yield from`).
 * Refused with `control_flow_escapes` (a `return`, `break` or `continue`
 * leaving the statements; a `return` is allowed when the statements end the
 * function's body), `types_required` (TypeScript: a parameter whose type is
 * not written in its declaration), `name_clash`, `unresolved` (`this`
 * outside a method, `arguments`, `super` outside a method) and
 * `unsupported_language`.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../errors.ts";
import { columnsOf, indentOfLine } from "../fs/lines.ts";
import type { Stage } from "../fs/stage.ts";
import { encloses, type FileBindings, fileBindings, lookup } from "../syntax/bindings.ts";
import type { Parsing } from "../syntax/types.ts";
import { structuralUnsupported } from "../syntax/unsupported_language.ts";
import { definitionStarts, insertionEdit } from "./anchors.ts";
import {
  type DataFlow,
  dataFlow,
  decoratorsOf,
  nodeOfScope,
  scopeOfNode,
  type Variable,
} from "./_extract_flow.ts";
import { functionScope, type Scope } from "../syntax/binding_model.ts";
import {
  EXTRACT_LANGUAGES,
  familyOf,
  type FamilyRules,
  type FlowFacts,
  flowFacts,
  lineOf,
  type LineRange,
  type StatementRun,
  statementsInRange,
} from "./_extract_range.ts";
import {
  declarationKeyword,
  declaredType,
  typed,
  typeParametersFor,
  type WrittenType,
} from "./_extract_types.ts";
import { validIdentifier } from "./rename.ts";
import { reindent } from "./reindent.ts";
import { nodeTarget } from "./selectors.ts";
import { applyTextEdits, codeLineRoles, loadSource, type SourceFile, withIndentUnit } from "./source.ts";

export type { LineRange } from "./_extract_range.ts";

/**
 * The languages extraction supports.
 *
 * @returns Language ids.
 */
export function extractLanguages(): string[] {
  return EXTRACT_LANGUAGES;
}

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

/** Where the new function goes and how it is called. */
interface Placement {
  kind: "function" | "method";
  /** The node it goes next to. */
  anchor: Node;
  position: "before" | "after";
  /** ECMAScript method: `static`; Python method: the receiver's name and `@classmethod`. */
  isStatic: boolean;
  receiver: string | null;
  classmethod: boolean;
  /** The class node (method) — its members must not clash. */
  classNode: Node | null;
  /** The scope the new function is declared in: its names (and its parents') stay visible. */
  outer: Scope;
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
  path: string,
  range: LineRange,
  name: string,
  options: ExtractOptions,
): Promise<ExtractPlan> {
  const file = withIndentUnit(
    await loadSource(parsing, stage, path, { tool: options.tool, expectedVersion: options.expectedVersion }),
    "",
  );
  const rules = familyOf(file.language);
  const fb = rules
    ? await fileBindings(parsing, {
      path: file.rel,
      language: file.language,
      version: file.version,
      text: file.text,
    })
    : null;
  if (!rules || !fb) {
    throw structuralUnsupported(file.rel, {
      tool: options.tool,
      version: file.version,
      language: file.language,
      reason:
        `extracting a function works in TypeScript, TSX, JavaScript and Python files, not ${file.language}`,
    });
  }
  const where = `lines ${range.start_line}-${range.end_line} of "${file.rel}"`;
  if (!validIdentifier(file.language, name)) {
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
  const ctx: Context = { ...pre, flow: dataFlow(file, fb, run, rules, { outer: base.outer }) };
  checkFlow(ctx);
  const placement = methodPlacement(ctx, base);
  checkClash(ctx, placement);
  return await build(parsing, ctx, placement);
}

interface Context {
  file: SourceFile;
  fb: FileBindings;
  rules: FamilyRules;
  run: StatementRun;
  facts: FlowFacts;
  flow: DataFlow;
  where: string;
  name: string;
  tool: string;
  range: LineRange;
}

function details(ctx: Context, more: Record<string, unknown> = {}): Record<string, unknown> {
  return { path: ctx.file.rel, start_line: ctx.range.start_line, end_line: ctx.range.end_line, ...more };
}

function at(ctx: Context, offset: number): number {
  return lineOf(ctx.file.text, offset);
}

/** Refuse control flow, hoisting and class bodies the extraction cannot keep. */
function checkFlow(ctx: Context): void {
  const { run, facts, flow, where, file } = ctx;
  if (flow.blockScope.kind === "class") {
    throw new RecoverableError(
      "invalid_args",
      `Cannot extract ${where}: they are statements of a class body`,
      {
        hint:
          "Extract statements of a function or method body, or move members with insert_code / remove_symbol",
        details: details(ctx),
      },
    );
  }
  const escape = facts.escapes[0];
  if (escape) {
    const word = escape.type.startsWith("break") ? "break" : "continue";
    throw new RecoverableError(
      "control_flow_escapes",
      `Cannot extract ${where}: the ${word} at line ${
        at(ctx, escape.startIndex)
      } jumps to a loop outside them`,
      {
        hint:
          "Include the whole loop in the range, or extract only statements inside the loop body that do not break or continue it",
        details: details(ctx, { line: at(ctx, escape.startIndex) }),
      },
    );
  }
  if (facts.returns.length > 0) {
    const fn = nodeOfScope(file, flow.functionScope);
    const body = fn?.childForFieldName("body");
    const lastCode = run.container.namedChildren.filter((c) => c && !c.type.includes("comment")).pop();
    const endsBody = flow.functionScope.kind === "function" && body?.id === run.container.id &&
      lastCode !== undefined && lastCode !== null && lastCode.endIndex <= run.end;
    const outputs = flow.variables.filter((v) => v.output);
    if (!endsBody || outputs.length > 0) {
      const r = facts.returns[0]!;
      throw new RecoverableError(
        "control_flow_escapes",
        `Cannot extract ${where}: the return at line ${at(ctx, r.startIndex)} leaves the enclosing function${
          endsBody ? ` while ${outputs.map((v) => `"${v.name}"`).join(", ")} must also flow out` : ""
        }`,
        {
          hint:
            "Extend the range to the end of the function body (the call then returns the new function's result), or leave the return out of the range",
          details: details(ctx, { line: at(ctx, r.startIndex) }),
        },
      );
    }
  }
  if (facts.yields && ctx.rules.family === "python" && facts.awaits) {
    throw new RecoverableError(
      "control_flow_escapes",
      `Cannot extract ${where}: they yield inside an async generator`,
      {
        hint:
          "Python cannot delegate to an async generator (no `yield from` there): leave the yield out of the range",
        details: details(ctx),
      },
    );
  }
  const hoisted = flow.usedBefore[0];
  if (hoisted) {
    throw new RecoverableError(
      "invalid_args",
      `Cannot extract ${where}: "${hoisted.variable.name}" is declared there but used before, at line ${
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
  const unbound = flow.maybeUnbound[0];
  if (unbound) {
    const name = unbound.variable.name;
    throw new RecoverableError(
      "unresolved",
      `Cannot extract ${where}: "${name}" is assigned there on some paths only and read after them (line ${
        at(ctx, unbound.at)
      }), so the new function could not always return it`,
      {
        hint:
          `Assign "${name}" before the range, extend the range over its later uses, or leave its assignments out`,
        details: details(ctx, { name, line: at(ctx, unbound.at) }),
      },
    );
  }
  const args = flow.free.find((o) => o.name === "arguments" && ctx.rules.family === "ecmascript");
  if (args) {
    throw new RecoverableError(
      "unresolved",
      `Cannot extract ${where}: "arguments" at line ${
        at(ctx, args.start)
      } means the enclosing function's arguments`,
      { hint: "Name the parameters you need instead of arguments, then extract", details: details(ctx) },
    );
  }
}

/** Refuse: the statements use `this`, `self` or `super` outside a class method. */
function notInMethod(ctx: Context, what: string, offset: number): never {
  throw new RecoverableError(
    "unresolved",
    `Cannot extract ${ctx.where}: ${what} at line ${at(ctx, offset)} is not inside a class method`,
    {
      hint: "Extract statements that do not use it, or pass the object they need explicitly",
      details: details(ctx, { line: at(ctx, offset) }),
    },
  );
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
function basePlacement(ctx: Omit<Context, "flow">, fnScope: Scope): Placement {
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
function methodPlacement(ctx: Context, base: Placement): Placement {
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

/** Refuse a name already visible where the call or the new function goes. */
function checkClash(ctx: Context, placement: Placement): void {
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
function parameterTypes(ctx: Context, params: Variable[]): Map<Variable, WrittenType> {
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
    out.set(v, t);
  }
  return out;
}

async function build(parsing: Parsing, ctx: Context, placement: Placement): Promise<ExtractPlan> {
  const { file, run, facts, flow, rules, name } = ctx;
  const python = rules.family === "python";
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
  let typeParams = "";
  let returnType = "";
  if (ts) {
    const classScope = placement.kind === "method" ? placement.classNode : null;
    const list = typeParametersFor(file, ctx.fb, flow.typeParameters, [
      ...types.values(),
      ...outTypes.filter((t) => t !== null),
    ], (b) =>
      encloses(b.scope, placement.outer) ||
      (classScope !== null && b.scope.kind === "class" && b.scope.start === classScope.startIndex));
    if (list.length > 0) typeParams = `<${list.join(", ")}>`;
    if (!returns && !generator && outputs.length > 0 && outTypes.every((t) => t?.annotated)) {
      const inner = outputs.length === 1
        ? outTypes[0]!.text
        : `{ ${outputs.map((v, i) => `${v.name}: ${outTypes[i]!.text}`).join("; ")} }`;
      returnType = `: ${isAsync ? `Promise<${inner}>` : inner}`;
    }
  }
  const header: string[] = [];
  if (python) {
    if (placement.classmethod) header.push("@classmethod");
    header.push(`${isAsync ? "async " : ""}def ${name}(${paramList.join(", ")}):`);
  } else if (placement.kind === "method") {
    header.push(
      `${placement.isStatic ? "static " : ""}${isAsync ? "async " : ""}${
        generator ? "*" : ""
      }${name}${typeParams}(${paramList.join(", ")})${returnType} {`,
    );
  } else {
    header.push(
      `${isAsync ? "async " : ""}function${generator ? "*" : ""} ${name}${typeParams}(${
        paramList.join(", ")
      })${returnType} {`,
    );
  }

  // The body: the statements, moved one level in from the new function's line.
  const unit = file.unit;
  const bodyText = file.text.slice(run.start, run.end);
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
  const lines = [...header];
  if (python && flow.globals.length > 0) lines.push(`${unit}global ${flow.globals.join(", ")}`);
  if (python && flow.nonlocals.length > 0) lines.push(`${unit}nonlocal ${flow.nonlocals.join(", ")}`);
  const bodyFirst = lines.length;
  lines.push(body);
  if (outputs.length > 0) {
    const names = outputs.map((v) => v.name);
    lines.push(
      python
        ? `${unit}return ${names.join(", ")}`
        : `${unit}return ${names.length === 1 ? names[0] : `{ ${names.join(", ")} }`};`,
    );
  }
  if (!python) lines.push("}");
  const code = lines.join("\n");
  const shift = (set: ReadonlySet<number>) => new Set([...set].map((i) => i + bodyFirst));

  // The call.
  const receiver = placement.kind === "method" ? (python ? placement.receiver! : "this") : null;
  const delegate = generator ? (python ? "yield from " : "yield* ") : isAsync ? "await " : "";
  const expr = `${delegate}${receiver ? `${receiver}.` : ""}${name}(${params.map((v) => v.name).join(", ")})`;
  const call = callText(ctx, expr, outputs, outTypes, returns);

  // Both edits, applied together.
  const defs = await definitionStarts(parsing, file);
  const insertion = insertionEdit(file, nodeTarget(file, placement.anchor), placement.position, code, {
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

/** The statement that replaces the extracted ones. */
function callText(
  ctx: Context,
  expr: string,
  outputs: Variable[],
  outTypes: (WrittenType | null)[],
  returns: boolean,
): string {
  const python = ctx.rules.family === "python";
  const semi = python ? "" : ";";
  if (returns) return python && expr.startsWith("yield") ? `return (${expr})` : `return ${expr}${semi}`;
  if (outputs.length === 0) return `${expr}${semi}`;
  const names = outputs.map((v) => v.name);
  if (python) return `${names.join(", ")} = ${expr}`;
  const declared = outputs.filter((v) => v.declared);
  const ts = typed(ctx.file.language);
  const keyword = (vs: Variable[]) => {
    const kws = vs.map((v) => declarationKeyword(v.declaration) ?? "const");
    if (kws.includes("var")) return "var";
    return vs.some((v) => v.reassignedAfter) ? "let" : "const";
  };
  if (outputs.length === 1) {
    const v = outputs[0]!;
    if (!v.declared) return `${v.name} = ${expr};`;
    const t = outTypes[0];
    const ann = ts && t?.annotated ? `: ${t.text}` : "";
    return `${keyword([v])} ${v.name}${ann} = ${expr};`;
  }
  if (declared.length === outputs.length) return `${keyword(outputs)} { ${names.join(", ")} } = ${expr};`;
  const indent = indentOfLine(ctx.file.text, ctx.run.start);
  const eol = ctx.file.eol;
  const decls = declared.map((v) => {
    const t = outTypes[outputs.indexOf(v)];
    return `${v.name}${ts && t?.annotated ? `: ${t.text}` : ""}`;
  });
  const assign = `({ ${names.join(", ")} } = ${expr});`;
  if (declared.length === 0) return assign;
  const kw = declared.some((v) => declarationKeyword(v.declaration) === "var") ? "var" : "let";
  return `${kw} ${decls.join(", ")};${eol}${indent}${assign}`;
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
