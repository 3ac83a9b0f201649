/**
 * Classes as the reference search sees them: the class a written type names (`cmd *Command`, `x: &T`,
 * `c: Context`) and the file declaring it, a class's supertypes and the classes derived from them (a member
 * is one symbol across that hierarchy), and the scopes that hold one type's members apart from its
 * declaration (Rust `impl` blocks, Go methods in a package's other files). The
 * {@linkcode Collector} of `reference_collector.ts` asks; this module only finds classes, never sites.
 *
 * @module
 */
import { profileOf } from "../../languages/profiles.ts";
import {
  type Binding,
  classScopeOf,
  type FileBindings,
  type Occurrence,
  type Scope,
} from "../../syntax/bindings.ts";
import type { ProjectFiles } from "../shared/project_files.ts";
import { memberPresence } from "./member_presence.ts";

/** A class scope and the file that declares it. */
export interface ClassRef {
  /** The declaring file's bindings. */
  fb: FileBindings;
  /** The class's scope in that file. */
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

/**
 * The class scope a binding names (`Type` in `Type::x`, `Type.x`, `Type{x: …}`), when declared in this file.
 *
 * @param fb The file's bindings.
 * @param b The binding (a class's name, an import of one is not declared here).
 * @returns The class scope, or null.
 */
export function classNamed(fb: FileBindings, b: Binding | null | undefined): Scope | null {
  if (!b) return null;
  const def = fb.occurrences.find((o) => o.binding === b && o.kind === "definition");
  return (def && fb.scopes.find((s) => s.kind === "class" && s.nameStart === def.start)) ?? null;
}

/**
 * Whether a member access's object is one of a type's bindings (`Type::x`, `Type.x`) or a name declared
 * with that type (`cmd *Command`, `x: &T`, `c: Context`, or through its module: `c *cobra.Command`, one of
 * the type's `sites` in the file): then the member is the type's.
 */
export function ofType(
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
export function nameBinding(fb: FileBindings, s: Scope): Binding | null {
  return s.nameStart < 0 ? null : fb.occurrences.find((o) => o.start === s.nameStart)?.binding ?? null;
}

/** Finds classes, their supertypes, their derived classes and the scopes of their members, across a project. */
export class ClassHierarchy {
  readonly #project: ProjectFiles;

  /** @param project The project's files, bindings and module resolution. */
  constructor(project: ProjectFiles) {
    this.#project = project;
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
    return await this.classOf(fb, type);
  }

  /** The class a name of `fb` binds (a class of this file, or one an import of it names), and its file. */
  async classOf(fb: FileBindings, type: Binding): Promise<ClassRef | null> {
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
   * The classes whose member `name` is the member of `cls`: cls, its supertypes that declare the name, and the
   * classes (of the files that may name it) that derive from one of them. A static member is its class's alone.
   */
  async hierarchy(cls: ClassRef, name: string, crossFile: boolean): Promise<ClassRef[]> {
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
      const found = b ? await this.classOf(cls.fb, b) : null;
      if (found) out.push(found);
    }
    return out;
  }

  /** The class a class extends (`extends Base`: what `super` is), where it is declared in the workspace. */
  async #baseOf(cls: ClassRef): Promise<ClassRef | null> {
    if (cls.scope.base === undefined) return null;
    const b = cls.fb.occurrences.find((o) => o.start === cls.scope.base)?.binding;
    return b ? await this.classOf(cls.fb, b) : null;
  }

  /** Whether `super.x` in the class `cls` reaches a class of `family` (the nearest base declaring x is one). */
  async superIn(cls: ClassRef, family: ReadonlySet<Scope>): Promise<boolean> {
    let at = await this.#baseOf(cls);
    for (let depth = 0; at && depth < MAX_BASES && !family.has(at.scope); depth++) {
      at = await this.#baseOf(at);
    }
    return at !== null && family.has(at.scope);
  }

  /**
   * The class scopes that hold a type's members: the class itself, and where methods are declared apart
   * from the type (Rust `impl` blocks, Go methods) every class scope of the same name — in this file and,
   * for a Go package, its other files.
   */
  async family(
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
