import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { GRAMMARS, Grammars } from "../../../src/syntax/grammars.ts";
import { languagesWithTags, loadQuery, querySource, symbolRules } from "../../../src/syntax/queries.ts";
import { buildQueriesJson } from "../../../scripts/_queries_json.ts";

Deno.test("grammars/queries.json is generated from the .scm and symbols.json files (run scripts/embed_queries.ts)", async () => {
  const fresh = await buildQueriesJson(new URL("../../../grammars/", import.meta.url));
  const current = await Deno.readTextFile(new URL("../../../grammars/queries.json", import.meta.url));
  assert.equal(
    current,
    fresh,
    "grammars/queries.json is out of date: run deno run -A scripts/embed_queries.ts",
  );
});

Deno.test("every grammar in the manifest has a tags query that compiles", async () => {
  const grammars = new Grammars(createWasmLoader());
  assert.deepEqual(languagesWithTags().sort(), Object.keys(GRAMMARS).sort());
  for (const id of Object.keys(GRAMMARS)) {
    const query = await loadQuery(grammars, id, "tags");
    assert.ok(query, id);
    assert.ok(query.captureNames.some((c) => c.startsWith("definition.")), `${id} captures definitions`);
    assert.equal(await loadQuery(grammars, id, "tags"), query, `${id} query is cached`);
  }
});

Deno.test("a dialect's query inherits its base (tsx follows typescript)", () => {
  const tsx = querySource("tsx", "tags")!;
  assert.ok(tsx.startsWith("; inherits: typescript"));
  assert.ok(tsx.includes(querySource("typescript", "tags")!));
});

Deno.test("symbolRules() returns the language's data and defaults for unknown languages", () => {
  assert.ok(symbolRules("rust").decorations.includes("attribute_item"));
  assert.ok(symbolRules("typescript").wrappers.includes("export_statement"));
  assert.deepEqual(symbolRules("nope"), { comments: ["comment"], decorations: [], wrappers: [] });
});
