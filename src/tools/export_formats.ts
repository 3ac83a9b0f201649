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

/** How a mutating tool behaves beyond `mutates`; the default for a mutating tool is destructive, not idempotent. */
const BEHAVIOUR: Readonly<
  Record<string, { destructive?: boolean; idempotent?: boolean; forwardsTo?: string[] }>
> = {
  // the same content again is no_change; a second create or delete is refused; a repeated move finds no source
  write_file: { idempotent: true },
  create_file: { destructive: false, idempotent: true },
  delete_file: { idempotent: true },
  move_file: { idempotent: true },
  checkpoint_restore: { idempotent: true },
  // the same definition text again changes nothing; a removed symbol is not found twice
  replace_symbol: { idempotent: true },
  remove_symbol: { idempotent: true },
  // inserting adds code and never replaces any; a second call adds it again
  insert_code: { destructive: false },
  edit_insert_at_anchor: { destructive: false },
  str_replace_based_edit_tool: {
    forwardsTo: ["read_file", "list_files", "create_file", "write_file", "edit_file", "checkpoint_undo"],
  },
  str_replace_editor: {
    forwardsTo: ["read_file", "list_files", "create_file", "write_file", "edit_file", "checkpoint_undo"],
  },
  apply_patch: { forwardsTo: ["apply_edits"] },
};

function title(name: string): string {
  const words = name.split("_").join(" ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The annotations of one tool. */
function annotationsOf(tool: ToolDefinition): ToolAnnotations {
  const readOnly = !tool.mutates || tool.previewOnly === true;
  const b = BEHAVIOUR[tool.name] ?? {};
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
        resultSchema: resultSchema(t.name),
        annotations: annotationsOf(t),
        argumentAliases: { ...t.aliases },
      };
      const forwardsTo = BEHAVIOUR[t.name]?.forwardsTo;
      if (t.forward && forwardsTo) entry.forwardsTo = [...forwardsTo];
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
