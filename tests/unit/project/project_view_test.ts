/**
 * The project view on real files: the one walk's ignore rules, hidden names,
 * links out of the root, the limits and how the reach reports them, texts
 * and parses through the stage (staged edits seen), and the word index
 * against a plain scan of the same real sources.
 */
import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { BackendFs } from "../../../src/fs/backend.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { Sandbox } from "../../../src/fs/sandbox.ts";
import { Stage } from "../../../src/fs/stage.ts";
import { PROJECT_LIMITS } from "../../../src/project/limits.ts";
import { openProject } from "../../../src/project/project_view.ts";
import { Grammars } from "../../../src/syntax/grammars.ts";
import { TreeCache } from "../../../src/syntax/trees.ts";
import type { Parsing } from "../../../src/syntax/types.ts";

const grammars = new Grammars(createWasmLoader());
const parsing: Parsing = { grammars, trees: new TreeCache(grammars) };

const RXJS = new URL("../../../node_modules/rxjs/src/internal/operators/", import.meta.url);
/** Real rxjs operator sources, by file name. */
const OPERATORS = ["map.ts", "filter.ts", "take.ts", "switchMap.ts", "mergeMap.ts", "debounceTime.ts"];

async function realSources(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of OPERATORS) out[`/w/src/${name}`] = await Deno.readTextFile(new URL(name, RXJS));
  return out;
}

function stageOf(backend: ReturnType<typeof createMemoryBackend>): Stage {
  return new Stage(BackendFs.wrap(backend), new Sandbox("/w"));
}

Deno.test("list() honours .gitignore, skips node_modules, VCS folders and .graver, and lists hidden names unless asked", async () => {
  const stage = stageOf(createMemoryBackend({
    ...(await realSources()),
    "/w/.gitignore": "dist/\n",
    "/w/.eslintrc.js": "module.exports = {};\n",
    "/w/dist/map.js": "x",
    "/w/node_modules/rxjs/index.ts": "x",
    "/w/.git/HEAD": "ref",
    "/w/.graver/journal.json": "{}",
    "/w/.cache/s.ts": "x",
  }));
  const project = openProject({ stage, parsing });
  const all = await project.files();
  assert.deepEqual(all, [
    ".cache/s.ts",
    ".eslintrc.js",
    ".gitignore",
    ...OPERATORS.toSorted().map((n) => `src/${n}`),
  ]);
  assert.equal(project.reach().ignored, 2); // dist/ and node_modules/
  const visible = await project.files({ skipHidden: true });
  assert.deepEqual(visible, OPERATORS.toSorted().map((n) => `src/${n}`));
  assert.equal(project.reach().ignored, 5); // and .cache/, .eslintrc.js, .gitignore
  // A search reads .ignore files too (ripgrep's rule), where a listing reads only .gitignore.
  await stage.write(".ignore", new TextEncoder().encode("src/take.ts\n"));
  assert.ok((await project.files()).includes("src/take.ts"));
  assert.ok(!(await project.files({ ignoreFiles: [".gitignore", ".ignore"] })).includes("src/take.ts"));
  const everything = await project.files({ includeIgnored: true });
  assert.ok(everything.includes("dist/map.js") && everything.includes("node_modules/rxjs/index.ts"));
  assert.ok(!everything.some((p) => p.startsWith(".git/") || p.startsWith(".graver/")));
});

Deno.test("list() skips links that leave the root and counts them in the reach; a link inside is read at its target", async () => {
  const backend = createMemoryBackend({
    ...(await realSources()),
    "/outside/secret.ts": "export const secret = 1;\n",
  });
  const links = backend as unknown as { symlink(target: string, path: string): Promise<void> };
  await links.symlink("/outside/secret.ts", "/w/src/secret.ts");
  await links.symlink("../../outside", "/w/lib");
  await links.symlink("src/map.ts", "/w/map-link.ts");
  const project = openProject({ stage: stageOf(backend), parsing });
  const files = await project.files();
  assert.ok(!files.some((f) => f.includes("secret")));
  assert.equal(files.filter((f) => f === "src/map.ts").length, 1); // reached twice, listed once at its real path
  assert.deepEqual(project.reach().skipped, { outside_root: 2 });
  assert.deepEqual(await project.filesMentioning("secret", files), []);
});

