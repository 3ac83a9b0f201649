import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { createWorkspace, type Workspace } from "../../../src/workspace.ts";
import {
  MAX_BODY_LINES,
  MAX_BODY_LINES_TOTAL,
  MAX_SEARCH_FILE_BYTES,
  MAX_SEARCH_FILES,
} from "../../../src/tools/find_symbol.ts";
import { fixtureUrl } from "../../_helpers.ts";
import { IMPL_HEADER, implRichRust } from "../syntax/_impl_rust.ts";

const FILES: Record<string, string> = {
  "/src/a.ts": "export class Store {\n  get(key: string) {\n    return key;\n  }\n}\n",
  "/src/b.py": "class Store:\n    def get(self, key):\n        return key\n",
  "/src/c.go": "package c\n\ntype Cache struct{}\n\nfunc (c *Cache) Get() int {\n\treturn 1\n}\n",
  "/node_modules/x/index.js": "class Store { get() {} }\n",
  "/data.json": '{"get": 1}\n',
  "/README.md": "# get\n",
};

async function workspace(): Promise<Workspace> {
  return await createWorkspace({ backend: createMemoryBackend(FILES), wasm: createWasmLoader() });
}

type Match = { path: string; name_path: string; kind: string; start_line: number; body?: string };

Deno.test("find_symbol() searches every source file of the workspace, skipping node_modules and data files", async () => {
  const ws = await workspace();
  const res = await ws.call("find_symbol", { name_path: "get" });
  assert.ok(res.ok);
  const matches = res.data["matches"] as Match[];
  assert.deepEqual(matches.map((m) => `${m.path}:${m.name_path}`), [
    "src/a.ts:Store/get",
    "src/b.py:Store/get",
  ]);
  assert.equal(res.data["files_searched"], 3);
});

Deno.test("find_symbol() takes Outer/inner, a path filter, include_body, and receiver-qualified Go methods", async () => {
  const ws = await workspace();
  const res = await ws.call("find_symbol", { name_path: "Store/get", path: "src/b.py", include_body: true });
  assert.ok(res.ok);
  assert.deepEqual(res.data["matches"], [{
    path: "src/b.py",
    name_path: "Store/get",
    kind: "method",
    start_line: 2,
    end_line: 3,
    body: "    def get(self, key):\n        return key",
  }]);
  const go = await ws.call("find_symbol", { name_path: "Cache/Get", path: "src" });
  assert.ok(go.ok && (go.data["matches"] as Match[])[0]!.path === "src/c.go");
});

Deno.test("find_symbol() matches part of a name with substring and suggests names when nothing matches", async () => {
  const ws = await workspace();
  const sub = await ws.call("find_symbol", { name_path: "Stor", substring: true });
  assert.ok(sub.ok && sub.data["count"] === 2);
  const miss = await ws.call("find_symbol", { name_path: "Stroe" });
  assert.ok(!miss.ok && miss.error.code === "not_found");
  assert.deepEqual(miss.error.details!["did_you_mean"], ["Store"]);
});

Deno.test("find_symbol() reuses cached trees on a warm call and sees staged edits after a commit", async () => {
  const ws = await workspace();
  assert.ok((await ws.call("find_symbol", { name_path: "get" })).ok);
  const parses = ws.trees!.fullParses + ws.trees!.incrementalParses;
  assert.ok((await ws.call("find_symbol", { name_path: "get" })).ok);
  assert.equal(ws.trees!.fullParses + ws.trees!.incrementalParses, parses, "warm call parses nothing");
  const ins = await ws.call("insert_code", {
    path: "src/a.ts",
    name_path: "Store/get",
    position: "after",
    code: "put(key: string) {\n  return key;\n}",
  });
  assert.ok(ins.ok);
  const res = await ws.call("find_symbol", { name_path: "Store/put" });
  assert.ok(res.ok && (res.data["matches"] as Match[])[0]!.start_line === 6);
});

Deno.test("find_symbol() on a file without a grammar answers unsupported_language with read_file; on Markdown it finds headings", async () => {
  const ws = await createWorkspace({
    backend: createMemoryBackend({ ...FILES, "/Makefile": "get:\n\ttrue\n" }),
    wasm: createWasmLoader(),
  });
  const res = await ws.call("find_symbol", { name_path: "get", path: "Makefile" });
  assert.ok(!res.ok && res.error.code === "unsupported_language");
  assert.deepEqual(res.error.suggested_call, { tool: "read_file", args: { path: "Makefile" } });
  const md = await ws.call("find_symbol", { name_path: "get", path: "README.md" });
  assert.ok(md.ok);
  assert.deepEqual(md.data["matches"], [
    { path: "README.md", name_path: "get", kind: "heading", start_line: 1, end_line: 1 },
  ]);
});

