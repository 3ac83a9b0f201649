/**
 * `deno task build:npm`: the npm package of graver under `build/npm/package/`
 * (git-ignored), packed with `npm pack` into `build/npm/`.
 *
 * - ESM JavaScript and `.d.ts` types emitted by the pinned `typescript` (5.9.3,
 *   from deno.json) from the entry points of deno.json `exports` (all but the
 *   Deno adapter), keeping the `src/` layout so the adapters find the wasm at
 *   the same place relative to themselves as in the repository;
 * - the tree-sitter runtime and grammar wasm, their manifests, and every
 *   grammar's query files as files, each checked against its SHA-256
 *   (`wasm/manifest.json`, `grammars/manifest.json`), and all of them listed
 *   with their SHA-256 in `sha256.json`;
 * - a package.json whose `exports` mirror deno.json's and whose dependencies
 *   are the npm packages the emitted code imports, pinned as in deno.json.
 *
 *   deno run -A scripts/build_npm.ts [--no-pack]
 *
 * @module
 */
import ts from "typescript";
import { fileURLToPath } from "node:url";
import { versionOf } from "../src/fs/version.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
/** Where the package is assembled. */
export const PACKAGE_DIR = `${ROOT}build/npm/package`;

interface DenoJson {
  name: string;
  version: string;
  exports: Record<string, string>;
  imports: Record<string, string>;
}

/** Export subpaths that are not published to npm (runtime-specific to Deno). */
const DENO_ONLY = new Set(["./adapters/deno"]);

async function readJson<T>(rel: string): Promise<T> {
  return JSON.parse(await Deno.readTextFile(`${ROOT}${rel}`)) as T;
}

/** Emit JS and declarations for the entries (and everything they import) into the package. */
function emit(entries: string[]): void {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    resolveJsonModule: true,
    allowImportingTsExtensions: true,
    rewriteRelativeImportExtensions: true,
    declaration: true,
    // deno check type-checks the sources (with Deno's Node types); this pass only emits.
    noCheck: true,
    skipLibCheck: true,
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    useUnknownInCatchVariables: true,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    types: [],
    rootDir: ROOT,
    outDir: PACKAGE_DIR,
    newLine: ts.NewLineKind.LineFeed,
  };
  const program = ts.createProgram(entries.map((e) => `${ROOT}${e}`), options);
  const result = program.emit();
  const errors = result.diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (result.emitSkipped || errors.length > 0) {
    const text = ts.formatDiagnostics(errors, {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => ROOT,
      getNewLine: () => "\n",
    });
    throw new Error(`Cannot emit the npm package: typescript reported ${errors.length} error(s)\n${text}`);
  }
}

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) yield* walk(path);
    else if (e.isFile) yield path;
  }
}

