/**
 * edit_inline: a variable's value or a function's returned expression in
 * place of its uses or calls — an adapter over the structural engine's
 * {@linkcode planInline}.
 *
 * @module
 */
import { inlineEngine } from "./_lazy.ts";
import type { ReferenceTarget } from "../structural/references/reference_target.ts";
import { positionAtTopLevel, TARGET } from "./_reference_args.ts";
import { DRY_RUN, EXPECTED_VERSION, objectSchema, PATH } from "./_schema.ts";
import type { ToolDefinition } from "./types.ts";
import { BOOLEAN, FILE_PATH, INTEGER, shape, STRING } from "./_result_schema.ts";

/** Arguments of edit_inline. */
export interface EditInlineArgs {
  /** The file. */
  path: string;
  /** The declaration (name path, or {line, column} on its name): every use; or {line, column} on one use or call. */
  target: ReferenceTarget;
  /** Version of path last read. */
  expected_version?: string;
  /** Preview only. */
  dry_run?: boolean;
}

/** The edit_inline tool. */
export const editInline: ToolDefinition<EditInlineArgs> = {
  name: "edit_inline",
  description:
    "Inline a variable (its value in place of its uses) or a function (its returned expression in place of its calls, parameters replaced by the arguments), parenthesised where precedence needs it. target on the declaration (its name path, or {line, column} on its name): every use or call, and the declaration is removed once nothing refers to it (in any file); target {line, column} on one use or call: only that one. Refused when behaviour could change: unsupported_call_site (a value or argument with an effect — a call, an assignment, a fresh object — would run twice, never, out of order or under a condition; recursion; async, generator or decorated functions; spread arguments), control_flow_escapes (the function's body is more than one `return expression`), unresolved (the variable is assigned again), name_clash (a name it reads means something else at the use), value_reference (the function is used as a value, not called). TypeScript, TSX, JavaScript, Python. One atomic commit; dry_run previews.",
  inputSchema: objectSchema({
    path: PATH,
    target: TARGET,
    expected_version: EXPECTED_VERSION,
    dry_run: DRY_RUN,
  }, ["path", "target"]),
  kind: "structural",
  mutates: true,
  resultData: shape({
    kind: { enum: ["variable", "function"] },
    name: STRING,
    inlined: { ...INTEGER, description: "How many uses or calls were replaced" },
    lines: {
      type: "array",
      items: INTEGER,
      description: "1-based lines of the replaced uses or calls (before the edit)",
    },
    removed: {
      ...BOOLEAN,
      description: "Whether the declaration was removed (nothing refers to it any more)",
    },
    kept_for: {
      type: "array",
      items: shape({ path: FILE_PATH, line: INTEGER }, ["path", "line"]),
      description: "References in other files that keep the declaration (left unchanged)",
    },
  }, ["kind", "name", "inlined", "lines", "removed"]),
  aliases: { name_path: "target", position: "target", symbol: "target" },
  foldArgs: positionAtTopLevel("target"),
  async handler(args, { workspace, stage }) {
    const { planInline } = await inlineEngine();
    const plan = await planInline(workspace, stage, {
      path: args.path,
      target: args.target,
      tool: "edit_inline",
      expectedVersion: args.expected_version,
    });
    const current = await stage.readText(plan.path);
    await stage.writeText(plan.path, { text: plan.text, bom: current.bom });
    return {
      data: {
        kind: plan.kind,
        name: plan.name,
        inlined: plan.lines.length,
        lines: plan.lines,
        removed: plan.removed,
        kept_for: plan.elsewhere,
      },
      ...(plan.elsewhere.length > 0
        ? {
          warnings: [
            `The declaration stays: ${plan.elsewhere.length} reference(s) in other files still use it (${
              plan.elsewhere.slice(0, 5).map((s) => `${s.path}:${s.line}`).join(", ")
            }${
              plan.elsewhere.length > 5 ? ", …" : ""
            }; data.kept_for); edit_inline changes only "${plan.path}"`,
          ],
        }
        : {}),
    };
  },
};
