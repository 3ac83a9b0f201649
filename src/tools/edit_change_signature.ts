/**
 * edit_change_signature: add, remove, reorder and rename a function's
 * parameters and rewrite every call site in the workspace, as one atomic
 * commit — an adapter over the structural engine's {@linkcode planChangeSignature}.
 *
 * @module
 */
import type { ReferenceTarget } from "../structural/references/references.ts";
import type { ParamEntry } from "../structural/change_signature/signature.ts";
import { signatureEngine } from "./_lazy.ts";
import { positionAtTopLevel, TARGET } from "./_reference_args.ts";
import { DRY_RUN, EXPECTED_VERSION, objectSchema, PATH } from "./_schema.ts";
import type { JsonSchema, ToolDefinition } from "./types.ts";
import { BOOLEAN, FILE_PATH, INTEGER, shape, STRING } from "./_result_schema.ts";

/** One entry of `params` as a caller may write it (aliases included). */
export interface ParamEntryArg {
  /** An existing parameter's name (kept), or a new parameter's name. */
  name: string;
  /** New name of an existing parameter (alias: `new_name`). */
  rename?: string;
  /** Alias of `rename`. */
  new_name?: string;
  /** A new parameter's default value, as source code (alias: `default_value`). */
  default?: string | number;
  /** Alias of `default`. */
  default_value?: string | number;
  /** A new parameter's value passed at every call site, as source code (alias: `argument`). */
  value?: string | number;
  /** Alias of `value`. */
  argument?: string | number;
  /** A new parameter's type annotation (alias: `annotation`). */
  type?: string;
  /** Alias of `type`. */
  annotation?: string;
}

/** Arguments of edit_change_signature. */
export interface EditChangeSignatureArgs {
  /** The file that declares the function. */
  path: string;
  /** Its name path ("helper", "Class/method", "Class/constructor") or {line, column} on its name (alias: `target`). */
  name_path: ReferenceTarget;
  /** The new parameter list, in order (alias: `parameters`). */
  params: (ParamEntryArg | string)[];
  /** Also rewrite `obj.m(…)` calls that cannot be tied to the class (default false: refused `unresolved`). */
  include_unresolved?: boolean;
  /** Version of path last read. */
  expected_version?: string;
  /** Preview only. */
  dry_run?: boolean;
}

const CODE: JsonSchema = { type: ["string", "number"] };

const PARAM_ENTRY: JsonSchema = {
  type: ["string", "object"],
  minLength: 1,
  description:
    'An existing parameter kept: "x" or {"name": "x"}, renamed: {"name": "x", "rename": "y"}; a new one: {"name": "z", "default": "0"} (the declaration gets the default, callers are unchanged) or {"name": "z", "value": "ctx"} (every call passes ctx), TypeScript with "type": "number". Destructured parameters are named "#<index>", Python\'s separators "*" and "/"; self/cls may be listed or left out (they stay first)',
  properties: {
    name: {
      type: "string",
      minLength: 1,
      description: "An existing parameter's name, or the new parameter's name",
    },
    rename: {
      type: "string",
      minLength: 1,
      description: "Existing parameter: its new name (renamed in the body too)",
    },
    new_name: { type: "string", minLength: 1, description: "Alias of rename" },
    default: {
      ...CODE,
      description: 'New parameter: its default value, as code ("0", "\\"utf-8\\"", "None")',
    },
    default_value: { ...CODE, description: "Alias of default" },
    value: { ...CODE, description: "New parameter: the argument every call site passes, as code" },
    argument: { ...CODE, description: "Alias of value" },
    type: {
      type: "string",
      minLength: 1,
      description: 'New parameter: its type annotation ("number", "int")',
    },
    annotation: { type: "string", minLength: 1, description: "Alias of type" },
  },
  required: ["name"],
  additionalProperties: false,
};

/** Fold an entry's aliases and turn numbers into code. */
function entryOf(raw: ParamEntryArg | string): ParamEntry | string {
  if (typeof raw === "string") return raw;
  const code = (v: string | number | undefined) => v === undefined ? undefined : String(v);
  const e: ParamEntry = { name: raw.name };
  const rename = raw.rename ?? raw.new_name;
  const def = code(raw.default ?? raw.default_value);
  const value = code(raw.value ?? raw.argument);
  const type = raw.type ?? raw.annotation;
  if (rename !== undefined) e.rename = rename;
  if (def !== undefined) e.default = def;
  if (value !== undefined) e.value = value;
  if (type !== undefined) e.type = type;
  return e;
}

