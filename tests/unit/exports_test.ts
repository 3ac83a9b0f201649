/**
 * Snapshot of the public API and the tool catalogue: an unintended change to
 * either fails here. After an intended change, regenerate with
 * `UPDATE_SNAPSHOTS=1 deno test -A tests/unit/exports_test.ts` and review the diff.
 */
import assert from "node:assert/strict";
import * as graver from "../../src/mod.ts";

const SNAPSHOT = new URL("./exports_snapshot.json", import.meta.url);

Deno.test("the public exports and the tool catalogue match the snapshot", async () => {
  const current = {
    exports: Object.keys(graver).sort(),
    tools: graver.TOOLS.map((t) => ({
      name: t.name,
      properties: Object.keys((t.inputSchema["properties"] as Record<string, unknown>) ?? {}).sort(),
      required: ((t.inputSchema["required"] as string[]) ?? []).slice().sort(),
    })),
  };
  if (Deno.env.get("UPDATE_SNAPSHOTS") === "1") {
    await Deno.writeTextFile(SNAPSHOT, JSON.stringify(current, null, 2) + "\n");
  }
  const expected = JSON.parse(await Deno.readTextFile(SNAPSHOT));
  assert.deepEqual(current, expected);
});
