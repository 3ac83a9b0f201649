import assert from "node:assert/strict";
import { snapshot } from "../../_helpers.ts";
import { code, okData, open } from "./_files.ts";

Deno.test("create_file() refuses to overwrite and names the current version", async () => {
  const { ws } = await open();
  const read = okData(await ws.call("read_file", { path: "src/a.ts" }));
  const r = await ws.call("create_file", { path: "src/a.ts", content: "x" });
  assert.equal(code(r), "already_exists");
  assert.ok(!r.ok && r.error.details?.["current_version"] === read["version"]);
});

Deno.test("create_file() creates parent directories and defaults to empty content", async () => {
  const { ws, backend } = await open();
  assert.ok((await ws.call("create_file", { path: "new/dir/n.ts", content: "export {};\n" })).ok);
  assert.ok((await ws.call("create_file", { path: "empty.txt" })).ok);
  const snap = await snapshot(backend, "/w");
  assert.equal(snap["/w/new/dir/n.ts"], "export {};\n");
  assert.equal(snap["/w/empty.txt"], "");
});
