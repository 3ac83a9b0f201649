import assert from "node:assert/strict";
import { checkLayers, type ImportGraph, importsOf } from "./_layers.ts";

const SRC = new URL("../../src/", import.meta.url);
const RUNTIME_SPECIFIC = /\b(Deno\.|Bun\.|process\.(env|argv|cwd|exit|versions)|require\()|from\s+["']node:/;

async function* walk(dir: URL): AsyncGenerator<URL> {
  for await (const e of Deno.readDir(dir)) {
    const url = new URL(e.name + (e.isDirectory ? "/" : ""), dir);
    if (e.isDirectory) yield* walk(url);
    else if (e.name.endsWith(".ts")) yield url;
  }
}

Deno.test("core modules use web standards only (runtime code lives in src/adapters/)", async () => {
  const offenders: string[] = [];
  for await (const file of walk(SRC)) {
    const rel = file.pathname.slice(SRC.pathname.length);
    if (rel.startsWith("adapters/")) continue;
    const lines = (await Deno.readTextFile(file)).split("\n");
    lines.forEach((line, i) => {
      if (line.trim().startsWith("*") || line.trim().startsWith("//")) return;
      if (RUNTIME_SPECIFIC.test(line)) offenders.push(`src/${rel}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(offenders, []);
});

async function importGraph(): Promise<ImportGraph> {
  const graph: ImportGraph = new Map();
  for await (const file of walk(SRC)) {
    const rel = file.pathname.slice(SRC.pathname.length);
    graph.set(rel, importsOf(rel, await Deno.readTextFile(file)));
  }
  return graph;
}

Deno.test("src/ imports only point down the layers, no private module is shared, no cycle", async () => {
  const graph = await importGraph();
  assert.ok(graph.size > 50, "the walk found the sources");
  assert.deepEqual(checkLayers(graph).map((v) => v.message), []);
});

Deno.test("language profiles are facts: src/languages/ imports nothing of graver outside itself", async () => {
  const graph = await importGraph();
  const outside = [...graph].flatMap(([from, to]) =>
    from.startsWith("languages/")
      ? to.filter((t) => !t.startsWith("languages/")).map((t) => `${from} -> ${t}`)
      : []
  );
  assert.ok([...graph.keys()].some((f) => f.startsWith("languages/")), "the walk found the profiles");
  assert.deepEqual(outside, []);
});

Deno.test("one project walk: only src/project/ calls walkProject (everything else lists through a ProjectView)", async () => {
  const callers: string[] = [];
  for await (const file of walk(SRC)) {
    const rel = file.pathname.slice(SRC.pathname.length);
    const code = (await Deno.readTextFile(file)).replace(/\/\*[\s\S]*?\*\//g, "");
    if (/\bwalkProject\(/.test(code) && rel !== "fs/walk.ts") callers.push(rel);
  }
  assert.deepEqual(callers, ["project/project_view.ts"]);
});

Deno.test("no list is spread into Math.max or Math.min in src/ (maxOf and minOf of src/arrays.ts take any length)", async () => {
  // A spread passes every item as an argument: a few hundred thousand overflow the call stack (a line of
  // 200,000 matches did). Lists whose length the data sets are appended with appendAll, too.
  const spreads: string[] = [];
  for await (const file of walk(SRC)) {
    const rel = file.pathname.slice(SRC.pathname.length);
    const code = (await Deno.readTextFile(file)).replace(/\/\*[\s\S]*?\*\//g, "");
    if (/Math\.(max|min)\([^)]*\.\.\./.test(code)) spreads.push(rel);
  }
  assert.deepEqual(spreads, []);
});

Deno.test("the layer check catches an upward import, a peer import, a private import and a cycle", async () => {
  const graph = await importGraph();
  // A deliberately broken copy of the real graph: each added edge must be reported.
  const broken = new Map([...graph].map(([k, v]) => [k, [...v]]));
  broken.get("fs/stage.ts")!.push("tools/types.ts"); // fs reaching up to tools
  broken.get("text/match_block.ts")!.push("structural/edit/reindent.ts"); // text and structural are peers
  broken.get("tools/read_file.ts")!.push("text/_doc.ts"); // another folder's private module
  broken.get("syntax/grammars.ts")!.push("syntax/symbols.ts"); // symbols -> ... -> grammars -> symbols
  const rules = checkLayers(broken).map((v) => `${v.rule}: ${v.message}`);
  assert.ok(rules.some((r) => r.startsWith("upward: src/fs/stage.ts")), rules.join("\n"));
  assert.ok(rules.some((r) => r.startsWith("peer: src/text/match_block.ts")), rules.join("\n"));
  assert.ok(rules.some((r) => r.startsWith("private: src/tools/read_file.ts")), rules.join("\n"));
  assert.ok(
    rules.some((r) => r.startsWith("cycle:") && r.includes("src/syntax/grammars.ts")),
    rules.join("\n"),
  );
});

Deno.test("importsOf() reads type imports, re-exports and dynamic imports, not doc examples", () => {
  const src = [
    "/**",
    ' * import { x } from "../tools/mod.ts";',
    " */",
    'import type { A } from "./a.ts";',
    'import {\n  b,\n  type C,\n} from "../fs/b.ts";',
    'export { d } from "./d.ts";',
    'export * from "./e.ts";',
    'const f = await import("./f.ts");',
    'import { Parser } from "web-tree-sitter";',
  ].join("\n");
  assert.deepEqual(importsOf("syntax/x.ts", src).sort(), [
    "fs/b.ts",
    "syntax/a.ts",
    "syntax/d.ts",
    "syntax/e.ts",
    "syntax/f.ts",
  ]);
});

/** src-relative imports of a `_private` module from outside its own folder (sub-folders included). */
function privateImportsAcrossFolders(graph: ImportGraph): string[] {
  const dirOf = (f: string) => f.slice(0, f.lastIndexOf("/") + 1);
  const out: string[] = [];
  for (const [from, imports] of graph) {
    for (const to of imports) {
      const base = to.slice(to.lastIndexOf("/") + 1);
      if (base.startsWith("_") && dirOf(to) !== dirOf(from)) out.push(`src/${from} imports src/${to}`);
    }
  }
  return out.sort();
}

Deno.test("a _private module of src/structural/ is imported only from its own folder", async () => {
  const graph = await importGraph();
  const structural = new Map([...graph].filter(([file]) => file.startsWith("structural/")));
  assert.ok(structural.size > 50, "the walk found the structural modules");
  assert.deepEqual(privateImportsAcrossFolders(structural), []);
  // A refactor reaching into another refactor's private module is caught.
  structural.get("structural/inline/inline.ts")!.push("structural/extract/_context.ts");
  assert.deepEqual(privateImportsAcrossFolders(structural), [
    "src/structural/inline/inline.ts imports src/structural/extract/_context.ts",
  ]);
});

Deno.test("each refactor folder of src/structural/ has a mod.ts with its plan (and stage) pair", async () => {
  const pairs: Record<string, string[]> = {
    rename: ["planRename", "stageRename"],
    change_signature: ["planChangeSignature", "stageChangeSignature"],
    extract: ["planExtract", "stageExtract"],
    inline: ["planInline"],
    move_decl: ["planMoveDecl", "stageMoveDecl"],
    move_file: ["planImportUpdates"],
  };
  for (const [folder, names] of Object.entries(pairs)) {
    const mod = await import(new URL(`structural/${folder}/mod.ts`, SRC).href);
    for (const name of names) {
      assert.equal(typeof mod[name], "function", `structural/${folder}/mod.ts exports ${name}`);
    }
  }
});

Deno.test("the house's measures hold: no function over 80 lines, no exported function past three positional parameters, no language-name branch or per-language table outside src/languages/, one project walk", async () => {
  const { measure } = await import("../../scripts/code_metrics.ts");
  const cwd = Deno.cwd();
  Deno.chdir(new URL("../../", import.meta.url)); // the measures name paths from the repository's root
  let m: ReturnType<typeof measure>;
  try {
    m = measure("src");
  } finally {
    Deno.chdir(cwd);
  }
  const where = (f: { at: string; what: string }[]) => f.map((x) => `${x.at} ${x.what}`).join("\n");
  assert.deepEqual(m.longFunctions, [], where(m.longFunctions));
  assert.deepEqual(m.positionalParams, [], where(m.positionalParams));
  assert.deepEqual(m.languageTables, [], where(m.languageTables));
  assert.ok(m.projectWalkers.length <= 1, where(m.projectWalkers));
  // A language's knowledge sits in its profile, or in its family's implementation picked by the profile.
  assert.deepEqual(m.languageBranches, [], where(m.languageBranches));
});

const DOCS = new URL("../../docs/architecture.md", import.meta.url);
const UNIT = new URL("./", import.meta.url);

/** The modules a list of docs/architecture.md names as having no test file of their own (before each item's `—`). */
function listedWithoutTests(doc: string): Set<string> {
  const section = doc.split(/^### Modules without a test file of their own$/m)[1]?.split(/^#{2,3} /m)[0] ??
    "";
  const items = section.split(/\n(?=- )/).filter((item) => item.startsWith("- "));
  const out = new Set<string>();
  for (const item of items) {
    const modules = item.replace(/\s+/g, " ").split(" — ")[0]!;
    for (const m of modules.matchAll(/`([\w./-]+\.ts)`/g)) out.add(m[1]!);
  }
  return out;
}

/** The src-relative modules without `tests/unit/<same path>_test.ts`, but for the entry points and type modules. */
function unmirrored(modules: Iterable<string>, tests: ReadonlySet<string>): string[] {
  return [...modules].filter((m) =>
    !/(?:^|\/)(?:mod|types)\.ts$/.test(m) && !tests.has(m.replace(/\.ts$/, "_test.ts"))
  ).sort();
}

Deno.test("every module has its test file at the same path under tests/unit/, or is listed in docs/architecture.md", async () => {
  const modules = [...(await importGraph()).keys()];
  const tests = new Set<string>();
  for await (const file of walk(UNIT)) tests.add(file.pathname.slice(UNIT.pathname.length));
  const listed = listedWithoutTests(await Deno.readTextFile(DOCS));
  assert.ok(listed.size > 20, "the list was found");
  const missing = unmirrored(modules, tests);
  assert.deepEqual(
    missing.filter((m) => !listed.has(m)),
    [],
    "add tests/unit/<path>_test.ts for each (or list a small private leaf in docs/architecture.md)",
  );
  assert.deepEqual(
    [...listed].filter((m) => !missing.includes(m)).sort(),
    [],
    "these listed modules have a test file now, or are gone: take them off the list in docs/architecture.md",
  );
  // A new module with no test and not on the list is caught; one with its mirrored test is not.
  const added = ["structural/rename/new_rule.ts", "structural/rename/tested_rule.ts"];
  const withTest = new Set([...tests, "structural/rename/tested_rule_test.ts"]);
  assert.deepEqual(unmirrored([...modules, ...added], withTest).filter((m) => !listed.has(m)), [
    "structural/rename/new_rule.ts",
  ]);
});
