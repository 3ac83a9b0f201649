/**
 * One cold rename in a fresh process, for `rename_oracle.bench.ts`: either
 * graver (a new workspace over the rxjs sources in memory, then an
 * edit_rename_symbol dry run) or the TypeScript language service (a new
 * service over the same files, then findRenameLocations). Prints one JSON
 * line: the milliseconds from the start of the work (modules imported, files
 * in memory) to the answer, and the number of locations.
 *
 *   deno run -A bench/_rename_cold_child.ts graver|service <path> <offset>
 *
 * @module
 */
import { promises as fsp } from "node:fs";
import { join, relative } from "node:path";
import { ROOT } from "./_util.ts";

const [who, path, offsetText] = Deno.args as [string, string, string];
const offset = Number(offsetText);
const SRC = join(ROOT, "node_modules/rxjs/src");
const files = new Map<string, string>();
async function collect(dir: string): Promise<void> {
  for await (const e of await fsp.opendir(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory()) await collect(p);
    else if (e.name.endsWith(".ts")) {
      files.set(relative(SRC, p).replaceAll("\\", "/"), await fsp.readFile(p, "utf8"));
    }
  }
}
await collect(SRC);
const text = files.get(path)!;
const t0 = performance.now();
let count = 0;
if (who === "graver") {
  const { createWasmLoader } = await import("../src/adapters/deno/mod.ts");
  const { createMemoryBackend } = await import("../src/fs/memory_backend.ts");
  const { createWorkspace } = await import("../src/workspace.ts");
  const backend = createMemoryBackend(Object.fromEntries([...files].map(([rel, t]) => [`/${rel}`, t])));
  const start = performance.now();
  const ws = await createWorkspace({ backend, wasm: createWasmLoader() });
  const res = await ws.call("edit_rename_symbol", {
    path,
    target: {
      line: text.slice(0, offset).split("\n").length,
      column: offset - (text.lastIndexOf("\n", offset - 1) + 1) + 1,
    },
    new_name: "renamedForBench",
    dry_run: true,
  });
  count = res.ok ? (res.data as { renamed: number }).renamed : -1;
  console.log(JSON.stringify({ ms: performance.now() - start, import_ms: start - t0, count }));
} else {
  const ts = (await import("typescript")).default;
  const start = performance.now();
  const VROOT = "/rx/";
  const names = [...files.keys()].map((f) => VROOT + f);
  const read = (f: string) => f.startsWith(VROOT) ? files.get(f.slice(VROOT.length)) : ts.sys.readFile(f);
  const dirs = new Set<string>();
  for (const f of names) {
    for (let d = f.slice(0, f.lastIndexOf("/")); d.length > 1; d = d.slice(0, d.lastIndexOf("/"))) {
      dirs.add(d);
    }
  }
  const ls = ts.createLanguageService({
    getScriptFileNames: () => names,
    getScriptVersion: () => "1",
    getScriptSnapshot: (f) => {
      const t = read(f);
      return t === undefined ? undefined : ts.ScriptSnapshot.fromString(t);
    },
    getCurrentDirectory: () => VROOT,
    getCompilationSettings: () => ({
      target: ts.ScriptTarget.ES2018,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      lib: ["lib.es2018.d.ts", "lib.dom.d.ts"],
      strict: true,
      baseUrl: VROOT,
      paths: { "rxjs": ["./"], "rxjs/*": ["./*"] },
      noEmit: true,
    }),
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (f) => f.startsWith(VROOT) ? files.has(f.slice(VROOT.length)) : ts.sys.fileExists(f),
    readFile: read,
    directoryExists: (d) => d.startsWith(VROOT) ? dirs.has(d.replace(/\/$/, "")) : ts.sys.directoryExists(d),
    getDirectories: () => [],
  }, ts.createDocumentRegistry());
  const locs = ls.findRenameLocations(VROOT + path, offset, false, false, {
    providePrefixAndSuffixTextForRename: false,
  });
  count = locs?.length ?? -1;
  console.log(JSON.stringify({ ms: performance.now() - start, import_ms: start - t0, count }));
}
