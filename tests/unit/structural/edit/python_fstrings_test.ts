import assert from "node:assert/strict";
import { fitFStringFields, fstringNeeds } from "../../../../src/structural/edit/python_fstrings.ts";
import { applyTextEdits } from "../../../../src/structural/edit/source.ts";
import type { DeclaredVersion } from "../../../../src/structural/edit/target_version.ts";
import { GRAMMARS } from "../_fixtures.ts";

const py = (written: string, version: number[]): DeclaredVersion => ({
  family: "python",
  version,
  written,
  source: "pyproject.toml",
  field: "project.requires-python",
});

/** The f-string `f"{x}"` of a file, and an edit that puts a string with the same quote in its field. */
async function fieldEdit(text: string, insert: string) {
  const parser = await GRAMMARS.parser("python");
  const tree = parser.parse(text)!;
  const at = text.indexOf("{x}") + 1;
  return { file: { language: "python", tree }, edits: [{ start: at, end: at + 1, text: insert }], parser };
}

Deno.test("fitFStringFields() re-quotes a string that would close the f-string, unless Python 3.12 is declared", async () => {
  const text = 'msg = f"{x}"\n';
  const { file, edits, parser } = await fieldEdit(text, 'd["k"]');
  const portable = fitFStringFields(file, edits, null);
  assert.ok("edits" in portable);
  assert.equal(applyTextEdits(text, portable.edits), "msg = f\"{d['k']}\"\n");
  const modern = fitFStringFields(file, edits, py(">=3.12", [3, 12]));
  assert.ok("edits" in modern);
  assert.equal(applyTextEdits(text, modern.edits), 'msg = f"{d["k"]}"\n');
  parser.delete();
});

Deno.test("fitFStringFields() names the problem when an edit cannot be re-quoted under an older declared Python", async () => {
  const text = 'msg = f"{x}"\n';
  const { file, edits, parser } = await fieldEdit(text, 'd["it\'s"]');
  const fitted = fitFStringFields(file, edits, py(">=3.9", [3, 9]));
  assert.ok("problem" in fitted);
  assert.match(
    fitted.problem.reason,
    /needs Python 3\.12, and pyproject\.toml declares requires-python ">=3\.9"/,
  );
  parser.delete();
});

Deno.test("fitFStringFields() leaves other languages' edits alone; fstringNeeds() finds PEP 701 syntax", async () => {
  const edits = [{ start: 0, end: 0, text: "x" }];
  assert.deepEqual(fitFStringFields({ language: "typescript", tree: null as never }, edits, null), { edits });
  const parser = await GRAMMARS.parser("python");
  const tree = parser.parse('a = f"{d["k"]}"\nb = f"{x!r}"\n')!;
  const [first, second] = tree.rootNode.namedChildren;
  assert.deepEqual(fstringNeeds(first!).map((f) => f.since), [[3, 12]]);
  assert.deepEqual(fstringNeeds(second!), []);
  parser.delete();
});
