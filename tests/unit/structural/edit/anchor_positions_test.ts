import assert from "node:assert/strict";
import { ANCHOR_POSITIONS } from "../../../../src/structural/edit/anchor_positions.ts";
import { editInsertAtAnchor } from "../../../../src/tools/edit_insert_at_anchor.ts";

Deno.test("ANCHOR_POSITIONS is what edit_insert_at_anchor's schema offers, without loading the anchor engine", () => {
  assert.deepEqual([...ANCHOR_POSITIONS], [
    "before",
    "after",
    "first_child",
    "last_child",
    "start_of_body",
    "end_of_body",
  ]);
  const schema = editInsertAtAnchor.inputSchema as { properties: Record<string, { enum?: string[] }> };
  assert.deepEqual(schema.properties["position"]?.enum, [...ANCHOR_POSITIONS]);
});
