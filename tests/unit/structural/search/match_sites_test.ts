/**
 * What a match becomes in a result (`match_sites.ts`), on real parses: the site's offsets and metavariables,
 * its replacement filled as its line writes it (a one-line template as it is, a multi-line one re-indented to
 * the site), a transform's new metavariables (a `rewrite` reading the nodes under a binding), and what the new
 * code would take away.
 */
import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace } from "../../../../src/mod.ts";
import { createWasmLoader } from "../../../../src/adapters/deno/mod.ts";
import { compilePattern, matchPattern } from "../../../../src/structural/edit/pattern.ts";
import { siteReplacement, sitesOf } from "../../../../src/structural/search/match_sites.ts";
import { compileRule } from "../../../../src/structural/search/rule_compile.ts";
import { compileTransform } from "../../../../src/structural/search/transform.ts";
import { compileRewriters, rewriteOf } from "../../../../src/structural/search/rewriters.ts";

const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
const parser = await ws.grammars!.parser("javascript");

/** The sites of a pattern in a text, with a rewrite and transforms. */
function sites(
  text: string,
  pattern: string,
  rewrite: string,
  transforms = [] as ReturnType<typeof compileTransform>,
) {
  const compiled = { ...compilePattern(parser, "javascript", pattern), smart: true };
  const tree = parser.parse(text)!;
  try {
    const found = matchPattern(compiled, tree.rootNode, { text, limit: 100 });
    return sitesOf(found, { text }, {
      rewrite,
      multi: new Set(["A"]),
      pattern: compiled.root,
      language: "javascript",
      transforms,
    });
  } finally {
    tree.delete();
  }
}

Deno.test("a site has its offsets, metavariables (each part of a $$$ list) and the rewrite filled in", () => {
  const text = "function f() {\n  if (x) {\n    log(a, b);\n  }\n}\n";
  const [site] = sites(text, "log($$$A)", "logger.debug($$$A)");
  assert.equal(text.slice(site!.start, site!.end), "log(a, b)");
  assert.equal(site!.metavariables["A"]!.text, "a, b");
  assert.deepEqual(site!.metavariables["A"]!.parts!.map((p) => text.slice(p.start, p.end)), ["a", ",", "b"]);
  assert.equal(site!.replacement, "logger.debug(a, b)");
  // A multi-line template lands at the depth of the line the match starts on.
  const [block] = sites(text, "log($$$A)", "if (debug) {\n  log($$$A);\n}");
  assert.equal(block!.replacement, "if (debug) {\n      log(a, b);\n    }");
  assert.equal(
    siteReplacement({ text, unit: "  " }, { start: site!.start, bindings: {} }, "a\nb"),
    "a\n    b",
  );
});

Deno.test("a rewrite transform reads the nodes under a binding through the site's context", () => {
  const text = "log(t(1, 2, 3));\n";
  const pattern = (source: string) => compilePattern(parser, "javascript", source as string);
  const rewriters = compileRewriters([{ id: "num", rule: { kind: "number" }, fix: "N" }], {
    pattern: pattern as never,
    kinds: undefined,
    enclosing: new Set(["A"]),
  });
  const transforms = compileTransform(
    { B: { rewrite: { source: "$A", rewriters: ["num"], joinBy: "+" } } },
    new Set(["A"]),
    { rewrite: rewriteOf(rewriters) },
  );
  const [site] = sites(text, "log($A)", "sum($B)", transforms);
  assert.equal(site!.replacement, "sum(N+N+N)");
  // compileRule is what compiles a rewriter's rule: a kind alone here.
  assert.equal(compileRule({ kind: "number" }, pattern as never).kind, "number");
});

Deno.test("a site notes what the rewrite would take away: a word its pattern passed over, a comment", () => {
  const text = "async function f() { return 1; }\nfoo(a, /* keep */ b);\n";
  const [fn] = sites(text, "function $F() { $$$B }", "function $F() { log(); $$$B }");
  assert.deepEqual(fn!.drops, ["async"]);
  const [call] = sites(text, "foo($A, $C)", "bar($C, $A)");
  assert.deepEqual(call!.comments, ["/* keep */"]);
});
