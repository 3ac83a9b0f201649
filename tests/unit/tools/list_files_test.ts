import assert from "node:assert/strict";
import { code, okData, open } from "./_files.ts";

Deno.test("list_files() hides .graver and walks recursively", async () => {
  const { ws } = await open();
  await ws.call("write_file", { path: "src/b.ts", content: "export {};\n" });
  const d = okData(await ws.call("list_files", { recursive: true }));
  assert.deepEqual(d["entries"], [
    "bom.txt",
    "img.bin",
    "latin1.txt",
    "src/",
    "src/a.ts",
    "src/b.ts",
    "src/crlf.py",
  ]);
});

Deno.test("list_files() lists one level by default, from a sub-directory", async () => {
  const { ws } = await open({ "/w/src/deep/x.ts": "export {};\n" });
  const top = okData(await ws.call("list_files", {}));
  assert.deepEqual(top["entries"], ["bom.txt", "img.bin", "latin1.txt", "src/"]);
  const sub = okData(await ws.call("list_files", { path: "src" }));
  assert.deepEqual(sub["entries"], ["src/a.ts", "src/crlf.py", "src/deep/"]);
  assert.equal(sub["count"], 3);
});

Deno.test("list_files() stops at max_entries and says it truncated", async () => {
  const { ws } = await open();
  const d = okData(await ws.call("list_files", { recursive: true, max_entries: 2 }));
  assert.deepEqual(d["entries"], ["bom.txt", "img.bin"]);
  assert.equal(d["truncated"], true);
});

Deno.test("list_files() refuses a file path and a missing directory", async () => {
  const { ws } = await open();
  const onFile = await ws.call("list_files", { path: "src/a.ts" });
  assert.equal(code(onFile), "invalid_args");
  assert.ok(!onFile.ok);
  assert.deepEqual(onFile.error.suggested_call, { tool: "read_file", args: { path: "src/a.ts" } });
  assert.equal(code(await ws.call("list_files", { path: "nope" })), "not_found");
});

Deno.test("list_files() never walks .git/ and honours .gitignore; include_ignored lists ignored files", async () => {
  const { ws } = await open({
    "/w/.git/HEAD": "ref: refs/heads/main\n",
    "/w/.git/objects/aa/bb": "x",
    "/w/.gitignore": "dist/\n*.log\n!keep.log\n",
    "/w/dist/index.js": "",
    "/w/x.log": "",
    "/w/keep.log": "",
    "/w/node_modules/pkg/index.js": "",
  });
  // .git/ used to come first and spend max_entries.
  const first = okData(await ws.call("list_files", { recursive: true, max_entries: 2 }));
  assert.deepEqual(first["entries"], [".gitignore", "bom.txt"]);
  const all = okData(await ws.call("list_files", { recursive: true }));
  assert.deepEqual(all["entries"], [
    ".gitignore",
    "bom.txt",
    "img.bin",
    "keep.log",
    "latin1.txt",
    "src/",
    "src/a.ts",
    "src/crlf.py",
  ]);
  assert.equal(all["ignored"], 3);
  const everything = okData(await ws.call("list_files", { recursive: true, include_ignored: true }));
  const entries = everything["entries"] as string[];
  for (const e of ["dist/index.js", "x.log", "node_modules/pkg/index.js"]) assert.ok(entries.includes(e), e);
  assert.ok(!entries.some((e) => e.startsWith(".git/")));
});
