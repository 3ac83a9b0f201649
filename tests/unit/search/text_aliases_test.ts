import assert from "node:assert/strict";
import { SEARCH_TEXT_ALIASES } from "../../../src/search/text_aliases.ts";
import { searchTextTool } from "../../../src/tools/search_text.ts";

Deno.test("every search alias names an argument search_text has, and is not one itself", () => {
  const schema = searchTextTool.inputSchema as { properties: Record<string, unknown> };
  for (const [alias, name] of Object.entries(SEARCH_TEXT_ALIASES)) {
    assert.ok(name in schema.properties, `${alias} -> ${name}`);
    assert.ok(!(alias in schema.properties), alias);
  }
  assert.equal(SEARCH_TEXT_ALIASES["-i"], "ignore_case");
  assert.equal(SEARCH_TEXT_ALIASES["head_limit"], "max_results");
});
