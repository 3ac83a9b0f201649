/** What identifies a file's state, on real stats of the disk. */
import assert from "node:assert/strict";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";
import { changedAt, sameState, stateOf, statIdOf, statsOf } from "../../../src/project/stat_identity.ts";

Deno.test("stat identity: one file's stat identifies it; a change of size, a folder and absence differ", async () => {
  const dir = await Deno.makeTempDir({ prefix: "graver-statid-" });
  try {
    const disk = createDiskBackend();
    await Deno.writeTextFile(`${dir}/a.txt`, "one\n");
    const first = statIdOf(await disk.stat(`${dir}/a.txt`))!;
    assert.ok(sameState(first, statIdOf(await disk.stat(`${dir}/a.txt`))));
    assert.ok(sameState(first, statIdOf(statsOf(first))), "a kept file's own stats identify it");
    await Deno.writeTextFile(`${dir}/a.txt`, "one, longer\n");
    assert.equal(sameState(first, statIdOf(await disk.stat(`${dir}/a.txt`))), false);
    assert.match(stateOf(await disk.stat(dir))!, /^d:/);
    assert.match(stateOf(await disk.stat(`${dir}/a.txt`))!, /^f:12:/);
    assert.equal(stateOf(null), "absent");
    assert.ok(changedAt(await disk.stat(`${dir}/a.txt`)) <= Date.now() + 1000);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
