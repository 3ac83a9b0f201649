/**
 * The resolver check for the move refactors: which file every module
 * reference of a code base names (each Python `from m import a` name
 * counting as the module it takes `a` from, or the submodule `a`), so a test
 * can assert that after a move every reference still names the same file (at
 * its new path). Also real code bases to move things in: rxjs@7.8.2's
 * CommonJS build (runs under node) and Python's own `email` package.
 *
 * @module
 */
import assert from "node:assert/strict";
import { ModuleResolver } from "../../../src/syntax/module_resolution.ts";
import { moduleReferences } from "../../../src/structural/shared/module_imports.ts";
import { movableSystem } from "../../../src/structural/move_file/imports_rewrite.ts";
import { GRAMMARS } from "../tools/_bindings_fixtures.ts";

/** path -> text. */
export type Files = Record<string, string>;

function languageOf(path: string): string | null {
  return GRAMMARS.languageOf(path);
}

/**
 * Every file's module references, as the files they name (or `?source` for
 * those naming no workspace file), sorted per file.
 *
 * @param files Relative path -> text.
 * @returns Relative path -> targets.
 */
export async function importTargets(files: Files): Promise<Map<string, string[]>> {
  const resolver = new ModuleResolver(Object.keys(files));
  const out = new Map<string, string[]>();
  for (const [path, text] of Object.entries(files)) {
    const language = languageOf(path);
    const system = movableSystem(language ?? "");
    if (!language || !system) continue;
    const parser = await GRAMMARS.parser(language);
    const tree = parser.parse(text)!;
    const targets: string[] = [];
    const named = (source: string) => resolver.resolve(path, language, source) ?? `?${source}`;
    for (const ref of moduleReferences(tree, text, system)) {
      if (ref.kind !== "from") {
        targets.push(named(ref.source));
        continue;
      }
      for (const n of ref.names ?? []) {
        const sub = ref.source.endsWith(".") ? ref.source + n.name : `${ref.source}.${n.name}`;
        targets.push(resolver.resolve(path, language, sub) ?? named(ref.source));
      }
    }
    tree.delete();
    parser.delete();
    out.set(path, targets.sort());
  }
  return out;
}

/**
 * Assert that every module reference of `after` names the file its reference in `before` named, moved.
 *
 * @param before The files before.
 * @param after The files after.
 * @param moves From -> to.
 */
export async function assertSameTargets(
  before: Files,
  after: Files,
  moves: Record<string, string>,
): Promise<void> {
  const moved = (p: string) => moves[p] ?? p;
  const was = await importTargets(before);
  const now = await importTargets(after);
  let checked = 0;
  for (const [path, targets] of was) {
    const expected = targets.map((t) => t.startsWith("?") ? t : moved(t)).sort();
    const actual = now.get(moved(path));
    assert.ok(actual, `${moved(path)} is missing after the move`);
    assert.deepEqual(actual, expected, `${moved(path)}: its imports name other files`);
    checked += targets.length;
  }
  assert.ok(checked > 0);
}

function readTree(dir: string, prefix: string, accept: RegExp, out: Files): void {
  for (const e of Deno.readDirSync(dir)) {
    if (e.isDirectory && e.name !== "__pycache__") {
      readTree(`${dir}/${e.name}`, `${prefix}${e.name}/`, accept, out);
    } else if (e.isFile && accept.test(e.name)) {
      out[`${prefix}${e.name}`] = Deno.readTextFileSync(`${dir}/${e.name}`);
    }
  }
}

/** rxjs@7.8.2's CommonJS build (`dist/cjs`, .js files), as `rxjs/...`. */
export function rxjsCjs(): Files {
  const out: Files = {};
  readTree(new URL("../../../node_modules/rxjs/dist/cjs", import.meta.url).pathname, "rxjs/", /\.js$/, out);
  return out;
}

/** The Python standard library's `email` package (the machine's python3), as `email/...`. */
export function pythonEmail(): Files {
  const out: Files = {};
  const lib = [...Deno.readDirSync("/usr/lib")].map((e) => e.name).filter((n) => /^python3\.\d+$/.test(n))
    .sort().pop();
  assert.ok(lib, "a Debian python3 standard library under /usr/lib");
  readTree(`/usr/lib/${lib}/email`, "email/", /\.py$/, out);
  return out;
}

