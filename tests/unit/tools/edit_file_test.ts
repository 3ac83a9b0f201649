import assert from "node:assert/strict";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { createWorkspace, type Workspace } from "../../../src/workspace.ts";
import { createDiskBackend, createWasmLoader } from "../../../src/adapters/deno/mod.ts";

const FIXTURE = await Deno.readTextFile(new URL("../../fixtures/text/string.js", import.meta.url));

async function open(files: Record<string, string>): Promise<Workspace> {
  const init: Record<string, string> = {};
  for (const [k, v] of Object.entries(files)) init[`/${k}`] = v;
  return await createWorkspace({ backend: createMemoryBackend(init) });
}

async function text(ws: Workspace, path: string): Promise<string> {
  return new TextDecoder().decode((await ws.fs.read(`/${path}`))!);
}

const ALIASES: [string, string][] = [["old_string", "new_string"], ["old_str", "new_str"], [
  "old_text",
  "new_text",
]];

for (const [o, n] of ALIASES) {
  Deno.test(`edit_file accepts ${o}/${n}`, async () => {
    const ws = await open({ "s.js": FIXTURE });
    const res = await ws.call("edit_file", {
      path: "s.js",
      [o]: "str1.slice(0, i);\n        }",
      [n]: "str1.slice(0, i + 0);\n        }",
    });
    assert.ok(res.ok, JSON.stringify(res));
    assert.equal(
      await text(ws, "s.js"),
      FIXTURE.replace("str1.slice(0, i);\n        }", "str1.slice(0, i + 0);\n        }"),
    );
    assert.equal((res.data["block"] as { tier: string }).tier, "exact");
  });
}

Deno.test("edit_file refuses two aliases of old_string", async () => {
  const ws = await open({ "s.js": FIXTURE });
  const res = await ws.call("edit_file", { path: "s.js", old_string: "a", old_str: "a", new_string: "b" });
  assert.ok(!res.ok);
  assert.equal(res.error.code, "invalid_args");
});

Deno.test("edit_file refuses several matches, lists them, and replace_all or start_line decide", async () => {
  const ws = await open({ "s.js": FIXTURE });
  const amb = await ws.call("edit_file", {
    path: "s.js",
    old_string: "    let i;",
    new_string: "    let j;",
  });
  assert.ok(!amb.ok);
  assert.equal(amb.error.code, "ambiguous");
  assert.deepEqual((amb.error.details?.["candidates"] as { start_line: number }[]).map((c) => c.start_line), [
    2,
    11,
    155,
  ]);
  const one = await ws.call("edit_file", {
    path: "s.js",
    old_string: "    let i;",
    new_string: "    let j;",
    start_line: 11,
  });
  assert.ok(one.ok, JSON.stringify(one));
  assert.equal((await text(ws, "s.js")).split("\n")[10], "    let j;");
  const all = await ws.call("edit_file", {
    path: "s.js",
    old_string: "let i;",
    new_string: "let k;",
    replace_all: true,
  });
  assert.ok(all.ok);
  assert.equal(all.data["replaced"], 2);
});

Deno.test("edit_file matches LF old_string in a CRLF file and writes CRLF", async () => {
  const ws = await open({ "c.txt": "one\r\ntwo\r\nthree\r\n" });
  const res = await ws.call("edit_file", {
    path: "c.txt",
    old_string: "one\ntwo",
    new_string: "one\n2\ntwo",
  });
  assert.ok(res.ok, JSON.stringify(res));
  assert.equal(await text(ws, "c.txt"), "one\r\n2\r\ntwo\r\nthree\r\n");
});

Deno.test("edit_file falls back to the ladder for drifted whole lines", async () => {
  const ws = await open({ "s.js": FIXTURE });
  const res = await ws.call("edit_file", {
    path: "s.js",
    old_string: "if (!oldSuffix) {\n    return string + newSuffix;\n}",
    new_string: "if (!oldSuffix) {\n    return newSuffix + string;\n}",
  });
  assert.ok(res.ok, JSON.stringify(res));
  assert.equal((res.data["block"] as { tier: string }).tier, "indentation");
  assert.match(await text(ws, "s.js"), /^ {8}return newSuffix \+ string;$/m);
});

