/**
 * What every tool returns, as JSON Schema (draft 2020-12): the one result
 * envelope (`ok`, `status`, `changes`, `data`, … or `ok: false` with the
 * error) and, per tool, the main fields of its `data`. Data, not code: the
 * catalogue exports (`graver tools --format`) and the MCP `outputSchema` are
 * built from it, and a test runs each tool and checks its real result here.
 * Each tool declares its own `data` shape (`ToolDefinition.resultData`,
 * built from `_result_schema.ts`); this module wraps it in the envelope.
 *
 * @module
 */
import { BOOLEAN, FILE_PATH, shape, STRING } from "./_result_schema.ts";
import { TOOLS } from "./catalogue.ts";
import type { JsonSchema, ToolDefinition } from "./types.ts";

/**
 * The `data` of each tool's successful result, by tool name (the main fields; others may follow): each
 * catalogue tool's own `resultData`.
 */
export const RESULT_DATA: Readonly<Record<string, JsonSchema>> = Object.freeze(
  Object.fromEntries(TOOLS.flatMap((t) => t.resultData ? [[t.name, t.resultData]] : [])),
);

const ERROR = shape({
  code: {
    ...STRING,
    description: "One wire code: invalid_args, not_found, stale_base, no_match, ambiguous, …",
  },
  message: { ...STRING, description: "What happened and where (path, lines)" },
  hint: { ...STRING, description: "What to call next" },
  suggested_call: shape({ tool: STRING, args: { type: "object" } }, ["tool", "args"]),
  details: { type: "object" },
}, ["code", "message", "hint"]);

const REMINDERS = {
  type: "array",
  items: shape({ provider: STRING, text: STRING, preserve_on_compact: BOOLEAN }, ["provider", "text"]),
};

/**
 * The result envelope of a tool as JSON Schema 2020-12: a success whose
 * `data` has the tool's shape ({@linkcode RESULT_DATA}), or a refusal.
 *
 * @param tool A tool, or its name in the catalogue (an alias gets the envelope only: its result is the
 *   real tool's).
 * @returns The schema.
 *
 * @example The envelope of read_file
 * ```ts
 * import { resultSchema } from "./result_shapes.ts";
 * import assert from "node:assert/strict";
 *
 * const schema = resultSchema("read_file") as { oneOf: { properties: { data: { required: string[] } } }[] };
 * assert.ok(schema.oneOf[0]!.properties.data.required.includes("version"));
 * ```
 */
export function resultSchema(tool: string | ToolDefinition): JsonSchema {
  const data = typeof tool === "string" ? RESULT_DATA[tool] : tool.resultData;
  const success = shape({
    ok: { const: true },
    tool: { ...STRING, description: "The tool that ran (for an alias, the tool it forwarded to)" },
    status: { enum: ["applied", "dry_run", "no_change", "read"] },
    changes: {
      type: "array",
      items: shape({
        path: FILE_PATH,
        before_version: { type: ["string", "null"] },
        after_version: { type: ["string", "null"] },
        diff: { ...STRING, description: "git-style unified diff" },
      }, ["path", "before_version", "after_version", "diff"]),
    },
    data: data ?? { type: "object" },
    warnings: { type: "array", items: STRING },
    reminders: REMINDERS,
  }, ["ok", "tool", "status", "changes", "data", "warnings", "reminders"]);
  const failure = shape(
    { ok: { const: false }, tool: STRING, error: ERROR, reminders: REMINDERS },
    ["ok", "tool", "error"],
  );
  return { type: "object", oneOf: [success, failure] };
}
