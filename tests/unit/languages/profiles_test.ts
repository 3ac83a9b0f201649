import assert from "node:assert/strict";
import type { Language } from "web-tree-sitter";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { languagesWhere, profileOf, PROFILES } from "../../../src/languages/profiles.ts";
import type { LanguageProfile } from "../../../src/languages/types.ts";
import { GRAMMARS, Grammars } from "../../../src/syntax/grammars.ts";

const grammars = new Grammars(createWasmLoader());

/** The node types a profile's facts name, each with the fact it comes from and whether it is a named node. */
function namedTypes(p: LanguageProfile): { type: string; fact: string; named: boolean }[] {
  const out: { type: string; fact: string; named: boolean }[] = [];
  for (const [key, value] of Object.entries(p.flow ?? {})) {
    // a walk over a tree meets keyword tokens too (`function` is one in the ECMAScript grammars): any kind counts;
    // classReceiverMethods holds method names, not node types
    if (value instanceof Set && key !== "classReceiverMethods") {
      for (const type of value) out.push({ type, fact: `flow.${key}`, named: false });
    }
  }
  if (p.flow?.bodyStatements) {
    out.push({ type: p.flow.bodyStatements, fact: "flow.bodyStatements", named: true });
  }
  for (const [keyword, entries] of Object.entries(p.definitionKeywords)) {
    out.push({ type: keyword, fact: `definitionKeywords (the keyword)`, named: false });
    for (const entry of entries) {
      for (const type of entry.replace(/\{body\}$/, "").split(">")) {
        if (type !== "ERROR") out.push({ type, fact: `definitionKeywords.${keyword}`, named: true });
      }
    }
  }
  for (const [name, feature] of Object.entries(p.targetVersion?.syntax ?? {})) {
    for (const m of feature.nodes) {
      out.push({ type: m.type, fact: `targetVersion.syntax.${name}`, named: true });
      if (m.child) out.push({ type: m.child, fact: `targetVersion.syntax.${name}.child`, named: false });
    }
  }
  return out;
}

/** Whether the grammar has the node type (a named node, or for a token either kind). */
function hasType(language: Language, type: string, named: boolean): boolean {
  const id = language.idForNodeType(type, named) ?? (named ? null : language.idForNodeType(type, true));
  return id !== null && id !== 0;
}

Deno.test("every grammar of the manifest has a profile, in manifest order; an unknown id gets the defaults", () => {
  assert.deepEqual(PROFILES.map((p) => p.id), Object.keys(GRAMMARS));
  const unknown = profileOf("cobol");
  assert.equal(unknown.id, "cobol");
  assert.equal(unknown.moduleSystem, null);
  assert.equal(unknown.flow, null);
  assert.equal(profileOf("cobol"), unknown, "the default profile is made once");
});

Deno.test("every node type a profile names exists in its grammar (a misspelt type fails here, not silently)", async () => {
  // A family shares its flow rules and syntax table (TypeScript's `abstract_class_declaration` serves JavaScript
  // too): a type must exist in one of the grammars of the profiles that name it.
  const namers = new Map<string, { languages: Language[]; at: string }>();
  for (const p of PROFILES) {
    const language = await grammars.language(p.id);
    for (const { type, fact, named } of namedTypes(p)) {
      const key = `${fact}\0${type}\0${named}\0${p.flow && fact.startsWith("flow.") ? p.flow.family : p.id}`;
      const entry = namers.get(key) ?? { languages: [], at: `${p.id} ${fact}: "${type}"` };
      entry.languages.push(language);
      namers.set(key, entry);
    }
  }
  const missing = [...namers].filter(([key, { languages }]) => {
    const [, type, named] = key.split("\0");
    return !languages.some((l) => hasType(l, type!, named === "true"));
  }).map(([, { at }]) => at);
  assert.deepEqual(missing, []);
});

Deno.test("the result field a family's flow rules name is a field of its grammar", async () => {
  for (const p of PROFILES.filter((p) => p.flow?.typedSignatures)) {
    const language = await grammars.language(p.id);
    assert.ok(language.fieldIdForName(p.flow!.resultField), `${p.id}: ${p.flow!.resultField}`);
  }
});

Deno.test("a reserved word does not parse as a declared name where the grammar reserves it", async () => {
  // One declaration per language with the name slot marked; a reserved word there is a parse error (or is not
  // an identifier). The few words the grammars leave to later phases (soft or future keywords) are listed.
  const cases: { id: string; declare: (w: string) => string; lenient: string[] }[] = [
    { id: "python", declare: (w) => `def ${w}():\n    pass\n`, lenient: ["async", "await"] },
    { id: "go", declare: (w) => `package p\nfunc ${w}() {}\n`, lenient: [] },
    {
      id: "javascript",
      declare: (w) => `function ${w}() {}\n`,
      // reserved in strict code and modules (and by TypeScript), names in sloppy scripts
      lenient: [
        "enum",
        "yield",
        "let",
        "static",
        "implements",
        "interface",
        "package",
        "private",
        "protected",
        "public",
        "await",
      ],
    },
  ];
  for (const { id, declare, lenient } of cases) {
    const parser = await grammars.parser(id);
    const accepted: string[] = [];
    for (const word of profileOf(id).identifiers.reserved) {
      const tree = parser.parse(declare(word))!;
      const name = tree.rootNode.descendantsOfType(["identifier", "field_identifier"]).find((n) =>
        n?.text === word
      );
      if (!tree.rootNode.hasError && name) accepted.push(word);
      tree.delete();
    }
    assert.deepEqual(accepted.filter((w) => !lenient.includes(w)), [], `${id} parses these as names`);
  }
});

