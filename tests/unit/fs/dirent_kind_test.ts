import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { direntKind } from "../../../src/fs/dirent_kind.ts";

Deno.test("direntKind: node:fs Dirents say file, dir and symlink, a FIFO or device other; a bare name or an unknown type says nothing", async () => {
  const root = await Deno.makeTempDir({ prefix: "graver-dirent-" });
  try {
    await Deno.writeTextFile(`${root}/f.txt`, "f\n");
    await Deno.mkdir(`${root}/d`);
    await Deno.symlink(`${root}/f.txt`, `${root}/l`);
    const kinds = readdirSync(root, { withFileTypes: true }).map((e) => `${e.name} ${direntKind(e)}`).sort();
    assert.deepEqual(kinds, ["d dir", "f.txt file", "l symlink"]);
    assert.equal(direntKind("f.txt"), null);
    const unknown = { isFile: () => false, isDirectory: () => false, isSymbolicLink: () => false };
    assert.equal(direntKind(unknown), null, "DT_UNKNOWN: only lstat can tell");
    assert.equal(direntKind({ ...unknown, isFIFO: () => true }), "other", "a FIFO");
    assert.equal(direntKind({ ...unknown, isCharacterDevice: () => true }), "other", "a device");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
