import assert from "node:assert/strict";
import { dirname, joinPath } from "../../../src/fs/backend.ts";

Deno.test("joinPath() and dirname() handle roots and duplicate slashes (re-exported by backend.ts)", () => {
  assert.equal(joinPath("/w/", "/src//a.ts"), "/w/src/a.ts");
  assert.equal(joinPath("/", ""), "/");
  assert.equal(joinPath("/w", "dir/"), "/w/dir");
  assert.equal(dirname("/w/src/a.ts"), "/w/src");
  assert.equal(dirname("/a.ts"), "/");
  assert.equal(dirname("a.ts"), ".");
});
