import assert from "node:assert/strict";
import { astGrepLanguageName, astGrepMatches, TextPlaces } from "../../../src/search/ast_grep_format.ts";

Deno.test("astGrepLanguageName() spells languages as ast-grep prints them", () => {
  assert.deepEqual(
    ["javascript", "typescript", "tsx", "python", "go", "rust", "json"].map(astGrepLanguageName),
    ["JavaScript", "TypeScript", "Tsx", "Python", "Go", "Rust", "Json"],
  );
});

Deno.test("TextPlaces counts UTF-8 bytes and characters within a line, lines by LF, and a line's end before CRLF", () => {
  const text = "a😀b\r\nésc\n";
  const places = new TextPlaces(text);
  const b = text.indexOf("b");
  assert.deepEqual(places.at(b), { line: 0, column: 2, byte: 5 }); // the emoji: 2 UTF-16 units, 4 bytes, 1 character
  const s = text.indexOf("s");
  assert.deepEqual(places.at(s), { line: 1, column: 1, byte: 10 });
  assert.equal(places.lineOf(text.indexOf("\n")), 0);
  assert.equal(places.lineEnd(0), text.indexOf("\r"));
  assert.equal(places.lineStart(1), text.indexOf("é"));
  assert.equal(places.lineEnd(2), text.length);
});

Deno.test("astGrepMatches() gives a rewrite's replacement before the language, and a $$$ binding as its nodes", () => {
  const text = "x;\n  f(a, b);\n";
  const start = text.indexOf("f(");
  const end = text.indexOf(";", start);
  const a = text.indexOf("a,");
  const [m] = astGrepMatches({ path: "src/x.js", language: "javascript", text }, [{
    start,
    end,
    replacement: "g(a, b)",
    metavariables: {
      F: { start, end: start + 1, text: "f" },
      ARGS: {
        start: a,
        end: a + 4,
        text: "a, b",
        parts: [{ start: a, end: a + 1 }, { start: a + 1, end: a + 2 }, { start: a + 3, end: a + 4 }],
      },
      NONE: { start: -1, end: -1, text: "" },
    },
  }]);
  assert.ok(m);
  assert.deepEqual(Object.keys(m), [
    "text",
    "range",
    "file",
    "lines",
    "charCount",
    "replacement",
    "replacementOffsets",
    "language",
    "metaVariables",
  ]);
  assert.equal(m.text, "f(a, b)");
  assert.equal(m.lines, "  f(a, b);");
  assert.deepEqual(m.charCount, { leading: 2, trailing: 1 });
  assert.deepEqual(m.replacementOffsets, m.range.byteOffset);
  assert.deepEqual(Object.keys(m.metaVariables!.single), ["F"]);
  assert.deepEqual(m.metaVariables!.multi["ARGS"]!.map((n) => n.text), ["a", ",", "b"]);
  assert.deepEqual(m.metaVariables!.transformed, {});
});

Deno.test("astGrepMatches() leaves metaVariables out when the pattern binds none", () => {
  const text = "debugger;\n";
  const [m] = astGrepMatches({ path: "a.js", language: "javascript", text }, [{
    start: 0,
    end: 9,
    metavariables: {},
  }]);
  assert.equal(m!.metaVariables, undefined);
  assert.equal(m!.replacement, undefined);
});
