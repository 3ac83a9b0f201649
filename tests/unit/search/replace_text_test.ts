import assert from "node:assert/strict";
import { RecoverableError } from "../../../src/errors.ts";
import { applySites, idsByFile, planTextReplace, selectSites } from "../../../src/search/replace_text.ts";
import { normalizeSearchTextArgs } from "../../../src/search/text_args.ts";

const V1 = "a".repeat(64);
const V2 = "b".repeat(64);

Deno.test("applySites() replaces each span in order; idsByFile() groups ids by their file", () => {
  assert.equal(
    applySites("log(a); log(b);", [{ start: 0, end: 3, after: "info" }, {
      start: 8,
      end: 11,
      after: "warn",
    }]),
    "info(a); warn(b);",
  );
  const id = (path: string, line: number) => ({ path, line, column: 1, version: V1.slice(0, 12) });
  assert.deepEqual(
    [...idsByFile([id("a.ts", 1), id("b.ts", 2), id("a.ts", 3)])].map(([p, ids]) => [p, ids.length]),
    [
      ["a.ts", 2],
      ["b.ts", 1],
    ],
  );
});

Deno.test("selectSites() keeps the sites the ids name, and refuses a stale file or an id that names nothing", () => {
  const sites = [{ line: 1, column: 1 }, { line: 2, column: 5 }];
  const id = (line: number, column: number, version = V1) => ({
    path: "a.ts",
    line,
    column,
    version: version.slice(0, 12),
  });
  const file = { path: "a.ts", version: V1, sites };
  const search = { tool: "search_text", args: { pattern: "log\\(", ignore_case: true } };
  assert.deepEqual(selectSites(file, { ids: [id(2, 5)], search }), [{ line: 2, column: 5 }]);
  assert.throws(
    () => selectSites(file, { ids: [id(2, 5, V2)], search }),
    (e: unknown) =>
      e instanceof RecoverableError && e.code === "stale_base" && e.suggestedCall?.tool === "search_text" &&
      // The next call is the search again, whole: before, `{path}` alone, which search_text refuses.
      JSON.stringify(e.suggestedCall.args) === JSON.stringify({ ...search.args, path: "a.ts" }),
  );
  assert.throws(
    () => selectSites(file, { ids: [id(3, 1)], search }),
    (e: unknown) => e instanceof RecoverableError && e.code === "no_match",
  );
});

Deno.test("planTextReplace() replaces every occurrence with the template's groups and lists each site", async () => {
  const texts: Record<string, string> = { "a.ts": "log(a);\nlog(b, c);\n", "b.ts": "nothing\n" };
  const files = {
    async *files() {
      yield { path: "a.ts" };
      yield { path: "b.ts" };
    },
    read: (path: string) => Promise.resolve(new TextEncoder().encode(texts[path])),
  };
  const query = normalizeSearchTextArgs({ pattern: "log\\((\\w+)" });
  const plan = await planTextReplace(files, {
    query,
    replacement: "info($1",
    literalReplacement: false,
    ids: null,
  });
  assert.deepEqual(plan.files.map((f) => [f.path, f.newText]), [["a.ts", "info(a);\ninfo(b, c);\n"]]);
  assert.deepEqual(plan.files[0]!.sites.map((s) => [s.line, s.column, s.before, s.after]), [
    [1, 1, "log(a", "info(a"],
    [2, 1, "log(b", "info(b"],
  ]);
});
