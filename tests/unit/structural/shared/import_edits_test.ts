import assert from "node:assert/strict";
import {
  importStatements,
  importStyleOf,
  linesAfter,
  listItemRemovals,
  statementRemoval,
} from "../../../../src/structural/shared/import_edits.ts";
import { applyTextEdits } from "../../../../src/structural/edit/source.ts";

/** The spans of the comma-separated items of `text` between `open` and `close`. */
function itemsOf(text: string, open: string, close: string): { start: number; end: number }[] {
  const from = text.indexOf(open) + open.length;
  const to = text.indexOf(close, from);
  const out: { start: number; end: number }[] = [];
  for (const m of text.slice(from, to).matchAll(/[^,\s][^,]*?(?=\s*(?:,|$))/g)) {
    out.push({ start: from + m.index, end: from + m.index + m[0].length });
  }
  return out;
}

Deno.test("listItemRemovals() takes items out of a list with their separators, a trailing comma kept", () => {
  const text = 'import { a, b, c, } from "./m";\n';
  const items = itemsOf(text, "{ ", " }");
  assert.equal(applyTextEdits(text, listItemRemovals(items, new Set([1]))), 'import { a, c, } from "./m";\n');
  assert.equal(applyTextEdits(text, listItemRemovals(items, new Set([2]))), 'import { a, b, } from "./m";\n');
  assert.equal(applyTextEdits(text, listItemRemovals(items, new Set([0, 2]))), 'import { b, } from "./m";\n');
  assert.throws(() => listItemRemovals(items, new Set([0, 1, 2])), RangeError);
});

Deno.test("importStatements() writes each system's import forms in the file's style", () => {
  const items = [
    { kind: "default" as const, imported: "default", local: "D" },
    { kind: "named" as const, imported: "a", local: "a" },
    { kind: "named" as const, imported: "T", local: "T", typeOnly: true },
    { kind: "namespace" as const, imported: "*", local: "ns" },
  ];
  assert.deepEqual(importStatements("ecmascript", "./m", { items, style: { quote: "'", semi: false } }), [
    "import * as ns from './m'",
    "import D, { a, type T } from './m'",
  ]);
  const python = [
    { kind: "namespace" as const, imported: "*", local: "pkg" },
    { kind: "named" as const, imported: "x", local: "y" },
  ];
  assert.deepEqual(
    importStatements("python", "pkg.m", { items: python, style: { quote: "", semi: false } }),
    [
      "import pkg.m",
      "from pkg.m import x as y",
    ],
  );
});

Deno.test("importStyleOf() follows the first import, else the code; linesAfter() adds lines below a statement", () => {
  assert.deepEqual(importStyleOf("import { a } from './a'\nconst b = 1\n"), { quote: "'", semi: false });
  assert.deepEqual(importStyleOf('const b = "x";\n'), { quote: '"', semi: true });
  const text = '  import { a } from "./a";\n  f();\n';
  const statement = { start: 2, end: text.indexOf(";") + 1 };
  assert.equal(
    applyTextEdits(text, [linesAfter(text, statement, { lines: ['import { b } from "./b";'], eol: "\n" })]),
    '  import { a } from "./a";\n  import { b } from "./b";\n  f();\n',
  );
});

Deno.test("statementRemoval() takes a statement's whole lines, or only its span when code shares its line", () => {
  const text = 'import { a } from "./a";\n\nf();\n';
  assert.equal(applyTextEdits(text, [statementRemoval(text, { start: 0, end: 24 })]), "f();\n");
  const shared = 'f(); import "./a";\n';
  assert.equal(applyTextEdits(shared, [statementRemoval(shared, { start: 5, end: 18 })]), "f(); \n");
});
