import assert from "node:assert/strict";
import { Validator } from "@cfworker/json-schema";
import { TOOLS } from "../../../src/tools/catalogue.ts";
import {
  CATALOGUE_FORMATS,
  catalogueEntries,
  exportCatalogue,
  JSON_SCHEMA_DIALECT,
} from "../../../src/tools/export_formats.ts";

type Json = Record<string, unknown>;

Deno.test("catalogueEntries() lists every tool with schema, result schema and annotations; aliases say where they land", () => {
  const entries = catalogueEntries();
  assert.deepEqual(entries.map((e) => e.name), TOOLS.map((t) => t.name));
  const by = new Map(entries.map((e) => [e.name, e]));
  for (const e of entries) {
    assert.equal(e.inputSchema["type"], "object", e.name);
    assert.ok(e.description.length > 40, e.name);
    assert.equal(e.annotations.openWorldHint, false);
    // every schema compiles as draft 2020-12 with the eval-free validator
    assert.doesNotThrow(() => new Validator(e.inputSchema as never, "2020-12", false).validate({}), e.name);
    assert.doesNotThrow(() => new Validator(e.resultSchema as never, "2020-12", false).validate({}), e.name);
  }
  const hints = (n: string) => {
    const a = by.get(n)!.annotations;
    return [a.readOnlyHint, a.destructiveHint, a.idempotentHint];
  };
  assert.deepEqual(hints("read_file"), [true, false, true]);
  assert.deepEqual(hints("edit_dry_run"), [true, false, true], "a preview never writes");
  assert.deepEqual(hints("delete_file"), [false, true, true]);
  assert.deepEqual(hints("insert_code"), [false, false, false], "inserting only adds");
  assert.deepEqual(hints("edit_file"), [false, true, false]);
  assert.deepEqual(by.get("apply_patch")!.forwardsTo, ["apply_edits"]);
  assert.ok(by.get("str_replace_based_edit_tool")!.forwardsTo!.includes("edit_file"));
  assert.deepEqual(by.get("edit_file")!.argumentAliases, { file_path: "path", dryRun: "dry_run" });
  const core = catalogueEntries({ aliases: false }).map((e) => e.name);
  assert.ok(
    !core.includes("apply_patch") && !core.includes("str_replace_editor") && core.includes("edit_file"),
  );
  assert.deepEqual(catalogueEntries({ only: ["outline", "read_file"] }).map((e) => e.name), [
    "read_file",
    "outline",
  ]);
});

Deno.test("exportCatalogue() writes OpenAI, OpenAI Responses, Anthropic, MCP and JSON shapes", () => {
  const n = TOOLS.length;
  const openai = exportCatalogue("openai") as { type: string; function: Json }[];
  assert.equal(openai.length, n);
  for (const t of openai) {
    assert.equal(t.type, "function");
    assert.deepEqual(Object.keys(t.function).sort(), ["description", "name", "parameters"]);
    assert.match(t.function["name"] as string, /^[a-zA-Z0-9_-]{1,64}$/, "OpenAI's name rule");
  }
  const responses = exportCatalogue("openai-responses");
  assert.deepEqual(Object.keys(responses[0]!).sort(), ["description", "name", "parameters", "type"]);
  const anthropic = exportCatalogue("anthropic");
  for (const t of anthropic) {
    assert.deepEqual(Object.keys(t).sort(), ["description", "input_schema", "name"]);
    assert.equal((t["input_schema"] as Json)["type"], "object", "Anthropic requires an object schema");
  }
  const mcp = exportCatalogue("mcp");
  for (const t of mcp) {
    assert.deepEqual(Object.keys(t).sort(), [
      "annotations",
      "description",
      "inputSchema",
      "name",
      "outputSchema",
      "title",
    ]);
    assert.equal((t["outputSchema"] as Json)["type"], "object", "MCP requires an object outputSchema");
  }
  const json = exportCatalogue("json");
  assert.equal((json[0]!["inputSchema"] as Json)["$schema"], JSON_SCHEMA_DIALECT);
  assert.equal(
    (TOOLS[0]!.inputSchema as Json)["$schema"],
    undefined,
    "the dialect is added to the export, not to the catalogue",
  );
  assert.ok(JSON.stringify(exportCatalogue("mcp")).length > 1000);
  assert.deepEqual([...CATALOGUE_FORMATS], ["json", "openai", "openai-responses", "anthropic", "mcp"]);
  assert.throws(() => exportCatalogue("gemini" as never), TypeError);
});

Deno.test("every tool description says what it refuses or what to call instead", () => {
  for (const t of TOOLS) {
    const d = t.description;
    assert.ok(
      /refus|instead|prefer|use |call |without writing|never|only/i.test(d),
      `${t.name}'s description names no refusal or alternative: ${d}`,
    );
  }
});