/** click as pip installed it for the machine's python3 (found through python3), as `click/...`. */
export function pythonClick(): Files {
  const out = new Deno.Command("python3", {
    args: ["-c", "import os, click; print(os.path.dirname(click.__file__))"],
  }).outputSync();
  assert.ok(out.success, "click is installed for python3");
  const files: Files = {};
  readTree(new TextDecoder().decode(out.stdout).trim(), "click/", /\.py$/, files);
  return files;
}

/** Every file of a workspace's store under the root, as path -> text (memory backends). */
export async function storedFiles(
  ws: { fs: { read(p: string): Promise<Uint8Array | null> } },
  paths: string[],
): Promise<Files> {
  const out: Files = {};
  for (const p of paths) {
    const bytes = await ws.fs.read(`/${p}`);
    if (bytes) out[p] = new TextDecoder().decode(bytes);
  }
  return out;
}

/**
 * The TypeScript compiler's diagnostics (typescript@5.9.3, in process) over
 * rxjs-shaped sources held in memory, as "path: message" lines without
 * positions, sorted.
 *
 * @param files Relative path -> text (.ts files).
 * @param only Check only these files (the whole program is still loaded).
 * @returns The diagnostics.
 */
export async function typeErrors(files: Files, only?: string[]): Promise<string[]> {
  const ts = (await import("typescript")).default;
  const root = "/rx/";
  const options = {
    target: ts.ScriptTarget.ES2018,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    lib: ["lib.es2018.d.ts", "lib.dom.d.ts"],
    strict: true,
    noEmit: true,
    baseUrl: root,
    paths: { "rxjs": ["./"], "rxjs/*": ["./*"] },
  };
  const host = ts.createCompilerHost(options);
  const read = (f: string) => f.startsWith(root) ? files[f.slice(root.length)] : ts.sys.readFile(f);
  host.readFile = read;
  host.fileExists = (f) => f.startsWith(root) ? f.slice(root.length) in files : ts.sys.fileExists(f);
  host.getSourceFile = (f, v) => {
    const t = read(f);
    return t === undefined ? undefined : ts.createSourceFile(f, t, v);
  };
  host.getCurrentDirectory = () => root;
  const dirs = new Set<string>();
  for (const f of Object.keys(files)) {
    for (let d = f; d.includes("/");) dirs.add(root + (d = d.slice(0, d.lastIndexOf("/"))));
  }
  host.directoryExists = (d) =>
    d.startsWith(root) ? dirs.has(d.replace(/\/$/, "")) || d === root : ts.sys.directoryExists(d);
  host.realpath = (p) => p;
  const names = Object.keys(files).filter((f) => f.endsWith(".ts")).map((f) => root + f);
  const program = ts.createProgram(names, options, host);
  const diagnostics = only
    ? only.flatMap((f) => {
      const sf = program.getSourceFile(root + f);
      return sf ? [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)] : [];
    })
    : ts.getPreEmitDiagnostics(program);
  return diagnostics.map((d) =>
    `${d.file?.fileName.slice(root.length) ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`
  ).sort();
}

/**
 * Write files to a fresh temporary directory, run a command there (PYTHONPATH set to it), and return its output.
 *
 * @param files Relative path -> text.
 * @param cmd The command and its arguments.
 * @param cwdFile A subdirectory to run in.
 * @returns stdout and stderr; the assertion fails when the command fails.
 */
export async function runIn(files: Files, cmd: string[], cwdFile = ""): Promise<string> {
  const dir = await Deno.makeTempDir();
  try {
    for (const [p, t] of Object.entries(files)) {
      await Deno.mkdir(`${dir}/${p.slice(0, p.lastIndexOf("/") + 1)}`, { recursive: true });
      await Deno.writeTextFile(`${dir}/${p}`, t);
    }
    const out = await new Deno.Command(cmd[0]!, {
      args: cmd.slice(1),
      cwd: `${dir}/${cwdFile}`,
      env: { PYTHONPATH: dir },
    })
      .output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.ok(out.success, text);
    return text;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
