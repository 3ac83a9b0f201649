import assert from "node:assert/strict";
import {
  EXTRACT_LANGUAGES,
  extractLanguages,
  hasKeywordArguments,
  INLINE_LANGUAGES,
  movableSystem,
  SIGNATURE_LANGUAGES,
} from "../../../../src/structural/shared/refactor_languages.ts";

Deno.test("the refactors' languages come from the profiles", () => {
  assert.deepEqual([...EXTRACT_LANGUAGES], ["typescript", "tsx", "javascript", "python", "go", "rust"]);
  assert.deepEqual(extractLanguages(), [...EXTRACT_LANGUAGES]);
  assert.deepEqual([...SIGNATURE_LANGUAGES], ["typescript", "tsx", "javascript", "python"]);
  assert.ok(INLINE_LANGUAGES.includes("python"));
  assert.equal(movableSystem("tsx"), "ecmascript");
  assert.equal(movableSystem("python"), "python");
  assert.equal(movableSystem("go"), null);
  assert.equal(hasKeywordArguments("python"), true);
  assert.equal(hasKeywordArguments("javascript"), false);
});
