import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace, type ToolResult } from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { snapshot } from "../../_helpers.ts";

const FILES = {
  "/w/src/a.ts": "export const a = 1;\n",
  "/w/src/crlf.py": "x = 1\r\ny = 2\r\n",
  "/w/bom.txt": "\uFEFFbom\n",
  "/w/img.bin": new Uint8Array([0x89, 0x50, 0x00, 0x01]),
  "/w/latin1.txt": new Uint8Array([0x63, 0x61, 0x66, 0xe9]),
};

async function open() {
  const backend = createMemoryBackend(FILES);
  const ws = await createWorkspace({ backend, root: "/w", wasm: createWasmLoader() });
  return { backend, ws };
}

function okData(r: ToolResult): Record<string, unknown> {
  assert.ok(r.ok, JSON.stringify(r));
  return r.data;
}

function code(r: ToolResult): string {
  assert.ok(!r.ok, `expected a refusal, got ${JSON.stringify(r)}`);
  assert.ok(r.error.hint.length > 0);
  return r.error.code;
}

Deno.test("read_file numbers lines, returns the version and a range", async () => {
  const { ws } = await open();
  const d = okData(await ws.call("read_file", { path: "src/crlf.py", start_line: 2 }));
  assert.equal(d["content"], "2\ty = 2");
  assert.equal(d["total_lines"], 2);
  assert.equal(d["language"], "python");
  assert.match(String(d["version"]), /^[0-9a-f]{64}$/);
  assert.equal(code(await ws.call("read_file", { path: "src/crlf.py", start_line: 9 })), "limit_exceeded");
});

Deno.test("read_file refuses binary and non-UTF-8 files", async () => {
  const { ws } = await open();
  assert.equal(code(await ws.call("read_file", { path: "img.bin" })), "binary_file");
  assert.equal(code(await ws.call("read_file", { path: "latin1.txt" })), "encoding");
});

Deno.test("list_files hides .graver and walks recursively", async () => {
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

Deno.test("write_file keeps exact bytes and refuses a stale expected_version", async () => {
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

Deno.test("create_file refuses to overwrite; delete_file and move_file land atomically", async () => {
  const { ws, backend } = await open();
  assert.equal(code(await ws.call("create_file", { path: "src/a.ts", content: "x" })), "already_exists");
  assert.ok((await ws.call("create_file", { path: "new/dir/n.ts", content: "export {};\n" })).ok);
  assert.ok((await ws.call("delete_file", { path: "bom.txt" })).ok);
  const mv = await ws.call("move_file", { from: "src/a.ts", to: "lib/a.ts" });
  assert.ok(mv.ok);
  assert.match(mv.changes[0]!.diff, /rename from src\/a.ts\nrename to lib\/a.ts/);
  assert.equal(code(await ws.call("move_file", { from: "lib/a.ts", to: "src/crlf.py" })), "already_exists");
  const snap = await snapshot(backend, "/w");
  assert.equal(snap["/w/bom.txt"], undefined);
  assert.equal(snap["/w/lib/a.ts"], "export const a = 1;\n");
  assert.equal(snap["/w/src/a.ts"], undefined);
  assert.equal(snap["/w/new/dir/n.ts"], "export {};\n");
});

Deno.test("dry_run returns the diff and writes nothing", async () => {
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

Deno.test("the syntax guard refuses new parse errors but not pre-existing ones", async () => {
  const { ws, backend } = await open();
  assert.equal(
    code(await ws.call("write_file", { path: "src/a.ts", content: "export const a = ;\n" })),
    "syntax_error",
  );
  await backend.writeFile("/w/src/broken.ts", new TextEncoder().encode("const = 1;\nexport const b = 1;\n"));
  const ok = await ws.call("write_file", {
    path: "src/broken.ts",
    content: "const = 1;\nexport const b = 2;\n",
  });
  assert.ok(ok.ok, JSON.stringify(ok));
  const plain = await ws.call("write_file", { path: "notes.unknown", content: "{{{ not code" });
  assert.ok(plain.ok);
});
