/**
 * Module resolution within a workspace: which file an import's module
 * specifier names. ECMAScript (TypeScript, TSX, JavaScript): relative
 * specifiers with or without an extension (`./a.js` may name `a.ts`), index
 * files, and tsconfig `baseUrl`/`paths` when the root has a tsconfig.json.
 * Python: relative imports (`.m`, `..pkg.m`) and absolute ones within the
 * root (or its `src/`), as modules or packages (`__init__.py`). A bare
 * package name that no workspace file answers to resolves to null.
 *
 * @module
 */

/** The module systems graver resolves, by language. */
const SYSTEM: Record<string, "ecmascript" | "python"> = {
  typescript: "ecmascript",
  tsx: "ecmascript",
  javascript: "ecmascript",
  python: "python",
};

/** tsconfig.json's path mapping (`compilerOptions.baseUrl` and `paths`), relative to the root. */
export interface PathMapping {
  /** Directory non-relative specifiers are resolved from ("" for the root). */
  baseUrl: string;
  /** Pattern (one `*` at most) -> substitutions. */
  paths: Record<string, string[]>;
}

const ECMA_EXTENSIONS = [".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

/** Resolves module specifiers against a fixed set of workspace files. */
export class ModuleResolver {
  readonly #files: ReadonlySet<string>;
  readonly #mapping: PathMapping | null;
  readonly #memo = new Map<string, string | null>();

  /**
   * Index the files imports may resolve to.
   *
   * @param files Every relative path of the workspace that may be imported.
   * @param mapping tsconfig path mapping, if any.
   */
  constructor(files: Iterable<string>, mapping: PathMapping | null = null) {
    this.#files = new Set(files);
    this.#mapping = mapping;
  }

  /**
   * The module system of a language, or null when graver does not resolve its imports.
   *
   * @param language Language id.
   * @returns "ecmascript" | "python" | null.
   */
  static systemOf(language: string): "ecmascript" | "python" | null {
    return SYSTEM[language] ?? null;
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
    const key = `${system}\0${dirOf(from)}\0${source}`;
    let hit = this.#memo.get(key);
    if (hit === undefined) {
      hit = system === "ecmascript" ? this.#ecmascript(from, source) : this.#python(from, source);
      this.#memo.set(key, hit);
    }
    return hit;
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

/** The directory part of a relative path ("" at the root). */
function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/** Join and normalise relative path parts (`.` and `..` folded; never above the root). */
function joinPath(dir: string, rel: string): string {
  const out: string[] = [];
  for (const part of `${dir}/${rel}`.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return out.join("/");
}
