/**
 * edit_extract_function: whole statements become a new function (or a method
 * of the enclosing class when they use `this` / `self`, of the receiver's type
 * in Go, of the `impl` in Rust), called where they were — an adapter over the
 * structural engine's {@linkcode planExtract}.
 *
 * @module
 */
import type { LineRange } from "../structural/extract/extract.ts";
import { extractEngine } from "./_lazy.ts";
import { DRY_RUN, EXPECTED_VERSION, objectSchema, PATH } from "./_schema.ts";
import type { ToolDefinition } from "./types.ts";
import { BOOLEAN, INTEGER, shape, STRING } from "./_result_schema.ts";

/** Arguments of edit_extract_function. */
export interface EditExtractFunctionArgs {
  /** The file. */
  path: string;
  /** 1-based, inclusive lines of whole statements of one block (alias: `lines`). */
  range: LineRange;
  /** The new function's name (aliases: `function_name`, `new_name`). */
  name: string;
  /** Version of path last read. */
  expected_version?: string;
  /** Preview only. */
  dry_run?: boolean;
}

/** The edit_extract_function tool. */
export const editExtractFunction: ToolDefinition<EditExtractFunctionArgs> = {
  name: "edit_extract_function",
  description:
    "Extract whole statements (range: 1-based start_line..end_line, complete statements of one block) into a new function, called where they were. Variables read inside and bound earlier in the enclosing function become parameters (in first-use order); variables assigned inside and used after are returned (const x = f(...), const { a, b } = f(...), a, b = f(...)). await makes an async function and an awaited call; yield a generator called with yield* / yield from. Statements using this / self become a method of the class (this.name(...), self.name(...)); otherwise the function goes after the enclosing top-level declaration. TypeScript parameter types are copied from their declarations. Go and Rust too: Go gets func name(params) (results) after the enclosing function (a method with the same receiver when the statements use it: r.name(...)), results received with := or =; Rust gets fn name(params) -> T (a method taking &self / &mut self inside the same impl when the statements use self), a value the statements change passed &mut, a non-Copy value used after passed &, a ? kept when the enclosing function returns Result/Option, .await making an async fn; type parameters the types use are copied. Go/Rust types come from declarations (var x T, x: T, let x: T) or values whose type is certain (T{}, &T{}, literals) — otherwise types_required. Refused: control_flow_escapes (return, break, continue, goto or a label leaving the statements — a return is fine when the range ends the function body; a Go defer, which would run at the new function's end), types_required (a parameter's or result's type is not written where it is declared: annotate it first; Go: a method call or & on a struct value that would be a copy), name_clash (name already visible, in any file of the Go package, or a method name used in the Rust crate), invalid_args (a statement straddles the range: the message names it), unsupported_language (TypeScript, TSX, JavaScript, Python, Go and Rust only). One atomic commit; dry_run previews.",
  inputSchema: objectSchema({
    path: PATH,
    range: {
      type: "object",
      description:
        'The statements: {"start_line": L1, "end_line": L2}, 1-based and inclusive, as read_file numbers lines',
      properties: {
        start_line: { type: "integer", minimum: 1, description: "First line (1-based)" },
        end_line: { type: "integer", minimum: 1, description: "Last line (1-based, inclusive)" },
      },
      required: ["start_line", "end_line"],
      additionalProperties: false,
    },
    name: { type: "string", minLength: 1, description: "The new function's name" },
    expected_version: EXPECTED_VERSION,
    dry_run: DRY_RUN,
  }, ["path", "range", "name"]),
  kind: "structural",
  mutates: true,
  resultData: shape({
    name: STRING,
    kind: { enum: ["function", "method"] },
    line: { ...INTEGER, description: "1-based line of the new function's first line" },
    parameters: { type: "array", items: STRING },
    returns: { type: "array", items: STRING, description: "Names returned to the caller" },
    async: BOOLEAN,
    generator: BOOLEAN,
    call: { ...STRING, description: "The statement that replaced the extracted ones" },
  }, ["name", "kind", "line", "parameters", "returns", "call"]),
  aliases: { lines: "range", function_name: "name", new_name: "name" },
  foldArgs: rangeAtTopLevel,
  async handler(args, { workspace, stage }) {
    const { planExtract, stageExtract } = await extractEngine();
    const plan = await planExtract(workspace, stage, {
      path: args.path,
      range: args.range,
      name: args.name,
      tool: "edit_extract_function",
      expectedVersion: args.expected_version,
    });
    await stageExtract(stage, plan);
    return {
      data: {
        name: plan.name,
        kind: plan.kind,
        line: plan.line,
        parameters: plan.parameters,
        returns: plan.returns,
        async: plan.async,
        generator: plan.generator,
        call: plan.call,
      },
    };
  },
};

/**
 * `start_line`/`end_line` given beside `path` (as read_file takes them) instead of inside `range`: folded
 * into `range`. Left alone when `range` is given too, so the schema names the stray arguments.
 */
function rangeAtTopLevel(args: Record<string, unknown>): Record<string, unknown> {
  if (args["range"] !== undefined || (args["start_line"] === undefined && args["end_line"] === undefined)) {
    return args;
  }
  const { start_line, end_line, ...rest } = args;
  return { ...rest, range: { start_line, end_line } };
}