Deno.test("edit_file explains a miss with the closest lines", async () => {
  const ws = await open({ "s.js": FIXTURE });
  const res = await ws.call("edit_file", {
    path: "s.js",
    old_string:
      "export function replacePrefix(string, oldPrefix, newPrefix) {\n    if (string.slice(0, oldPrefix.length) !== oldPrefix) {",
    new_string: "x",
  });
  assert.ok(!res.ok);
  assert.equal(res.error.code, "no_match");
  const dym = res.error.details?.["did_you_mean"] as { start_line: number; end_line: number; diff: string };
  assert.equal(dym.start_line, 25);
  assert.match(dym.diff, /^\+26 \| /m);
  assert.deepEqual(res.error.suggested_call?.tool, "read_file");
});

Deno.test("edit_file with an empty old_string creates a missing file and refuses an existing one", async () => {
  const ws = await open({ "s.js": FIXTURE });
  const created = await ws.call("edit_file", { path: "n.txt", old_string: "", new_string: "hi\n" });
  assert.ok(created.ok);
  assert.equal(await text(ws, "n.txt"), "hi\n");
  const refused = await ws.call("edit_file", { path: "s.js", old_string: "", new_string: "x" });
  assert.ok(!refused.ok);
  assert.equal(refused.error.code, "invalid_args");
});

Deno.test("edit_file sent again after it landed is already_applied when new_string holds old_string", async () => {
  const ws = await open({ "string.js": FIXTURE });
  const line = FIXTURE.split("\n").find((l) => l.trim().length > 20 && FIXTURE.split(l).length === 2)!;
  const args = { path: "string.js", old_string: line, new_string: `${line} // checked` };
  const first = await ws.call("edit_file", args);
  assert.ok(first.ok && first.status === "applied");
  const once = await text(ws, "string.js");
  const again = await ws.call("edit_file", args);
  assert.ok(!again.ok && again.error.code === "already_applied", JSON.stringify(again));
  assert.match(again.error.message, /new_string is already at line \d+/);
  assert.equal(await text(ws, "string.js"), once, "the comment is not added twice");
  // Text added before the old text, too.
  const prefix = { path: "string.js", old_string: line, new_string: `// checked\n${line}` };
  assert.ok((await ws.call("edit_file", prefix)).ok);
  const twice = await ws.call("edit_file", prefix);
  assert.ok(!twice.ok && twice.error.code === "already_applied");
});

Deno.test("edit_file takes the MCP filesystem server's shape: edits [{oldText, newText}] in order, all or none, and dryRun", async () => {
  const ws = await open({ "s.js": FIXTURE });
  const edits = [
    { oldText: "export function replacePrefix(", newText: "export function swapPrefix(" },
    { oldText: "swapPrefix(string, oldPrefix, newPrefix)", newText: "swapPrefix(string, from, to)" },
  ];
  const dry = await ws.call("edit_file", { path: "s.js", edits, dryRun: true });
  assert.ok(dry.ok && dry.status === "dry_run", JSON.stringify(dry));
  assert.equal(await text(ws, "s.js"), FIXTURE);
  const res = await ws.call("edit_file", { path: "s.js", edits });
  assert.ok(res.ok, JSON.stringify(res));
  assert.equal(res.data["replaced"], 2);
  assert.deepEqual((res.data["blocks"] as { block: number }[]).map((b) => b.block), [1, 2]);
  assert.match(await text(ws, "s.js"), /^export function swapPrefix\(string, from, to\)/m);
  const after = await text(ws, "s.js");
  const partial = await ws.call("edit_file", {
    path: "s.js",
    edits: [{ oldText: "swapPrefix(", newText: "prefixSwap(" }, {
      oldText: "no such text at all",
      newText: "",
    }],
  });
  assert.ok(!partial.ok && partial.error.code === "no_match", JSON.stringify(partial));
  assert.equal(await text(ws, "s.js"), after, "the first edit is not written when the second fails");
  const both = await ws.call("edit_file", { path: "s.js", edits, old_string: "a", new_string: "b" });
  assert.ok(
    !both.ok && both.error.code === "invalid_args" && /"edits" and "old_string"/.test(both.error.message),
  );
});

