/**
 * Step 1 of dispatch, validation: a tool's argument aliases folded into their schema names, its JSON Schema
 * checked, and each problem worded as a sentence naming the argument, what it must be and what it got (with
 * a did-you-mean for an unknown property); a string that is not text (a lone surrogate) is refused too.
 *
 * @module
 */
import { Validator } from "@cfworker/json-schema";
import { RecoverableError } from "../errors.ts";
import { nearestNames } from "../fs/stage.ts";
import type { ToolDefinition } from "./types.ts";

const VALIDATORS = new WeakMap<ToolDefinition, Validator>();

function validator(tool: ToolDefinition): Validator {
  let v = VALIDATORS.get(tool);
  if (!v) VALIDATORS.set(tool, v = new Validator(tool.inputSchema as never, "2020-12", false));
  return v;
}

function schemaProperties(tool: ToolDefinition): string[] {
  const props = tool.inputSchema["properties"];
  return props && typeof props === "object" ? Object.keys(props) : [];
}

/** The schema of one property, following a JSON pointer's property steps. */
function schemaAt(schema: Record<string, unknown>, pointer: string): Record<string, unknown> | null {
  let node: unknown = schema;
  for (const step of pointer.split("/").filter((p) => p !== "")) {
    if (node === null || typeof node !== "object") return null;
    const n = node as Record<string, unknown>;
    if (/^\d+$/.test(step) && n["items"] && typeof n["items"] === "object") node = n["items"];
    else node = (n["properties"] as Record<string, unknown> | undefined)?.[step];
  }
  return node !== null && typeof node === "object" ? node as Record<string, unknown> : null;
}

/** The JSON type of a value as a schema names it (`null`, `array`, `object`, ...). */
function jsonType(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

function valueAt(args: unknown, pointer: string): unknown {
  let v: unknown = args;
  for (const step of pointer.split("/").filter((p) => p !== "")) {
    v = v !== null && typeof v === "object" ? (v as Record<string, unknown>)[step] : undefined;
  }
  return v;
}

/** One schema error as a sentence naming the argument, what it must be and what it got. */
function problemOf(
  e: { keyword: string; instanceLocation: string; error: string },
  tool: ToolDefinition,
  args: unknown,
): string {
  const at = e.instanceLocation.replace(/^#\/?/, "");
  const name = at === "" ? "the arguments" : `"${at.replaceAll("/", ".")}"`;
  const schema = schemaAt(tool.inputSchema, at) ?? {};
  const value = valueAt(args, at);
  const about = typeof schema["description"] === "string" ? ` (${schema["description"]})` : "";
  switch (e.keyword) {
    case "type": {
      const want = [schema["type"]].flat().join(" or ");
      return `${name} must be ${want || "another type"}, not ${jsonType(value)}${about}`;
    }
    case "required": {
      const missing = /"([^"]+)"/.exec(e.error)?.[1];
      return missing ? `"${missing}" is required` : `${name}: ${e.error}`;
    }
    case "minLength":
      return typeof value === "string" && value.length === 0
        ? `${name} is empty${about}`
        : `${name} is shorter than ${schema["minLength"]} characters`;
    case "maxLength":
      return `${name} is longer than ${schema["maxLength"]} characters`;
    case "minItems":
      return `${name} needs at least ${schema["minItems"]} item${schema["minItems"] === 1 ? "" : "s"}`;
    case "maxItems":
      return `${name} takes at most ${schema["maxItems"]} items`;
    case "enum":
      return `${name} must be one of ${
        (schema["enum"] as unknown[] ?? []).map((x) => JSON.stringify(x)).join(", ")
      }, not ${JSON.stringify(value)}`;
    case "pattern":
      return `${name} has the wrong form${about}: ${JSON.stringify(value)}`;
    case "minimum":
    case "maximum":
      return `${name} must be ${e.keyword === "minimum" ? "at least" : "at most"} ${schema[e.keyword]}, not ${
        JSON.stringify(value)
      }`;
    default:
      return `${name}: ${e.error.replace(/\.$/, "")}`;
  }
}

/** Fold the tool's argument aliases into their schema names; both given and different is refused. */
function foldAliases(tool: ToolDefinition, args: Record<string, unknown>): Record<string, unknown> {
  if (!tool.aliases) return args;
  let out = args;
  for (const [alias, name] of Object.entries(tool.aliases)) {
    if (!(alias in args)) continue;
    if (name in args && JSON.stringify(args[name]) !== JSON.stringify(args[alias])) {
      throw new RecoverableError(
        "invalid_args",
        `Cannot call ${tool.name}: "${alias}" and "${name}" name the same argument and differ`,
        { hint: `Pass only "${name}"`, details: { alias, name } },
      );
    }
    if (out === args) out = { ...args };
    out[name] = args[alias];
    delete out[alias];
  }
  return out;
}

