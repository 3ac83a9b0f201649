import assert from "node:assert/strict";
import { code, okData, open } from "./_files.ts";

const TREE = {
  "/w/src/util.ts": "export function helper(x: number) {\n  return x + 1;\n}\n// TODO: helper docs\n",
  "/w/src/main.ts": 'import { helper } from "./util.ts";\nconsole.log(helper(2));\nconst helpers = [];\n',
  "/w/lib/tool.py": "def helper():\n    return 1\n",
  "/w/.hidden/secret.ts": "helper\n",
  "/w/node_modules/dep/index.js": "helper\n",
};

type Match = { path: string; line: number; column: number; version: string; submatches: { id: string }[] };

Deno.test("search_text finds regex matches with 1-based lines and columns, skipping hidden, ignored and binary files", async () => {
  const { ws } = await open(TREE);
  const d = okData(await ws.call("search_text", { pattern: "helper\\(" }));
  const matches = d["matches"] as Match[];
  assert.deepEqual(matches.map((m) => `${m.path}:${m.line}:${m.column}`), [
    "lib/tool.py:1:5",
    "src/main.ts:2:13",
    "src/util.ts:1:17",
  ]);
  const summary = d["summary"] as { files_matched: number; skipped: { binary: number } };
  assert.equal(summary.files_matched, 3);
  assert.equal(summary.skipped.binary, 1); // img.bin is recognised, not decoded
});

Deno.test("search_text: each match's version is the one read_file reports, and its id names it", async () => {
  const { ws } = await open(TREE);
  const d = okData(await ws.call("search_text", { pattern: "TODO", literal: true }));
  const [m] = d["matches"] as Match[];
  const read = okData(await ws.call("read_file", { path: "src/util.ts" }));
  assert.equal(m!.version, read["version"]);
  assert.equal(m!.submatches[0]!.id, `src/util.ts:4:4@${m!.version.slice(0, 12)}`);
});

Deno.test("search_text takes the argument names of Claude Code's Grep, ripgrep and Serena", async () => {
  const { ws } = await open(TREE);
  const grep = okData(
    await ws.call("search_text", { pattern: "HELPER", "-i": true, "-g": "*.ts", "-n": true }),
  );
  const serena = okData(
    await ws.call("search_text", {
      substring_pattern: "HELPER",
      case_insensitive: true,
      paths_include_glob: "*.ts",
    }),
  );
  assert.deepEqual(grep["matches"], serena["matches"]);
  const words = okData(await ws.call("search_text", { pattern: "helper", "-w": true, type: "ts" }));
  assert.ok((words["matches"] as Match[]).every((m) => m.path.endsWith(".ts")));
  assert.ok(!(words["matches"] as { text: string }[]).some((m) => m.text.startsWith("const helpers")));
});

Deno.test("search_text pages with a cursor and says the first page was truncated", async () => {
  const { ws } = await open(TREE);
  const first = okData(await ws.call("search_text", { pattern: "helper", max_results: 2 }));
  assert.equal((first["summary"] as { truncated: boolean }).truncated, true);
  const next = okData(
    await ws.call("search_text", { pattern: "helper", max_results: 2, cursor: first["next_cursor"] }),
  );
  const all = okData(await ws.call("search_text", { pattern: "helper" }));
  assert.deepEqual(
    [...first["matches"] as Match[], ...next["matches"] as Match[]],
    (all["matches"] as Match[]).slice(0, 4),
  );
});

Deno.test("search_text refuses what RE2 cannot run in linear time, an unknown argument and a missing path", async () => {
  const { ws } = await open(TREE);
  assert.equal(code(await ws.call("search_text", { pattern: "(a)\\1" })), "invalid_args");
  assert.equal(code(await ws.call("search_text", { pattern: "x", bogus: true })), "invalid_args");
  assert.equal(code(await ws.call("search_text", { pattern: "x", path: "nope" })), "not_found");
  // A path outside the root is refused as such, not reported missing: it may well exist.
  for (const path of ["../elsewhere", "/etc"]) {
    const refused = await ws.call("search_text", { pattern: "x", path });
    assert.equal(code(refused), "sandbox_violation", path);
    assert.match(
      !refused.ok ? refused.error.message : "",
      /escapes the workspace root|outside the workspace root/,
    );
  }
});

Deno.test("search_text finds what an earlier call wrote", async () => {
  const { ws } = await open(TREE);
  await ws.call("write_file", { path: "src/new.ts", content: "export const helper2 = 1;\n" });
  const d = okData(await ws.call("search_text", { pattern: "helper2", output_mode: "files_with_matches" }));
  assert.deepEqual((d["files"] as { path: string }[]).map((f) => f.path), ["src/new.ts"]);
});

Deno.test("search_text names each match's enclosing symbol where the file has a grammar", async () => {
  const { ws } = await open({
    ...TREE,
    "/w/src/shapes.ts":
      "export class Box {\n  area(): number {\n    return this.w * this.h;\n  }\n}\nconst w = 1;\n",
  });
  const d = okData(await ws.call("search_text", { pattern: "return|TODO|const w" }));
  const got = (d["matches"] as (Match & { symbol?: string })[]).map((m) =>
    `${m.path}:${m.line} ${m.symbol ?? "-"}`
  );
  assert.deepEqual(got, [
    "lib/tool.py:2 helper",
    "src/shapes.ts:3 Box/area",
    "src/shapes.ts:6 w",
    "src/util.ts:2 helper",
    "src/util.ts:4 -",
  ]);
  // symbols: false names none (nothing is parsed for it), as `graver grep` asks for its ripgrep-shaped lines.
  const bare = okData(await ws.call("search_text", { pattern: "return|TODO|const w", symbols: false }));
  const matches = bare["matches"] as (Match & { symbol?: string })[];
  assert.equal(matches.length, 5);
  assert.ok(matches.every((m) => m.symbol === undefined));
});