Deno.test("edit_file, write_file and read_file take Claude Code's file_path", async () => {
  const ws = await open({ "s.js": FIXTURE });
  const read = await ws.call("read_file", { file_path: "s.js", start_line: 1, end_line: 1 });
  assert.ok(read.ok, JSON.stringify(read));
  const edit = await ws.call("edit_file", {
    file_path: "s.js",
    old_string: "export function replacePrefix(",
    new_string: "export function swapPrefix(",
    replace_all: false,
  });
  assert.ok(edit.ok, JSON.stringify(edit));
  const write = await ws.call("write_file", { file_path: "n.txt", content: "new\n" });
  assert.ok(write.ok, JSON.stringify(write));
  assert.equal(await text(ws, "n.txt"), "new\n");
  const clash = await ws.call("write_file", { file_path: "n.txt", path: "m.txt", content: "x" });
  assert.ok(!clash.ok && clash.error.code === "invalid_args");
});

// Issue 22, item 14: a guarded text edit of a file over the parse limit is refused before the edit is
// computed (the old_string that matches nothing would otherwise be a no_match), from the file's size alone.
Deno.test("a guarded text edit of a file over maxParseBytes is refused up front, naming the size and the limit", async () => {
  const dir = await Deno.makeTempDir({ prefix: "graver-big-edit-" });
  try {
    const big = Array.from({ length: 200 }, (_, i) => `export const a${i} = ${i};\n`).join(""); // 4,780 bytes
    await Deno.writeTextFile(`${dir}/big.ts`, big);
    await Deno.writeTextFile(`${dir}/notes.txt`, big);
    const ws = await createWorkspace({
      backend: createDiskBackend(),
      root: dir,
      wasm: createWasmLoader(),
      maxParseBytes: 2048,
    });
    const calls: [string, Record<string, unknown>][] = [
      ["edit_file", { path: "big.ts", old_string: "not in the file", new_string: "x" }],
      ["apply_edits", { text: "big.ts\n<<<<<<< SEARCH\nnot in the file\n=======\nx\n>>>>>>> REPLACE\n" }],
      ["edit_safe_text_patch", { path: "big.ts", hunks: [{ old_text: "not in the file", new_text: "x" }] }],
      ["edit_file", { path: "big.ts", old_string: "a0 = 0", new_string: "a0 = 1" }],
    ];
    for (const [tool, args] of calls) {
      const res = await ws.call(tool, args);
      assert.ok(!res.ok, `${tool} ${JSON.stringify(res)}`);
      assert.equal(res.error.code, "limit_exceeded", `${tool}: ${res.error.message}`);
      assert.match(
        res.error.message,
        /Cannot parse "big\.ts": it is 4\.7 KiB \(4780 bytes or more\), over the parse limit of 2 KiB/,
      );
      assert.match(res.error.hint ?? "", /syntax_guard: "off"/);
    }
    assert.equal(await Deno.readTextFile(`${dir}/big.ts`), big, "nothing written on a refusal");
    // The guard off, or a file of no language: the edit is computed as before.
    const miss = await ws.call("edit_file", {
      path: "big.ts",
      old_string: "nope",
      new_string: "x",
      syntax_guard: "off",
    });
    assert.ok(!miss.ok);
    assert.equal(miss.error.code, "no_match");
    const txt = await ws.call("edit_file", { path: "notes.txt", old_string: "a0 = 0", new_string: "a0 = 1" });
    assert.ok(txt.ok, JSON.stringify(txt));
    const off = await ws.call("edit_file", {
      path: "big.ts",
      old_string: "a0 = 0",
      new_string: "a0 = 1",
      syntax_guard: "off",
    });
    assert.ok(off.ok, JSON.stringify(off));
    assert.equal(await Deno.readTextFile(`${dir}/big.ts`), big.replace("a0 = 0", "a0 = 1"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
