/**
 * The reference search's walk: a {@linkcode Collector} follows one symbol
 * from its binding to its file's uses, its exports and their importers
 * (re-exports, star imports, namespaces), keyword arguments, class members
 * and doc tags, file by file, collecting sites and `unresolved` candidates.
 * {@linkcode findReferences} in `references.ts` starts it and shapes what
 * it found.
 *
 * @module
 */
import { profileOf } from "../../languages/profiles.ts";
import {
  type Binding,
  classScopeOf,
  type FileBindings,
  lookup,
  memberPath,
  objectProperty,
  type Occurrence,
  type OccurrenceKind,
  type Scope,
  scopeAtOffset,
} from "../../syntax/bindings.ts";
import { docTagNames } from "../../syntax/doc_tags.ts";
import { namespaceModule } from "../shared/namespaces.ts";
import { ModuleResolver } from "../../syntax/module_resolution.ts";
import { isFileLocalLanguage } from "../shared/file_local.ts";
import { hasKeywordArguments } from "../shared/refactor_languages.ts";
import type { ProjectFiles } from "../shared/project_files.ts";
import { memberPresence } from "./member_presence.ts";

const BINDING_KINDS: ReadonlySet<OccurrenceKind> = new Set([
  "definition",
  "reference",
  "shorthand",
  "shorthand_pattern",
  "export_entry",
]);

/** Collects sites while following a symbol from file to file. */
export class Collector {
  readonly sites = new Map<string, Map<number, Occurrence>>();
  readonly unresolved = new Map<string, Map<number, Occurrence>>();
  readonly bindings = new Map<string, Set<Binding>>();
  /**
   * Where a function whose parameter is searched is used as a value (passed, stored, decorated): calls through
   * the value may name the parameter as a keyword argument, which no search can find.
   */
  readonly valueUses: { path: string; occ: Occurrence }[] = [];
  readonly #members = new Set<string>();
  readonly #followed = new Set<string>();
  readonly #project: ProjectFiles;

  constructor(project: ProjectFiles) {
    this.#project = project;
  }

  add(path: string, occ: Occurrence | undefined): void {
    if (!occ) return;
    let m = this.sites.get(path);
    if (!m) this.sites.set(path, m = new Map());
    m.set(occ.start, occ);
  }

  maybe(path: string, occ: Occurrence): void {
    let m = this.unresolved.get(path);
    if (!m) this.unresolved.set(path, m = new Map());
    m.set(occ.start, occ);
  }

  /** A binding and everything that refers to it, here and in other files. */
  async binding(fb: FileBindings, b: Binding, crossFile: boolean): Promise<void> {
    let set = this.bindings.get(fb.path);
    if (!set) this.bindings.set(fb.path, set = new Set());
    if (set.has(b)) return;
    set.add(b);
    for (const occ of fb.occurrences) {
      if (occ.binding === b && BINDING_KINDS.has(occ.kind)) this.add(fb.path, occ);
    }
    // A type embedded in a struct (Go) names that struct's field too: `x.point` follows the type's name.
    for (const occ of fb.occurrences) {
      const holder = occ.binding === b && occ.embedded ? classScopeOf(occ.scope) : null;
      if (holder) await this.member(fb, holder, b.name, crossFile);
    }
    if (b.kind === "parameter") {
      await this.keywordArguments(fb, b, crossFile);
      const cls = classScopeOf(b.scope);
      if (cls && fb.occurrences.some((o) => o.binding === b && o.parameterProperty)) {
        await this.member(fb, cls, b.name, crossFile);
      }
    }
    if (!crossFile) return;
    // An import without alias is the exported symbol itself: follow it back to its module.
    const imp = b.import;
    if (imp && imp.kind === "named" && !imp.nameOccurrence) {
      const from = this.#project.resolver.resolve(fb.path, fb.language, imp.source);
      if (from) await this.exported(from, imp.imported, true);
    }
    if (b.scope.kind !== "module") return;
    // A Go package's other files, a Rust `use m::*`: the same name at their top level is the same symbol
    // (imports excepted: they are the file's own).
    const sharedList = b.kind === "import" ? [] : await this.#project.sharedBindings(fb, b.name);
    for (const shared of sharedList) {
      await this.binding(shared.fb, shared.binding, true);
    }
    if (b.linked) return;
    const viaOwnName = fb.exports.some((e) => e.local === b && !e.aliasOccurrence && e.exported === b.name) ||
      (fb.exportsAll && b.scope.bindings.get(b.name) === b);
    if (viaOwnName) await this.importers(fb.path, b.name);
  }

