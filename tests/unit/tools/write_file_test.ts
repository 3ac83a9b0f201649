import assert from "node:assert/strict";
import { fixtureUrl, snapshot } from "../../_helpers.ts";
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

/** The -/+ lines of a unified diff (headers left out). */
function changedLines(diff: string): string[] {
  return diff.split("\n").filter((l) => /^[-+]/.test(l) && !/^(---|\+\+\+) /.test(l));
}

/** read_file (unnumbered) → one line changed → write_file; returns the result and the bytes written. */
async function roundTrip(name: string, line: number, to: string, extra: Record<string, unknown> = {}) {
  const bytes = await Deno.readFile(fixtureUrl("text", name));
  const { ws, backend } = await open({ [`/w/${name}`]: bytes });
  const read = okData(await ws.call("read_file", { path: name, numbered: false, end_line: 100000 }));
  const lines = String(read["content"]).split("\n");
  lines[line - 1] = to;
  const res = await ws.call("write_file", {
    path: name,
    content: lines.join("\n") + "\n",
    expected_version: read["version"],
    ...extra,
  });
  const after = new Uint8Array(await backend.readFile(`/w/${name}`) as Uint8Array);
  return { res, bytes, after, read };
}

/** The original bytes with line `line` (1-based) replaced, keeping its ending. */
function withLine(bytes: Uint8Array, line: number, to: string): string {
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  const parts = text.split(/(?<=\n)/);
  const old = parts[line - 1]!;
  parts[line - 1] = to + old.slice(old.replace(/\r?\n$/, "").length);
  return parts.join("");
}

Deno.test("write_file() keeps a CRLF file's line endings: a one-line change is a one-line diff", async () => {
  const { res, bytes, after, read } = await roundTrip("tslib-modules-index.js", 3, "// changed");
  assert.equal(read["eol"], "crlf");
  assert.ok(res.ok, JSON.stringify(res));
  assert.deepEqual(changedLines(res.changes[0]!.diff).length, 2);
  assert.equal(new TextDecoder().decode(after), withLine(bytes, 3, "// changed"));
  assert.equal(res.data["eol"], "crlf");
  assert.deepEqual(res.warnings, []);
});

Deno.test("write_file() keeps a BOM: a one-line change is a one-line diff", async () => {
  const { res, bytes, after, read } = await roundTrip("NSIS.template.in", 2, "; changed");
  assert.equal(read["bom"], true);
  assert.ok(res.ok, JSON.stringify(res));
  assert.deepEqual(changedLines(res.changes[0]!.diff).length, 2);
  assert.deepEqual([...after.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  assert.equal(new TextDecoder("utf-8", { ignoreBOM: true }).decode(after), withLine(bytes, 2, "; changed"));
});

Deno.test("write_file() in a mixed file keeps each line's ending and warns about added lines", async () => {
  const name = "idb-keyval-cjs.js";
  const to = "        this.storeName = storeName + '';";
  const { res, bytes, after } = await roundTrip(name, 7, to);
  assert.ok(res.ok, JSON.stringify(res));
  assert.deepEqual(changedLines(res.changes[0]!.diff).length, 2);
  assert.equal(new TextDecoder().decode(after), withLine(bytes, 7, to));
  assert.deepEqual(res.warnings, []);
  // An added line takes the dominant ending (CRLF) and says so.
  const { ws, backend } = await open({ [`/w/${name}`]: bytes });
  const read = okData(await ws.call("read_file", { path: name, numbered: false, end_line: 100000 }));
  const lines = String(read["content"]).split("\n");
  lines.splice(1, 0, "// added");
  const added = await ws.call("write_file", { path: name, content: lines.join("\n") + "\n" });
  assert.ok(added.ok);
  assert.match(
    added.warnings.join("\n"),
    /mixes CRLF and LF line endings: 1 added line took the dominant CRLF/,
  );
  const text = new TextDecoder().decode(await backend.readFile(`/w/${name}`) as Uint8Array);
  const orig = new TextDecoder().decode(bytes).split(/(?<=\n)/);
  assert.equal(text, [orig[0], "// added\r\n", ...orig.slice(1)].join(""));
});

Deno.test("write_file() converts line endings and the BOM when asked", async () => {
  const { res, after } = await roundTrip("tslib-modules-index.js", 3, "// changed", { eol: "lf", bom: true });
  assert.ok(res.ok);
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(after);
  assert.ok(!text.includes("\r"));
  assert.deepEqual([...after.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  const nsi = await roundTrip("NSIS.template.in", 2, "; changed", { bom: false, eol: "crlf" });
  assert.notDeepEqual([...nsi.after.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  assert.match(new TextDecoder().decode(nsi.after), /^; CPack install script[^\n]*\r\n; changed\r\n/);
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

Deno.test("write_file() of a file over the parse limit with the syntax guard on refuses before reading it; off, it keeps its endings", async () => {
  const { createMemoryBackend, createWorkspace } = await import("../../../src/mod.ts");
  const { createWasmLoader } = await import("../../../src/adapters/deno/mod.ts");
  const big = Array.from({ length: 200 }, (_, i) => `export const a${i} = ${i};\r\n`).join("");
  const raw = createMemoryBackend({ "/w/big.ts": big });
  const reads: string[] = [];
  const backend = {
    ...raw,
    readFile: (p: string) => {
      reads.push(p);
      return raw.readFile(p);
    },
  };
  const ws = await createWorkspace({ backend, root: "/w", wasm: createWasmLoader(), maxParseBytes: 2048 });
  const guarded = await ws.call("write_file", {
    path: "big.ts",
    content: big.replaceAll("\r\n", "\n") + "x;\n",
  });
  assert.equal(code(guarded), "limit_exceeded");
  assert.deepEqual(reads.filter((p) => p.endsWith("big.ts")), [], "refused from its size, before a read");
  const off = await ws.call("write_file", {
    path: "big.ts",
    content: big.replaceAll("\r\n", "\n") + "x;\n",
    syntax_guard: "off",
  });
  assert.ok(off.ok, JSON.stringify(off));
  assert.equal(new TextDecoder().decode(await raw.readFile("/w/big.ts") as Uint8Array), big + "x;\r\n");
});
