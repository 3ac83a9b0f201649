import assert from "node:assert/strict";
import { globMatcher } from "../../../src/fs/glob.ts";
import { globMatcher as privateGlobMatcher } from "../../../src/fs/_glob.ts";

Deno.test("fs/glob.ts publishes the one glob engine the stage and .gitignore rules run", () => {
  assert.equal(globMatcher, privateGlobMatcher);
  const ts = globMatcher("src/**/*.{ts,tsx}");
  assert.deepEqual(["src/a.ts", "src/a/b/c.tsx", "lib/a.ts", "src/a.js"].map((p) => ts.test(p)), [
    true,
    true,
    false,
    false,
  ]);
});
