/**
 * The tool catalogue in the shapes model APIs and protocols take: OpenAI
 * function-calling tools (Chat Completions and Responses), Anthropic tool
 * definitions, MCP `tools/list` entries with their annotations, and plain
 * JSON (every field graver knows: schema, result shape, annotations, what
 * an alias forwards to). `graver tools --format …` prints these; the MCP
 * server and the HTTP API list tools from {@linkcode catalogueEntries}.
 *
 * @module
 */
import { TOOLS } from "./catalogue.ts";
import { resultSchema } from "./result_shapes.ts";
import type { JsonSchema, ToolDefinition } from "./types.ts";

/** The JSON Schema dialect of every input and result schema. */
export const JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** The formats {@linkcode exportCatalogue} writes. */
export const CATALOGUE_FORMATS = ["json", "openai", "openai-responses", "anthropic", "mcp"] as const;

/** One of {@linkcode CATALOGUE_FORMATS}. */
export type CatalogueFormat = typeof CATALOGUE_FORMATS[number];

/** MCP tool annotations (hints for clients; graver enforces nothing through them). */
export interface ToolAnnotations {
  /** A short human title. */
  title: string;
  /** The tool never changes a file. */
  readOnlyHint: boolean;
  /** The tool may remove or overwrite content (false: it only adds). Meaningless when read-only. */
  destructiveHint: boolean;
  /** Calling it again with the same arguments changes nothing more. */
  idempotentHint: boolean;
  /** The tool reaches outside the workspace (never, for graver's tools). */
  openWorldHint: boolean;
}

/** One tool as data. */
export interface CatalogueEntry {
  /** The tool's name (the contract: never renamed). */
  name: string;
  /** What it does, when to use it, what it refuses, what to call instead — written for models. */
  description: string;
  /** JSON Schema 2020-12 of its one args object. */
  inputSchema: JsonSchema;
  /** JSON Schema 2020-12 of its result envelope (the `data` of a success in the tool's shape). */
  resultSchema: JsonSchema;
  /** Behaviour hints (MCP annotations). */
  annotations: ToolAnnotations;
  /** Other argument names it accepts: alias -> the name in the schema. */
  argumentAliases: Record<string, string>;
  /** For a compatibility alias, the tools its calls run as (e.g. read_file and edit_file). */
  forwardsTo?: string[];
}

function title(name: string): string {
  const words = name.split("_").join(" ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The annotations of one tool. */
function annotationsOf(tool: ToolDefinition): ToolAnnotations {
  const readOnly = !tool.mutates || tool.previewOnly === true;
  const b = tool.behaviour ?? {};
  return {
    title: title(tool.name),
    readOnlyHint: readOnly,
    destructiveHint: readOnly ? false : b.destructive ?? true,
    idempotentHint: readOnly ? true : b.idempotent ?? false,
    openWorldHint: false,
  };
}

/** Options of {@linkcode catalogueEntries} and {@linkcode exportCatalogue}. */
export interface CatalogueOptions {
  /** Include the compatibility aliases (str_replace_based_edit_tool, apply_patch, …); default true. */
  aliases?: boolean;
  /** Only these tools (by name), in catalogue order. */
  only?: readonly string[];
  /** The tools to describe (default: the catalogue). */
  tools?: readonly ToolDefinition[];
}

/**
 * Every tool as data: name, description, input and result schemas, annotations.
 *
 * @param options Which tools.
 * @returns The entries, in catalogue order.
 *
 * @example Read-only and destructive hints
 * ```ts
 * import { catalogueEntries } from "./export_formats.ts";
 * import assert from "node:assert/strict";
 *
 * const [read, del] = catalogueEntries({ only: ["read_file", "delete_file"] });
 * assert.equal(read!.annotations.readOnlyHint, true);
 * assert.equal(del!.annotations.destructiveHint, true);
 * ```
 */
export function catalogueEntries(options: CatalogueOptions = {}): CatalogueEntry[] {
  const only = options.only ? new Set(options.only) : null;
  return (options.tools ?? TOOLS)
    .filter((t) => (options.aliases ?? true) || !t.forward)
    .filter((t) => only === null || only.has(t.name))
    .map((t) => {
      const entry: CatalogueEntry = {
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema,
        resultSchema: resultSchema(t),
        annotations: annotationsOf(t),
        argumentAliases: { ...t.aliases },
      };
      if (t.forward && t.forwardsTo) entry.forwardsTo = [...t.forwardsTo];
      return entry;
    });
}

/** The writer of each format (a table, not a chain of ifs). */
const WRITERS: Readonly<Record<CatalogueFormat, (e: CatalogueEntry) => Record<string, unknown>>> = {
  json: (e) => ({
    name: e.name,
    description: e.description,
    inputSchema: { $schema: JSON_SCHEMA_DIALECT, ...e.inputSchema },
    resultSchema: { $schema: JSON_SCHEMA_DIALECT, ...e.resultSchema },
    annotations: e.annotations,
    ...(Object.keys(e.argumentAliases).length > 0 ? { argumentAliases: e.argumentAliases } : {}),
    ...(e.forwardsTo ? { forwardsTo: e.forwardsTo } : {}),
  }),
  // Chat Completions `tools` (also what most OpenAI-compatible servers take)
  openai: (e) => ({
    type: "function",
    function: { name: e.name, description: e.description, parameters: e.inputSchema },
  }),
  // Responses API `tools`
  "openai-responses": (e) => ({
    type: "function",
    name: e.name,
    description: e.description,
    parameters: e.inputSchema,
  }),
  anthropic: (e) => ({ name: e.name, description: e.description, input_schema: e.inputSchema }),
  // MCP `tools/list`: structuredContent of a call is the result envelope
  mcp: (e) => ({
    name: e.name,
    title: e.annotations.title,
    description: e.description,
    inputSchema: e.inputSchema,
    outputSchema: e.resultSchema,
    annotations: e.annotations,
  }),
};

/**
 * The catalogue in one format, ready to serialise.
 *
 * @param format json, openai, openai-responses, anthropic or mcp.
 * @param options Which tools.
 * @returns One object per tool.
 *
 * @example OpenAI function-calling tools
 * ```ts
 * import { exportCatalogue } from "./export_formats.ts";
 * import assert from "node:assert/strict";
 *
 * const [tool] = exportCatalogue("openai", { only: ["read_file"] }) as {
 *   type: string;
 *   function: { name: string; parameters: { required: string[] } };
 * }[];
 * assert.equal(tool!.type, "function");
 * assert.deepEqual(tool!.function.parameters.required, ["path"]);
 * ```
 */
export function exportCatalogue(
  format: CatalogueFormat,
  options: CatalogueOptions = {},
): Record<string, unknown>[] {
  const write = WRITERS[format];
  if (!write) {
    throw new TypeError(`Unknown catalogue format "${format}" (use ${CATALOGUE_FORMATS.join(", ")})`);
  }
  return catalogueEntries(options).map(write);
}
