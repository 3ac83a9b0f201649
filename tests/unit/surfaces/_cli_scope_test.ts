import assert from "node:assert/strict";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import {
  cliScope,
  exitOfAll,
  failsEveryPath,
  openOnce,
  withShownPaths,
} from "../../../src/surfaces/_cli_scope.ts";
import type { ToolResult } from "../../../src/tools/types.ts";

const host = {
  cwd: "/w/app",
  backend: createMemoryBackend({ "/w/app/src/a.ts": "", "/w/lib/b.ts": "", "/other/c.py": "" }),
};

/** The scope, or a failed assertion when it is a problem. */
async function scope(given: { root?: string; path?: string }) {
  const s = await cliScope(host, given);
  if ("problem" in s) throw new Error(s.problem);
  return s;
}

Deno.test("cliScope: a PATH inside the root, however written, is the tool's root-relative path", async () => {
  for (
    const [path, rel, shown] of [
      ["src", "src", "src/a.ts"],
      ["./src/", "src", "./src/a.ts"],
      ["../app/src", "src", "../app/src/a.ts"],
      ["/w/app/src", "src", "/w/app/src/a.ts"],
      [".", undefined, "./src/a.ts"],
      ["src/a.ts", "src/a.ts", "src/a.ts"],
    ] as const
  ) {
    const s = await scope({ path });
    assert.equal(s.root, undefined, path);
    assert.equal(s.path, rel, path);
    assert.equal(s.shown("src/a.ts"), shown, path);
  }
  const none = await scope({});
  assert.equal(none.path, undefined);
  assert.equal(none.shown("src/a.ts"), "src/a.ts", "no PATH: the paths as the tool gives them");
});

Deno.test("cliScope: outside the root with no --root, a folder is its own root and a file its folder's", async () => {
  const folder = await scope({ path: "../lib" });
  assert.deepEqual([folder.root, folder.path, folder.shown("b.ts")], ["/w/lib", undefined, "../lib/b.ts"]);
  const file = await scope({ path: "/other/c.py" });
  assert.deepEqual([file.root, file.path, file.shown("c.py")], ["/other", "c.py", "/other/c.py"]);
  const top = await scope({ path: "/" });
  assert.deepEqual([top.root, top.shown("other/c.py")], ["/", "/other/c.py"]);
});

Deno.test("cliScope: outside a given --root, or absent, PATH is a problem that says why", async () => {
  const outside = await cliScope(host, { root: ".", path: "../lib" });
  assert.ok("problem" in outside);
  assert.match(outside.problem, /"\.\.\/lib" is outside the workspace root "\/w\/app" \(--root\)/);
  const inside = await cliScope(host, { root: "..", path: "../lib" });
  assert.ok(!("problem" in inside));
  assert.equal(inside.path, "lib");
  const absent = await cliScope(host, { path: "/nowhere" });
  assert.ok("problem" in absent);
  assert.match(absent.problem, /no such file or folder/);
});

Deno.test("withShownPaths rewrites the paths of matches, files and counts, and leaves the result alone", () => {
  const data = {
    matches: [{ path: "a.ts", line: 1 }],
    files: [{ path: "b.ts" }],
    counts: [{ path: "c.ts", count: 2 }],
  };
  const shown = withShownPaths(data, (p) => `./${p}`);
  assert.deepEqual(shown, {
    matches: [{ path: "./a.ts", line: 1 }],
    files: [{ path: "./b.ts" }],
    counts: [{ path: "./c.ts", count: 2 }],
  });
  assert.equal(data.matches[0]!.path, "a.ts");
});

Deno.test("several PATHs: exit 2 when one failed, else 0 when one found; a bad query stops, a bad PATH does not", () => {
  assert.equal(exitOfAll([1, 0, 1]), 0);
  assert.equal(exitOfAll([1, 1]), 1);
  assert.equal(exitOfAll([0, 2, 0]), 2);
  const failed = (code: string) => ({ ok: false, error: { code, message: "" } }) as unknown as ToolResult;
  assert.equal(failsEveryPath(failed("invalid_args")), true);
  assert.equal(failsEveryPath(failed("invalid_query")), true);
  for (const code of ["not_found", "sandbox_violation", "binary_file"]) {
    assert.equal(failsEveryPath(failed(code)), false);
  }
  assert.equal(failsEveryPath({ ok: true } as unknown as ToolResult), false);
});

Deno.test("openOnce opens each root's workspace once, however many PATHs lie under it", async () => {
  const opened: (string | undefined)[] = [];
  const open = openOnce((root) => Promise.resolve(opened.push(root)));
  await Promise.all([open("/a"), open(undefined), open("/a"), open(undefined), open("/b")]);
  assert.deepEqual(opened, ["/a", undefined, "/b"]);
});
