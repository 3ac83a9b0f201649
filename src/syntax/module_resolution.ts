/**
 * Module resolution within a workspace: which file an import's module
 * specifier names. ECMAScript (TypeScript, TSX, JavaScript): relative
 * specifiers with or without an extension (`./a.js` may name `a.ts`), index
 * files, and tsconfig `baseUrl`/`paths` when the root has a tsconfig.json.
 * Python: relative imports (`.m`, `..pkg.m`) and absolute ones within the
 * root (or its `src/`), as modules or packages (`__init__.py`). Go: an
 * import path under the module path of the root's go.mod names a directory
 * (a package: every `.go` file in it). Rust: `mod x;` and `use` paths
 * (`crate::`, `super::`, `self::`, child modules; `x.rs` or `x/mod.rs`)
 * within the crate. A bare package name that no workspace file answers to
 * resolves to null.
 *
 * @module
 */

/** The module systems graver resolves, by language. */
const SYSTEM: Record<string, ModuleSystem> = {
  typescript: "ecmascript",
  tsx: "ecmascript",
  javascript: "ecmascript",
  python: "python",
  go: "go",
  rust: "rust",
};

/** Module systems whose modules are run-time values: any name may hold one, and any may be set on one. */
const MODULE_VALUES: ReadonlySet<ModuleSystem> = new Set(["python"]);

/** A module system graver resolves. */
export type ModuleSystem = "ecmascript" | "python" | "go" | "rust";

/** A Go module: the directory of its go.mod (relative, "" for the root) and its module path. */
export interface GoModule {
  /** Directory of the go.mod. */
  dir: string;
  /** The `module` line's path (`github.com/google/go-cmp`). */
  path: string;
}

/** tsconfig.json's path mapping (`compilerOptions.baseUrl` and `paths`), relative to the root. */
export interface PathMapping {
  /** Directory non-relative specifiers are resolved from ("" for the root). */
  baseUrl: string;
  /** Pattern (one `*` at most) -> substitutions. */
  paths: Record<string, string[]>;
}

