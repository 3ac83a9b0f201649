import assert from "node:assert/strict";
import { describeTools, findTool, TOOLS } from "../../../src/tools/catalogue.ts";

Deno.test("TOOLS has unique names, descriptions and closed object schemas", () => {
  const names = new Set<string>();
  for (const t of TOOLS) {
    assert.match(t.name, /^[a-z_]+$/);
    assert.ok(!names.has(t.name), t.name);
    names.add(t.name);
    assert.ok(t.description.length > 20, t.name);
    assert.equal(t.inputSchema["type"], "object", t.name);
    assert.equal(t.inputSchema["additionalProperties"], false, t.name);
  }
  assert.equal(describeTools().length, TOOLS.length);
});

Deno.test("findTool() returns the definition by exact name, undefined otherwise", () => {
  const read = findTool("read_file");
  assert.ok(read);
  assert.equal(read.name, "read_file");
  assert.equal(read.mutates, false);
  assert.equal(findTool("write_file")?.mutates, true);
  assert.equal(findTool("reed_file"), undefined);
  assert.equal(findTool("READ_FILE"), undefined);
});

Deno.test("describeTools() is the catalogue as data, in catalogue order, without handlers", () => {
  const described = describeTools();
  assert.deepEqual(described.map((d) => d.name), TOOLS.map((t) => t.name));
  for (const d of described) {
    assert.deepEqual(Object.keys(d).sort(), ["description", "inputSchema", "name"]);
    assert.equal(d.inputSchema, findTool(d.name)!.inputSchema);
  }
  assert.doesNotThrow(() => JSON.stringify(described));
});
