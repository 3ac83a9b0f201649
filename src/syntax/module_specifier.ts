/**
 * Module specifiers for files: the inverse of {@linkcode ModuleResolver}. Given
 * the file an import is written in, the file it must name and the specifier it
 * used to write, the specifier in the same style that names the file —
 * checked by resolving it. ECMAScript: relative paths (`./x`, `../x`) keep
 * their extension habit (`./a.js` for `a.ts` stays `.js`-suffixed, no
 * extension stays none) and their directory form (`./dir` for
 * `./dir/index.ts`); a tsconfig `paths` alias or `baseUrl` path is kept when
 * one still names the file, else the import becomes relative. Python:
 * relative imports stay relative (`.m`, `..pkg.m`), absolute ones stay
 * absolute (from the root, or `src/` when that is where they resolved).
 *
 * @module
 */
import { dirOf, joinPath, type ModuleResolver, type PathMapping } from "./module_resolution.ts";

/** Extensions an ECMAScript specifier may carry, longest first. */
const ECMA_EXT = /(?:\.d\.[mc]?ts|\.[mc]?[jt]sx?|\.[A-Za-z0-9]+)$/;

/**
 * The relative ECMAScript specifier from a directory to a path: `./x`, `../x`, `.` or `..`.
 *
 * @param fromDir The importing file's directory ("" for the root).
 * @param to The relative path named.
 * @returns The specifier.
 *
 * @example
 * ```ts
 * import { relativeSpecifier } from "./module_specifier.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(relativeSpecifier("src/a", "src/b/c"), "../b/c");
 * assert.equal(relativeSpecifier("src", "src/x"), "./x");
 * assert.equal(relativeSpecifier("src/a", "src"), "..");
 * ```
 */
export function relativeSpecifier(fromDir: string, to: string): string {
  const a = fromDir === "" ? [] : fromDir.split("/");
  const b = to === "" ? [] : to.split("/");
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const rest = b.slice(i).join("/");
  if (a.length === i) return rest === "" ? "." : `./${rest}`;
  const ups = Array(a.length - i).fill("..").join("/");
  return rest === "" ? ups : `${ups}/${rest}`;
}

/** Whether a specifier is relative (`./`, `../`, `.`, `..`). */
export function isRelativeSpecifier(source: string): boolean {
  return /^\.\.?(?:\/|$)/.test(source);
}

function extOf(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  return ECMA_EXT.exec(base)?.[0] ?? "";
}

function isIndex(path: string): boolean {
  return /(?:^|\/)index\.[^/]+$/.test(path);
}

/** What an ECMAScript specifier's writer chose: directory form, extension, trailing slash. */
interface EcmaStyle {
  /** It named an index file by its directory. */
  directory: boolean;
  /** Ends with "/". */
  slash: boolean;
  /** The extension written ("" for none). */
  ext: string;
  /** The extension of the file it named. */
  targetExt: string;
}

function ecmaStyle(source: string, target: string): EcmaStyle {
  const trimmed = source.replace(/\/$/, "");
  const last = trimmed.slice(trimmed.lastIndexOf("/") + 1);
  const directory = isIndex(target) && !/^index(?:\.|$)/.test(last);
  const ext = directory || last === "." || last === ".." ? "" : extOf(last);
  return { directory, slash: source.endsWith("/"), ext, targetExt: extOf(target) };
}

/** The paths, root-relative, a specifier in `style` could spell to name `target` (best first). */
function ecmaForms(target: string, style: EcmaStyle): string[] {
  const ext = extOf(target);
  const stem = target.slice(0, target.length - ext.length);
  const written = style.ext === "" ? "" : style.ext === style.targetExt ? ext : style.ext;
  const forms: string[] = [];
  if (style.directory && isIndex(target)) forms.push(dirOf(target));
  forms.push(stem + written, target, stem);
  return [...new Set(forms)];
}

/**
 * The ECMAScript specifier that names `target` from `from`, in the style of
 * `old` (which named `oldTarget`), or null when none resolves there.
 *
 * @param resolver Resolution over the files as they will be.
 * @param request The importing file (`from`, its path after the change), the file to name (`target`, its
 *   path after the change), the specifier written before and the file it named then (`old`), and the
 *   tsconfig path mapping, if any.
 * @returns The specifier, checked with `resolver`.
 *
 * @example
 * ```ts
 * import { ModuleResolver } from "./module_resolution.ts";
 * import { ecmaSpecifier } from "./module_specifier.ts";
 * import assert from "node:assert/strict";
 *
 * const r = new ModuleResolver(["src/b.ts", "lib/a.ts", "lib/d/index.ts"]);
 * assert.equal(ecmaSpecifier(r, { from: "src/b.ts", target: "lib/a.ts", old: { source: "./a.js", target: "src/a.ts" } }), "../lib/a.js");
 * assert.equal(ecmaSpecifier(r, { from: "src/b.ts", target: "lib/d/index.ts", old: { source: "./d", target: "src/d/index.ts" } }), "../lib/d");
 * ```
 */
