/**
 * Snapshot of the public API and the tool catalogue: an unintended change to
 * either fails here. After an intended change, regenerate with
 * `UPDATE_SNAPSHOTS=1 deno test -A tests/unit/exports_test.ts` and review the diff.
 */
import assert from "node:assert/strict";
import * as graver from "../../src/mod.ts";
import * as fs from "../../src/fs/mod.ts";
import * as syntax from "../../src/syntax/mod.ts";
import * as text from "../../src/text/mod.ts";
import * as structural from "../../src/structural/mod.ts";
import * as tools from "../../src/tools/mod.ts";
import * as guards from "../../src/guards/mod.ts";
import * as compass from "../../src/compass/mod.ts";
import * as surfaces from "../../src/surfaces/mod.ts";

const SNAPSHOT = new URL("./exports_snapshot.json", import.meta.url);

Deno.test("the public exports and the tool catalogue match the snapshot", async () => {
  const current = {
    exports: Object.keys(graver).sort(),
    // Each subpath of deno.json's exports names its own surface.
    subpaths: Object.fromEntries(
      Object.entries({ fs, syntax, text, structural, guards, compass, tools, surfaces }).map((
        [k, v],
      ) => [k, Object.keys(v).sort()]),
    ),
    tools: graver.TOOLS.map((t) => ({
      name: t.name,
      properties: Object.keys((t.inputSchema["properties"] as Record<string, unknown>) ?? {}).sort(),
      required: ((t.inputSchema["required"] as string[]) ?? []).slice().sort(),
      // Names models may still use: dropping one breaks callers, so it shows here.
      aliases: t.aliases ?? {},
    })),
  };
  if (Deno.env.get("UPDATE_SNAPSHOTS") === "1") {
    await Deno.writeTextFile(SNAPSHOT, JSON.stringify(current, null, 2) + "\n");
  }
  const expected = JSON.parse(await Deno.readTextFile(SNAPSHOT));
  assert.deepEqual(current, expected);
});

Deno.test("every mod.ts names its exports (no export *), and deno.json publishes each area's mod.ts", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  const published = new Set(Object.values(config.exports as Record<string, string>));
  for (const area of ["fs", "syntax", "languages", "text", "structural", "guards", "compass", "tools"]) {
    assert.ok(published.has(`./src/${area}/mod.ts`), `deno.json exports ./src/${area}/mod.ts`);
  }
  for (
    const mod of [
      "mod.ts",
      "fs/mod.ts",
      "syntax/mod.ts",
      "languages/mod.ts",
      "text/mod.ts",
      "structural/mod.ts",
      "guards/mod.ts",
      "compass/mod.ts",
      "tools/mod.ts",
      "surfaces/mod.ts",
    ]
  ) {
    const source = await Deno.readTextFile(new URL(`../../src/${mod}`, import.meta.url));
    assert.doesNotMatch(source, /^export \*/m, `src/${mod} names what it exports`);
  }
});
