import assert from "node:assert/strict";
import { snapshot } from "../../_helpers.ts";
import { code, open } from "./_files.ts";

Deno.test("move_file() renames in one commit with a git-style rename diff", async () => {
  const { ws, backend } = await open();
  const mv = await ws.call("move_file", { from: "src/a.ts", to: "lib/a.ts" });
  assert.ok(mv.ok);
  assert.match(mv.changes[0]!.diff, /rename from src\/a.ts\nrename to lib\/a.ts/);
  const snap = await snapshot(backend, "/w");
  assert.equal(snap["/w/lib/a.ts"], "export const a = 1;\n");
  assert.equal(snap["/w/src/a.ts"], undefined);
});

Deno.test("move_file() refuses an existing destination unless overwrite is true", async () => {
  const { ws, backend } = await open();
  const r = await ws.call("move_file", { from: "src/a.ts", to: "src/crlf.py" });
  assert.equal(code(r), "already_exists");
  assert.ok(!r.ok && r.error.suggested_call?.args["overwrite"] === true);
  assert.equal((await snapshot(backend, "/w"))["/w/src/crlf.py"], "x = 1\r\ny = 2\r\n");
  assert.ok((await ws.call("move_file", { from: "src/a.ts", to: "src/crlf.py", overwrite: true })).ok);
  const snap = await snapshot(backend, "/w");
  assert.equal(snap["/w/src/crlf.py"], "export const a = 1;\n");
  assert.equal(snap["/w/src/a.ts"], undefined);
});

Deno.test("move_file() onto itself changes nothing and warns", async () => {
  const { ws, backend } = await open();
  const before = await snapshot(backend, "/w");
  const r = await ws.call("move_file", { from: "src/a.ts", to: "./src/a.ts" });
  assert.ok(r.ok, JSON.stringify(r));
  assert.equal(r.changes.length, 0);
  assert.match(r.warnings.join("\n"), /same path/);
  assert.deepEqual(await snapshot(backend, "/w"), before);
});

Deno.test("move_file() refuses a missing source", async () => {
  const { ws } = await open();
  assert.equal(code(await ws.call("move_file", { from: "nope.ts", to: "b.ts" })), "not_found");
});
