/**
 * Member accesses walked through modules: `m.x` where `m` is a namespace import, `pkg.utils.helper` through
 * a package's submodules, `from pkg import utils; utils.helper`, the names a module imports or star-imports
 * under an attribute's name. The reference search asks which module an access's object names (or whether it
 * may name one); a file move asks for the whole walk, step by step, to rewrite it.
 *
 * @module
 */
import { type FileBindings, memberPath, type Occurrence } from "../../syntax/bindings.ts";
import { ModuleResolver } from "../../syntax/module_resolution.ts";
import type { ProjectFiles } from "../shared/project_files.ts";

/** A member access walked through modules ({@linkcode ModuleChains.moduleChain}). */
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

/** A module reached while following a member access: the file a specifier is resolved from, and what it names. */
interface ModuleStep {
  from: string;
  spec: string;
  module: string;
}

/** Walks member accesses through a project's modules. */
export class ModuleChains {
  readonly #project: ProjectFiles;

  /** @param project The project's files, bindings and module resolution. */
  constructor(project: ProjectFiles) {
    this.#project = project;
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
}
