import assert from "node:assert/strict";
import { RecoverableError } from "../../../../src/mod.ts";
import { compilePattern, matchPattern } from "../../../../src/structural/edit/pattern.ts";
import { MAX_PATTERN_DEPTH, patternSexp } from "../../../../src/structural/edit/pattern_tree.ts";
import { GRAMMARS } from "../_fixtures.ts";

/** `f(f(…f(x)…))`, `depth` calls deep. */
const nested = (depth: number, inner = "x") => "f(".repeat(depth) + inner + ")".repeat(depth);

Deno.test("a pattern nested past MAX_PATTERN_DEPTH is refused limit_exceeded, not a stack overflow", async () => {
  const parser = await GRAMMARS.parser("typescript");
  try {
    for (const depth of [MAX_PATTERN_DEPTH, 3000]) {
      assert.throws(
        () => compilePattern(parser, "typescript", nested(depth)),
        (e: unknown) =>
          e instanceof RecoverableError && e.code === "limit_exceeded" &&
          e.message.includes(`more than ${MAX_PATTERN_DEPTH} levels`) && /f\(\$A\)/.test(e.hint ?? ""),
        `${depth} calls`,
      );
    }
    // Well within it (100 calls, ~200 levels): compiled, and it matches the code it spells.
    const compiled = compilePattern(parser, "typescript", nested(100, "$X"));
    const text = `const y = ${nested(100, "42")};\n`;
    const tree = parser.parse(text)!;
    try {
      const found = matchPattern(compiled, tree.rootNode, { text });
      assert.equal(found.length, 1);
      assert.equal(found[0]!.bindings["X"]!.text, "42");
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete();
  }
});

Deno.test("patternSexp prints a pattern as the grammar read it: types, quoted tokens, metavariables as written", async () => {
  const parser = await GRAMMARS.parser("typescript");
  try {
    const sexp = (pattern: string) => patternSexp(compilePattern(parser, "typescript", pattern).root);
    assert.equal(
      sexp("console.log($$$ARGS)"),
      '(call_expression (member_expression (identifier "console") "." (property_identifier "log")) ' +
        '(arguments "(" $$$ARGS ")"))',
    );
    // Read only as an ERROR node: "_", a node of any kind whose children match.
    assert.match(sexp("import {$$$A} from $B"), /^\(_ "import" \(import_clause .*\$\$\$A.*\) "from" \$B\)$/);
  } finally {
    parser.delete();
  }
});
