/**
 * How extract function writes the new function and its call in a language
 * whose types are not required (ECMAScript, Python): the header (`function`,
 * a method, `def` with `@classmethod`), Python's `global` / `nonlocal`
 * declarations, the returned names (`return { a, b }`, `return a, b`), the
 * receiver and the delegation of a generator (`yield*`, `yield from`), the
 * closing brace, and the statement that calls it (`const { a, b } = f();`,
 * `a, b = f()`). One writer per family, picked by the profile's flow family.
 *
 * @module
 */
import { indentOfLine } from "../../fs/lines.ts";
import type { Context } from "./_context.ts";
import type { DataFlow, Variable } from "../shared/data_flow.ts";
import { type FamilyStrategy, strategyFor } from "../shared/family_strategies.ts";
import type { Placement } from "./_placement.ts";
import { declarationKeyword, typed, type WrittenType } from "../shared/written_types.ts";
import type { FamilyRules } from "../shared/statement_ranges.ts";

/** The parts of a signature a writer's header writes. */
export interface ScriptSignature {
  /** The parameters as written (with their types). */
  paramList: string[];
  /** TypeScript: `<T>` or "". */
  typeParams: string;
  /** TypeScript: `: T` or "". */
  returnType: string;
}

/** How a writer's epilogue writes the returned names. */
export interface EpilogueStyle {
  /** TypeScript. */
  ts: boolean;
  /** The written return type, or "". */
  returnType: string;
  /** The outputs' declared types. */
  outTypes: (WrittenType | null)[];
}

/** What the call statement is built from. */
export interface CallParts {
  /** The call expression (with its delegation or `await`). */
  expr: string;
  /** The names the new function returns. */
  outputs: Variable[];
  /** Their declared types. */
  outTypes: (WrittenType | null)[];
  /** The statements return from the enclosing function: the call is returned. */
  returns: boolean;
}

/** One family's way of writing an extracted function and its call. */
export interface ScriptWriter extends FamilyStrategy {
  /** The new function's header lines (a decorator, then the line that opens it). */
  header(ctx: Context, placement: Placement, sig: ScriptSignature): string[];
  /** Lines the body starts with. */
  prologue(flow: DataFlow): string[];
  /** The new function's last line, returning the names that flow out, or null when none do. */
  epilogue(outputs: Variable[], style: EpilogueStyle): string | null;
  /** What a method call of the new function goes through. */
  receiver(placement: Placement): string;
  /** How a generator's call delegates to the new generator. */
  delegation: string;
  /** The line that closes the function, or null (Python: indentation does). */
  closer: string | null;
  /** The statement that replaces the extracted ones. */
  call(ctx: Context, parts: CallParts): string;
}

/** Python: `def`, `@classmethod`, `global` / `nonlocal`, tuples in and out, no braces or semicolons. */
const PYTHON_WRITER: ScriptWriter = {
  family: "python",
  header(ctx, placement, { paramList }) {
    const header: string[] = [];
    if (placement.classmethod) header.push("@classmethod");
    header.push(`${ctx.facts.awaits ? "async " : ""}def ${ctx.name}(${paramList.join(", ")}):`);
    return header;
  },
  prologue(flow) {
    const prologue: string[] = [];
    if (flow.globals.length > 0) prologue.push(`global ${flow.globals.join(", ")}`);
    if (flow.nonlocals.length > 0) prologue.push(`nonlocal ${flow.nonlocals.join(", ")}`);
    return prologue;
  },
  epilogue: (outputs) => outputs.length === 0 ? null : `return ${outputs.map((v) => v.name).join(", ")}`,
  receiver: (placement) => placement.receiver!,
  delegation: "yield from ",
  closer: null,
  call(_ctx, { expr, outputs, returns }) {
    if (returns) return expr.startsWith("yield") ? `return (${expr})` : `return ${expr}`;
    if (outputs.length === 0) return expr;
    return `${outputs.map((v) => v.name).join(", ")} = ${expr}`;
  },
};

/** ECMAScript: `function` or a method, `return { a, b }`, `const`/`let` destructuring at the call. */
const ECMASCRIPT_WRITER: ScriptWriter = {
  family: "ecmascript",
  header(ctx, placement, { paramList, typeParams, returnType }) {
    const isAsync = ctx.facts.awaits;
    const generator = ctx.facts.yields;
    if (placement.kind === "method") {
      return [
        `${placement.isStatic ? "static " : ""}${isAsync ? "async " : ""}${
          generator ? "*" : ""
        }${ctx.name}${typeParams}(${paramList.join(", ")})${returnType} {`,
      ];
    }
    return [
      `${isAsync ? "async " : ""}function${generator ? "*" : ""} ${ctx.name}${typeParams}(${
        paramList.join(", ")
      })${returnType} {`,
    ];
  },
  prologue: () => [],
  epilogue(outputs, { ts, returnType, outTypes }) {
    if (outputs.length === 0) return null;
    // Without a written return type, TypeScript infers each returned name's type where it is returned: a
    // `let x: T | null = null` would come back as `null`. A name whose type is written keeps it (an upcast).
    const widened = (v: Variable, i: number) =>
      ts && returnType === "" && outTypes[i]?.annotated
        ? `${v.name}: ${v.name} as ${outTypes[i]!.text}`
        : v.name;
    return `return ${outputs.length === 1 ? outputs[0]!.name : `{ ${outputs.map(widened).join(", ")} }`};`;
  },
  receiver: () => "this",
  delegation: "yield* ",
  closer: "}",
  call: ecmaCall,
};

/** ECMAScript: the statement that calls the new function and receives its results. */
function ecmaCall(ctx: Context, { expr, outputs, outTypes, returns }: CallParts): string {
  if (returns) return `return ${expr};`;
  if (outputs.length === 0) return `${expr};`;
  const names = outputs.map((v) => v.name);
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

/** Each family's writer, by the family the profile's flow names. */
const SCRIPT_WRITERS: readonly ScriptWriter[] = [ECMASCRIPT_WRITER, PYTHON_WRITER];

/**
 * The writer of a family whose extracted functions are written without required types.
 *
 * @param rules The family's rules.
 * @returns Its writer.
 */
export function scriptWriterOf(rules: FamilyRules): ScriptWriter {
  return strategyFor(SCRIPT_WRITERS, rules.family);
}
