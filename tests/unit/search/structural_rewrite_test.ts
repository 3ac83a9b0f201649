import assert from "node:assert/strict";
import { RecoverableError } from "../../../src/errors.ts";
import { checkRewriteMetavariables } from "../../../src/search/structural_rewrite.ts";

Deno.test("checkRewriteMetavariables() takes a rewrite that uses the pattern's metavariables only", () => {
  checkRewriteMetavariables("log($$$ARGS, $LEVEL)", "logger.log($LEVEL, $$$ARGS)");
  checkRewriteMetavariables("f($A)", "g()");
});

Deno.test("checkRewriteMetavariables() refuses a metavariable the pattern does not bind, naming the ones it does", () => {
  assert.throws(
    () => checkRewriteMetavariables("log($MSG)", "info($MSG, $LEVEL)"),
    (e: unknown) =>
      e instanceof RecoverableError && e.code === "invalid_args" &&
      /uses \$LEVEL, which the pattern does not bind/.test(e.message) && /\(\$MSG\)/.test(e.hint ?? ""),
  );
});