/** The edit_change_signature tool. */
export const editChangeSignature: ToolDefinition<EditChangeSignatureArgs> = {
  name: "edit_change_signature",
  description:
    'Change a function\'s, method\'s or constructor\'s parameters — add, remove, reorder, rename — and rewrite every call in the workspace, found through scopes and imports (aliased imports, namespace calls, this.m()/self.m(), new C(), Python keyword arguments). params is the complete new list in order: existing parameters by name ("a" or {"name": "a", "rename": "b"}), new ones with a default ({"name": "z", "default": "0"}) or a value every call passes ({"name": "z", "value": "1"}); parameters left out are removed. Example: params ["b", "a", {"name": "opts", "default": "{}"}] swaps a and b and adds opts. Refuses (nothing written): parameter_in_use (a removed parameter is still read), value_reference (the function is passed or stored as a value: listed), unsupported_call_site (spread or *args/**kwargs arguments, .call/.apply/.bind, or an argument with side effects that would be dropped or reordered), overrides_present (the method overrides or is overridden), unresolved (obj.m() calls on unknown types: check them, then include_unresolved: true), name_clash, types_required (TypeScript: give a new parameter a "type"). TypeScript, TSX, JavaScript, Python. data.mapping shows old -> new; dry_run previews; composes in edit_dry_run plans. To see the calls first: find_references.',
  inputSchema: objectSchema({
    path: PATH,
    name_path: {
      ...TARGET,
      description: `The function: ${
        TARGET["description"]
      }; "Class/constructor" or "Class/__init__" (or the class) for a constructor`,
    },
    params: {
      type: "array",
      items: PARAM_ENTRY,
      description:
        'The complete new parameter list, in order, e.g. ["b", {"name": "a", "rename": "first"}, {"name": "limit", "default": "10"}]; [] removes them all',
    },
    include_unresolved: {
      type: "boolean",
      description:
        "Also rewrite the obj.m(…) candidates that may call this method (default false: refused with unresolved, listing them)",
    },
    expected_version: EXPECTED_VERSION,
    dry_run: DRY_RUN,
  }, ["path", "name_path", "params"]),
  kind: "structural",
  mutates: true,
  resultData: shape({
    target: shape({
      name: STRING,
      kind: { enum: ["function", "method", "constructor"] },
      path: FILE_PATH,
      line: INTEGER,
    }, ["name", "kind", "path", "line"]),
    before: { ...STRING, description: "The parameter list as it was written" },
    after: { ...STRING, description: "The new parameter list" },
    mapping: {
      type: "array",
      items: shape({
        old_name: { type: ["string", "null"] },
        new_name: { type: ["string", "null"] },
        old_index: { type: ["integer", "null"] },
        new_index: { type: ["integer", "null"] },
        change: { enum: ["unchanged", "renamed", "moved", "renamed_and_moved", "added", "removed"] },
      }, ["old_name", "new_name", "change"]),
    },
    calls: INTEGER,
    updated: INTEGER,
    call_sites: {
      type: "array",
      items: shape({
        path: FILE_PATH,
        calls: {
          type: "array",
          items: shape({ line: INTEGER, column: INTEGER, updated: BOOLEAN, candidate: BOOLEAN }, [
            "line",
            "column",
            "updated",
          ]),
        },
      }, ["path", "calls"]),
    },
    unresolved: { type: "array", description: "obj.m candidates left alone (not calls)" },
  }, ["target", "before", "after", "mapping", "calls", "updated", "call_sites"]),
  aliases: {
    target: "name_path",
    symbol: "name_path",
    function: "name_path",
    parameters: "params",
    new_params: "params",
    new_parameters: "params",
  },
  foldArgs: positionAtTopLevel("name_path"),
  async handler(args, { workspace, stage }) {
    const { planChangeSignature, stageChangeSignature } = await signatureEngine();
    const plan = await planChangeSignature(
      workspace,
      stage,
      {
        path: args.path,
        target: args.name_path,
        entries: args.params.map(entryOf),
        tool: "edit_change_signature",
        includeUnresolved: args.include_unresolved === true,
        expectedVersion: args.expected_version,
      },
    );
    await stageChangeSignature(stage, plan);
    const files: { path: string; calls: { line: number; column: number; updated: boolean }[] }[] = [];
    for (const c of plan.callSites) {
      let group = files[files.length - 1];
      if (!group || group.path !== c.path) files.push(group = { path: c.path, calls: [] });
      group.calls.push({
        line: c.line,
        column: c.column,
        updated: c.updated,
        ...(c.candidate ? { candidate: true } : {}),
      });
    }
    return {
      data: {
        target: plan.target,
        before: plan.before,
        after: plan.after,
        mapping: plan.mapping,
        calls: plan.callSites.length,
        updated: plan.callSites.filter((c) => c.updated).length,
        call_sites: files,
        unresolved: plan.unresolved.map((s) => ({
          path: s.path,
          line: s.line,
          column: s.column,
          name: s.name,
        })),
      },
    };
  },
};
