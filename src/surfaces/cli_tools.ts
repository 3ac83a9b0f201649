/**
 * `graver tools [NAME] [--json] [--format json|openai|openai-responses|anthropic|mcp] [--no-aliases]`:
 * the tool catalogue, for people (one line per tool, or one tool's arguments
 * and schema) or for function calling (`--format`: the definitions an API or
 * an MCP client takes, from `src/tools/export_formats.ts`). Registered at
 * module load.
 *
 * @module
 */
import { nearestNames } from "../fs/stage.ts";
import { describeTools } from "../tools/catalogue.ts";
import { CATALOGUE_FORMATS, type CatalogueFormat, exportCatalogue } from "../tools/export_formats.ts";
import { findTool } from "../tools/catalogue.ts";
import { type CliHost, EXIT, printJson, registerCliCommand, usageError } from "./cli.ts";
import { painter } from "./cli_output.ts";
import { maxOf } from "../arrays.ts";

function toolArgsHelp(schema: Record<string, unknown>): string {
  const props = (schema["properties"] ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((schema["required"] ?? []) as string[]);
  const width = Math.max(0, maxOf(Object.keys(props).map((n) => n.length)));
  return Object.entries(props).map(([n, p]) => {
    const type = Array.isArray(p["enum"])
      ? (p["enum"] as unknown[]).map((v) => JSON.stringify(v)).join("|")
      : String(p["type"] ?? "any");
    const desc = typeof p["description"] === "string" ? `  ${p["description"]}` : "";
    return `  ${n.padEnd(width)}  ${type}${required.has(n) ? ", required" : ""}${desc}\n`;
  }).join("");
}

function toolNotFound(host: CliHost, command: string, tool: string, names: string[]): number {
  const near = nearestNames(tool, names, 3);
  return usageError(host, command, {
    message: `unknown tool "${tool}"`,
    hint: near.length > 0
      ? `Did you mean ${near.map((n) => `"${n}"`).join(", ")}? Run "graver tools" to list them`
      : `Run "graver tools" to list them`,
    details: { tool, did_you_mean: near },
  });
}

registerCliCommand({
  name: "tools",
  synopsis: "tools [NAME] [--json] [--format json|openai|openai-responses|anthropic|mcp] [--no-aliases]",
  summary: "List the tools, show one, or export them for function calling (OpenAI, Anthropic, MCP)",
  details: `
Without NAME: one line per tool (with --json: [{name, description, inputSchema}]).
With NAME: its description, arguments and JSON Schema (with --json: {name, description, inputSchema}).
--format prints the definitions a model API or protocol takes, as JSON (a list, or one object with NAME):
  openai             Chat Completions tools: {"type": "function", "function": {name, description, parameters}}
  openai-responses   Responses API tools: {"type": "function", name, description, parameters}
  anthropic          Messages API tools: {name, description, input_schema}
  mcp                MCP tools/list entries: {name, title, description, inputSchema, outputSchema, annotations}
  json               everything graver knows: input and result schemas (JSON Schema 2020-12), annotations
                     (read-only, destructive, idempotent), argument aliases, what an alias forwards to
The compatibility aliases (str_replace_based_edit_tool, str_replace_editor, apply_patch: shapes models are
trained on, run as graver's own tools) are included unless --no-aliases.`,
  flags: {
    json: { kind: "boolean", help: "print JSON" },
    format: {
      kind: "string",
      value: "FORMAT",
      help: `export for function calling: ${CATALOGUE_FORMATS.join(", ")}`,
    },
    "no-aliases": { kind: "boolean", help: "leave out the compatibility aliases" },
  },
  maxPositional: 1,
  run({ flags, positional, host }) {
    const [name] = positional;
    const aliases = flags["no-aliases"] !== true;
    const names = describeTools().map((t) => t.name);
    if (name !== undefined && !names.includes(name)) {
      return Promise.resolve(toolNotFound(host, "tools", name, names));
    }
    const format = flags["format"] as string | undefined;
    if (format !== undefined) {
      if (!(CATALOGUE_FORMATS as readonly string[]).includes(format)) {
        const near = nearestNames(format, [...CATALOGUE_FORMATS], 2);
        return Promise.resolve(
          usageError(host, "tools", {
            message: `unknown format "${format}"${near.length > 0 ? ` (did you mean "${near[0]}"?)` : ""}`,
            hint: `Pass --format ${CATALOGUE_FORMATS.join(", ")}`,
          }),
        );
      }
      const exported = exportCatalogue(format as CatalogueFormat, {
        aliases: aliases || name !== undefined,
        ...(name !== undefined ? { only: [name] } : {}),
      });
      printJson(host, name !== undefined ? exported[0] : exported);
      return Promise.resolve(EXIT.ok);
    }
    const tools = describeTools().filter((t) => aliases || !findTool(t.name)?.forward);
    if (name !== undefined) {
      const tool = tools.find((t) => t.name === name)!;
      if (flags["json"]) printJson(host, tool);
      else {
        host.stdout(
          `${tool.name}\n\n${tool.description}\n\narguments:\n${
            toolArgsHelp(tool.inputSchema)
          }\nusage: graver call ${tool.name} '<json args>'\n\nschema:\n${
            JSON.stringify(tool.inputSchema, null, 2)
          }\n`,
        );
      }
      return Promise.resolve(EXIT.ok);
    }
    if (flags["json"]) {
      printJson(host, tools);
      return Promise.resolve(EXIT.ok);
    }
    const paint = painter(host);
    for (const t of tools) {
      const alias = findTool(t.name)?.forward ? paint.dim("(compatibility alias) ") : "";
      host.stdout(`${paint.bold(t.name.padEnd(28))} ${alias}${t.description}\n`);
    }
    return Promise.resolve(EXIT.ok);
  },
});
