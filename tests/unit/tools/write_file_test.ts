import assert from "node:assert/strict";
import { snapshot } from "../../_helpers.ts";
import { code, okData, open } from "./_files.ts";

Deno.test("write_file() keeps exact bytes and refuses a stale expected_version", async () => {
  const { ws, backend } = await open();
  const read = okData(await ws.call("read_file", { path: "src/crlf.py" }));
  const res = await ws.call("write_file", {
    path: "src/crlf.py",
    content: "x = 1\r\ny = 3\r\n",
    expected_version: read["version"],
  });
  assert.ok(res.ok && res.status === "applied");
  assert.equal(res.changes[0]!.before_version, read["version"]);
  const again = await ws.call("write_file", {
    path: "src/crlf.py",
    content: "lost\n",
    expected_version: read["version"],
  });
  assert.equal(code(again), "stale_base");
  assert.equal((await snapshot(backend, "/w"))["/w/src/crlf.py"], "x = 1\r\ny = 3\r\n");
});

Deno.test("write_file() with dry_run returns the diff and writes nothing", async () => {
  const { ws, backend } = await open();
  const before = await snapshot(backend, "/w");
  const res = await ws.call("write_file", {
    path: "src/a.ts",
    content: "export const a = 2;\n",
    dry_run: true,
  });
  assert.ok(res.ok && res.status === "dry_run");
  assert.match(res.changes[0]!.diff, /\+export const a = 2;/);
  assert.deepEqual(await snapshot(backend, "/w"), before);
});

Deno.test("write_file() says whether it created the file, making parent directories", async () => {
  const { ws, backend } = await open();
  const fresh = await ws.call("write_file", { path: "new/dir/n.txt", content: "n\n" });
  assert.equal(okData(fresh)["created"], true);
  assert.ok(fresh.ok && fresh.changes[0]!.before_version === null);
  assert.equal(
    okData(await ws.call("write_file", { path: "new/dir/n.txt", content: "m\n" }))["created"],
    false,
  );
  assert.equal((await snapshot(backend, "/w"))["/w/new/dir/n.txt"], "m\n");
});

Deno.test("write_file() accepts the 12-character version a stale_base message shows", async () => {
  const { ws } = await open();
  const before = okData(await ws.call("read_file", { path: "src/a.ts" }));
  assert.ok((await ws.call("write_file", { path: "src/a.ts", content: "export const a = 2;\n" })).ok);
  const stale = await ws.call("write_file", {
    path: "src/a.ts",
    content: "export const a = 3;\n",
    expected_version: before["version"],
  });
  assert.equal(code(stale), "stale_base");
  assert.ok(!stale.ok);
  const shown = /found "([0-9a-f]{12})"/.exec(stale.error.message)![1]!;
  const current = stale.error.details!["current_version"] as string;
  assert.equal(current.length, 64);
  assert.ok(current.startsWith(shown));
  const res = await ws.call("write_file", {
    path: "src/a.ts",
    content: "export const a = 3;\n",
    expected_version: shown,
  });
  assert.ok(res.ok && res.status === "applied", JSON.stringify(res));
  const short = await ws.call("write_file", { path: "src/a.ts", content: "x\n", expected_version: "abc" });
  assert.equal(code(short), "invalid_args");
  assert.ok(!short.ok && /at least 12 hex characters, got 3/.test(short.error.message));
});
