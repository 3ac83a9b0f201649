/**
 * edit_replace_text: every occurrence of a search replaced in one atomic commit, or only the ids an earlier
 * search returned; files as search_text selects them; bytes around each site untouched (BOM, CRLF). On a
 * real tree (hono's published package) each changed file equals ripgrep's own replacement of it
 * (`rg --passthru -r`), and no other file changes.
 */
import assert from "node:assert/strict";
import { type Backend, createWorkspace } from "../../../src/mod.ts";
import { createDiskBackend, createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { RG_SAME_IGNORES, ripgrepPath } from "../search/_rg.ts";
import { code, okData, open } from "./_files.ts";

const TREE = {
  "/w/src/log.ts": "\uFEFFlog(a);\r\nlog(b, c);\r\n",
  "/w/src/deep/x.ts": "  if (ok) log(x)\n",
  "/w/docs/log.md": "log(q)\n",
};

type Site = { line: number; column: number; before: string; after: string; id: string };
type FileEntry = { path: string; count: number; sites: Site[] };

const dec = new TextDecoder();

async function bytesOf(backend: Backend, path: string): Promise<Uint8Array> {
  const content = await backend.readFile(path);
  return typeof content === "string" ? new TextEncoder().encode(content) : content;
}

Deno.test("edit_replace_text replaces every occurrence with groups expanded, keeping BOM and CRLF", async () => {
  const { ws, backend } = await open(TREE);
  const r = await ws.call("edit_replace_text", {
    pattern: "log\\((\\w+)",
    replacement: "console.log($1",
    type: "ts",
  });
  const d = okData(r);
  assert.equal(d["replaced"], 3);
  assert.deepEqual((d["files"] as FileEntry[]).map((f) => [f.path, f.count]), [["src/deep/x.ts", 1], [
    "src/log.ts",
    2,
  ]]);
  const log = await bytesOf(backend, "/w/src/log.ts");
  assert.deepEqual([...log!.slice(0, 3)], [0xef, 0xbb, 0xbf], "the BOM is kept");
  assert.equal(dec.decode(log!.slice(3)), "console.log(a);\r\nconsole.log(b, c);\r\n");
  assert.equal(dec.decode((await bytesOf(backend, "/w/src/deep/x.ts"))!), "  if (ok) console.log(x)\n");
  assert.equal(
    dec.decode((await bytesOf(backend, "/w/docs/log.md"))!),
    "log(q)\n",
    "type ts leaves .md alone",
  );
});

Deno.test("edit_replace_text with ids changes only those occurrences; a changed file's id is refused stale_base", async () => {
  const { ws, backend } = await open(TREE);
  const found = okData(await ws.call("search_text", { pattern: "log\\(", glob: "src/**" }));
  const ids = (found["matches"] as { submatches: { id: string }[] }[]).map((m) => m.submatches[0]!.id);
  assert.equal(ids.length, 3);
  const at = (prefix: string) => ids.find((id) => id.startsWith(prefix))!;
  const one = okData(
    await ws.call("edit_replace_text", {
      pattern: "log\\(",
      replacement: "warn(",
      ids: [at("src/log.ts:2:1@")],
    }),
  );
  assert.equal(one["replaced"], 1);
  assert.equal(dec.decode((await bytesOf(backend, "/w/src/log.ts"))!.slice(3)), "log(a);\r\nwarn(b, c);\r\n");
  // log.ts changed: its other id may name other text now.
  const stale = await ws.call("edit_replace_text", {
    pattern: "log\\(",
    replacement: "warn(",
    ids: [at("src/log.ts:1:1@")],
  });
  assert.equal(code(stale), "stale_base");
  assert.ok(!stale.ok && stale.error.suggested_call?.tool === "search_text");
  // The call it suggests gives the fresh ids (it named the path alone, which search_text refuses).
  const next = stale.error.suggested_call!;
  const fresh = okData(await ws.call(next.tool, next.args));
  assert.equal((fresh["matches"] as unknown[]).length, 1);
  assert.equal(dec.decode((await bytesOf(backend, "/w/src/log.ts"))!.slice(3)), "log(a);\r\nwarn(b, c);\r\n");
  // An id of an unchanged file at a place the pattern does not match names nothing.
  const elsewhere = await ws.call("edit_replace_text", {
    pattern: "if",
    replacement: "when",
    ids: [at("src/deep/x.ts:")],
  });
  assert.equal(code(elsewhere), "no_match");
});

Deno.test("edit_replace_text refuses, writing nothing: a count that differs, a group the pattern lacks, no match, a file that is not UTF-8", async () => {
  const { ws, backend } = await open({
    ...TREE,
    "/w/latin1.txt": new Uint8Array([0x6c, 0x6f, 0x67, 0x28, 0xe9]),
  });
  const before = dec.decode((await bytesOf(backend, "/w/src/log.ts"))!);
  const many = await ws.call("edit_replace_text", {
    pattern: "log\\(",
    replacement: "x(",
    expected_count: 2,
  });
  assert.equal(code(many), "ambiguous");
  assert.match(!many.ok ? many.error.message : "", /expected_count is 2, but 5 occurrences/);
  const few = await ws.call("edit_replace_text", { pattern: "log\\(", replacement: "x(", expected_count: 9 });
  assert.equal(code(few), "no_match");
  // An empty pattern matches at every position: refused, not a replacement between every two characters.
  for (const args of [{ pattern: "", replacement: "x" }, { pattern: "", replacement: "x", literal: true }]) {
    const empty = await ws.call("edit_replace_text", { ...args, path: "latin1.txt" });
    assert.equal(code(empty), "invalid_args");
    assert.match(!empty.ok ? empty.error.message : "", /empty pattern: it matches at every position/);
  }
  const group = await ws.call("edit_replace_text", { pattern: "log\\((\\w+)", replacement: "`${name}` $1" });
  assert.equal(code(group), "invalid_args");
  assert.match(!group.ok ? group.error.hint : "", /\$\$ for a literal \$/);
  const none = await ws.call("edit_replace_text", { pattern: "nothing_like_this", replacement: "x" });
  assert.equal(code(none), "no_match");
  assert.ok(!none.ok && none.error.suggested_call?.tool === "search_text");
  const latin = await ws.call("edit_replace_text", { pattern: "log(", literal: true, replacement: "x(" });
  assert.equal(code(latin), "encoding");
  assert.equal(dec.decode((await bytesOf(backend, "/w/src/log.ts"))!), before, "nothing was written");
  assert.deepEqual([...(await bytesOf(backend, "/w/latin1.txt"))!], [0x6c, 0x6f, 0x67, 0x28, 0xe9]);
});

Deno.test("edit_replace_text: a literal replacement keeps ${…} and $1 as text; dry_run writes nothing", async () => {
  const { ws, backend } = await open(TREE);
  const dry = await ws.call("edit_replace_text", {
    pattern: "log(",
    literal: true,
    replacement: "t(`${x}$1`, ",
    path: "src/deep",
    dry_run: true,
  });
  assert.ok(dry.ok && dry.status === "dry_run", JSON.stringify(dry));
  assert.match(dry.changes[0]!.diff!, /\+ {2}if \(ok\) t\(`\$\{x\}\$1`, x\)/);
  assert.equal(dec.decode((await bytesOf(backend, "/w/src/deep/x.ts"))!), "  if (ok) log(x)\n");
});

Deno.test("edit_replace_text is refused for no unread site, and names the changed lines the session has not seen", async () => {
  const { ws } = await open(TREE);
  const s = { session: "agent" };
  // Searched: the lines it showed count as seen, so no warning.
  await ws.call("search_text", { pattern: "log\\(", path: "src/deep" }, s);
  const seen = await ws.call("edit_replace_text", {
    pattern: "log\\(",
    replacement: "warn(",
    path: "src/deep",
  }, s);
  assert.ok(seen.ok && seen.status === "applied", JSON.stringify(seen));
  assert.deepEqual(seen.warnings, []);
  // Never searched nor read: applied, with the lines named.
  const blind = await ws.call(
    "edit_replace_text",
    { pattern: "log\\(", replacement: "warn(", path: "docs" },
    s,
  );
  assert.ok(blind.ok && blind.status === "applied", JSON.stringify(blind));
  assert.match(blind.warnings.join("\n"), /has not read: "docs\/log\.md" line 1\./);
});

const rg = await ripgrepPath();
const HONO_DIST = Deno.realPathSync(new URL("../../../node_modules/hono/dist", import.meta.url));

/** Replacement cases on hono's package: search_text arguments and the same as ripgrep flags. */
const CASES = [
  { args: { pattern: "c\\.req\\.header\\(([^)]*)\\)", replacement: "c.req.header(/*h*/$1)" }, rg: [] },
  { args: { pattern: "(?P<kw>const|let) (?P<name>\\w+) = ", replacement: "${kw} ${name}$$ = " }, rg: [] },
  { args: { pattern: "response", replacement: "RESPONSE", word: true, ignore_case: true }, rg: ["-w", "-i"] },
  {
    args: { pattern: "export {", replacement: "export  {", literal: true, glob: "*.d.ts" },
    rg: ["-F", "-g", "*.d.ts"],
  },
];

async function rgOut(cwd: string, args: string[]): Promise<string> {
  const out = await new Deno.Command("rg", { args, cwd, stdout: "piped", stderr: "piped" }).output();
  if (out.code > 1) throw new Error(`rg ${args.join(" ")}: ${dec.decode(out.stderr)}`);
  return dec.decode(out.stdout);
}

Deno.test({
  name: "edit_replace_text equals ripgrep's replacement (rg --passthru -r) file by file on hono's package",
  ignore: rg === null,
}, async () => {
  for (const c of CASES) {
    const root = await Deno.makeTempDir({ prefix: "graver-replace-" });
    await new Deno.Command("cp", { args: ["-r", HONO_DIST, `${root}/dist`] }).output();
    const flags = [...RG_SAME_IGNORES, ...c.rg];
    const listed = (await rgOut(root, [...flags, "-l", "-e", c.args.pattern, "."])).trim().split("\n")
      .map((p) => p.replace(/^\.\//, "")).sort();
    assert.ok(listed.length > 0, `${c.args.pattern}: rg found nothing, the case checks nothing`);
    const expected = new Map<string, string>();
    for (const path of listed) {
      const replaced = await rgOut(root, [
        ...flags,
        "--passthru",
        "--no-filename",
        "--no-line-number",
        "--color",
        "never",
        "-r",
        c.args.replacement,
        "-e",
        c.args.pattern,
        path,
      ]);
      // rg prints a line end after a last line that has none; the file itself has none.
      const original = await Deno.readTextFile(`${root}/${path}`);
      expected.set(path, original.endsWith("\n") ? replaced : replaced.replace(/\n$/, ""));
    }
    const ws = await createWorkspace({ backend: createDiskBackend(), root, wasm: createWasmLoader() });
    // A text comparison: the syntax guard is off here (the next test shows it on).
    const d = okData(await ws.call("edit_replace_text", { ...c.args, max_sites: 0, syntax_guard: "off" }));
    const changed = (d["files"] as FileEntry[]).map((f) => f.path).sort();
    assert.deepEqual(changed, listed, `${c.args.pattern}: the files changed are the files rg lists`);
    for (const [path, text] of expected) {
      assert.equal(await Deno.readTextFile(`${root}/${path}`), text, `${c.args.pattern}: ${path}`);
    }
    const diff = await new Deno.Command("diff", { args: ["-rq", HONO_DIST, `${root}/dist`] }).output();
    const differing = dec.decode(diff.stdout).trim().split("\n").filter((l) => l !== "").length;
    assert.equal(differing, listed.length, "no file rg leaves alone changed");
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("edit_replace_text on a real tree: a rewrite that breaks code in some files is refused whole by the syntax guard", async () => {
  const root = await Deno.makeTempDir({ prefix: "graver-replace-" });
  await new Deno.Command("cp", { args: ["-r", HONO_DIST, `${root}/dist`] }).output();
  const ws = await createWorkspace({ backend: createDiskBackend(), root, wasm: createWasmLoader() });
  // `[^)]*` stops at the first ")" of a nested call: the rewrite unbalances the brackets in some files.
  const r = await ws.call("edit_replace_text", CASES[0]!.args);
  assert.equal(code(r), "syntax_error");
  assert.match(!r.ok ? r.error.message : "", /helper\/proxy\/index\.js" line \d+/);
  const diff = await new Deno.Command("diff", { args: ["-rq", HONO_DIST, `${root}/dist`] }).output();
  assert.equal(diff.code, 0, "no file changed: all or nothing");
  await Deno.remove(root, { recursive: true });
});

Deno.test("edit_replace_text inside a plan sees what an earlier op staged", async () => {
  const { ws } = await open(TREE);
  const plan = await ws.call("edit_dry_run", {
    plan: [
      { tool: "edit_file", args: { path: "src/deep/x.ts", old_string: "log(x)", new_string: "log(y)" } },
      {
        tool: "edit_replace_text",
        args: { pattern: "log\\((\\w)\\)", replacement: "warn($1)", path: "src/deep" },
      },
    ],
  });
  assert.ok(plan.ok, JSON.stringify(plan));
  const diff = plan.changes.find((c) => c.path === "src/deep/x.ts")!.diff!;
  assert.match(diff, /\+ {2}if \(ok\) warn\(y\)/);
});
