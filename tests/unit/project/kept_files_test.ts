/** The read cache's file store: bounded, least recently used first out, and scan-resistant across searches. */
import assert from "node:assert/strict";
import { KeptFiles } from "../../../src/project/kept_files.ts";

const id = { size: 4, mtime: 0, ctime: 0, ino: undefined };
const four = () => new Uint8Array(4);

Deno.test("KeptFiles: outside a search, a plain LRU within its bound", () => {
  const files = new KeptFiles(8);
  files.keep("/a", { id, bytes: four(), gen: files.gen });
  files.keep("/b", { id, bytes: four(), gen: files.gen });
  files.use("/a", files.get("/a")!);
  files.keep("/c", { id, bytes: four(), gen: files.gen });
  assert.deepEqual([files.get("/a") !== undefined, files.get("/b"), files.get("/c") !== undefined], [
    true,
    undefined,
    true,
  ]);
  assert.equal(files.bytes, 8);
  files.keep("/big", { id, bytes: new Uint8Array(9), gen: files.gen });
  assert.equal(files.get("/big"), undefined, "larger than the bound: never kept");
});

Deno.test("KeptFiles: a search pushes out nothing it or the search before used, and once full keeps nothing more", () => {
  const files = new KeptFiles(8);
  files.newSearch();
  files.keep("/a", { id, bytes: four(), gen: files.gen });
  files.keep("/b", { id, bytes: four(), gen: files.gen });
  files.keep("/c", { id, bytes: four(), gen: files.gen }); // full: not kept
  files.keep("/d", { id, bytes: new Uint8Array(0), gen: files.gen }); // would fit, but the search is full
  assert.deepEqual([files.get("/c"), files.get("/d"), files.size], [undefined, undefined, 2]);
  files.newSearch(); // the next search: a and b are the last search's
  files.keep("/c", { id, bytes: four(), gen: files.gen });
  assert.equal(files.get("/c"), undefined);
  files.newSearch(); // two on: they may go now
  files.keep("/c", { id, bytes: four(), gen: files.gen });
  assert.deepEqual([files.get("/a"), files.get("/c") !== undefined], [undefined, true]);
});
