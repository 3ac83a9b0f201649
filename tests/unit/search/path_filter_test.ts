import assert from "node:assert/strict";
import { pathFilter } from "../../../src/search/path_filter.ts";
import type { RecoverableError } from "../../../src/errors.ts";

Deno.test("path_filter: ripgrep's -g: ! excludes, the later glob wins, a glob without / matches at any depth", () => {
  const keep = pathFilter({ globs: ["!*.js", "index.js"], types: [] });
  assert.ok(keep("dist/index.js"));
  assert.ok(!keep("dist/a.js"));
  assert.ok(!keep("dist/index.ts")); // a glob includes: what no glob matches is left out
  // A folder an exclusion matches is not entered, even when a later glob would include a file in it.
  const pruned = pathFilter({ globs: ["*.js", "!**/adapter/**", "**/adapter/bun/*.js"], types: [] });
  assert.ok(pruned("dist/index.js"));
  assert.ok(!pruned("dist/adapter/bun/x.js"));
});

Deno.test("path_filter: an excluded folder leaves out all it holds; dir/ globs match folders only", () => {
  const keep = pathFilter({ globs: ["!test/"], types: [] });
  assert.ok(!keep("src/test/a.ts"));
  assert.ok(keep("src/test"));
  assert.ok(keep("src/testing/a.ts"));
  const anchored = pathFilter({ globs: ["!/build"], types: [] });
  assert.ok(!anchored("build/a.js"));
  assert.ok(anchored("src/build/a.js"));
});

Deno.test("path_filter: braces, and a glob that includes wins over the type", () => {
  const keep = pathFilter({ globs: ["**/{bun,deno}/*.{js,ts}"], types: [] });
  assert.ok(keep("a/bun/x.ts") && keep("deno/y.js"));
  assert.ok(!keep("a/node/x.ts"));
  const typed = pathFilter({ globs: ["*.md"], types: ["py"] });
  assert.ok(typed("README.md"));
  assert.ok(!typed("a.py")); // a glob includes: what no glob matches is left out
  assert.ok(pathFilter({ globs: ["!*.md"], types: ["py"] })("a.py"));
});

Deno.test("path_filter: a glob with a [ or { left open is refused (as rg -g refuses it), not matched as text", () => {
  for (const glob of ["[unclosed", "!lib/{a,b"]) {
    assert.throws(
      () => pathFilter({ globs: [glob], types: [] }),
      (err: RecoverableError) =>
        err.code === "invalid_args" && err.message.includes(`"${glob}"`) && /not closed/.test(err.message),
    );
  }
});