  /** The symbol a module exports as `name`, and its whole family (`rename` also renames the export). */
  async exported(path: string, name: string, rename: boolean, depth = 0): Promise<void> {
    if (depth > 16) return;
    const files = this.#project.moduleFiles(path);
    if (files.length !== 1 || files[0] !== path) {
      // A Go package: the file of the directory that declares the name.
      for (const file of files) await this.exported(file, name, rename, depth + 1);
      return;
    }
    const fb = await this.#project.bindings(path);
    if (!fb) return;
    for (const e of fb.exports) {
      if (e.exported !== name && !(e.from?.imported === "*" && e.exported === "*")) continue;
      if (e.local) {
        if (e.aliasOccurrence) {
          if (rename) this.add(path, e.aliasOccurrence);
          await this.importers(path, name);
        } else await this.binding(fb, e.local, true);
        return;
      }
      if (e.from) {
        const src = this.#project.resolver.resolve(path, fb.language, e.from.source);
        if (!src) continue;
        if (e.from.imported === "*" && e.exported === "*") {
          await this.exported(src, name, rename, depth + 1);
          continue;
        }
        if (e.from.imported === "*") {
          // `export * as name from "m"`: the symbol is m's namespace, named here.
          if (rename && e.aliasOccurrence) this.add(path, e.aliasOccurrence);
          await this.importers(path, name);
          return;
        }
        this.add(path, e.from.occurrence);
        if (e.aliasOccurrence && rename) this.add(path, e.aliasOccurrence);
        await this.exported(src, e.from.imported, rename, depth + 1);
        return;
      }
    }
    if (fb.exportsAll) {
      const b = fb.scopes[0]!.bindings.get(name);
      if (b) await this.binding(fb, b, true);
      if (b && !b.linked) return;
    }
    // Python: a name this module takes by `from m import *` is m's.
    if (!profileOf(fb.language).moduleSystem?.globImportsReexport) return;
    for (const glob of fb.globs ?? []) {
      const src = this.#project.resolver.resolve(path, fb.language, glob);
      if (src) await this.exported(src, name, rename, depth + 1);
    }
  }

  /**
   * Whether the module `path` (one file) neither declares, imports nor exports `name` and has no star
   * import or re-export: an import of `name` from it cannot be tied to any symbol (a name set at run time,
   * a module `__getattr__`), so it is a candidate rather than left out.
   */
  async #dangling(path: string, name: string): Promise<boolean> {
    if (this.#project.moduleFiles(path).length !== 1) return false;
    const fb = await this.#project.bindings(path);
    if (!fb || fb.scopes[0]!.bindings.has(name) || (fb.globs ?? []).length > 0) return false;
    return !fb.exports.some((e) => e.exported === name || e.exported === "*" || e.from?.imported === "*");
  }

