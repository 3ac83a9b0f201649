import assert from "node:assert/strict";
import { languagesWhere, profileOf } from "../../../../src/languages/profiles.ts";
import { strategyFor } from "../../../../src/structural/shared/family_strategies.ts";
import { importStatements } from "../../../../src/structural/shared/import_edits.ts";
import { movableSystem } from "../../../../src/structural/shared/refactor_languages.ts";
import { paramSyntaxOf } from "../../../../src/structural/change_signature/_param_syntax.ts";
import { nativeFamilyOf } from "../../../../src/structural/extract/_native.ts";
import { scriptWriterOf } from "../../../../src/structural/extract/_script_writers.ts";

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
