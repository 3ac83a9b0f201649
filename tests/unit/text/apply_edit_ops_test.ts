import assert from "node:assert/strict";
import { fixtureUrl } from "../../_helpers.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { unifiedDiff } from "../../../src/fs/unified_diff.ts";
import { applyEditOps } from "../../../src/text/apply_edit_ops.ts";
import { parseEdits } from "../../../src/text/parse_edits.ts";
import type { EditBlock, FileOp } from "../../../src/text/types.ts";
import { createWorkspace, type Workspace } from "../../../src/workspace.ts";
import { Stage } from "../../../src/fs/stage.ts";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";

const REAL = ["string.js", "idb-keyval.ts", "scanner.c", "typed_array_names.js", "binding.cc"];
const texts: Record<string, string> = {};
for (const name of REAL) texts[name] = await Deno.readTextFile(fixtureUrl("text", name));

const enc = (s: string) => new TextEncoder().encode(s);
const BOM = new Uint8Array([0xef, 0xbb, 0xbf]);

function withBom(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length + 3);
  out.set(BOM);
  out.set(bytes, 3);
  return out;
}

async function workspace(files: Record<string, string | Uint8Array>): Promise<Workspace> {
  const init: Record<string, string | Uint8Array> = {};
  for (const [k, v] of Object.entries(files)) init[`/${k}`] = v;
  return await createWorkspace({ backend: createMemoryBackend(init as Record<string, string>) });
}

async function bytesOf(ws: Workspace, path: string): Promise<Uint8Array> {
  return (await ws.fs.read(`/${path}`))!;
}

const VARIANTS: { name: string; make: (t: string) => Uint8Array; eol: string }[] = [
  { name: "LF", make: (t) => enc(t), eol: "\n" },
  { name: "CRLF", make: (t) => enc(t.replace(/\n/g, "\r\n")), eol: "\r\n" },
  { name: "BOM + CRLF", make: (t) => withBom(enc(t.replace(/\n/g, "\r\n"))), eol: "\r\n" },
  { name: "no final newline", make: (t) => enc(t.replace(/\n+$/, "")), eol: "\n" },
];

