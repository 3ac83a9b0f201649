import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace } from "../../../src/mod.ts";
import { createDiskBackend, createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import type { CliHost } from "../../../src/surfaces/cli.ts";
import {
  failureText,
  integerFlag,
  paintDiff,
  painter,
  startProgress,
  stoppedText,
} from "../../../src/surfaces/cli_output.ts";

Deno.test("paintDiff() colours added, removed, hunk and file lines; plain paint leaves the diff as it is", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({ "/a.txt": "one\ntwo\n" }) });
  const r = await ws.call("edit_file", { path: "a.txt", old_string: "two", new_string: "2", dry_run: true });
  assert.ok(r.ok);
  const diff = r.changes[0]!.diff;
  assert.equal(paintDiff(diff, painter({ color: false })), diff);
  const coloured = paintDiff(diff, painter({ color: true }));
  assert.ok(coloured.includes("\x1b[31m-two\x1b[39m"));
  assert.ok(coloured.includes("\x1b[32m+2\x1b[39m"));
  assert.ok(coloured.includes("\x1b[36m@@ -1,2 +1,2 @@\x1b[39m"));
  assert.ok(coloured.includes("\x1b[1m--- a/a.txt\x1b[22m"));
});

Deno.test("failureText() shows the code, hint, the next call and the did-you-mean diff", async () => {
  // a miss on a real file (diff@9.0.0's libesm/util/string.js): the engine answers with the closest lines
  const source = await Deno.readTextFile(new URL("../../fixtures/text/string.js", import.meta.url));
  const ws = await createWorkspace({ backend: createMemoryBackend({ "/s.js": source }) });
  const r = await ws.call("edit_file", {
    path: "s.js",
    old_string:
      "export function replacePrefix(string, oldPrefix, newPrefix) {\n    if (string.slice(0, oldPrefix.length) !== oldPrefix) {",
    new_string: "x",
  });
  assert.ok(!r.ok);
  const text = failureText(r, painter({}));
  assert.match(text, /^error no_match: /);
  assert.match(text, /\nhint: /);
  assert.match(text, /\nnext: graver call read_file '\{"path":"s.js","start_line":\d+/);
  assert.match(text, /^\+26 \| /m, "the did-you-mean diff");
});

Deno.test("integerFlag() takes positive whole numbers only", () => {
  assert.equal(integerFlag({ depth: "2" }, "depth"), 2);
  assert.equal(integerFlag({}, "depth"), undefined);
  for (const bad of ["0", "-1", "1.5", "two", ""]) {
    assert.deepEqual(integerFlag({ depth: bad }, "depth"), {
      problem: `option "--depth" takes a positive whole number, not "${bad}"`,
    });
  }
});

Deno.test("startProgress() writes nothing unless stderr is a terminal, and clears its line on stop", () => {
  let err = "";
  const host: CliHost = {
    stdout: () => {},
    stderr: (t) => err += t,
    readStdin: () => Promise.resolve(""),
    readHostFile: () => Promise.resolve(""),
    cwd: "/",
    backend: createDiskBackend(),
    wasm: createWasmLoader(),
  };
  const off = startProgress(host, "work");
  off.update("1/2");
  off.stop();
  assert.equal(err, "");
  const on = startProgress({ ...host, progress: true, progressDelayMs: 0 }, "graver stats: reading");
  on.update("1/2 files");
  on.stop();
  const [first, drawn, cleared] = err.split("\r\x1b[K").slice(1);
  assert.match(first!, /^graver stats: reading \(\d+\.\ds\)$/, "with no delay the line shows at once");
  assert.match(drawn!, /^graver stats: reading 1\/2 files \(\d+\.\ds\)$/);
  assert.equal(cleared, "");
  assert.ok(err.startsWith("\r\x1b[K") && err.endsWith("\r\x1b[K"));
  const late = startProgress({ ...host, progress: true, progressDelayMs: 60_000 }, "slow");
  late.update("1/2");
  late.stop();
  assert.doesNotMatch(err, /slow/, "quick work shows no line");
});

Deno.test("stoppedText() says whether a search stopped at --max-results or at the output's budget", () => {
  const result = (data: Record<string, unknown>) =>
    ({
      ok: true,
      tool: "search_structural",
      status: "read",
      changes: [],
      data,
      warnings: [],
      reminders: [],
    }) as never;
  const args = { max_results: 3, max_chars: 50_000_000 };
  assert.equal(stoppedText("graver sg", result({ summary: { truncated: false } }), args), "");
  assert.equal(
    stoppedText(
      "graver sg",
      result({ summary: { truncated: true, shortened: "none" }, matches: [1, 2, 3] }),
      args,
    ),
    "graver sg: stopped at --max-results 3; narrow the search or raise it\n",
  );
  // A page of ast-grep's shape cut by the budget (each match carries its line), and a content page shortened.
  for (
    const data of [
      { summary: { truncated: true }, ast_grep: [1] },
      { summary: { truncated: true, shortened: "counts" }, counts: [] },
    ]
  ) {
    assert.match(
      stoppedText("graver grep", result(data), args),
      /^graver grep: stopped where the output reached 50,000,000 characters \(matches on very long lines/,
    );
  }
});