const ECMA_EXTENSIONS = [".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

/** A Rust package's library crate: the directory of its Cargo.toml and the name paths use (`-` as `_`). */
export interface RustCrate {
  /** Directory of the Cargo.toml ("" for the root). */
  dir: string;
  /** The crate's name in paths (`semver`, `grep_regex`). */
  name: string;
}

/** Resolves module specifiers against a fixed set of workspace files. */
export class ModuleResolver {
  readonly #files: ReadonlySet<string>;
  readonly #mapping: PathMapping | null;
  readonly #goModules: GoModule[];
  readonly #rustCrates: RustCrate[];
  readonly #memo = new Map<string, string | null>();
  #goDirs: Set<string> | null = null;

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
    this.#files = new Set(files);
    this.#mapping = mapping;
    this.#goModules = options.goModules ?? [];
    this.#rustCrates = options.rustCrates ?? [];
  }

  /**
   * The module system of a language, or null when graver does not resolve its imports.
   *
   * @param language Language id.
   * @returns "ecmascript" | "python" | null.
   */
  static systemOf(language: string): ModuleSystem | null {
    return SYSTEM[language] ?? null;
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
    return SYSTEM[language] === "go" ? dirOf(path) : path;
  }

  /**
   * Whether a language's modules are values (Python): a variable may hold one, and a module may get names at
   * run time (`setattr`, `globals().update`) that no declaration shows.
   *
   * @param language Language id.
   * @returns True for such languages.
   */
  static modulesAreValues(language: string): boolean {
    const system = SYSTEM[language];
    return system !== undefined && MODULE_VALUES.has(system);
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
    const system = SYSTEM[language];
    if (system === "python") return /^\.+$/.test(source) ? `${source}${name}` : `${source}.${name}`;
    if (system === "rust") return `${source}::${name}`;
    return null;
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
    const system = SYSTEM[language];
    if (!system) return null;
    // A Rust path depends on the file itself (`super` from a/mod.rs is not `super` from a/x.rs).
    const key = `${system}\0${system === "rust" ? from : dirOf(from)}\0${source}`;
    let hit = this.#memo.get(key);
    if (hit === undefined) {
      hit = system === "ecmascript"
        ? this.#ecmascript(from, source)
        : system === "python"
        ? this.#python(from, source)
        : system === "go"
        ? resolveGoImport(this.#goModules, this.#goPackages(), source)
        : resolveRustPath(this.#files, { from, source, crates: this.#rustCrates });
      this.#memo.set(key, hit);
    }
    return hit;
  }

  /** Directories that hold a .go file. */
  #goPackages(): Set<string> {
    if (!this.#goDirs) {
      this.#goDirs = new Set();
      for (const f of this.#files) if (f.endsWith(".go")) this.#goDirs.add(dirOf(f));
    }
    return this.#goDirs;
  }

  #first(candidates: string[]): string | null {
    for (const c of candidates) if (this.#files.has(c)) return c;
    return null;
  }

  #ecmaCandidates(base: string): string | null {
    const stem = base.replace(/\.(?:m|c)?js$|\.jsx$/, "");
    const list = [base];
    for (const ext of ECMA_EXTENSIONS) list.push(stem + ext);
    for (const ext of ECMA_EXTENSIONS) list.push(`${base}/index${ext}`);
    return this.#first(list);
  }

  #ecmascript(from: string, source: string): string | null {
    if (source.startsWith("./") || source.startsWith("../") || source === "." || source === "..") {
      return this.#ecmaCandidates(joinPath(dirOf(from), source));
    }
    const m = this.#mapping;
    if (!m) return null;
    for (const [pattern, targets] of Object.entries(m.paths)) {
      const star = pattern.indexOf("*");
      let captured: string | null = null;
      if (star < 0) captured = pattern === source ? "" : null;
      else {
        const pre = pattern.slice(0, star);
        const post = pattern.slice(star + 1);
        if (source.startsWith(pre) && source.endsWith(post) && source.length >= pre.length + post.length) {
          captured = source.slice(pre.length, source.length - post.length);
        }
      }
      if (captured === null) continue;
      for (const t of targets) {
        const hit = this.#ecmaCandidates(joinPath(m.baseUrl, t.replace("*", captured)));
        if (hit) return hit;
      }
    }
    return this.#ecmaCandidates(joinPath(m.baseUrl, source));
  }

  #python(from: string, source: string): string | null {
    const dots = /^\.*/.exec(source)![0].length;
    const parts = source.slice(dots).split(".").filter((p) => p !== "");
    const bases: string[] = [];
    if (dots > 0) {
      let dir = dirOf(from);
      for (let i = 1; i < dots; i++) dir = dirOf(dir);
      bases.push(dir);
    } else bases.push("", "src");
    for (const base of bases) {
      const path = joinPath(base, parts.join("/"));
      const hit = this.#first(
        parts.length === 0 ? [`${path}/__init__.py`.replace(/^\//, "")] : [
          `${path}.py`,
          `${path}.pyi`,
          `${path}/__init__.py`,
        ],
      );
      if (hit) return hit;
    }
    return null;
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

/**
 * The module path a go.mod declares (its `module` line), or null.
 *
 * @param text The go.mod text.
 * @returns The module path.
 */
export function goModulePath(text: string): string | null {
  const m = /^\s*module\s+"?([^\s"]+)"?\s*$/m.exec(text);
  return m ? m[1]! : null;
}

/**
 * The name a Cargo.toml's library crate goes by in paths: `[lib] name`, else `[package] name` with `-` as `_`.
 *
 * @param text The Cargo.toml text.
 * @returns The crate name, or null (a virtual workspace manifest).
 */
export function cargoCrateName(text: string): string | null {
  const section = (name: string) => {
    const m = new RegExp(`^\\[${name}\\][^]*?(?=^\\[|(?![^]))`, "m").exec(text);
    return m ? /^\s*name\s*=\s*"([^"]+)"/m.exec(m[0])?.[1] ?? null : null;
  };
  return (section("lib") ?? section("package"))?.replace(/-/g, "_") ?? null;
}

/**
 * The package directory a Go import path names: under the module path of a
 * go.mod of the workspace, a directory that holds `.go` files.
 *
 * @param modules The workspace's Go modules.
 * @param packages Directories that hold `.go` files.
 * @param source The import path.
 * @returns The directory (relative, "" for the root), or null (the standard library, other modules).
 */
export function resolveGoImport(
  modules: GoModule[],
  packages: ReadonlySet<string>,
  source: string,
): string | null {
  for (const m of modules) {
    if (source !== m.path && !source.startsWith(`${m.path}/`)) continue;
    const dir = joinPath(m.dir, source.slice(m.path.length));
    if (packages.has(dir)) return dir;
  }
  return null;
}

