import assert from "node:assert/strict";
import { fixtureUrl } from "../../_helpers.ts";
import { code, okData, open } from "./_files.ts";

Deno.test("read_file() numbers lines, returns the version and a range", async () => {
  const { ws } = await open();
  const d = okData(await ws.call("read_file", { path: "src/crlf.py", start_line: 2 }));
  assert.equal(d["content"], "2\ty = 2");
  assert.equal(d["total_lines"], 2);
  assert.equal(d["language"], "python");
  assert.match(String(d["version"]), /^[0-9a-f]{64}$/);
  assert.equal(code(await ws.call("read_file", { path: "src/crlf.py", start_line: 9 })), "limit_exceeded");
});

Deno.test("read_file() refuses binary and non-UTF-8 files", async () => {
  const { ws } = await open();
  assert.equal(code(await ws.call("read_file", { path: "img.bin" })), "binary_file");
  assert.equal(code(await ws.call("read_file", { path: "latin1.txt" })), "encoding");
});

Deno.test("read_file() returns text without the BOM and unnumbered lines on request", async () => {
  const { ws } = await open();
  const d = okData(await ws.call("read_file", { path: "bom.txt", numbered: false }));
  assert.equal(d["content"], "bom");
  assert.equal(d["language"], null);
});

Deno.test("read_file() refuses end_line before start_line and a missing file", async () => {
  const { ws } = await open();
  assert.equal(
    code(await ws.call("read_file", { path: "src/crlf.py", start_line: 2, end_line: 1 })),
    "invalid_args",
  );
  assert.equal(code(await ws.call("read_file", { path: "src/nope.ts" })), "not_found");
});

Deno.test("read_file() truncates past 2000 lines and names the next call", async () => {
  const big = Array.from({ length: 2005 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
  const { ws } = await open({ "/w/big.txt": big });
  const d = okData(await ws.call("read_file", { path: "big.txt" }));
  assert.equal(d["end_line"], 2000);
  assert.equal(d["total_lines"], 2005);
  assert.equal(d["truncated"], true);
  assert.deepEqual(d["next_call"], { tool: "read_file", args: { path: "big.txt", start_line: 2001 } });
  const rest = okData(await ws.call("read_file", { path: "big.txt", start_line: 2001 }));
  assert.equal(rest["truncated"], undefined);
  assert.equal(String(rest["content"]).split("\n").at(-1), "2005\tline 2005");
});

Deno.test("read_file() refuses a binary file as a read, not an edit", async () => {
  const { ws } = await open();
  const r = await ws.call("read_file", { path: "img.bin" });
  assert.ok(!r.ok);
  assert.equal(r.error.message, 'Cannot read "img.bin" as text: binary file');
  assert.doesNotMatch(r.error.message + r.error.hint, /Cannot edit/);
  assert.match(r.error.hint, /write_file/);
  const latin = await ws.call("read_file", { path: "latin1.txt" });
  assert.ok(!latin.ok);
  assert.equal(latin.error.message, 'Cannot read "latin1.txt" as text: not valid UTF-8');
});

Deno.test("read_file() reports the file's line endings and BOM", async () => {
  const crlf = await Deno.readFile(fixtureUrl("text", "tslib-modules-index.js"));
  const mixed = await Deno.readFile(fixtureUrl("text", "idb-keyval-cjs.js"));
  const bom = await Deno.readFile(fixtureUrl("text", "NSIS.template.in"));
  const { ws } = await open({ "/w/crlf.js": crlf, "/w/mixed.js": mixed, "/w/bom.nsi": bom });
  const data = async (path: string) => okData(await ws.call("read_file", { path, end_line: 3 }));
  assert.deepEqual([(await data("crlf.js"))["eol"], (await data("crlf.js"))["bom"]], ["crlf", false]);
  assert.deepEqual([(await data("mixed.js"))["eol"], (await data("mixed.js"))["bom"]], ["mixed", false]);
  assert.deepEqual([(await data("bom.nsi"))["eol"], (await data("bom.nsi"))["bom"]], ["lf", true]);
  assert.deepEqual([(await data("src/a.ts"))["eol"], (await data("src/a.ts"))["bom"]], ["lf", false]);
});

Deno.test("read_file() with a glob path names the matching files in its hint", async () => {
  const { ws } = await open({ "/w/src/b.ts": "export const b = 2;\n" });
  const r = await ws.call("read_file", { path: "src/*.ts" });
  assert.equal(code(r), "not_found");
  assert.ok(!r.ok);
  assert.match(r.error.message, /looks like a glob pattern, and file tools take one path/);
  assert.match(r.error.hint, /^It matches "src\/a\.ts", "src\/b\.ts": call the tool once per file/);
  assert.ok(!r.error.hint.includes("src/*.ts"), r.error.hint);
});

Deno.test("read_file() caps a read by size too (a pluggable token counter), and names what it left out", async () => {
  const { fileURLToPath } = await import("node:url");
  const { createMemoryBackend, createWorkspace } = await import("../../../src/mod.ts");
  const { createWasmLoader } = await import("../../../src/adapters/deno/mod.ts");
  const text = await Deno.readTextFile(
    fileURLToPath(
      new URL(
        "../../../node_modules/.deno/diff@9.0.0/node_modules/diff/libesm/diff/base.js",
        import.meta.url,
      ),
    ),
  );
  const total = text.split("\n").length - 1;
  // Count words, at most 300 per read.
  const words = (t: string) => t.split(/\s+/).filter(Boolean).length;
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/base.js": text }),
    wasm: createWasmLoader(),
    readBudget: { tokens: 300, countTokens: words },
  });
  const d = okData(await ws.call("read_file", { path: "base.js" }));
  const content = String(d["content"]);
  assert.ok(words(content) <= 300 && words(content) > 250, `${words(content)} words`);
  const end = Number(d["end_line"]);
  assert.equal(content.split("\n").length, end);
  assert.equal(d["truncated"], true);
  assert.deepEqual(d["next_call"], { tool: "read_file", args: { path: "base.js", start_line: end + 1 } });
  const notShown = d["not_shown"] as {
    start_line: number;
    end_line: number;
    symbols: { name_path: string }[];
  };
  assert.deepEqual([notShown.start_line, notShown.end_line], [end + 1, total]);
  assert.ok(notShown.symbols.some((s) => s.name_path === "Diff/castInput"));
  assert.match(String(d["notice"]), new RegExp(`^\\[Lines ${end + 1}–${total} not shown`));
  // The default budget (15k tokens ≈ 60k characters) leaves this 8 KB file whole, as before.
  const whole = await createWorkspace({
    backend: createMemoryBackend({ "/base.js": text }),
    wasm: createWasmLoader(),
  });
  const all = okData(await whole.call("read_file", { path: "base.js" }));
  assert.equal(all["end_line"], total);
  assert.equal(all["truncated"], undefined);
  assert.equal(all["notice"], undefined);
});