Deno.test("identifier rules: each profile's pattern takes a plain name and refuses one that starts with a digit", () => {
  for (const p of PROFILES) {
    assert.ok(p.identifiers.pattern.test("value_1"), p.id);
    assert.ok(!p.identifiers.pattern.test("1value"), p.id);
  }
  assert.ok(profileOf("typescript").identifiers.pattern.test("$el"));
  assert.ok(!profileOf("python").identifiers.pattern.test("$el"));
});

Deno.test("module systems: Go packages are directories named by their clause, Python and Rust submodules", () => {
  const go = profileOf("go").moduleSystem!;
  assert.equal(go.moduleIsDirectory, true);
  assert.equal(go.declaredPackage("// Package x.\npackage cmp\n"), "cmp");
  assert.equal(go.declaredPackage("// no clause\n"), "");
  assert.equal(profileOf("python").moduleSystem!.submodule(".", "m"), ".m");
  assert.equal(profileOf("python").moduleSystem!.submodule("pkg", "m"), "pkg.m");
  assert.equal(profileOf("rust").moduleSystem!.submodule("crate::a", "b"), "crate::a::b");
  assert.equal(profileOf("typescript").moduleSystem!.submodule("./a", "b"), null);
  assert.deepEqual(languagesWhere((p) => p.moduleSystem !== null), [
    "typescript",
    "tsx",
    "javascript",
    "python",
    "go",
    "rust",
  ]);
});

Deno.test("every pattern wrapper of a profile's own parses cleanly around a small pattern", async () => {
  const dirty: string[] = [];
  for (const p of PROFILES) {
    const parser = await grammars.parser(p.id);
    for (const w of p.patternWrappers.filter((w) => w.prefix !== "")) {
      const clean = ["", "x", "x int", "x()"].some((code) => {
        const tree = parser.parse(`${w.prefix}${code}${w.suffix}\n`)!;
        const ok = !tree.rootNode.hasError;
        tree.delete();
        return ok;
      });
      if (!clean) dirty.push(`${p.id}: ${JSON.stringify(w.prefix)} … ${JSON.stringify(w.suffix)}`);
    }
  }
  assert.deepEqual(dirty, []);
});

Deno.test("flow rules exist exactly for the languages extraction supports", () => {
  assert.deepEqual(
    languagesWhere((p) => p.flow !== null),
    languagesWhere((p) => p.refactors.extractFunction),
  );
});

Deno.test("the node-type check reports a misspelt type a table would silently ignore", async () => {
  const python = await grammars.language("python");
  const misspelt = { ...profileOf("python").flow!, loops: new Set(["for_statment"]) };
  const named = namedTypes({ ...profileOf("python"), flow: misspelt });
  const loops = named.filter((n) => n.fact === "flow.loops");
  assert.deepEqual(loops.map((n) => hasType(python, n.type, n.named)), [false]);
  assert.ok(hasType(python, "for_statement", true));
});

Deno.test("what moving a file breaks: a Go file leaving its package or changing its role, a Rust module", () => {
  const go = profileOf("go").moduleSystem!;
  assert.equal(go.fileMoveBreaks("pkg/a.go", "pkg/b.go"), null);
  assert.match(go.fileMoveBreaks("pkg/a.go", "other/a.go")!.why, /directory is its package/);
  assert.match(go.fileMoveBreaks("pkg/a.go", "pkg/a_linux.go")!.why, /GOOS\/GOARCH/);
  const rust = profileOf("rust").moduleSystem!;
  assert.equal(rust.fileMoveBreaks("tests/a.rs", "tests/b.rs"), null);
  assert.match(rust.fileMoveBreaks("src/lib.rs", "src/core.rs")!.why, /crate root/);
  assert.match(rust.fileMoveBreaks("src/a.rs", "src/b.rs")!.why, /`mod` declaration/);
  assert.equal(profileOf("typescript").moduleSystem!.fileMoveBreaks("a.ts", "b/a.ts"), null);
});

Deno.test("the import a file with no habit writes: ./x in ECMAScript, .x inside a Python package", () => {
  assert.deepEqual(profileOf("tsx").moduleSystem!.sampleImport!("src/a.tsx"), {
    source: "./x",
    target: "x.ts",
  });
  assert.deepEqual(profileOf("python").moduleSystem!.sampleImport!("pkg/a.py"), {
    source: ".x",
    target: "x.py",
  });
  assert.deepEqual(profileOf("python").moduleSystem!.sampleImport!("a.py"), { source: "x", target: "x.py" });
  assert.equal(profileOf("go").moduleSystem!.sampleImport, null);
});