/** Relative `.ts` specifiers left in declarations become `.js` (the files next to them). */
async function fixDeclarations(): Promise<void> {
  for await (const path of walk(`${PACKAGE_DIR}/src`)) {
    if (!path.endsWith(".d.ts")) continue;
    const text = await Deno.readTextFile(path);
    const fixed = text.replace(/((?:from|import)\s*\(?\s*["'])(\.{1,2}\/[^"']+)\.ts(["'])/g, "$1$2.js$3");
    if (fixed !== text) await Deno.writeTextFile(path, fixed);
  }
}

/** Bare specifiers the emitted JavaScript imports (package names). */
async function importedPackages(): Promise<Set<string>> {
  const names = new Set<string>();
  for await (const path of walk(`${PACKAGE_DIR}/src`)) {
    if (!path.endsWith(".js")) continue;
    const info = ts.preProcessFile(await Deno.readTextFile(path), true, true);
    for (const { fileName: spec } of info.importedFiles) {
      // (the scanner also sees imports in doc examples: the package itself is not a dependency)
      if (spec.startsWith(".") || spec.startsWith("node:") || spec.startsWith("@graver/core")) continue;
      const parts = spec.split("/");
      names.add(spec.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!);
    }
  }
  return names;
}

async function copy(rel: string): Promise<void> {
  const to = `${PACKAGE_DIR}/${rel}`;
  await Deno.mkdir(to.slice(0, to.lastIndexOf("/")), { recursive: true });
  await Deno.copyFile(`${ROOT}${rel}`, to);
}

async function sha256Of(path: string): Promise<string> {
  return await versionOf(await Deno.readFile(path));
}

/** Copy the wasm and the query files, check each wasm against its manifest, and list them all with SHA-256. */
async function copyAssets(): Promise<Record<string, string>> {
  const sums: Record<string, string> = {};
  const wasmManifest = await readJson<Record<string, { file: string; sha256: string }>>("wasm/manifest.json");
  const grammarManifest = await readJson<{ languages: Record<string, { sha256: string }> }>(
    "grammars/manifest.json",
  );
  // The vendored names: wasm/<file> for the runtime, grammars/wasm/<id>.wasm for each grammar.
  const expected = new Map<string, string>();
  for (const entry of Object.values(wasmManifest)) expected.set(`wasm/${entry.file}`, entry.sha256);
  for (const [id, entry] of Object.entries(grammarManifest.languages)) {
    expected.set(`grammars/wasm/${id}.wasm`, entry.sha256);
  }
  const files = ["wasm/manifest.json", "grammars/manifest.json", "grammars/queries.json"];
  for (const rel of expected.keys()) files.push(rel);
  for await (const path of walk(`${ROOT}grammars`)) {
    const rel = path.slice(ROOT.length);
    if (rel.startsWith("grammars/wasm/")) continue;
    if (/\/queries\/[^/]+\.scm$/.test(rel) || /\/symbols\.json$/.test(rel)) files.push(rel);
  }
  for (const rel of files.sort()) {
    await copy(rel);
    const sum = await sha256Of(`${PACKAGE_DIR}/${rel}`);
    const want = expected.get(rel);
    if (want !== undefined && want !== sum) {
      throw new Error(`Cannot package "${rel}": its SHA-256 is ${sum}, the manifest says ${want}`);
    }
    sums[rel] = sum;
  }
  return sums;
}

/** The package.json `exports` entry of one deno.json export. */
function exportEntry(target: string): { types: string; default: string } {
  const js = `./${target.replace(/^\.\//, "").replace(/\.ts$/, ".js")}`;
  return { types: js.replace(/\.js$/, ".d.ts"), default: js };
}

/**
 * Build the package directory.
 *
 * @returns The package directory and its package.json.
 */
export async function buildNpm(): Promise<{ dir: string; manifest: Record<string, unknown> }> {
  const deno = await readJson<DenoJson>("deno.json");
  await Deno.remove(PACKAGE_DIR, { recursive: true }).catch(() => {});
  await Deno.mkdir(PACKAGE_DIR, { recursive: true });
  const published = Object.entries(deno.exports).filter(([sub]) => !DENO_ONLY.has(sub));
  emit(published.map(([, target]) => target.replace(/^\.\//, "")));
  await fixDeclarations();
  // The emitted code reads name and version from deno.json: ship just those.
  await Deno.writeTextFile(
    `${PACKAGE_DIR}/deno.json`,
    JSON.stringify({ name: deno.name, version: deno.version }, null, 2) + "\n",
  );
  const sums = await copyAssets();
  await Deno.writeTextFile(`${PACKAGE_DIR}/sha256.json`, JSON.stringify(sums, null, 2) + "\n");

  const dependencies: Record<string, string> = {};
  for (const name of [...await importedPackages()].sort()) {
    const pin = /^npm:(.+)@([^@]+)$/.exec(deno.imports[name] ?? "");
    if (!pin || pin[1] !== name) {
      throw new Error(`Cannot package: the emitted code imports "${name}", which deno.json does not pin`);
    }
    dependencies[name] = pin[2]!;
  }
  const manifest: Record<string, unknown> = {
    name: deno.name,
    version: deno.version,
    description:
      "A WebAssembly-first, sandboxed edit runtime for coding agents: hash-guarded, all-or-nothing edits checked with tree-sitter grammars",
    type: "module",
    sideEffects: false,
    engines: { node: ">=20.10" },
    exports: {
      ...Object.fromEntries(published.map(([sub, target]) => [sub, exportEntry(target)])),
      "./package.json": "./package.json",
      "./sha256.json": "./sha256.json",
    },
    types: "./src/mod.d.ts",
    files: ["src", "wasm", "grammars", "deno.json", "sha256.json", "README.md"],
    dependencies,
  };
  await Deno.writeTextFile(`${PACKAGE_DIR}/package.json`, JSON.stringify(manifest, null, 2) + "\n");
  await Deno.copyFile(`${ROOT}docs/npm.md`, `${PACKAGE_DIR}/README.md`);
  return { dir: PACKAGE_DIR, manifest };
}

/**
 * Pack the built package with `npm pack` into `build/npm/`.
 *
 * @returns The tarball's absolute path.
 */
export async function packNpm(): Promise<string> {
  const out = await new Deno.Command("npm", {
    args: ["pack", "--silent", "--pack-destination", `${ROOT}build/npm`],
    cwd: PACKAGE_DIR,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`Cannot pack the npm package: npm pack exited with ${out.code}`);
  const name = new TextDecoder().decode(out.stdout).trim().split("\n").pop()!;
  return `${ROOT}build/npm/${name}`;
}

if (import.meta.main) {
  const t0 = performance.now();
  const { manifest } = await buildNpm();
  const deps = Object.keys(manifest["dependencies"] as object).join(", ");
  console.log(`build:npm: ${PACKAGE_DIR} (dependencies: ${deps})`);
  if (!Deno.args.includes("--no-pack")) {
    const tgz = await packNpm();
    console.log(`build:npm: ${tgz} (${((await Deno.stat(tgz)).size / 1024).toFixed(0)} KB)`);
  }
  console.log(`build:npm: done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