  /** Every import (and re-export) of `name` from the module `path`, in the files that may name it. */
  async importers(path: string, name: string): Promise<void> {
    const self = ModuleResolver.moduleOf(path, this.#project.files.get(path) ?? "");
    const key = `${self}\0${name}`;
    if (this.#followed.has(key)) return;
    this.#followed.add(key);
    for (const rel of await this.#project.candidates(path, name)) {
      if (rel === path) continue;
      const fb = await this.#project.bindings(rel);
      if (!fb) continue;
      const resolve = (source: string) => this.#project.resolver.resolve(rel, fb.language, source);
      // `import("./m")`: `m.name`, `{ name } = await import(...)`: the module's export, or something else with
      // that name; only types would tell. Candidates, never left out silently.
      if ((fb.dynamicImports ?? []).some((s) => resolve(s) === self)) {
        for (const occ of fb.occurrences) {
          if (occ.name !== name) continue;
          // `import("./m").name` (a type's `typeof import("./m").name` too) is the module's export.
          const direct = occ.kind === "member_property"
            ? /import\(\s*(['"])([^'"\n]+)\1\s*\)\s*\??\.\s*$/.exec(
              fb.text.slice(Math.max(0, occ.start - 300), occ.start),
            )
            : null;
          if (direct && resolve(direct[2]!) === self) this.add(rel, occ);
          else if (occ.kind === "member_property") this.maybe(rel, occ);
          // `{ name } = await import(...)`: renamed, it keeps its local name (`{ other: name }`).
          else if (occ.kind === "shorthand_pattern") this.maybe(rel, { ...occ, kind: "shorthand_key" });
        }
      }
      await this.#moduleMembers(fb, self, name);
      this.#docImports(fb, self, name);
      for (const glob of fb.globs ?? []) {
        if (resolve(glob) !== self) continue;
        const linked = fb.scopes[0]!.bindings.get(name);
        if (linked?.linked) await this.binding(fb, linked, true);
        // Python's `from m import *` makes m's names importable from this module too.
        if (profileOf(fb.language).moduleSystem?.globImportsReexport) await this.importers(rel, name);
      }
      for (const imp of fb.imports) {
        if (imp.kind === "default") continue;
        if (imp.kind === "namespace") {
          if (!(imp.imported === "*" && resolve(imp.source) === self)) continue;
          for (const occ of fb.occurrences) {
            if (occ.kind !== "member_property" || occ.name !== name) continue;
            // `{ name: x } = ns`, `(ns).name`: the object is no plain name; it may be the namespace.
            if (!occ.object && !objectProperty(fb, occ)) this.maybe(rel, occ);
          }
          // `import * as ns from "m"; export { ns }`: ns is m's namespace for the files importing it from here.
          for (const e of fb.exports) {
            if (e.local === imp.local) await this.namespaceUsers(rel, e.exported, name);
          }
          continue;
        }
        if (imp.imported !== name) continue;
        const target = resolve(imp.source);
        if (target === null) {
          if (imp.source.startsWith(".")) this.maybe(rel, imp.nameOccurrence ?? firstDef(fb, imp.local));
          continue;
        }
        if (target !== self) {
          // Taken from a module of the workspace that shows no such name: it may still be this symbol.
          if (await this.#dangling(target, name)) {
            this.maybe(rel, imp.nameOccurrence ?? firstDef(fb, imp.local));
          }
          continue;
        }
        if (imp.nameOccurrence) this.add(rel, imp.nameOccurrence);
        else await this.binding(fb, imp.local, true);
      }
      for (const e of fb.exports) {
        if (!e.from || resolve(e.from.source) !== self) continue;
        if (e.from.imported === "*" && e.exported === "*") await this.importers(rel, name);
        else if (e.from.imported === "*") await this.namespaceUsers(rel, e.exported, name);
        else if (e.from.imported === name) {
          this.add(rel, e.from.occurrence);
          if (!e.aliasOccurrence) await this.importers(rel, name);
        }
      }
    }
  }

  /** `import("./m").name` in a JSDoc type of the file, where ./m is the module `self`: m's export. */
  #docImports(fb: FileBindings, self: string, name: string): void {
    for (const doc of fb.docs) {
      const text = fb.text.slice(doc.start, doc.end);
      if (!text.includes(name)) continue;
      for (const d of docTagNames(text)) {
        if (d.role !== "import" || d.name !== name) continue;
        if (this.#project.resolver.resolve(fb.path, fb.language, d.source!) !== self) continue;
        const start = doc.start + d.offset;
        this.add(fb.path, {
          name,
          start,
          end: start + name.length,
          kind: "doc",
          scope: fb.scopes[0]!,
          binding: null,
        });
      }
    }
  }

  /**
   * `m.name` where the object names the module `self`: a namespace import (`import * as m`, Python's
   * `import a.b as m`), a package's submodules (`pkg.mod.name` after `import pkg.mod`), a submodule imported by
   * name (`from pkg import mod`). Where the object is a module that shows no such name, or one that cannot be
   * followed, the site is a candidate.
   */
  async #moduleMembers(fb: FileBindings, self: string, name: string): Promise<void> {
    const itemPaths = profileOf(fb.language).moduleSystem?.itemPaths === true;
    for (const occ of fb.occurrences) {
      if (occ.kind !== "member_property" || occ.name !== name) continue;
      if (itemPaths && !occ.object && this.#pathBefore(fb, occ) === self) {
        this.add(fb.path, occ);
        continue;
      }
      const module = await this.objectModule(fb, occ);
      if (module === self) this.add(fb.path, occ);
      else if (module === "unknown") this.maybe(fb.path, occ);
      else if (
        module !== null && ModuleResolver.modulesAreValues(fb.language) && await this.#dangling(module, name)
      ) {
        this.maybe(fb.path, occ);
      }
    }
  }

  /**
   * Rust: the module a written path before `occ` names when its first segment is no binding of the file
   * (`crate::a::`, `super::`, a workspace crate's name: `semver::Version` in semver's own tests), or null.
   */
  #pathBefore(fb: FileBindings, occ: Occurrence): string | null {
    const path = /((?:[\p{L}_][\p{L}\p{N}_]*\s*::\s*)+)$/u.exec(
      fb.text.slice(Math.max(0, occ.start - 200), occ.start),
    );
    if (!path) return null;
    const source = path[1]!.replace(/\s+/g, "").replace(/::$/, "");
    return this.#project.resolver.resolve(fb.path, fb.language, source);
  }

  /**
   * The module a member access's object names: the module of a namespace import (`m` in `m.x`), then for each
   * property after it the submodule of that name or the module its module imports under that name (a
   * package's `from . import mod`, `import a.b as mod`), or the one a star import brings. "unknown" where a
   * variable may hold a module (Python); null when the object is not a module of the workspace.
   *
   * @param fb The file's bindings.
   * @param occ A member_property occurrence.
   * @returns The module's path, "unknown", or null.
   */
  async objectModule(fb: FileBindings, occ: Occurrence): Promise<string | "unknown" | null> {
    const chain = await this.moduleChain(fb, occ, false);
    if (chain === null || chain.end === "none") return null;
    if (chain.end === "unknown") return "unknown";
    return chain.steps.at(-1)?.module ?? chain.module;
  }

  /**
   * A member access walked through modules as {@linkcode objectModule} walks it, step by step: the module its
   * first name holds, then each property and the module it reaches (with `own`, the accessed name too). A step
   * is a `submodule` when it is the module the dotted name itself names (`pkg.mod` reaching pkg/mod.py), not
   * a name its module binds; its `spec` is that dotted name, as resolved from the file, while every step so
   * far is one.
   *
   * @param fb The file's bindings.
   * @param occ A member_property occurrence.
   * @param own Whether the accessed name is walked too.
   * @returns The walk, or null when the first name is not an import of a workspace module.
   */
  async moduleChain(fb: FileBindings, occ: Occurrence, own: boolean): Promise<ModuleChain | null> {
    const path = memberPath(fb, occ);
    const imp = path?.root?.import;
    if (!path || !imp || imp.kind === "default") return null;
    const root = this.#moduleStep(fb.path, fb.language, imp.source);
    if (root === null) return null;
    const written = own ? [...path.properties, occ.name] : path.properties;
    // `from pkg import mod`: the name is an attribute of pkg, its submodule or one it imports.
    const properties = imp.kind === "named" ? [imp.imported, ...written] : written;
    const chain: ModuleChain = {
      start: path.start,
      source: imp.source,
      module: root.module,
      hidden: imp.kind === "named" ? 1 : 0,
      steps: [],
      end: "module",
    };
    let at = root;
    for (const property of properties) {
      const next = await this.#attributeModule(at, fb.language, property);
      if (next === null || next === "unknown") {
        chain.end = next === null ? "none" : "unknown";
        break;
      }
      const submodule = next.from === at.from &&
        next.spec === ModuleResolver.submodule(fb.language, at.spec, property);
      const spec = next.from === fb.path ? next.spec : null;
      chain.steps.push({ property, module: next.module, submodule, spec });
      at = next;
    }
    return chain;
  }

  /** The module a specifier names from a file, as a step of {@linkcode objectModule}. */
  #moduleStep(from: string, language: string, spec: string): ModuleStep | null {
    const module = this.#project.resolver.resolve(from, language, spec);
    return module === null ? null : { from, spec, module };
  }

  /**
   * The module that is the attribute `p` of a module: its submodule, a module it imports as `p` (a package's
   * `from . import mod`), or one a star import of it brings. "unknown" when the module binds `p` otherwise
   * than by a class or function (an assignment may hold a module); null when `p` is no module.
   */
  async #attributeModule(
    at: ModuleStep,
    language: string,
    p: string,
    depth = 0,
  ): Promise<ModuleStep | "unknown" | null> {
    const sub = ModuleResolver.submodule(language, at.spec, p);
    if (sub === null) return null;
    const direct = this.#moduleStep(at.from, language, sub);
    if (direct || depth > 8) return direct;
    const mfb = await this.#project.bindings(at.module);
    if (!mfb) return null;
    const b = mfb.scopes[0]!.bindings.get(p);
    if (!b) {
      // `from .m import *`: p may be one of m's names.
      for (const glob of mfb.globs ?? []) {
        const from = this.#moduleStep(at.module, language, glob);
        const found = from ? await this.#attributeModule(from, language, p, depth + 1) : null;
        if (found !== null) return found;
      }
      return null;
    }
    const imp = b.import;
    if (imp?.kind === "namespace") return this.#moduleStep(at.module, language, imp.source);
    if (imp?.kind === "named") {
      const parent = this.#moduleStep(at.module, language, imp.source);
      return parent ? this.#attributeModule(parent, language, imp.imported, depth + 1) : null;
    }
    if (imp) return null;
    // A class or function is no module; a variable may hold one where modules are values.
    const def = mfb.occurrences.find((o) => o.binding === b && o.kind === "definition");
    const declared = def && mfb.scopes.some((s) => s.nameStart === def.start);
    return declared || !ModuleResolver.modulesAreValues(mfb.language) ? null : "unknown";
  }

