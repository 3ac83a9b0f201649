import assert from "node:assert/strict";
import { versionOf } from "../../../src/fs/version.ts";
import {
  formatOccurrenceId,
  occurrenceIsCurrent,
  parseOccurrenceId,
} from "../../../src/search/occurrence_id.ts";

Deno.test("occurrence_id: round trip, read from the end so paths may hold : and @", async () => {
  const version = await versionOf(new TextEncoder().encode("x\n"));
  const id = formatOccurrenceId({ path: "a@b/c:d.ts", line: 10, column: 4, version });
  const back = parseOccurrenceId(id);
  assert.deepEqual(back, { path: "a@b/c:d.ts", line: 10, column: 4, version: version.slice(0, 12) });
  assert.ok(occurrenceIsCurrent(back, version));
  assert.ok(!occurrenceIsCurrent(back, await versionOf(new TextEncoder().encode("y\n"))));
});

Deno.test("occurrence_id: what is not an id is refused", () => {
  for (const bad of ["a.ts:1:1", "a.ts:0:1@abcdefabcdef", "a.ts:1:1@abc", "1:1@abcdefabcdef"]) {
    assert.throws(() => parseOccurrenceId(bad), { code: "invalid_args" }, bad);
  }
  // The refusal suggests the search again only with its query: a search_text call without one is refused.
  assert.throws(
    () => parseOccurrenceId("a.ts:1:1"),
    (e: { suggestedCall?: unknown }) => e.suggestedCall === undefined,
  );
  const search = { tool: "search_structural", args: { pattern: "log($X)", language: "typescript" } };
  assert.throws(
    () => parseOccurrenceId("a.ts:1:1", search),
    (e: { suggestedCall?: unknown; message: string }) => e.suggestedCall === search,
  );
});
