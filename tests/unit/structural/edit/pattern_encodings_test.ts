import assert from "node:assert/strict";
import {
  encodedPatterns,
  errorsAreMetavariables,
} from "../../../../src/structural/edit/pattern_encodings.ts";

Deno.test("encodedPatterns: each spelling of the metavariables, $$$ spelled for its slot; one spelling without any", () => {
  const spelled = encodedPatterns("f($A, $$$REST) { $$$B }").map((e) => e.encoded);
  assert.deepEqual(spelled, [
    "f($A, $$$REST) { $$$B }",
    "f(µA, µµµREST) { µµµB }",
    "f(graver_mv_A, graver_mvs_REST) { graver_mvs_B }",
    "f(graver_mv_A, Object graver_mvs_REST) { graver_mvs_B(); }",
    "f(graver_mv_A, graver_mvs_REST: Any) { graver_mvs_B }",
  ]);
  const [first] = encodedPatterns("g($X, $X, $_)");
  assert.deepEqual([...first!.uses], [["$X", 2], ["$_", 1]]);
  assert.deepEqual(first!.metas.get("$_"), { name: "_", multi: false });
  assert.equal(encodedPatterns("plain()").length, 1);
});

Deno.test("errorsAreMetavariables: an ERROR holding one metavariable alone stands for it; other errors do not", async () => {
  const { GRAMMARS } = await import("../_fixtures.ts");
  const js = await GRAMMARS.parser("javascript");
  const go = await GRAMMARS.parser("go");
  const check = (parser: typeof js, pattern: string) => {
    const [spelled] = encodedPatterns(pattern);
    const tree = parser.parse(spelled!.encoded)!;
    try {
      return tree.rootNode.hasError && errorsAreMetavariables(tree.rootNode, spelled!.metas);
    } finally {
      tree.delete();
    }
  };
  assert.equal(check(js, "switch ($X) { $$$C }"), true, "a switch body takes no name: the ERROR is $$$C");
  assert.equal(check(js, "switch ($X) { f( }"), false, "a real error");
  assert.equal(check(go, "fmt.Sprintf($$$A)"), false, "Go lexes no name from $$$A: not one token");
  js.delete();
  go.delete();
});