  /**
   * Uses of `name` through a namespace that the module `path` exports as `ns` (`export * as ns from "m"`,
   * where m declares `name`): `ns.name` in the files that import ns from it, through re-exports too. Where
   * the namespace is reached as a property (`lib.ns.name`, from `import * as lib`) the object is not a name,
   * so those sites are unresolved candidates.
   */
  async namespaceUsers(path: string, ns: string, name: string, depth = 0): Promise<void> {
    const self = ModuleResolver.moduleOf(path, this.#project.files.get(path) ?? "");
    const key = `${self}\0${ns}\0${name}`;
    if (depth > 16 || this.#followed.has(key)) return;
    this.#followed.add(key);
    // The files using ns.name hold the name; those passing ns on name it in an export.
    const files = new Set([
      ...await this.#project.candidates(path, name),
      ...await this.#project.reexporters(path, ns),
    ]);
    for (const rel of files) {
      if (rel === path) continue;
      const fb = await this.#project.bindings(rel);
      if (!fb) continue;
      const resolve = (source: string) => this.#project.resolver.resolve(rel, fb.language, source);
      for (const imp of fb.imports) {
        if (resolve(imp.source) !== self) continue;
        const viaProperty = imp.kind === "namespace";
        if (!viaProperty && imp.imported !== ns) continue;
        for (const occ of fb.occurrences) {
          if (occ.kind !== "member_property" || occ.name !== name) continue;
          if (viaProperty && !occ.object) {
            // `lib.ns.name`: the object ends with the property ns of the namespace import.
            const inner = objectProperty(fb, occ);
            if (inner && inner.object === imp.local && inner.name === ns) this.add(rel, occ);
            else this.maybe(rel, occ);
          } else if (!viaProperty && occ.object === imp.local) this.add(rel, occ);
        }
      }
      for (const e of fb.exports) {
        if (!e.from || resolve(e.from.source) !== self) continue;
        if (e.from.imported === "*" && e.exported === "*") {
          await this.namespaceUsers(rel, ns, name, depth + 1);
        } else if (e.from.imported === ns) await this.namespaceUsers(rel, e.exported, name, depth + 1);
      }
    }
  }

  /**
   * The module whose namespace the module `path` exports as `name` ({@linkcode namespaceModule}).
   *
   * @param path The exporting module.
   * @param name The exported name.
   * @returns The namespace's module, or null.
   */
  namespaceOf(path: string, name: string): Promise<string | null> {
    return namespaceModule(
      {
        bindings: (p) => this.#project.bindings(p),
        resolve: (from, language, source) => this.#project.resolver.resolve(from, language, source),
      },
      path,
      { name },
    );
  }

  /**
   * Keyword arguments naming a parameter (Python's `f(a=1)`): in every call
   * whose callee is the function (its name, an import of it, `self.m` for a
   * method, the class for `__init__`).
   */
  async keywordArguments(fb: FileBindings, param: Binding, crossFile: boolean): Promise<void> {
    const fn = param.scope;
    if (fn.kind !== "function" || fn.nameStart < 0) return;
    const callable = fb.occurrences.find((o) => o.start === fn.nameStart)?.binding;
    if (!callable) return;
    const calls = new Collector(this.#project);
    if (callable.scope.kind === "class") {
      const cls = callable.scope;
      const classBinding = fb.occurrences.find((o) => o.start === cls.nameStart)?.binding;
      if (callable.name === "__init__" && classBinding) await calls.binding(fb, classBinding, crossFile);
      else await calls.member(fb, cls, callable.name, false);
    } else await calls.binding(fb, callable, crossFile);
    for (const [rel, sites] of calls.sites) {
      const other = this.#project.parsed.get(rel);
      if (!other) continue;
      const ends = new Map<number, Occurrence>();
      for (const o of sites.values()) ends.set(o.end, o);
      for (const o of sites.values()) {
        if (!hasKeywordArguments(other.language)) break;
        if (o.kind === "reference" && !/^\s*\(/.test(other.text.slice(o.end, o.end + 80))) {
          this.valueUses.push({ path: rel, occ: o });
        }
      }
      for (const occ of other.occurrences) {
        if (occ.kind !== "keyword" || occ.name !== param.name || !occ.callee) continue;
        const callee = ends.get(occ.callee.end);
        if (callee && callee.start >= occ.callee.start) this.add(rel, occ);
      }
    }
    if (callable.scope.kind === "class" && callable.name !== "__init__") {
      await this.#methodKeywordCandidates(fb, param.name, callable.name, crossFile);
    }
  }

  /**
   * Keyword arguments `name=` of calls `x.method(…)` on objects of unknown type: they may call this method,
   * so they are candidates (listed, left alone) unless a resolved call already holds them.
   */
  async #methodKeywordCandidates(fb: FileBindings, name: string, method: string, crossFile: boolean) {
    const files = crossFile ? await this.#project.candidates(fb.path, method) : [fb.path];
    for (const rel of files) {
      const other = rel === fb.path ? fb : await this.#project.bindings(rel);
      if (!other) continue;
      for (const occ of other.occurrences) {
        if (occ.kind !== "keyword" || occ.name !== name || !occ.callee) continue;
        if (this.sites.get(rel)?.has(occ.start)) continue;
        const callee = other.text.slice(occ.callee.start, occ.callee.end);
        if (new RegExp(`\\.\\s*${method}$`).test(callee)) this.maybe(rel, occ);
      }
    }
  }

  /**
   * JSDoc tags naming a collected binding ({@linkcode docTagNames}): `{@link x}`, `@see x` and the type
   * names of a tag's `{…}` type (`@param {Context} c`, `@returns {Hono}`) where x resolves to it at the
   * comment, `@param x` on the function whose parameter it is.
   */
  docTags(): void {
    for (const [path, set] of this.bindings) {
      const fb = this.#project.parsed.get(path);
      if (!fb || fb.docs.length === 0) continue;
      const names = new Set([...set].map((b) => b.name));
      for (const doc of fb.docs) {
        const text = fb.text.slice(doc.start, doc.end);
        if (![...names].some((n) => text.includes(n))) continue;
        for (const { name, offset, role } of docTagNames(text)) {
          // `import("./m").X` is m's export, whatever X names here: `importers` ties it.
          if (!names.has(name) || role === "import") continue;
          const start = doc.start + offset;
          let b: Binding | null;
          if (role === "param") {
            const fn = fb.scopes.find((s) =>
              s.start >= doc.end && s.kind === "function" &&
              /^[^;{}]{0,200}$/.test(fb.text.slice(doc.end, s.start))
            );
            b = fn?.bindings.get(name) ?? null;
          } else b = lookup(scopeAtOffset(fb, doc.start), name);
          if (!b || !set.has(b)) continue;
          this.add(path, { name, start, end: start + name.length, kind: "doc", scope: b.scope, binding: b });
        }
      }
    }
  }

  /**
   * The class a name's written type names (`cmd *Command`, `c *cobra.Command`, `x: &T`, `c: Context`) and the
   * file that declares it: this file, a file sharing its scope (a Go package's other file), or the module an
   * import of the type (or of its module) names, where it is exported under that name.
   *
   * @param fb The file of the name.
   * @param object The name's binding.
   * @returns The class scope and its file, or null when the type is not written or not a class found so.
   */
  async declaredClass(
    fb: FileBindings,
    object: Binding | null | undefined,
  ): Promise<{ fb: FileBindings; scope: Scope } | null> {
    const declared = object?.declaredType;
    const type = declared?.binding;
    const resolve = (source: string) => this.#project.resolver.resolve(fb.path, fb.language, source);
    if (!type) {
      // `pkg.Type`, `ns.Type`: a type of the module a namespace import names.
      const ns = declared?.kind === "member_property" ? declared.object?.import : undefined;
      const from = ns?.kind === "namespace" ? resolve(ns.source) : null;
      // A Go package at the module's root is the directory "".
      return from !== null ? await this.#exportedClass(from, declared!.name) : null;
    }
    return await this.#classOf(fb, type);
  }

  /** The class a name of `fb` binds (a class of this file, or one an import of it names), and its file. */
  async #classOf(fb: FileBindings, type: Binding): Promise<ClassRef | null> {
    const resolve = (source: string) => this.#project.resolver.resolve(fb.path, fb.language, source);
    const here = classNamed(fb, type);
    if (here) return { fb, scope: here };
    if (type.linked) {
      for (const shared of await this.#project.sharedBindings(fb, type.name)) {
        const scope = classNamed(shared.fb, shared.binding);
        if (scope) return { fb: shared.fb, scope };
      }
      return null;
    }
    const imp = type.import;
    const from = imp?.kind === "named" ? resolve(imp.source) : null;
    return from !== null ? await this.#exportedClass(from, imp!.imported) : null;
  }

  /** The class a module (a file, a Go package) exports as `name` itself, declared there. */
  async #exportedClass(module: string, name: string): Promise<{ fb: FileBindings; scope: Scope } | null> {
    for (const path of this.#project.moduleFiles(module)) {
      const other = await this.#project.bindings(path);
      if (!other) continue;
      const exported = other.exports.find((e) => e.exported === name && e.local)?.local ??
        (other.exportsAll ? other.scopes[0]!.bindings.get(name) : undefined);
      const scope = classNamed(other, exported);
      if (scope) return { fb: other, scope };
    }
    return null;
  }

  /**
   * A class member: its declarations, `this.x`/`self.x` in the class, `Class.x`; other `obj.x` are candidates.
   * Where classes extend or implement others (`class A extends Base implements I`), the member is one symbol
   * with the same-named member of the class's supertypes that declare it and of every class derived from one
   * of these (an override, or the inherited member used as `this.x` or `super.x`): all of them are searched.
   */
  async member(fb: FileBindings, cls: Scope, name: string, crossFile: boolean): Promise<void> {
    const family = await this.#hierarchy({ fb, scope: cls }, name, crossFile);
    const scopes = new Set(family.map((c) => c.scope));
    for (const c of family) await this.#classMember(c.fb, c.scope, name, { crossFile, family: scopes });
  }

  /**
   * The classes whose member `name` is the member of `cls`: cls, its supertypes that declare the name, and the
   * classes (of the files that may name it) that derive from one of them. A static member is its class's alone.
   */
  async #hierarchy(cls: ClassRef, name: string, crossFile: boolean): Promise<ClassRef[]> {
    const roots = new Set<Scope>([cls.scope]);
    const out: ClassRef[] = [cls];
    if (declaresMember(cls, name, true)) return out;
    const queue = await this.#supertypesOf(cls);
    const seen = new Set<Scope>([cls.scope]);
    for (let at = queue.shift(); at && seen.size < MAX_BASES; at = queue.shift()) {
      if (seen.has(at.scope)) continue;
      seen.add(at.scope);
      // A base whose code uses `this.x` (a JavaScript or Python attribute it assigns or reads) has it too.
      if (declaresMember(at, name) || memberPresence(at.fb, at.scope, name)?.declared === false) {
        roots.add(at.scope);
        out.push(at);
      }
      queue.push(...await this.#supertypesOf(at));
    }
    const derives = new Map<Scope, boolean>();
    const files = crossFile ? await this.#project.candidates(cls.fb.path, name) : [cls.fb.path];
    for (const rel of files) {
      const other = await this.#project.bindings(rel);
      for (const scope of other?.scopes ?? []) {
        if (roots.has(scope) || (scope.base === undefined && !scope.interfaces)) continue;
        if (await this.#derivesFrom({ fb: other!, scope }, roots, derives)) out.push({ fb: other!, scope });
      }
    }
    return out;
  }

  /** Whether a class extends or implements one of `roots`, directly or through others (memoised in `known`). */
  async #derivesFrom(
    cls: ClassRef,
    roots: ReadonlySet<Scope>,
    known: Map<Scope, boolean>,
    depth = 0,
  ): Promise<boolean> {
    if (roots.has(cls.scope)) return true;
    const hit = known.get(cls.scope);
    if (hit !== undefined || depth > MAX_BASES) return hit ?? false;
    known.set(cls.scope, false);
    for (const s of await this.#supertypesOf(cls)) {
      if (await this.#derivesFrom(s, roots, known, depth + 1)) {
        known.set(cls.scope, true);
        return true;
      }
    }
    return false;
  }

  /** The classes a class extends and implements, where their declarations are found in the workspace. */
  async #supertypesOf(cls: ClassRef): Promise<ClassRef[]> {
    const out: ClassRef[] = [];
    for (const start of [cls.scope.base ?? -1, ...(cls.scope.interfaces ?? [])]) {
      const b = start < 0 ? null : cls.fb.occurrences.find((o) => o.start === start)?.binding;
      const found = b ? await this.#classOf(cls.fb, b) : null;
      if (found) out.push(found);
    }
    return out;
  }