Deno.test("the limits stop a listing and skip large files, and the reach says where and why", async () => {
  const sources = await realSources();
  const stage = stageOf(createMemoryBackend({
    ...sources,
    "/w/logo.png": "\u0000PNG\u0000\u0001",
  }));
  await stage.write("latin1.txt", new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a])); // "café" in Latin-1
  const small = { files: 3, fileBytes: 2000, totalBytes: Infinity };
  const project = openProject({ stage, parsing, limits: small });
  const files = await project.files();
  assert.equal(files.length, 3);
  const reach = project.reach();
  assert.equal(reach.truncated, true);
  assert.equal(reach.limit, 3);
  assert.equal(reach.listed, 3);
  const sizes = Object.fromEntries(
    OPERATORS.map((n) => [`src/${n}`, new TextEncoder().encode(sources[`/w/src/${n}`]!).length]),
  );
  const all = await openProject({ stage, parsing, limits: { ...small, files: 100 } }).files();
  const view = openProject({ stage, parsing, limits: { ...small, files: 100 } });
  for (const f of all) await view.read(f);
  const large = all.filter((f) => (sizes[f] ?? 0) > small.fileBytes).length;
  assert.ok(large > 0);
  assert.deepEqual(view.reach().skipped, { too_large: large, binary: 1, not_utf8: 1 });
  // A total budget: once it is spent, the next read is skipped and counted.
  const budget = openProject({
    stage,
    parsing,
    limits: { files: 100, fileBytes: Infinity, totalBytes: sizes["src/map.ts"]! },
  });
  assert.ok(await budget.read("src/map.ts"));
  assert.equal(await budget.read("src/take.ts"), null);
  assert.deepEqual(budget.reach().skipped, { over_budget: 1 });
});

Deno.test("read(), tree() and the word index see a staged edit that is not committed", async () => {
  const stage = stageOf(createMemoryBackend(await realSources()));
  const map = await stage.readText("src/map.ts");
  await stage.writeText("src/map.ts", { ...map, text: map.text.replace(/\bproject\b/g, "projectValue") });
  const project = openProject({ stage, parsing });
  const read = await project.read("src/map.ts");
  assert.equal(read?.language, "typescript");
  assert.ok(read.text.includes("projectValue"));
  assert.deepEqual(await project.filesMentioning("projectValue", await project.files()), ["src/map.ts"]);
  const parsed = await project.tree("src/map.ts");
  assert.ok(parsed);
  assert.ok(parsed.tree.rootNode.text.includes("projectValue"));
  assert.equal(parsed.language, "typescript");
  assert.equal(await openProject({ stage }).tree("src/map.ts"), null); // no grammars: no parse
});

Deno.test("filesMentioning() agrees with a whole-word scan of the real sources, and answers again from the index", async () => {
  const stage = stageOf(createMemoryBackend(await realSources()));
  const project = openProject({ stage, parsing, limits: PROJECT_LIMITS.resolve });
  const files = await project.files();
  const texts = new Map<string, string>();
  for (const f of files) texts.set(f, (await stage.readText(f)).text);
  for (
    const word of [
      "operate",
      "createOperatorSubscriber",
      "innerFrom",
      "Observable",
      "subscriber",
      "map",
      "dueTime",
      "zzz",
    ]
  ) {
    const re = new RegExp(`(?<![\\p{L}\\p{N}_$])${word}(?![\\p{L}\\p{N}_$])`, "u");
    const expected = files.filter((f) => re.test(texts.get(f)!));
    assert.deepEqual(await project.filesMentioning(word, files), expected, word);
  }
  // The second question reads nothing: the staged text changes, the index keeps the answer it gave.
  const before = await project.filesMentioning("operate", files);
  await stage.writeText("src/take.ts", { ...(await stage.readText("src/take.ts")), text: "export {};\n" });
  assert.deepEqual(await project.filesMentioning("operate", files), before);
});
