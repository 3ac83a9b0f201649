/** A compiled query's finders over real grammars: the texts every match holds, and a refusal naming the file. */
import assert from "node:assert/strict";
import { RecoverableError } from "../../../../src/errors.ts";
import { compilePattern } from "../../../../src/structural/edit/pattern.ts";
import {
  matchesIn,
  patternFinder,
  requiredTexts,
  requiredWords,
} from "../../../../src/structural/search/finders.ts";
import { GRAMMARS } from "../_fixtures.ts";

Deno.test("a pattern's finder: its required texts and words, and its matches in one file", async () => {
  const parser = await GRAMMARS.parser("javascript");
  try {
    const compiled = compilePattern(parser, "javascript", "c.req.header($A, 'x')");
    // Leaves compared byte for byte, longest first; one-character punctuation (the quotes) left out.
    assert.deepEqual(requiredTexts(compiled.root), ["header", "req", "c", "x"]);
    assert.deepEqual(requiredWords(compiled.root).sort(), ["c", "header", "req"]);
    const find = patternFinder(compiled, null);
    const text = "c.req.header(a, 'x');\nc.req.header(b);\nd.req.header(c, 'x');\n";
    const tree = parser.parse(text)!;
    try {
      const found = matchesIn(find, tree.rootNode, { path: "a.js", text });
      assert.deepEqual(found.map((m) => [m.node.startPosition.row + 1, m.bindings["A"]?.text]), [[1, "a"]]);
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete();
  }
});

Deno.test("a match past the matcher's steps is refused naming the file; other errors pass unchanged", async () => {
  const parser = await GRAMMARS.parser("javascript");
  try {
    const find = patternFinder(
      compilePattern(parser, "javascript", "f($$$A, 1, $$$B, 2, $$$C, $X, $X)"),
      null,
    );
    const text = `f(${Array.from({ length: 3000 }, (_, i) => i % 10).join(", ")});\n`;
    const tree = parser.parse(text)!;
    try {
      assert.throws(
        () => matchesIn(find, tree.rootNode, { path: "src/long.js", text }),
        (e) =>
          e instanceof RecoverableError &&
          e.message.startsWith(`Cannot match the pattern in "src/long.js" at line 1`),
      );
      const failing = {
        ...find,
        matches: () => {
          throw new TypeError("boom");
        },
      };
      assert.throws(() => matchesIn(failing, tree.rootNode, { path: "x.js", text }), TypeError);
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete();
  }
});
