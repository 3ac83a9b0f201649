import assert from "node:assert/strict";
import { profileOf } from "../../../../src/languages/profiles.ts";
import { moduleReferences } from "../../../../src/structural/shared/module_imports.ts";
import { GRAMMARS } from "../_fixtures.ts";

Deno.test("module references are read by each module system's own reader", async () => {
  const cases: [string, string, string][] = [
    ["typescript", 'import { a } from "./a";\n', "./a"],
    ["python", "from .a import b\n", ".a"],
  ];
  for (const [language, text, source] of cases) {
    const parser = await GRAMMARS.parser(language);
    const system = profileOf(language).moduleSystem!.name as "ecmascript" | "python";
    assert.deepEqual(moduleReferences(parser.parse(text)!, text, system).map((r) => r.source), [source]);
    parser.delete();
  }
});

Deno.test("moduleReferences() finds dynamic imports and requires, and Python's names and aliases, never a keyword in a string", async () => {
  const ts = await GRAMMARS.parser("typescript");
  const tsText = 'const s = "import x from \'./no\'";\nconst a = require("./a");\nexport * from "./b";\n';
  assert.deepEqual(
    moduleReferences(ts.parse(tsText)!, tsText, "ecmascript").map((r) => [r.kind, r.source]),
    [["require", "./a"], ["export", "./b"]],
  );
  ts.delete();
  const py = await GRAMMARS.parser("python");
  const pyText = "import os.path as p\nfrom .m import (a, b as c)\nx = 'from y import z'\n";
  const refs = moduleReferences(py.parse(pyText)!, pyText, "python");
  assert.deepEqual(refs.map((r) => [r.kind, r.source]), [["module", "os.path"], ["from", ".m"]]);
  assert.equal(refs[0]!.alias, "p");
  assert.deepEqual(refs[1]!.names!.map((n) => [n.name, n.alias]), [["a", null], ["b", "c"]]);
  py.delete();
});