const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Refuse a string argument that holds a lone surrogate (half of a UTF-16 pair, e.g. an emoji cut in two):
 * UTF-8 cannot store it, and writing it would silently turn it into U+FFFD. Walks the arguments without
 * recursion.
 */
function refuseLoneSurrogates(tool: ToolDefinition, args: Record<string, unknown>): void {
  const stack: [unknown, string][] = Object.entries(args).map(([k, v]) => [v, k]);
  while (stack.length > 0) {
    const [value, at] = stack.pop()!;
    if (typeof value === "string") {
      const hit = LONE_SURROGATE.exec(value);
      if (!hit) continue;
      const unit = `U+${hit[0].charCodeAt(0).toString(16).toUpperCase()}`;
      throw new RecoverableError(
        "invalid_args",
        `Cannot call ${tool.name}: argument "${at}" holds a lone surrogate (${unit} at character ${hit.index}), which is not text: UTF-8 cannot store it`,
        {
          hint:
            "Send complete characters: a surrogate pair must not be split (an emoji or other character outside the BMP cut in half is the usual cause)",
          details: { argument: at, index: hit.index, code_unit: unit },
        },
      );
    }
    if (Array.isArray(value)) value.forEach((v, i) => stack.push([v, `${at}[${i}]`]));
    else if (value !== null && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) stack.push([v, `${at}.${k}`]);
    }
  }
}

/**
 * Validate args: fold the tool's aliases, then check its JSON Schema.
 *
 * @param tool The tool.
 * @param args The raw args.
 * @returns The args, aliases folded.
 * @throws `invalid_args` naming each argument that is wrong, what it must be, and the shape expected.
 */
export function validateArgs(tool: ToolDefinition, args: unknown): Record<string, unknown> {
  if (args === undefined || args === null) args = {};
  if (typeof args !== "object" || Array.isArray(args)) {
    throw new RecoverableError(
      "invalid_args",
      `Cannot call ${tool.name}: arguments must be a JSON object, not ${jsonType(args)}`,
      {
        hint: `Pass one object with the properties ${schemaProperties(tool).join(", ")}`,
        details: { schema: tool.inputSchema },
      },
    );
  }
  args = foldAliases(tool, args as Record<string, unknown>);
  if (tool.foldArgs) args = tool.foldArgs(args as Record<string, unknown>);
  const result = validator(tool).validate(args);
  if (result.valid) {
    refuseLoneSurrogates(tool, args as Record<string, unknown>);
    return args as Record<string, unknown>;
  }
  const known = schemaProperties(tool);
  const problems: string[] = [];
  const unknown = new Set(Object.keys(args as object).filter((k) => !known.includes(k)));
  for (const e of result.errors) {
    const at = e.instanceLocation.replace(/^#\/?/, "");
    if (e.keyword === "false" && at.includes("/")) unknown.add(at); // an unknown property of a nested object
    if (e.keyword === "properties" || e.keyword === "false" || e.keyword === "additionalProperties") continue;
    if (e.keyword === "items" || e.keyword === "anyOf" && result.errors.length > 1) continue; // said by the leaves
    const problem = problemOf(e, tool, args);
    if (!problems.includes(problem)) problems.push(problem);
  }
  for (const k of unknown) {
    const leaf = k.slice(k.lastIndexOf("/") + 1);
    const misplaced = k.includes("/") && known.includes(leaf);
    const near = nearestNames(leaf, known, 1);
    problems.push(
      misplaced
        ? `unknown property "${k}": "${leaf}" belongs at the top level`
        : `unknown property "${k}"${
          near.length > 0 && !k.includes("/") ? ` (did you mean "${near[0]}"?)` : ""
        }`,
    );
  }
  const required = (tool.inputSchema["required"] as string[] | undefined) ?? [];
  throw new RecoverableError(
    "invalid_args",
    `Cannot call ${tool.name}: ${problems.slice(0, 5).join("; ") || "arguments do not match the schema"}`,
    {
      hint: `${tool.name} takes ${known.map((k) => required.includes(k) ? `${k} (required)` : k).join(", ")}`,
      details: { problems, schema: tool.inputSchema },
    },
  );
}