/** A real edit of a file: change one line, insert two, delete one. */
function edited(text: string, eol: string): string {
  const lines = text.split(eol);
  lines[4] = lines[4] + " // changed";
  lines.splice(9, 0, "// inserted one", "// inserted two");
  lines.splice(14, 1);
  return lines.join(eol);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

for (const file of REAL) {
  for (const v of VARIANTS) {
    Deno.test(`apply_edits round trip restores the bytes: ${file} (${v.name})`, async () => {
      const before = v.make(texts[file]!);
      const hasBom = v.name.startsWith("BOM");
      const body = new TextDecoder().decode(hasBom ? before.subarray(3) : before);
      const afterBody = enc(edited(body, v.eol));
      const after = hasBom ? concat(BOM, afterBody) : afterBody;
      const ws = await workspace({ [file]: before });
      const forward = unifiedDiff(file, before, after);
      const r1 = await ws.call("apply_edits", { text: forward });
      assert.ok(r1.ok, JSON.stringify(r1));
      assert.deepEqual(await bytesOf(ws, file), after);
      const reverse = unifiedDiff(file, after, before);
      const r2 = await ws.call("apply_edits", { text: reverse });
      assert.ok(r2.ok, JSON.stringify(r2));
      assert.deepEqual(await bytesOf(ws, file), before);
    });
  }
}

Deno.test("apply_edits keeps each line's ending in a mixed-ending file and gives new lines the dominant one", async () => {
  const before = "a\r\nb\nc\r\nd\r\ne\n";
  const ws = await workspace({ "m.txt": before });
  const res = await ws.call("apply_edits", {
    text: "m.txt\n<<<<<<< SEARCH\nb\nc\n=======\nB\nC\nC2\n>>>>>>> REPLACE\n",
  });
  assert.ok(res.ok, JSON.stringify(res));
  assert.equal(new TextDecoder().decode(await bytesOf(ws, "m.txt")), "a\r\nB\nC\r\nC2\r\nd\r\ne\n");
});

Deno.test("apply_edits appends with an empty SEARCH and keeps a missing final newline", async () => {
  const ws = await workspace({ "n.txt": "one\ntwo" });
  const res = await ws.call("apply_edits", {
    text: "n.txt\n<<<<<<< SEARCH\n=======\nthree\n>>>>>>> REPLACE\n",
  });
  assert.ok(res.ok, JSON.stringify(res));
  assert.equal(new TextDecoder().decode(await bytesOf(ws, "n.txt")), "one\ntwo\nthree");
  assert.equal((res.data["blocks"] as { tier: string }[])[0]!.tier, "append");
});

Deno.test("apply_edits creates a file from an empty SEARCH", async () => {
  const ws = await workspace({ "a.txt": "x\n" });
  const res = await ws.call("apply_edits", {
    text: "src/new.ts\n```ts\n<<<<<<< SEARCH\n=======\nexport const a = 1;\n>>>>>>> REPLACE\n```\n",
  });
  assert.ok(res.ok, JSON.stringify(res));
  assert.equal(new TextDecoder().decode(await bytesOf(ws, "src/new.ts")), "export const a = 1;\n");
});

Deno.test("apply_edits refuses a binary or non-UTF-8 target and writes nothing", async () => {
  const ws = await workspace({
    "b.bin": new Uint8Array([0x61, 0, 0x62, 0x0a]),
    "l.txt": new Uint8Array([0x61, 0xff, 0x0a]),
  });
  const bin = await ws.call("apply_edits", {
    text: "b.bin\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n",
  });
  assert.ok(!bin.ok);
  assert.equal(bin.error.code, "binary_file");
  const latin = await ws.call("apply_edits", {
    text: "l.txt\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n",
  });
  assert.ok(!latin.ok);
  assert.equal(latin.error.code, "encoding");
});

Deno.test("applyEditOps() finds a SEARCH text that lives in another file", async () => {
  const fs = createMemoryBackend({ "/src/a.js": texts["string.js"]!, "/src/b.c": texts["scanner.c"]! });
  const ws = await createWorkspace({ backend: fs });
  const stage = new Stage(ws.fs, ws.sandbox);
  const search = texts["scanner.c"]!.split("\n").slice(23, 26).join("\n");
  const { ops } = parseEdits(`src/a.js\n<<<<<<< SEARCH\n${search}\n=======\nx\n>>>>>>> REPLACE\n`);
  const result = await applyEditOps(stage, ops);
  assert.equal(result.failed, 1);
  const error = result.blocks[0]!.error!;
  assert.equal(error.code, "no_match");
  assert.deepEqual(error.details?.["found_in"], [{ path: "src/b.c", start_line: 24, end_line: 26 }]);
  assert.match(error.hint, /Found in another file: "src\/b\.c" lines 24-26/);
});

Deno.test("apply_edits is all-or-nothing: one failing block writes nothing and reports every block", async () => {
  const ws = await workspace({ "a.js": texts["string.js"]! });
  const text = [
    "a.js",
    "<<<<<<< SEARCH",
    "export function longestCommonPrefix(str1, str2) {",
    "=======",
    "export function longestCommonPrefix(a, b) {",
    ">>>>>>> REPLACE",
    "<<<<<<< SEARCH",
    "export function doesNotExist() {",
    "=======",
    "x",
    ">>>>>>> REPLACE",
  ].join("\n");
  const res = await ws.call("apply_edits", { text });
  assert.ok(!res.ok);
  assert.equal(res.error.code, "no_match");
  assert.match(res.error.message, /block 2 \(input line 7\)/);
  const blocks = res.error.details?.["blocks"] as { status: string; tier?: string }[];
  assert.deepEqual(blocks.map((b) => b.status), ["applied", "failed"]);
  assert.equal(new TextDecoder().decode(await bytesOf(ws, "a.js")), texts["string.js"]);
  const partial = await ws.call("apply_edits", { text, partial: true });
  assert.ok(partial.ok, JSON.stringify(partial));
  assert.equal(partial.data["applied"], 1);
  assert.equal(partial.data["failed"], 1);
  assert.equal(partial.changes.length, 1);
  assert.match(partial.warnings.join("\n"), /1 block failed/);
  assert.match(new TextDecoder().decode(await bytesOf(ws, "a.js")), /longestCommonPrefix\(a, b\)/);
});

Deno.test("apply_edits applies *** Begin Patch add, delete, update and move in one commit", async () => {
  const ws = await workspace({
    "src/app.py":
      "class App:\n    def run(self):\n        return 1\n\n    def stop(self):\n        return 1\n",
    "old.py": "bye\n",
  });
  const res = await ws.call("apply_edits", {
    text: [
      "*** Begin Patch",
      "*** Add File: docs/new.md",
      "+# Title",
      "*** Delete File: old.py",
      "*** Update File: src/app.py",
      "*** Move to: src/main.py",
      "@@ def stop(self):",
      "-        return 1",
      "+        return 0",
      "*** End Patch",
    ].join("\n"),
  });
  assert.ok(res.ok, JSON.stringify(res));
  assert.equal(await ws.fs.read("/old.py"), null);
  assert.equal(await ws.fs.read("/src/app.py"), null);
  assert.equal(
    new TextDecoder().decode(await bytesOf(ws, "src/main.py")),
    "class App:\n    def run(self):\n        return 1\n\n    def stop(self):\n        return 0\n",
  );
  assert.equal(new TextDecoder().decode(await bytesOf(ws, "docs/new.md")), "# Title\n");
  assert.deepEqual(res.changes.map((c) => c.path).sort(), ["docs/new.md", "old.py", "src/main.py"]);
});

Deno.test("apply_edits uses @@ numbers to pick among duplicates and shifts them after earlier hunks", async () => {
  const text = "x = 1\ny = 2\nx = 1\ny = 2\nx = 1\n";
  const ws = await workspace({ "d.py": text });
  const diff = "--- a/d.py\n+++ b/d.py\n@@ -1,1 +1,2 @@\n x = 1\n+z = 0\n@@ -5,1 +6,1 @@\n-x = 1\n+x = 9\n";
  const res = await ws.call("apply_edits", { text: diff });
  assert.ok(res.ok, JSON.stringify(res));
  assert.equal(
    new TextDecoder().decode(await bytesOf(ws, "d.py")),
    "x = 1\nz = 0\ny = 2\nx = 1\ny = 2\nx = 9\n",
  );
});

Deno.test("apply_edits inserts a *** Begin Patch chunk of added lines right after its @@ anchor", async () => {
  const ws = await workspace({
    "m.py": "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n",
  });
  const res = await ws.call("apply_edits", {
    text: "*** Begin Patch\n*** Update File: m.py\n@@ def g(self):\n+        print('g')\n*** End Patch\n",
  });
  assert.ok(res.ok, JSON.stringify(res));
  assert.equal(
    new TextDecoder().decode(await bytesOf(ws, "m.py")),
    "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        print('g')\n        return 2\n",
  );
  const miss = await ws.call("apply_edits", {
    text:
      "*** Begin Patch\n*** Update File: m.py\n@@ return 1\n+x\n@@ return 2\n+y\n@@ def\n+z\n*** End Patch\n",
  });
  assert.ok(!miss.ok);
  assert.equal(miss.error.code, "no_match");
});

Deno.test("applyEditOps() never reads a symlink that leaves the root when scanning other files", async () => {
  const outside = await Deno.makeTempDir();
  const root = await Deno.makeTempDir();
  try {
    const secret = texts["scanner.c"]!;
    await Deno.writeTextFile(`${outside}/secret.c`, secret);
    await Deno.writeTextFile(`${root}/a.js`, texts["string.js"]!);
    await Deno.writeTextFile(`${root}/inside.c`, secret);
    await Deno.symlink(`${outside}/secret.c`, `${root}/leak.c`);
    const ws = await createWorkspace({ backend: createDiskBackend(), root });
    const search = secret.split("\n").slice(23, 26).join("\n");
    const res = await ws.call("apply_edits", {
      text: `a.js\n<<<<<<< SEARCH\n${search}\n=======\nx\n>>>>>>> REPLACE\n`,
    });
    assert.ok(!res.ok);
    assert.deepEqual((res.error.details?.["found_in"] as { path: string }[]).map((f) => f.path), [
      "inside.c",
    ]);
  } finally {
    await Deno.remove(outside, { recursive: true });
    await Deno.remove(root, { recursive: true });
  }
});

/** One block's error after applying `text` to the real idb-keyval.ts (and `extra` files). */
async function blockError(text: string, extra: Record<string, string> = {}) {
  const ws = await workspace({ "idb-keyval.ts": texts["idb-keyval.ts"]!, ...extra });
  const res = await ws.call("apply_edits", { text });
  assert.ok(!res.ok, JSON.stringify(res));
  assert.equal(
    await ws.fs.read("/idb-keyval.ts").then((b) => new TextDecoder().decode(b!)),
    texts["idb-keyval.ts"],
  );
  return res.error;
}

Deno.test("did-you-mean takes the hunk's own line when its @@ number and first line match, not a lookalike elsewhere", async () => {
  // A hunk written against an older `del` (line 76) whose body looked like `get` (lines 54-59).
  const text = [
    "--- a/idb-keyval.ts",
    "+++ b/idb-keyval.ts",
    "@@ -76,6 +76,6 @@",
    " export function del(key: IDBValidKey, store = getDefaultStore()): Promise<void> {",
    "   let req: IDBRequest;",
    "   return store._withIDBStore('readwrite', store => {",
    "-    req = store.get(key);",
    "+    req = store.getKey(key);",
    "     store.delete(key);",
    "   }).then(() => req.result);",
    "",
  ].join("\n");
  const err = await blockError(text);
  assert.equal(err.code, "no_match");
  const dym = err.details!["did_you_mean"] as { start_line: number; end_line: number };
  assert.equal(dym.start_line, 76);
  assert.match(err.hint, /Did you mean lines 76-/);
});

Deno.test("a block that differs only in spacing inside lines matches at the whitespace tier", async () => {
  const ws = await workspace({ "idb-keyval.ts": texts["idb-keyval.ts"]! });
  const text = "idb-keyval.ts\n<<<<<<< SEARCH\n" +
    "export function clear(store  =  getDefaultStore()): Promise<void> {\n" +
    "  return store._withIDBStore('readwrite',\tstore => {\n" +
    "    store.clear();\n" +
    "=======\n" +
    "export function clear(store  =  getDefaultStore()): Promise<void> {\n" +
    "  return store._withIDBStore('readwrite',\tstore => {\n" +
    "    store.clear(); // all of it\n" +
    ">>>>>>> REPLACE\n";
  const res = await ws.call("apply_edits", { text });
  assert.ok(res.ok, JSON.stringify(res));
  const block = (res.data["blocks"] as { tier: string; confidence: string; lines: unknown }[])[0]!;
  assert.deepEqual([block.tier, block.confidence, block.lines], ["whitespace", "medium", {
    start: 82,
    end: 84,
  }]);
  // The lines the model kept are written with the file's own bytes: a one-line diff.
  assert.equal(res.changes[0]!.diff.split("\n").filter((l) => /^[-+][^-+]/.test(l)).length, 2);
});

Deno.test("a block that differs only in whitespace the ladder cannot map is not called 'no lines': it says what differs", async () => {
  // The model re-indented the body unevenly (2 -> 4 on one line, 4 -> 4 on the next).
  const text = "idb-keyval.ts\n<<<<<<< SEARCH\n" +
    "export function clear(store = getDefaultStore()): Promise<void> {\n" +
    "    return store._withIDBStore('readwrite', store => {\n" +
    "    store.clear();\n" +
    "=======\n" +
    "export function clear(store = getDefaultStore()): Promise<void> {\n" +
    "    return store._withIDBStore('readonly', store => {\n" +
    "    store.clear();\n" +
    ">>>>>>> REPLACE\n";
  const err = await blockError(text);
  assert.equal(err.code, "no_match");
  assert.match(err.message, /differs from lines 82-84 only in whitespace: indentation on line 83$/);
  assert.doesNotMatch(err.message, /matches no lines/);
  assert.doesNotMatch(err.hint, /similarity 1\b/);
});

Deno.test("a SEARCH found in another file gets one hint sentence per finding, without doubled punctuation", async () => {
  const err = await blockError(
    "idb-keyval.ts\n<<<<<<< SEARCH\nconst elsewhere = 1;\n=======\nconst elsewhere = 2;\n>>>>>>> REPLACE\n",
    { "other.ts": "// other\nconst elsewhere = 1;\n" },
  );
  assert.equal(err.code, "no_match");
  assert.match(err.hint, /did you mean that file\? /);
  assert.doesNotMatch(err.hint, /[.?!]\./);
});

Deno.test("a one-line did-you-mean says 'line N', not 'lines N'", async () => {
  const err = await blockError(
    "idb-keyval.ts\n<<<<<<< SEARCH\n    store.delete(keys);\n=======\n    store.delete(k);\n>>>>>>> REPLACE\n",
  );
  assert.equal(err.code, "no_match");
  assert.match(err.hint, /Did you mean line 78 \(similarity 0\.\d+\)\?/);
});

// Issue 22, item 14: a file's last block is spliced into its bytes (the new text is not built); the bytes must
// be those of the text edited and encoded, whatever the characters before the block take in UTF-8.
Deno.test("apply_edits and edit_file splice the bytes exactly in a BOM, CRLF, non-ASCII file", async () => {
  const text = "const café = 1;\r\n// 😀 ß\r\nfunction f() {\r\n  return café;\r\n}\r\nconst last = 2;\r\n";
  const file = withBom(enc(text));
  const cases: [string, Record<string, unknown>, string][] = [
    [
      "apply_edits",
      { text: "a.ts\n<<<<<<< SEARCH\n  return café;\n=======\n  return café + 1; // é\n>>>>>>> REPLACE\n" },
      text.replace("  return café;", "  return café + 1; // é"),
    ],
    [
      "apply_edits",
      {
        text: "a.ts\n<<<<<<< SEARCH\n// 😀 ß\n=======\n// 😀 ẞ\n>>>>>>> REPLACE\n" +
          "a.ts\n<<<<<<< SEARCH\nconst last = 2;\n=======\nconst last = 3;\n>>>>>>> REPLACE\n",
      },
      text.replace("// 😀 ß", "// 😀 ẞ").replace("last = 2", "last = 3"),
    ],
    [
      "edit_file",
      { path: "a.ts", old_string: "café = 1", new_string: "café = 10" },
      text.replace("café = 1", "café = 10"),
    ],
    [
      "edit_file",
      {
        path: "a.ts",
        old_string: "function f() {   \n  return café;\n}",
        new_string: "function f() {\n  return 0;\n}",
      },
      text.replace("  return café;", "  return 0;"),
    ],
  ];
  for (const [tool, args, expected] of cases) {
    const ws = await workspace({ "a.ts": file });
    const res = await ws.call(tool, args);
    assert.ok(res.ok, JSON.stringify(res));
    assert.deepEqual(await bytesOf(ws, "a.ts"), withBom(enc(expected)), `${tool} ${JSON.stringify(args)}`);
  }
});

/** The file's text on a stage after `ops`, and each block's outcome (status, tier, lines, error code). */
async function outcomeOf(text: string, ops: FileOp[]): Promise<{ text: string; blocks: unknown[] }> {
  const ws = await createWorkspace({ backend: createMemoryBackend({ "/a.js": text }) });
  const stage = new Stage(ws.fs, ws.sandbox);
  const result = await applyEditOps(stage, ops, { searchWorkspace: false });
  const blocks = result.blocks.map((b) => [b.status, b.tier, b.lines, b.new_lines, b.error?.code]);
  return { text: (await stage.readText("a.js")).text, blocks };
}

Deno.test("applyEditOps(): a later block sees the text the earlier blocks left, as if each block were sent alone", async () => {
  // The blocks of one operation against the same blocks as one operation each (each reads the file anew).
  const text = texts["string.js"]!;
  const lines = text.split("\n");
  let seed = 7;
  const random = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
  const kinds = new Map<string, number>();
  for (let round = 0; round < 300; round++) {
    const blocks: EditBlock[] = [];
    for (let k = 0; k < 2 + random(3); k++) {
      const at = random(lines.length - 4);
      const n = 1 + random(3);
      let search = lines.slice(at, at + n);
      let replace = search.map((l) => `${l} // edit ${round}.${k}`);
      const kind = ["edit", "copy", "delete", "after-earlier", "overlap"][random(5)]!;
      if (kind === "copy") {
        replace = lines.slice(random(lines.length - n), 0).concat(lines.slice(at + 1, at + 1 + n));
      }
      if (kind === "delete") replace = [];
      const last = blocks[blocks.length - 1];
      // SEARCH text that only exists once the block before it is applied, or that overlaps what it changed.
      if (kind === "after-earlier" && last && last.replace.length > 0) search = last.replace.slice(0, 2);
      if (kind === "overlap" && last) search = [...last.search.slice(-1), lines[at]!];
      if (search.join("").trim() === "") continue;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      blocks.push({ search, replace, inputLine: k + 1 });
    }
    const together = await outcomeOf(text, [{ kind: "edit", path: "a.js", blocks, inputLine: 1 }]);
    const apart = await outcomeOf(
      text,
      blocks.map((b) => ({ kind: "edit", path: "a.js", blocks: [b], inputLine: 1 })),
    );
    assert.deepEqual(together, apart, `round ${round}: ${JSON.stringify(blocks)}`);
  }
  assert.equal(kinds.size, 5);
});

Deno.test("applyEditOps(): a later block matches text only an earlier block wrote, and an earlier block's copy makes it ambiguous", async () => {
  const filler = Array.from({ length: 400 }, (_, i) => `const v${i} = ${i};`).join("\n");
  const text = `function a() {\n  return 1;\n}\n${filler}\nfunction b() {\n  return 2;\n}\n`;
  const block = (search: string[], replace: string[]): EditBlock => ({ search, replace, inputLine: 1 });
  const edit = (...blocks: EditBlock[]): FileOp[] => [{ kind: "edit", path: "a.js", blocks, inputLine: 1 }];
  // Block 2's SEARCH exists only in block 1's REPLACE.
  const after = await outcomeOf(
    text,
    edit(block(["  return 1;"], ["  return 10;"]), block(["  return 10;"], ["  return 11;"])),
  );
  assert.match(after.text, /^function a\(\) \{\n {2}return 11;\n\}/);
  assert.deepEqual(after.blocks.map((b) => (b as unknown[])[0]), ["applied", "applied"]);
  // Block 1 writes a second copy of block 2's SEARCH (far from where it was): block 2 is ambiguous.
  const twice = await outcomeOf(
    text,
    edit(block(["  return 1;"], ["  return 2;"]), block(["  return 2;"], ["  return 3;"])),
  );
  assert.equal((twice.blocks[1] as unknown[])[4], "ambiguous");
  // Block 1 removes block 2's SEARCH: block 2 no longer matches.
  const gone = await outcomeOf(
    text,
    edit(block(["  return 2;"], ["  return 20;"]), block(["  return 2;"], ["  return 3;"])),
  );
  assert.equal((gone.blocks[1] as unknown[])[4], "no_match");
  // A block far below an earlier one that added lines reports its lines in the new text.
  const shifted = await outcomeOf(
    text,
    edit(block(["  return 1;"], ["  one();", "  return 1;"]), block(["  return 2;"], ["  return 3;"])),
  );
  assert.deepEqual((shifted.blocks[1] as unknown[]).slice(0, 3), ["applied", "exact", {
    start: 406,
    end: 406,
  }]);
});
