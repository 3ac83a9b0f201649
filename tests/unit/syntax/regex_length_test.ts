import assert from "node:assert/strict";
import { MAX_REGEX_LENGTH, refuseLongPattern } from "../../../src/syntax/regex_length.ts";
import { compileLinearRegex } from "../../../src/syntax/linear_regex.ts";

Deno.test("regex_length: a pattern at the bound passes; one past it is refused with its length and the caller's code", () => {
  refuseLongPattern("x".repeat(MAX_REGEX_LENGTH), {});
  assert.throws(
    () =>
      refuseLongPattern("x".repeat(MAX_REGEX_LENGTH + 1), {
        code: "invalid_query",
        what: "the #match? predicate",
      }),
    {
      code: "invalid_query",
      message: `Cannot use the #match? predicate: it is ${
        MAX_REGEX_LENGTH + 1
      } characters long, over the limit of ${MAX_REGEX_LENGTH}`,
      hint: "Write a shorter pattern, or several patterns",
    },
  );
});

Deno.test("regex_length: the linear-time engine refuses with the same rule", () => {
  const long = "y".repeat(MAX_REGEX_LENGTH + 1);
  const direct = (() => {
    try {
      refuseLongPattern(long, {});
    } catch (err) {
      return err as Error;
    }
  })();
  assert.throws(() => compileLinearRegex(long), { message: direct!.message });
});