Deno.test("find_symbol() does not parse files whose text cannot define the name, and still finds headers across whitespace", async () => {
  const ws = await createWorkspace({
    backend: createMemoryBackend({
      "/a.rs": "struct Point;\nimpl   Display\n  for Point {\n    fn fmt(&self) {}\n}\n",
      "/b.rs": "fn unrelated() {}\n",
      "/c.rs": "fn other() {}\n",
    }),
    wasm: createWasmLoader(),
  });
  const res = await ws.call("find_symbol", { name_path: "impl Display for Point/fmt" });
  assert.ok(res.ok);
  assert.deepEqual((res.data["matches"] as Match[]).map((m) => m.path), ["a.rs"]);
  assert.equal(res.data["files_searched"], 3);
  assert.equal(ws.trees!.size, 1, "only a.rs was parsed");
});

Deno.test("find_symbol() caps bodies: each at MAX_BODY_LINES, all at MAX_BODY_LINES_TOTAL, saying where the rest is", async () => {
  const long = (name: string, n: number) =>
    `function ${name}() {\n${Array.from({ length: n }, (_, i) => `  step(${i});`).join("\n")}\n}\n`;
  const ws = await createWorkspace({
    backend: createMemoryBackend({
      "/a.ts": long("big", MAX_BODY_LINES + 50),
      "/b.ts": [1, 2, 3, 4, 5].map((i) => long(`part${i}`, 900)).join("\n"),
    }),
    wasm: createWasmLoader(),
  });
  const big = await ws.call("find_symbol", { name_path: "big", include_body: true });
  assert.ok(big.ok);
  const m = (big.data["matches"] as Record<string, unknown>[])[0]!;
  assert.equal((m["body"] as string).split("\n").length, MAX_BODY_LINES);
  assert.deepEqual(m["body_truncated"], { shown_lines: MAX_BODY_LINES, total_lines: MAX_BODY_LINES + 52 });
  assert.match(
    big.warnings.join("\n"),
    new RegExp(`read_file \\{"path": "a.ts", "start_line": ${MAX_BODY_LINES + 1}`),
  );
  const parts = await ws.call("find_symbol", { name_path: "part", substring: true, include_body: true });
  assert.ok(parts.ok);
  const shown = (parts.data["matches"] as Record<string, unknown>[]).map((x) =>
    typeof x["body"] === "string" ? (x["body"] as string).split("\n").length : 0
  );
  assert.equal(shown.reduce((a, b) => a + b, 0), MAX_BODY_LINES_TOTAL);
  assert.deepEqual((parts.data["matches"] as Record<string, unknown>[])[4]!["body_truncated"], {
    shown_lines: MAX_BODY_LINES_TOTAL - 4 * 902,
    total_lines: 902,
  });
});

Deno.test("find_symbol() not_found in a file the grammar misreads says the name may be in its unparsed lines", async () => {
  // effect@4.1.0 src/internal/doNotation.ts: `FlatMap` (line 15) is lost in an ERROR node.
  const text = await Deno.readTextFile(fixtureUrl("unparsed", "doNotation.ts"));
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/src/doNotation.ts": text, "/src/ok.ts": "export function ok() {}\n" }),
    wasm: createWasmLoader(),
  });
  const res = await ws.call("find_symbol", { name_path: "FlatMap" });
  assert.ok(!res.ok);
  assert.equal(res.error.code, "not_found");
  assert.match(
    res.error.message,
    /"src\/doNotation\.ts" lines 13–15 \(line 15 mentions "FlatMap"\) could not be parsed, so it may be there/,
  );
  assert.match(
    res.error.hint,
    /read_file \{"path": "src\/doNotation\.ts", "start_line": 13, "end_line": 15\}/,
  );
  assert.match(res.error.hint, /grammar may not support/);
  assert.ok((res.error.details as { unparsed: unknown[] })["unparsed"].length === 1);
  // A match in such a file comes with the warning too.
  const bind = await ws.call("find_symbol", { name_path: "bind" });
  assert.ok(bind.ok);
  assert.match(bind.warnings.join("\n"), /"src\/doNotation\.ts" .*could not be parsed/);
  // Junk from inside ERROR nodes is never a match.
  const junk = await ws.call("find_symbol", { name_path: "K in", substring: true });
  assert.ok(!junk.ok);
});

