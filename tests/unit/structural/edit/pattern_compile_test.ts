/**
 * compilePattern on its own (matching is pattern_test.ts's): the context that reads a pattern whole, its
 * metavariables in order, an ERROR-only reading kept as ast-grep keeps it, and a pattern no context reads.
 */
import assert from "node:assert/strict";
import { createWasmLoader } from "../../../../src/adapters/deno/mod.ts";
import { RecoverableError } from "../../../../src/errors.ts";
import { compilePattern } from "../../../../src/structural/edit/pattern_compile.ts";
import { Grammars } from "../../../../src/syntax/grammars.ts";

const grammars = new Grammars(createWasmLoader());

Deno.test("compilePattern reads an expression, a statement, a Python body and a class member in their contexts", async () => {
  const ts = await grammars.parser("typescript");
  const call = compilePattern(ts, "typescript", "log($A, $$$REST)");
  assert.equal(call.root.type, "call_expression");
  assert.deepEqual(call.metavariables, ["A", "REST"]);
  assert.equal(compilePattern(ts, "typescript", "return $X;").root.type, "return_statement");
  const py = await grammars.parser("python");
  assert.equal(compilePattern(py, "python", "def $F($$$P):\n    $$$B").root.type, "function_definition");
  assert.equal(compilePattern(ts, "typescript", "import {$$$A} from $B").root.anyKind, true); // read as ERROR
});

Deno.test("compilePattern refuses a pattern no context reads, naming it and the language", async () => {
  const py = await grammars.parser("python");
  assert.throws(
    () => compilePattern(py, "python", "print($A"),
    (e: unknown) =>
      e instanceof RecoverableError && e.code === "invalid_query" &&
      /Cannot parse the pattern "print\(\$A" as one python node/.test(e.message),
  );
});
