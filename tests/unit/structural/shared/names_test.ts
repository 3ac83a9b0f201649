import assert from "node:assert/strict";
import { isValidName } from "../../../../src/structural/shared/names.ts";

Deno.test("isValidName() takes the language's identifiers and refuses its reserved words", () => {
  assert.equal(isValidName("typescript", "$count"), true);
  assert.equal(isValidName("typescript", "class"), false);
  assert.equal(isValidName("python", "$count"), false);
  assert.equal(isValidName("python", "lambda"), false);
  assert.equal(isValidName("python", "match"), true); // a soft keyword names variables
  assert.equal(isValidName("go", "func"), false);
  assert.equal(isValidName("rust", "r2d2"), true);
  assert.equal(isValidName("rust", "2d"), false);
});
