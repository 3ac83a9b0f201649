/**
 * The linear-time glob matcher, for areas above `fs/` that filter paths by a user's globs (text search's
 * `glob`): the same automaton the stage and `.gitignore` rules run, so there is one glob engine.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { globMatcher } from "./glob.ts";
 *
 * assert.ok(globMatcher("src/**" + "/*.{ts,tsx}").test("src/a/b.tsx"));
 * ```
 *
 * @module
 */
export { globMatcher, unclosedInGlob } from "./_glob.ts";
export type { WildcardMatcher } from "./_wildcard.ts";
