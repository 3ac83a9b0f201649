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
import { ClassHierarchy, type ClassRef, nameBinding, ofType } from "./class_hierarchy.ts";
import { type ModuleChain, ModuleChains } from "./module_chains.ts";

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
  readonly #classes: ClassHierarchy;
  readonly #chains: ModuleChains;

  constructor(project: ProjectFiles) {
    this.#project = project;
    this.#classes = new ClassHierarchy(project);
    this.#chains = new ModuleChains(project);
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

  /** The module a member access's object names ({@linkcode ModuleChains.objectModule}). */
  objectModule(fb: FileBindings, occ: Occurrence): Promise<string | "unknown" | null> {
    return this.#chains.objectModule(fb, occ);
  }

  /** A member access walked through modules ({@linkcode ModuleChains.moduleChain}). */
  moduleChain(fb: FileBindings, occ: Occurrence, own: boolean): Promise<ModuleChain | null> {
    return this.#chains.moduleChain(fb, occ, own);
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

  /** The class a name's written type names, and its file ({@linkcode ClassHierarchy.declaredClass}). */
  declaredClass(fb: FileBindings, object: Binding | null | undefined): Promise<ClassRef | null> {
    return this.#classes.declaredClass(fb, object);
  }

  /**
   * A class member: its declarations, `this.x`/`self.x` in the class, `Class.x`; other `obj.x` are candidates.
   * Where classes extend or implement others (`class A extends Base implements I`), the member is one symbol
   * with the same-named member of the class's supertypes that declare it and of every class derived from one
   * of these (an override, or the inherited member used as `this.x` or `super.x`): all of them are searched.
   */
  async member(fb: FileBindings, cls: Scope, name: string, crossFile: boolean): Promise<void> {
    const family = await this.#classes.hierarchy({ fb, scope: cls }, name, crossFile);
    const scopes = new Set(family.map((c) => c.scope));
    for (const c of family) await this.#classMember(c.fb, c.scope, name, { crossFile, family: scopes });
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
    for (const { fb: f, scopes } of await this.#classes.family(fb, cls, crossFile)) {
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
          if (await this.#classes.superIn({ fb: f, scope: classScopeOf(occ.scope)! }, family)) {
            this.add(f.path, occ);
          }
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
}

function firstDef(fb: FileBindings, b: Binding): Occurrence {
  return fb.occurrences.find((o) => o.binding === b && o.kind === "definition")!;
}

/** A shorthand key (`{ x }`, `({ x } = obj)`, `f({ x }: T)`) whose object's type is not written. */
function untypedKey(occ: Occurrence): boolean {
  return (occ.kind === "shorthand" || occ.kind === "shorthand_pattern") && !occ.object && !occ.thisKey;
}