/** A Rust file cargo builds as a crate of its own, found by its directory (an integration test, example, bench, binary). */
const RUST_TARGET_FILE = /(?:^|\/)(?:tests|examples|benches|src\/bin)\/(?!mod\.rs$)[^/]+\.rs$/;

/**
 * Whether a Rust file is a crate root cargo finds by where it lies (`tests/x.rs`, `examples/x.rs`,
 * `benches/x.rs`, `src/bin/x.rs`): its `crate::` is itself, and its `mod y;` is `y.rs` beside it.
 *
 * @param path A relative path.
 * @returns True for such a file.
 */
export function isRustTargetFile(path: string): boolean {
  return RUST_TARGET_FILE.test(path);
}

/** The directory holding a Rust file's child modules: its own directory for lib.rs, main.rs, mod.rs and target roots. */
function rustModuleDir(file: string): string {
  const name = file.slice(file.lastIndexOf("/") + 1);
  if (name === "lib.rs" || name === "main.rs" || name === "mod.rs" || isRustTargetFile(file)) {
    return dirOf(file);
  }
  return joinPath(dirOf(file), name.replace(/\.rs$/, ""));
}

/**
 * The Rust file of a module path within the crate: `crate::a::b` from the
 * crate root (the nearest `lib.rs` or `main.rs` above the file), `self::`,
 * `super::` and a bare first segment (a child module of the file's module),
 * each segment `x.rs` or `x/mod.rs`.
 *
 * A first segment that names a library crate of the workspace (`semver::Version` in semver's own tests, a
 * sibling crate of a cargo workspace) starts from that crate's `src/lib.rs`.
 *
 * @param files The workspace's files.
 * @param path The file the path is written in (`from`), the path (`source`: `crate::error`, `super`,
 *   `parse`), and the workspace's library crates.
 * @returns The module's file, or null (another crate, or a path that goes on into items).
 */
export function resolveRustPath(
  files: ReadonlySet<string>,
  path: { from: string; source: string; crates?: readonly RustCrate[] },
): string | null {
  const { from, source, crates = [] } = path;
  const first = (list: string[]) => list.find((c) => files.has(c.replace(/^\//, ""))) ?? null;
  const moduleFile = (dir: string) =>
    first([`${dir}.rs`, `${dir}/mod.rs`, `${dir}/lib.rs`, `${dir}/main.rs`].map((c) => c.replace(/^\//, "")));
  const segments = source.split("::").map((s) => s.trim()).filter((s) => s !== "");
  let file: string | null = from;
  let dir = rustModuleDir(from);
  let i = 0;
  const crate = crates.find((c) => c.name === segments[0]);
  if (segments[0] === "crate") {
    file = isRustTargetFile(from) ? from : null;
    for (let d: string | null = dirOf(from); d !== null && !file; d = d === "" ? null : dirOf(d)) {
      file = first([joinPath(d, "lib.rs"), joinPath(d, "main.rs")]);
    }
    if (!file) return null;
    dir = dirOf(file);
    i = 1;
  } else if (segments[0] === "self") i = 1;
  else if (crate && !first([joinPath(dir, `${crate.name}.rs`), joinPath(dir, `${crate.name}/mod.rs`)])) {
    file = first([joinPath(crate.dir, "src/lib.rs")]);
    if (!file) return null;
    dir = dirOf(file);
    i = 1;
  }
  while (segments[i] === "super") {
    dir = dirOf(dir);
    file = moduleFile(dir);
    if (!file) return null;
    i++;
  }
  for (; i < segments.length; i++) {
    const next = first([joinPath(dir, `${segments[i]}.rs`), joinPath(dir, `${segments[i]}/mod.rs`)]);
    if (!next) return null;
    file = next;
    dir = joinPath(dir, segments[i]!);
  }
  return file;
}

/**
 * The directory part of a relative path ("" at the root).
 *
 * @param path A relative path.
 * @returns Its directory.
 */
export function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/**
 * Join and normalise relative path parts (`.` and `..` folded; never above the root).
 *
 * @param dir A relative directory ("" for the root).
 * @param rel A path relative to it.
 * @returns The normalised relative path.
 */
export function joinPath(dir: string, rel: string): string {
  const out: string[] = [];
  for (const part of `${dir}/${rel}`.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return out.join("/");
}
