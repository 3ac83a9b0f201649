import assert from "node:assert/strict";
import { isRealDir, LINK, lstatNow } from "../../../src/adapters/_sync_stat.ts";

Deno.test("lstatNow answers a file's and a folder's stats, LINK for a link, null for nothing; isRealDir a folder only", async () => {
  const root = await Deno.makeTempDir({ prefix: "graver-sync-stat-" });
  try {
    await Deno.writeTextFile(`${root}/f.txt`, "hello\n");
    await Deno.mkdir(`${root}/d`);
    await Deno.symlink(`${root}/d`, `${root}/to_d`);
    const file = lstatNow(`${root}/f.txt`);
    assert.ok(file !== null && file !== LINK && file.isFile() && Number(file.size) === 6);
    const dir = lstatNow(`${root}/d`);
    assert.ok(dir !== null && dir !== LINK && dir.isDirectory());
    assert.equal(lstatNow(`${root}/to_d`), LINK);
    assert.equal(lstatNow(`${root}/gone`), null);
    assert.deepEqual(
      [`${root}/d`, `${root}/to_d`, `${root}/f.txt`, `${root}/gone`].map(isRealDir),
      [true, false, false, false],
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
