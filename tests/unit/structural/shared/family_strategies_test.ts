import assert from "node:assert/strict";
import { languagesWhere, profileOf } from "../../../../src/languages/profiles.ts";
import { strategyFor } from "../../../../src/structural/shared/family_strategies.ts";
import { importStatements } from "../../../../src/structural/shared/import_edits.ts";
import { moduleReferences } from "../../../../src/structural/shared/module_imports.ts";
import { accessOf } from "../../../../src/structural/shared/variable_access.ts";
import { movableSystem } from "../../../../src/structural/shared/refactor_languages.ts";
import { paramSyntaxOf } from "../../../../src/structural/change_signature/_param_syntax.ts";
import { nativeFamilyOf } from "../../../../src/structural/extract/_native.ts";
import { scriptWriterOf } from "../../../../src/structural/extract/_script_writers.ts";
import { GRAMMARS } from "../_fixtures.ts";

Deno.test("strategyFor picks the family's implementation and names the family it has none for", () => {
  const strategies = [{ family: "go", tab: "\t" }, { family: "python", tab: "    " }];
  assert.equal(strategyFor(strategies, "python").tab, "    ");
  assert.throws(
    () => strategyFor(strategies, "rust"),
    /no implementation for the rust family among go,python/,
  );
});

Deno.test("every profile that claims a refactor has its family's implementation of each part the refactor asks for", () => {
  for (const language of languagesWhere((p) => p.refactors.extractFunction)) {
    const flow = profileOf(language).flow!;
    // Go and Rust write typed signatures natively; the others through a script writer.
    const family = flow.typedSignatures ? nativeFamilyOf(flow).family : scriptWriterOf(flow).family;
    assert.equal(family, flow.family, language);
  }
  for (const language of languagesWhere((p) => p.refactors.changeSignature)) {
    assert.equal(paramSyntaxOf(language).family, profileOf(language).flow!.family, language);
  }
  for (const language of languagesWhere((p) => movableSystem(p.id) !== null)) {
    const system = movableSystem(language)!;
    const items = [{ kind: "named" as const, imported: "a", local: "a" }];
    assert.equal(
      importStatements(system, "m", { items, style: { quote: '"', semi: true } }).length,
      1,
      language,
    );
  }
});

Deno.test("each family reads an assignment's target as a write and its value as a read, through the same accessOf", async () => {
  // The occurrence kind is what the bindings say of the target: Python's assignment binds the name.
  const cases: [string, string, string][] = [
    ["typescript", "let y = 0;\ny = x;\n", "reference"],
    ["python", "y = x\n", "definition"],
    ["go", "package p\n\nfunc f(x int) {\n\tvar y int\n\ty = x\n\t_ = y\n}\n", "reference"],
    ["rust", "fn f(x: i32) {\n    let mut y = 0;\n    y = x;\n}\n", "reference"],
  ];
  for (const [language, text, targetKind] of cases) {
    const parser = await GRAMMARS.parser(language);
    const tree = parser.parse(text)!;
    const rules = profileOf(language).flow!;
    const at = (offset: number) => tree.rootNode.descendantForIndex(offset, offset + 1);
    const write = text.lastIndexOf("y = x");
    const occurrence = (start: number, kind: string) => ({ kind, name: "", start, end: start + 1 }) as never;
    assert.equal(
      accessOf(occurrence(write, targetKind), at(write)!, rules),
      "write",
      `${language}: y in y = x`,
    );
    const read = text.lastIndexOf("x");
    assert.equal(
      accessOf(occurrence(read, "reference"), at(read)!, rules),
      "read",
      `${language}: x in y = x`,
    );
    parser.delete();
  }
});

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
