import assert from "node:assert/strict";
import { compilePattern, matchPattern } from "../../../../src/structural/edit/pattern.ts";
import { substituteMetavariables } from "../../../../src/structural/edit/metavariable_fill.ts";
import { fixture, GRAMMARS } from "../_fixtures.ts";

Deno.test("substituteMetavariables() puts bound text into the replacement, keeping its layout between the same tokens", async () => {
  const text = fixture("check-napi.js");
  const parser = await GRAMMARS.parser("javascript");
  const tree = parser.parse(text)!;
  const compiled = compilePattern(parser, "javascript", "console.log($$$ARGS)");
  const [, second] = matchPattern(compiled, tree.rootNode, { text });
  const out = substituteMetavariables("if (verbose) {\n  logger.info($$$ARGS);\n}", second!.bindings, {
    sourceText: text,
  });
  // Written between the same parentheses, $$$ARGS takes the call's whole inside: line break, layout and all,
  // its lines re-based onto the template's.
  assert.equal(
    out,
    "if (verbose) {\n  logger.info(\n    '\\x1b[' + (isNapi ? '42' : '41') + 'm' +\n      (isNapi ? '    N-API' : 'Not N-API') +\n      '\\x1b[0m: ' + file);\n}",
  );
  assert.equal(substituteMetavariables("keep $OTHER", second!.bindings, { sourceText: text }), "keep $OTHER");
  tree.delete();
  parser.delete();
});
