import assert from "node:assert/strict";
import { snapshot } from "../../_helpers.ts";
import { code, okData, open } from "./_files.ts";

Deno.test("delete_file() removes the file and reports its old version", async () => {
  const { ws, backend } = await open();
  const read = okData(await ws.call("read_file", { path: "bom.txt" }));
  const r = await ws.call("delete_file", { path: "bom.txt" });
  assert.ok(r.ok);
  assert.equal(r.changes[0]!.before_version, read["version"]);
  assert.equal(r.changes[0]!.after_version, null);
  const snap = await snapshot(backend, "/w");
  assert.equal(snap["/w/bom.txt"], undefined);
  assert.equal(snap["/w/src/a.ts"], "export const a = 1;\n");
});

Deno.test("delete_file() refuses a missing file and a stale expected_version", async () => {
  const { ws, backend } = await open();
  assert.equal(code(await ws.call("delete_file", { path: "gone.txt" })), "not_found");
  assert.equal(
    code(await ws.call("delete_file", { path: "src/a.ts", expected_version: "0".repeat(64) })),
    "stale_base",
  );
  assert.equal((await snapshot(backend, "/w"))["/w/src/a.ts"], "export const a = 1;\n");
});