export function ecmaSpecifier(
  resolver: ModuleResolver,
  request: {
    from: string;
    target: string;
    old: { source: string; target: string };
    mapping?: PathMapping | null;
  },
): string | null {
  const { from, target, old, mapping = null } = request;
  const style = ecmaStyle(old.source, old.target);
  const forms = ecmaForms(target, style);
  const candidates: string[] = [];
  if (!isRelativeSpecifier(old.source) && mapping) {
    candidates.push(...aliasSpecifiers(forms, old.source, mapping));
  }
  for (const f of forms) {
    const rel = relativeSpecifier(dirOf(from), f);
    candidates.push(style.slash && f === dirOf(target) && !rel.endsWith("/") ? `${rel}/` : rel);
  }
  for (const c of candidates) if (resolver.resolve(from, "typescript", c) === target) return c;
  return null;
}

/** Non-relative specifiers (tsconfig `paths` patterns, then `baseUrl`) that spell one of `forms`, closest to `old` first. */
function aliasSpecifiers(forms: string[], old: string, mapping: PathMapping): string[] {
  const out: string[] = [];
  for (const [pattern, targets] of Object.entries(mapping.paths)) {
    for (const t of targets) {
      const full = joinPath(mapping.baseUrl, t);
      const star = full.indexOf("*");
      for (const f of forms) {
        if (star < 0) {
          if (f === full) out.push(pattern);
          continue;
        }
        const pre = full.slice(0, star);
        const post = full.slice(star + 1);
        if (f.startsWith(pre) && f.endsWith(post) && f.length >= pre.length + post.length) {
          out.push(pattern.replace("*", f.slice(pre.length, f.length - post.length)));
        }
      }
    }
  }
  // A plain baseUrl path only replaces a plain baseUrl path (TypeScript reads paths without a baseUrl).
  const viaPattern = Object.keys(mapping.paths).some((p) => {
    const star = p.indexOf("*");
    return star < 0 ? p === old : old.startsWith(p.slice(0, star)) && old.endsWith(p.slice(star + 1));
  });
  const base = mapping.baseUrl === "" ? "" : `${mapping.baseUrl}/`;
  if (!viaPattern) { for (const f of forms) if (f.startsWith(base)) out.push(f.slice(base.length)); }
  const shared = (s: string) => {
    let i = 0;
    while (i < s.length && s[i] === old[i]) i++;
    return i;
  };
  return [...new Set(out)].filter((s) => !isRelativeSpecifier(s)).sort((a, b) => shared(b) - shared(a));
}

/**
 * The dotted module path of a Python file (`pkg/m.py` → `pkg.m`, `pkg/__init__.py` → `pkg`), or null.
 *
 * @param path A relative path.
 * @returns Its module parts.
 */
export function pythonModuleParts(path: string): string[] | null {
  if (!/\.pyi?$/.test(path)) return null;
  const parts = path.replace(/\.pyi?$/, "").split("/").filter((p) => p !== "");
  if (parts[parts.length - 1] === "__init__") parts.pop();
  return parts;
}

/**
 * The Python module name that imports `target` from `from`, relative (`.m`,
 * `..pkg.m`) or absolute like `old`, or null when none resolves there.
 *
 * @param resolver Resolution over the files as they will be.
 * @param request The importing file (`from`, its path after the change), the module file to name
 *   (`target`, its path after the change), and the module name written before and the file it named then
 *   (`old`).
 * @returns The module name, checked with `resolver`.
 *
 * @example
 * ```ts
 * import { ModuleResolver } from "./module_resolution.ts";
 * import { pythonSpecifier } from "./module_specifier.ts";
 * import assert from "node:assert/strict";
 *
 * const r = new ModuleResolver(["pkg/__init__.py", "pkg/sub/m.py", "pkg/x.py"]);
 * assert.equal(pythonSpecifier(r, { from: "pkg/x.py", target: "pkg/sub/m.py", old: { source: ".m", target: "pkg/m.py" } }), ".sub.m");
 * assert.equal(pythonSpecifier(r, { from: "pkg/x.py", target: "pkg/sub/m.py", old: { source: "pkg.m", target: "pkg/m.py" } }), "pkg.sub.m");
 * ```
 */
export function pythonSpecifier(
  resolver: ModuleResolver,
  request: { from: string; target: string; old: { source: string; target: string } },
): string | null {
  const { from, target, old } = request;
  const parts = pythonModuleParts(target);
  if (!parts) return null;
  const candidates: string[] = [];
  const relative = () => {
    const here = dirOf(from).split("/").filter((p) => p !== "");
    let i = 0;
    while (i < here.length && i < parts.length && here[i] === parts[i]) i++;
    return ".".repeat(1 + here.length - i) + parts.slice(i).join(".");
  };
  const absolute = (base: string) =>
    base === "" ? parts.join(".") : parts[0] === base ? parts.slice(1).join(".") : null;
  if (old.source.startsWith(".")) candidates.push(relative());
  else {
    const srcBased = old.target.startsWith("src/") && !old.source.startsWith("src");
    for (const base of srcBased ? ["src", ""] : ["", "src"]) {
      const a = absolute(base);
      if (a) candidates.push(a);
    }
  }
  for (const c of candidates) if (c !== "" && resolver.resolve(from, "python", c) === target) return c;
  return null;
}