Deno.test("find_symbol() skips .gitignored build output and node_modules unless include_ignored", async () => {
  const ws = await createWorkspace({
    backend: createMemoryBackend({
      "/w/.gitignore": "dist/\n",
      "/w/src/a.ts": "export function real() {}\n",
      "/w/dist/a.d.ts": "export declare function real(): void;\nexport declare function built(): void;\n",
      "/w/node_modules/pkg/index.d.ts": "export declare function vendored(): void;\n",
      "/w/.git/hooks/x.ts": "export function hook() {}\n",
    }),
    root: "/w",
    wasm: createWasmLoader(),
  });
  const real = await ws.call("find_symbol", { name_path: "real" });
  assert.ok(real.ok);
  assert.deepEqual((real.data["matches"] as { path: string }[]).map((m) => m.path), ["src/a.ts"]);
  const built = await ws.call("find_symbol", { name_path: "built" });
  assert.ok(!built.ok);
  assert.equal(built.error.code, "not_found");
  assert.match(built.error.hint, /include_ignored: true/);
  const withIgnored = await ws.call("find_symbol", { name_path: "vendored", include_ignored: true });
  assert.ok(withIgnored.ok);
  assert.deepEqual((withIgnored.data["matches"] as { path: string }[]).map((m) => m.path), [
    "node_modules/pkg/index.d.ts",
  ]);
  const both = await ws.call("find_symbol", { name_path: "real", include_ignored: true });
  assert.ok(both.ok);
  assert.deepEqual((both.data["matches"] as { path: string }[]).map((m) => m.path), [
    "dist/a.d.ts",
    "src/a.ts",
  ]);
  const hook = await ws.call("find_symbol", { name_path: "hook", include_ignored: true });
  assert.ok(!hook.ok, "never inside .git/");
});

/** A TypeScript file just over MAX_SEARCH_FILE_BYTES that defines `needle` at its end. */
function largeSource(): string {
  const one = (i: number) => `export function f${i}(a: number): number {\n  return a + ${i};\n}\n`;
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size <= MAX_SEARCH_FILE_BYTES; i++) {
    parts.push(one(i));
    size += one(i).length;
  }
  return parts.join("") + "export function needle() {}\n";
}

Deno.test("find_symbol() searches a file over MAX_SEARCH_FILE_BYTES named by path, and reports one a directory search leaves out", async () => {
  const big = largeSource();
  assert.ok(big.length > MAX_SEARCH_FILE_BYTES);
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/w/gen/big.ts": big, "/w/src/a.ts": "export const other = 1;\n" }),
    root: "/w",
    wasm: createWasmLoader(),
  });
  const named = await ws.call("find_symbol", { name_path: "needle", path: "gen/big.ts" });
  assert.ok(named.ok, JSON.stringify(named));
  assert.deepEqual((named.data["matches"] as Match[]).map((m) => `${m.path}:${m.name_path}`), [
    "gen/big.ts:needle",
  ]);
  // A directory search does not parse it, but says so: its size and the call that searches it.
  const all = await ws.call("find_symbol", { name_path: "needle" });
  assert.ok(!all.ok);
  assert.equal(all.error.code, "not_found");
  assert.match(
    all.error.message,
    /1 left out for size though it mentions "needle": "gen\/big\.ts" 2(\.\d)? MiB/,
  );
  assert.deepEqual(all.error.details!["skipped_large"], [{ path: "gen/big.ts", bytes: big.length }]);
  assert.deepEqual(all.error.suggested_call, {
    tool: "find_symbol",
    args: { name_path: "needle", path: "gen/big.ts" },
  });
  const next = await ws.call(all.error.suggested_call!.tool, all.error.suggested_call!.args);
  assert.ok(next.ok, "the suggested call works");
  // A match elsewhere comes with the large file named as a warning and in the data.
  await ws.call("write_file", { path: "src/b.ts", content: "export function needle() {}\n" });
  const found = await ws.call("find_symbol", { name_path: "needle" });
  assert.ok(found.ok);
  assert.deepEqual((found.data["matches"] as Match[]).map((m) => m.path), ["src/b.ts"]);
  assert.deepEqual(found.data["skipped_large"], [{ path: "gen/big.ts", bytes: big.length }]);
  assert.match(
    found.warnings.join("\n"),
    /Did not parse "gen\/big\.ts" .*find_symbol \{"name_path":"needle","path":"gen\/big\.ts"\}/,
  );
  // A large file that does not mention the name cannot define it: nothing to report.
  const other = await ws.call("find_symbol", { name_path: "other" });
  assert.ok(other.ok && other.data["skipped_large"] === undefined && other.warnings.length === 0);
});