  /** The class a class extends (`extends Base`: what `super` is), where it is declared in the workspace. */
  async #baseOf(cls: ClassRef): Promise<ClassRef | null> {
    if (cls.scope.base === undefined) return null;
    const b = cls.fb.occurrences.find((o) => o.start === cls.scope.base)?.binding;
    return b ? await this.#classOf(cls.fb, b) : null;
  }

  /** Whether `super.x` in the class `cls` reaches a class of `family` (the nearest base declaring x is one). */
  async #superIn(cls: ClassRef, family: ReadonlySet<Scope>): Promise<boolean> {
    let at = await this.#baseOf(cls);
    for (let depth = 0; at && depth < MAX_BASES && !family.has(at.scope); depth++) {
      at = await this.#baseOf(at);
    }
    return at !== null && family.has(at.scope);
  }

  /** The members of one class scope (see {@linkcode member}). */
  async #classMember(
    fb: FileBindings,
    cls: Scope,
    name: string,
    options: { crossFile: boolean; family: ReadonlySet<Scope> },
  ): Promise<void> {
    const { crossFile, family } = options;
    const key = `${fb.path}\0${cls.id}\0${name}`;
    if (this.#members.has(key)) return;
    this.#members.add(key);
    // The type's own name wherever it is imported: `Type.x` / `Type::x` there is the member too.
    const typeNames = new Collector(this.#project);
    for (const { fb: f, scopes } of await this.#family(fb, cls, crossFile)) {
      for (const occ of f.occurrences) {
        if (occ.parameterProperty && occ.name === name && occ.binding) {
          const c = classScopeOf(occ.scope);
          if (c && scopes.has(c)) await this.binding(f, occ.binding, false);
        }
      }
      const classBindings = new Set<Binding>();
      for (const c of scopes) {
        const b = f.occurrences.find((o) => o.start === c.nameStart)?.binding;
        if (b) classBindings.add(b);
        if (b && crossFile) await typeNames.binding(f, b, true);
        const own = c.bindings.get(name);
        if (own && own.kind !== "parameter") await this.binding(f, own, false);
      }
      for (const occ of f.occurrences) {
        if (occ.name !== name) continue;
        if (occ.kind === "member_definition" && scopes.has(occ.scope)) this.add(f.path, occ);
        else if (occ.kind === "member_this" && scopes.has(classScopeOf(occ.scope)!)) this.add(f.path, occ);
        // `const { x } = this`: renamed, the key names the member and the variable keeps its name.
        else if (occ.thisKey && scopes.has(classScopeOf(occ.scope)!)) {
          this.add(f.path, { ...occ, kind: "shorthand_key" });
        } else if (occ.viaSuper && scopes.has(classScopeOf(occ.scope)!)) {
          // `super.x`: the member when the class's base (or one above it) is of the hierarchy.
          if (await this.#superIn({ fb: f, scope: classScopeOf(occ.scope)! }, family)) this.add(f.path, occ);
        } else if (occ.kind === "member_property" && ofType(occ.object, { bindings: classBindings })) {
          this.add(f.path, occ);
        } else if (occ.kind === "shorthand" && occ.object && classBindings.has(occ.object)) {
          this.add(f.path, { ...occ, kind: "shorthand_key" });
        }
      }
    }
    const files = crossFile ? await this.#project.candidates(fb.path, name) : [fb.path];
    for (const rel of files) {
      const other = await this.#project.bindings(rel);
      if (!other) continue;
      // `impl Type` blocks of other modules (Rust), where Type is the class imported.
      const named = typeNames.bindings.get(rel);
      // `pkg.Type` / `ns.Type` / `a::Type` where this file names the type through its module.
      const typeSites = typeNames.sites.get(rel);
      const impls = new Set(
        named ? other.scopes.filter((s) => s.impl && named.has(nameBinding(other, s)!)) : [],
      );
      for (const occ of other.occurrences) {
        if (occ.name !== name || this.sites.get(rel)?.has(occ.start)) continue;
        if (occ.kind === "member_property" && ofType(occ.object, { bindings: named, sites: typeSites })) {
          this.add(rel, occ);
        } else if (occ.kind === "member_this" && impls.has(classScopeOf(occ.scope)!)) this.add(rel, occ);
        else if (occ.kind === "member_definition" && impls.has(occ.scope)) this.add(rel, occ);
        else if (occ.kind === "shorthand" && occ.object && named?.has(occ.object)) {
          this.add(rel, { ...occ, kind: "shorthand_key" });
        } else if (occ.kind === "member_property" || occ.kind === "member_this") this.maybe(rel, occ);
        else if (untypedKey(occ)) {
          // `{ x }` and `({ x } = obj)`: the key may name the member of whatever type the object has.
          this.maybe(rel, { ...occ, kind: "shorthand_key" });
        } else if (occ.kind === "reference" && occ.binding === null && isFileLocalLanguage(other.language)) {
          // A free name in a language resolved per file may be an inherited member, or one used in a method
          // defined outside its class (C++ `void Box::set() { size_ = v; }`).
          this.maybe(rel, occ);
        }
      }
    }
  }

  /**
   * The class scopes that hold a type's members: the class itself, and where methods are declared apart
   * from the type (Rust `impl` blocks, Go methods) every class scope of the same name — in this file and,
   * for a Go package, its other files.
   */
  async #family(
    fb: FileBindings,
    cls: Scope,
    crossFile: boolean,
  ): Promise<{ fb: FileBindings; scopes: Set<Scope> }[]> {
    const typeName = (f: FileBindings, s: Scope) =>
      s.nameStart < 0 ? null : f.occurrences.find((o) => o.start === s.nameStart)?.name ?? null;
    const name = typeName(fb, cls);
    if (name === null || !fb.scopes.some((s) => s.impl)) return [{ fb, scopes: new Set([cls]) }];
    const named = (f: FileBindings) =>
      new Set(
        f.scopes.filter((s) => s.kind === "class" && s.parent === f.scopes[0] && typeName(f, s) === name),
      );
    const out = [{ fb, scopes: named(fb).add(cls) }];
    if (!crossFile || !profileOf(fb.language).moduleSystem?.moduleIsDirectory) return out;
    for (const rel of await this.#project.sharedScopes(fb)) {
      const other = await this.#project.bindings(rel);
      if (other) out.push({ fb: other, scopes: named(other) });
    }
    return out;
  }
}

/** The parameter a keyword argument names, when its callee is a function (or class) declared in the same file. */
export function keywordParameter(fb: FileBindings, occ: Occurrence): Binding | null {
  const callee = occ.callee;
  if (!callee) return null;
  const fnBinding = fb.occurrences.find((o) => o.end === callee.end && o.start >= callee.start && o.binding)
    ?.binding;
  if (!fnBinding) return null;
  const def = fb.occurrences.find((o) => o.binding === fnBinding && o.kind === "definition");
  let fn = def ? fb.scopes.find((s) => s.nameStart === def.start) : undefined;
  if (fn?.kind === "class") {
    const init = fn.bindings.get("__init__");
    const initDef = init && fb.occurrences.find((o) => o.binding === init && o.kind === "definition");
    fn = initDef ? fb.scopes.find((s) => s.nameStart === initDef.start) : undefined;
  }
  const param = fn?.bindings.get(occ.name);
  return param && param.kind === "parameter" ? param : null;
}

/**
 * Whether a member access's object is one of a type's bindings (`Type::x`, `Type.x`) or a name declared
 * with that type (`cmd *Command`, `x: &T`, `c: Context`, or through its module: `c *cobra.Command`, one of
 * the type's `sites` in the file): then the member is the type's.
 */
function ofType(
  object: Binding | null | undefined,
  type: { bindings?: ReadonlySet<Binding> | undefined; sites?: ReadonlyMap<number, Occurrence> | undefined },
): boolean {
  if (!object) return false;
  if (type.bindings?.has(object)) return true;
  const declared = object.declaredType;
  if (!declared) return false;
  if (declared.binding && type.bindings?.has(declared.binding)) return true;
  return declared.kind === "member_property" && type.sites?.get(declared.start) === declared;
}

/** The binding of a scope's name (a class's own name, an impl block's type), if any. */
function nameBinding(fb: FileBindings, s: Scope): Binding | null {
  return s.nameStart < 0 ? null : fb.occurrences.find((o) => o.start === s.nameStart)?.binding ?? null;
}

/** The class scope a binding names (`Type` in `Type::x`, `Type.x`, `Type{x: …}`), when declared in this file. */
export function classNamed(fb: FileBindings, b: Binding | null | undefined): Scope | null {
  if (!b) return null;
  const def = fb.occurrences.find((o) => o.binding === b && o.kind === "definition");
  return (def && fb.scopes.find((s) => s.kind === "class" && s.nameStart === def.start)) ?? null;
}

/** A member access walked through modules ({@linkcode Collector.moduleChain}). */
export interface ModuleChain {
  /** Where the access's first name starts. */
  start: number;
  /** The module specifier the first name's import names. */
  source: string;
  /** The module that specifier names. */
  module: string;
  /** 1 when the first name is an imported attribute (`from pkg import mod`): the first step is its import's, not written in the access. */
  hidden: 0 | 1;
  /** Each property walked, with the module it reaches. */
  steps: { property: string; module: string; submodule: boolean; spec: string | null }[];
  /** "module" when every property reached a module; "none" when one is no module; "unknown" when one may hold one. */
  end: "module" | "none" | "unknown";
}

/** A class scope and the file that declares it. */
interface ClassRef {
  fb: FileBindings;
  scope: Scope;
}

/** How many `extends` steps a base-class walk follows (a cycle of broken code ends there). */
const MAX_BASES = 32;

/**
 * Whether a class declares the member `name` itself: an instance member (a field, a method, a parameter
 * property), or with `statics` a static one.
 */
function declaresMember(cls: ClassRef, name: string, statics = false): boolean {
  return cls.fb.occurrences.some((o) =>
    o.name === name &&
    ((o.kind === "member_definition" && o.scope === cls.scope && (o.static === true) === statics) ||
      (!statics && o.parameterProperty === true && classScopeOf(o.scope) === cls.scope))
  );
}

/** A module reached while following a member access: the file a specifier is resolved from, and what it names. */
interface ModuleStep {
  from: string;
  spec: string;
  module: string;
}

function firstDef(fb: FileBindings, b: Binding): Occurrence {
  return fb.occurrences.find((o) => o.binding === b && o.kind === "definition")!;
}

/** A shorthand key (`{ x }`, `({ x } = obj)`, `f({ x }: T)`) whose object's type is not written. */
function untypedKey(occ: Occurrence): boolean {
  return (occ.kind === "shorthand" || occ.kind === "shorthand_pattern") && !occ.object && !occ.thisKey;
}
