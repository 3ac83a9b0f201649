/**
 * Module resolution within a workspace: which file an import's module
 * specifier names. Each language's module system (its profile in
 * `src/languages/`) holds its own rules: ECMAScript (TypeScript, TSX,
 * JavaScript): relative specifiers with or without an extension (`./a.js` may
 * name `a.ts`), index files, and tsconfig `baseUrl`/`paths` when the root has
 * a tsconfig.json. Python: relative imports (`.m`, `..pkg.m`) and absolute
 * ones within the root (or its `src/`), as modules or packages
 * (`__init__.py`). Go: an import path under the module path of the root's
 * go.mod names a directory (a package: every `.go` file in it). Rust: `mod
 * x;` and `use` paths (`crate::`, `super::`, `self::`, child modules; `x.rs`
 * or `x/mod.rs`) within the crate. A bare package name that no workspace file
 * answers to resolves to null. This module indexes the workspace for them and
 * remembers their answers.
 *
 * @module
 */
import { profileOf } from "../languages/profiles.ts";
import { dirOf, joinPath } from "../languages/module_paths.ts";
import type {
  GoModule,
  ModuleSystem,
  PathMapping,
  ResolutionContext,
  RustCrate,
} from "../languages/types.ts";

export { cargoCrateName, isRustTargetFile, resolveRustPath } from "../languages/rust.ts";
export { goModulePath, resolveGoImport } from "../languages/go.ts";
export { dirOf, joinPath };
export type { GoModule, ModuleSystem, PathMapping, RustCrate };

/** Resolves module specifiers against a fixed set of workspace files. */
export class ModuleResolver {
  readonly #context: ResolutionContext;
  readonly #memo = new Map<string, string | null>();

  /**
   * Index the files imports may resolve to.
   *
   * @param files Every relative path of the workspace that may be imported.
   * @param mapping tsconfig path mapping, if any.
   * @param options Go modules (from go.mod files) and Rust library crates (from Cargo.toml files), if any.
   */
  constructor(
    files: Iterable<string>,
    mapping: PathMapping | null = null,
    options: { goModules?: GoModule[]; rustCrates?: RustCrate[] } = {},
  ) {
    const all: ReadonlySet<string> = new Set(files);
    const dirs = new Map<string, Set<string>>();
    this.#context = {
      files: all,
      pathMapping: mapping,
      goModules: options.goModules ?? [],
      rustCrates: options.rustCrates ?? [],
      directoriesWith(extension) {
        let found = dirs.get(extension);
        if (!found) {
          found = new Set();
          for (const f of all) if (f.endsWith(extension)) found.add(dirOf(f));
          dirs.set(extension, found);
        }
        return found;
      },
    };
  }

  /**
   * The module system of a language, or null when graver does not resolve its imports.
   *
   * @param language Language id.
   * @returns "ecmascript" | "python" | "go" | "rust" | null.
   */
  static systemOf(language: string): ModuleSystem | null {
    return profileOf(language).moduleSystem?.name ?? null;
  }

  /**
   * The module a file belongs to, as {@linkcode ModuleResolver.resolve} names it: the file itself, or for
   * Go its directory (a package is every file of one directory).
   *
   * @param path Relative path of the file.
   * @param language Its language.
   * @returns The module's key.
   */
  static moduleOf(path: string, language: string): string {
    return profileOf(language).moduleSystem?.moduleIsDirectory ? dirOf(path) : path;
  }

  /**
   * Whether a language's modules are values (Python): a variable may hold one, and a module may get names at
   * run time (`setattr`, `globals().update`) that no declaration shows.
   *
   * @param language Language id.
   * @returns True for such languages.
   */
  static modulesAreValues(language: string): boolean {
    return profileOf(language).moduleSystem?.modulesAreValues ?? false;
  }

  /**
   * The specifier of a submodule: `pkg` + `mod` → `pkg.mod` (Python), `crate::a` + `b` → `crate::a::b` (Rust).
   *
   * @param language Language id.
   * @param source The parent module's specifier.
   * @param name The submodule's name.
   * @returns The specifier, or null when the language has no such form.
   */
  static submodule(language: string, source: string, name: string): string | null {
    return profileOf(language).moduleSystem?.submodule(source, name) ?? null;
  }

  /**
   * The workspace file an import names.
   *
   * @param from The importing file (relative path).
   * @param language Its language.
   * @param source The specifier as written.
   * @returns The relative path, or null when it is not a workspace file.
   *
   * @example
   * ```ts
   * import { ModuleResolver } from "./module_resolution.ts";
   * import assert from "node:assert/strict";
   *
   * const r = new ModuleResolver(["src/a.ts", "src/lib/index.ts", "pkg/__init__.py", "pkg/m.py"]);
   * assert.equal(r.resolve("src/b.ts", "typescript", "./a.js"), "src/a.ts");
   * assert.equal(r.resolve("src/b.ts", "typescript", "./lib"), "src/lib/index.ts");
   * assert.equal(r.resolve("pkg/x.py", "python", ".m"), "pkg/m.py");
   * assert.equal(r.resolve("main.py", "python", "pkg"), "pkg/__init__.py");
   * ```
   */
  resolve(from: string, language: string, source: string): string | null {
    const system = profileOf(language).moduleSystem;
    if (!system) return null;
    // A Rust path depends on the file itself (`super` from a/mod.rs is not `super` from a/x.rs).
    const key = `${system.name}\0${system.resolvesPerFile ? from : dirOf(from)}\0${source}`;
    let hit = this.#memo.get(key);
    if (hit === undefined) {
      hit = system.resolve(this.#context, from, source);
      this.#memo.set(key, hit);
    }
    return hit;
  }
}

/**
 * The path mapping of a tsconfig.json text (comments and trailing commas allowed), or null.
 *
 * @param text The file's text.
 * @param dir The directory of the tsconfig.json, relative to the root ("" for the root).
 * @returns The mapping, or null when it sets neither baseUrl nor paths (or does not parse).
 */
export function tsconfigMapping(text: string, dir: string): PathMapping | null {
  let json: { compilerOptions?: { baseUrl?: string; paths?: Record<string, string[]> } };
  try {
    const stripped = text
      .replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_m, s: string | undefined) => s ?? "")
      .replace(/,(\s*[}\]])/g, "$1");
    json = JSON.parse(stripped);
  } catch {
    return null;
  }
  const opts = json.compilerOptions;
  if (!opts || (opts.baseUrl === undefined && opts.paths === undefined)) return null;
  return { baseUrl: joinPath(dir, opts.baseUrl ?? "."), paths: opts.paths ?? {} };
}