Deno.test("find_symbol() past MAX_SEARCH_FILES says the search was capped, what it did not reach and the call that goes on", async () => {
  const files: Record<string, string> = {};
  const half = Math.ceil(MAX_SEARCH_FILES * 0.6);
  for (const dir of ["pkg0", "pkg1"]) {
    for (let i = 0; i < half; i++) {
      const n = String(i).padStart(5, "0");
      files[`/w/${dir}/m${n}.ts`] = `export function ${dir}_${n}() {}\n`;
    }
  }
  files["/w/pkg1/zz.ts"] = "export function needle() {}\n";
  files["/w/tools/a.ts"] = "export function tool() {}\n";
  const ws = await createWorkspace({
    backend: createMemoryBackend(files),
    root: "/w",
    wasm: createWasmLoader(),
  });
  const firstLeft = `pkg1/m${String(MAX_SEARCH_FILES - half).padStart(5, "0")}.ts`;
  const miss = await ws.call("find_symbol", { name_path: "needle" });
  assert.ok(!miss.ok);
  assert.equal(miss.error.code, "not_found");
  assert.match(miss.error.message, /stopped at its cap/);
  assert.match(miss.error.hint, new RegExp(`stopped at ${MAX_SEARCH_FILES} files .*before "${firstLeft}"`));
  const capped = miss.error.details!["capped"] as Record<string, unknown>;
  assert.equal(capped["limit"], MAX_SEARCH_FILES);
  assert.equal(capped["first"], firstLeft);
  assert.deepEqual(capped["paths"], ["pkg1/", "tools/"]);
  assert.deepEqual(capped["top"], ["tools/"]);
  assert.deepEqual(miss.error.suggested_call, {
    tool: "find_symbol",
    args: { name_path: "needle", path: "pkg1" },
  });
  const next = await ws.call(miss.error.suggested_call!.tool, miss.error.suggested_call!.args);
  assert.ok(next.ok, "the narrower call finds it");
  assert.deepEqual((next.data["matches"] as Match[]).map((m) => m.path), ["pkg1/zz.ts"]);
  // A match before the cap still says the search was capped.
  const found = await ws.call("find_symbol", { name_path: "pkg0_00001" });
  assert.ok(found.ok);
  assert.equal(found.data["truncated"], true);
  assert.equal((found.data["capped"] as Record<string, unknown>)["first"], firstLeft);
  assert.match(
    found.warnings.join("\n"),
    /not searched: "pkg1\/", "tools\/".*find_symbol \{"name_path":"pkg0_00001","path":"pkg1"\}/,
  );
});

Deno.test("find_symbol() include_body gives a method's lines as in the file: the first keeps its indentation like the rest", async () => {
  const text = implRichRust(3);
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/w/standard.rs": text }),
    root: "/w",
    wasm: createWasmLoader(),
  });
  const res = await ws.call("find_symbol", { name_path: "write_part_1", include_body: true });
  assert.ok(res.ok, JSON.stringify(res));
  const [m] = res.data["matches"] as (Match & { end_line: number })[];
  assert.equal(m!.name_path, `${IMPL_HEADER}/write_part_1`);
  const fileLines = text.split("\n").slice(m!.start_line - 1, m!.end_line);
  assert.deepEqual(m!.body!.split("\n"), fileLines);
  assert.equal(m!.body!.split("\n")[0], "    /// Write part 1 of a line.");
  // A definition that does not start its line keeps its own text from where it starts.
  const inline = await createWorkspace({
    backend: createMemoryBackend({ "/a.ts": "const x = 1; function f() {\n  return x;\n}\n" }),
    wasm: createWasmLoader(),
  });
  const f = await inline.call("find_symbol", { name_path: "f", include_body: true });
  assert.ok(f.ok);
  assert.equal((f.data["matches"] as Match[])[0]!.body, "function f() {\n  return x;\n}");
});
