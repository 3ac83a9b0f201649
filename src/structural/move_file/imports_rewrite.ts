/**
 * Import updates for moved files: after files move, every module reference
 * in the workspace must still name the file it named before (at its new
 * path). Each reference that may be affected — in the moved files
 * themselves, and in every file whose text could name a moved module (or
 * be captured by a module's new path) — is resolved before and after the
 * move; when the answers differ it is rewritten in its own style
 * ({@linkcode ecmaSpecifier}, {@linkcode pythonSpecifier}): extension habit,
 * directory form, quotes, tsconfig aliases, Python relative or absolute. A
 * Python `import pkg.a` also rewrites the `pkg.a.x` chains that use it, and
 * a `from pkg import a, b` whose submodules now live apart is split. Every
 * other access that spells a moved Python module by its dotted name
 * (`import pkg` then `pkg.a.x`, found by the reference search's own walk,
 * {@linkcode Collector.moduleChain}) follows it too, with an `import` of the
 * new module when it leaves its package; an access that may name it but
 * cannot be settled is listed in `unsettled`, and move_file refuses. What
 * else cannot be rewritten is reported as unresolved and left as it is.
 *
 * @module
 */
import { profileOf } from "../../languages/profiles.ts";
import { RecoverableError } from "../../errors.ts";
import { dominantEol } from "../../fs/text.ts";
import type { Stage } from "../../fs/stage.ts";
import { PROJECT_LIMITS } from "../../project/limits.ts";
import { openProject } from "../../project/project_view.ts";
import { dirOf, ModuleResolver, type PathMapping, tsconfigMapping } from "../../syntax/module_resolution.ts";
import { ecmaSpecifier, isRelativeSpecifier, pythonSpecifier } from "../../syntax/module_specifier.ts";
import type { Parsing } from "../../syntax/types.ts";
import { type FileBindings, fileBindings, memberPath, type Occurrence } from "../../syntax/bindings.ts";
import { TextIndex } from "../../syntax/text_index.ts";
import { linesAfter, listItemRemovals } from "../shared/import_edits.ts";
import { movableSystem } from "../shared/refactor_languages.ts";
import { type FamilyStrategy, strategyFor } from "../shared/family_strategies.ts";
import { dottedUses, type ModuleReference, moduleReferences } from "../shared/module_imports.ts";
import { MAX_PROJECT_FILES, ProjectFiles } from "../shared/project_files.ts";
import { Collector } from "../references/reference_collector.ts";
import type { ModuleChain } from "../references/module_chains.ts";
import { applyTextEdits, type TextEdit } from "../edit/source.ts";

/** One rewritten module reference. */
export interface ImportChange {
  /** The file (its path after the move). */
  path: string;
  /** 1-based line, in the file before the edit. */
  line: number;
  /** The module name before. */
  before: string;
  /** The module name after. */
  after: string;
}

/** A module reference the update could not keep pointing at its file. */
export interface UnresolvedImport {
  /** The file (its path after the move). */
  path: string;
  /** 1-based line. */
  line: number;
  /** The module name as written. */
  specifier: string;
  /** Why it was left alone. */
  reason: string;
}

/** What moving files does to the workspace's imports. */
export interface ImportUpdatePlan {
  /** New text of every file whose imports change, by its path after the move. */
  files: Map<string, string>;
  /** Each rewritten reference. */
  updated: ImportChange[];
  /** References left alone that may no longer resolve. */
  unresolved: UnresolvedImport[];
  /**
   * Python member accesses that may spell a moved module by its dotted name (`pkg.mod.x`) but cannot be
   * settled (a variable may hold the module, or it is reached through another module's import): a move
   * over them would leave them behind, so it is refused.
   */
  unsettled: UnresolvedImport[];
}

/** The workspace's files and module resolution before and after some files move. */
export interface ModuleWorld {
  /** Resolution over the files before the move. */
  before: ModuleResolver;
  /** Resolution over the files after the move. */
  after: ModuleResolver;
  /** tsconfig path mapping, if any. */
  mapping: PathMapping | null;
  /** Every file before the move. */
  files: string[];
}

/**
 * The workspace's files (every file, so `./data.json` resolves too) and its
 * tsconfig mapping, with resolvers before and after `moves`.
 *
 * @param stage The call's stage.
 * @param moves From -> to.
 * @returns The two worlds.
 */
export async function moduleWorld(stage: Stage, moves: ReadonlyMap<string, string>): Promise<ModuleWorld> {
  // Every file, not only source files (a data file is an import target too): the walk's everyFile limits.
  const limits = PROJECT_LIMITS.everyFile;
  const walked = await openProject({ stage, limits }).list();
  if (walked.truncated) {
    throw new RecoverableError(
      "limit_exceeded",
      `Cannot update imports: the workspace holds more than ${limits.files} files`,
      { hint: "Call again with update_imports: false", details: { limit: limits.files } },
    );
  }
  const files = walked.files.slice();
  for (const from of moves.keys()) if (!files.includes(from)) files.push(from);
  let mapping: PathMapping | null = null;
  const tsconfig = await stage.readText("tsconfig.json").catch(() => null);
  if (tsconfig) mapping = tsconfigMapping(tsconfig.text, "");
  const afterFiles = files.filter((f) => !moves.has(f)).concat([...moves.values()]);
  return {
    before: new ModuleResolver(files, mapping),
    after: new ModuleResolver(afterFiles, mapping),
    mapping,
    files,
  };
}

/** Words a file that names one of the moved modules (or is captured by a new path) must contain. */
function telltales(
  moves: ReadonlyMap<string, string>,
  mapping: PathMapping | null,
): (text: string) => boolean {
  const words = new Set<string>();
  for (const [from, to] of moves) {
    for (const p of [from, to]) {
      const base = p.slice(p.lastIndexOf("/") + 1).replace(/\..*$/, "");
      words.add(base);
      if (base === "index" || base === "__init__") {
        const dir = dirOf(p);
        words.add(dir.slice(dir.lastIndexOf("/") + 1));
      }
    }
  }
  words.delete("");
  const exact = Object.keys(mapping?.paths ?? {}).filter((k) => !k.includes("*"));
  const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(
    `(?<![\\p{L}\\p{N}_$])(?:${
      [...words].map(escape).join("|")
    })(?![\\p{L}\\p{N}_$])|(['"])\\.\\.?(?:/\\.\\.)*/?\\1|\\bfrom\\s+\\.+\\s+import\\b`,
    "u",
  );
  return (text) => re.test(text) || exact.some((k) => text.includes(k));
}

/**
 * Plan the import updates for moving files: every reference that would name
 * another file (or none) after the move, rewritten to name the same file.
 *
 * @param parsing Grammars and parse cache.
 * @param stage The call's stage (before the move is staged).
 * @param moves From -> to (relative paths).
 * @returns The plan (empty when no moved file is of a language whose imports graver resolves).
 */
export async function planImportUpdates(
  parsing: Parsing,
  stage: Stage,
  moves: ReadonlyMap<string, string>,
): Promise<ImportUpdatePlan> {
  const plan: ImportUpdatePlan = { files: new Map(), updated: [], unresolved: [], unsettled: [] };
  const grammars = parsing.grammars;
  if (!grammars || !parsing.trees) return plan;
  const systemOf = (rel: string) => movableSystem(grammars.languageOf(rel) ?? "");
  if (![...moves.keys()].some((f) => systemOf(f) !== null)) return plan;
  const world = await moduleWorld(stage, moves);
  const mayName = telltales(moves, world.mapping);
  // modules that are values are reached through attribute chains (`import a.b` used as `a.b.x`)
  const valuesOf = (language: string) => profileOf(language).moduleSystem?.modulesAreValues === true;
  const chains = [...moves.keys()].some((f) => valuesOf(grammars.languageOf(f) ?? ""))
    ? await chainWalker(parsing, stage)
    : null;
  for (const rel of world.files) {
    const system = systemOf(rel);
    if (!system) continue;
    const file = await stage.readText(rel).catch(() => null);
    if (!file || (!moves.has(rel) && !mayName(file.text))) continue;
    const language = grammars.languageOf(rel, file.text.slice(0, 200))!;
    const tree = (await parsing.trees.parse(rel, language, file.version, file.text)).tree;
    const refs = moduleReferences(tree, file.text, system);
    // `import a.b` (no alias) is used as `a.b.x`; `import a` as `a.b.x` too: those uses are found through bindings.
    const fb = valuesOf(language) && chains
      ? await chains.project.bindings(rel)
      : refs.some((r) => r.kind === "module" && r.alias === null)
      ? await fileBindings(parsing, { path: rel, language, version: file.version, text: file.text })
      : null;
    const updater = new FileUpdater(rel, file.text, fb, world, moves, plan);
    const { update } = strategyFor(REFERENCE_UPDATES, system);
    for (const ref of refs) update(updater, ref);
    if (valuesOf(language) && chains && fb) await updater.pythonChains(chains.collector, refs);
    const text = updater.result();
    if (text !== null) plan.files.set(moves.get(rel) ?? rel, text);
  }
  return plan;
}

/** The reference search's view of the workspace before the move, to walk Python member accesses through modules. */
async function chainWalker(
  parsing: Parsing,
  stage: Stage,
): Promise<{ project: ProjectFiles; collector: Collector }> {
  const project = new ProjectFiles(parsing, stage);
  try {
    await project.open();
  } catch (e) {
    if (!(e instanceof RecoverableError) || e.code !== "limit_exceeded") throw e;
    throw new RecoverableError(
      "limit_exceeded",
      `Cannot update imports: the workspace holds more than ${MAX_PROJECT_FILES} source files`,
      { hint: "Call again with update_imports: false", details: { limit: MAX_PROJECT_FILES } },
    );
  }
  return { project, collector: new Collector(project) };
}

/** The last part of a Python module's dotted name (`utils` for pkg/utils.py, `pkg` for pkg/__init__.py). */
function moduleName(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1).replace(/\.py[iw]?$/, "");
  if (base !== "__init__") return base;
  const dir = dirOf(path);
  return dir.slice(dir.lastIndexOf("/") + 1);
}

/** The rest of a dotted module name after a prefix it extends (`pkg.a.b` after `pkg` → `a.b`), or null. */
function dottedRest(name: string, prefix: string): string | null {
  const joint = prefix.endsWith(".") ? prefix : `${prefix}.`;
  const rest = name.startsWith(joint) ? name.slice(joint.length) : "";
  return rest !== "" && !rest.startsWith(".") ? rest : null;
}

/** A name of a Python `from m import …` with the file it named before the move (null: not a workspace module). */
type FromName = NonNullable<ModuleReference["names"]>[number] & { target: string | null };

/** The dotted name of `name` inside `module` (`.` + `x` is `.x`, `a` + `x` is `a.x`). */
function submoduleName(module: string, name: string): string {
  return module.endsWith(".") ? module + name : `${module}.${name}`;
}

/** The rewrites of one file. */
class FileUpdater {
  readonly #rel: string;
  readonly #text: string;
  readonly #world: ModuleWorld;
  readonly #moves: ReadonlyMap<string, string>;
  readonly #plan: ImportUpdatePlan;
  readonly #edits: TextEdit[] = [];
  readonly #index: TextIndex;
  readonly #to: string;
  readonly #bindings: FileBindings | null;

  constructor(
    rel: string,
    text: string,
    bindings: FileBindings | null,
    world: ModuleWorld,
    moves: ReadonlyMap<string, string>,
    plan: ImportUpdatePlan,
  ) {
    this.#rel = rel;
    this.#text = text;
    this.#bindings = bindings;
    this.#world = world;
    this.#moves = moves;
    this.#plan = plan;
    this.#index = new TextIndex(text);
    this.#to = moves.get(rel) ?? rel;
  }

  #moved(path: string): string {
    return this.#moves.get(path) ?? path;
  }

  #line(offset: number): number {
    return this.#index.position(offset).line;
  }

  #unresolved(ref: { start: number; source: string }, reason: string): void {
    this.#plan.unresolved.push({
      path: this.#to,
      line: this.#line(ref.start),
      specifier: ref.source,
      reason,
    });
  }

  #replace(start: number, end: number, before: string, after: string): void {
    this.#edits.push({ start, end, text: after });
    this.#plan.updated.push({ path: this.#to, line: this.#line(start), before, after });
  }

  /** An ECMAScript `import`/`export … from`/`require`/`import()`. */
  ecmascript(ref: ModuleReference): void {
    const { before, after, mapping } = this.#world;
    const target = before.resolve(this.#rel, "typescript", ref.source);
    if (target === null) {
      if (this.#moves.has(this.#rel) && isRelativeSpecifier(ref.source)) {
        this.#unresolved(ref, "it names no workspace file, so it cannot be rewritten for the new location");
      }
      return;
    }
    const want = this.#moved(target);
    if (after.resolve(this.#to, "typescript", ref.source) === want) return;
    const next = ecmaSpecifier(after, {
      from: this.#to,
      target: want,
      old: { source: ref.source, target },
      mapping,
    });
    if (next === null) this.#unresolved(ref, `no module specifier names "${want}" from "${this.#to}"`);
    else this.#replace(ref.start, ref.end, ref.source, next);
  }

  /** A Python `import a.b [as c]` or `from m import …`. */
  python(ref: ModuleReference): void {
    if (ref.kind === "module") this.#pythonModule(ref);
    else this.#pythonFrom(ref);
  }

  #respell(source: string, target: string): string | null | undefined {
    const want = this.#moved(target);
    if (this.#world.after.resolve(this.#to, "python", source) === want) return undefined;
    return pythonSpecifier(this.#world.after, { from: this.#to, target: want, old: { source, target } });
  }

  #pythonModule(ref: ModuleReference): void {
    const target = this.#world.before.resolve(this.#rel, "python", ref.source);
    if (target === null) return;
    const next = this.#respell(ref.source, target);
    if (next === undefined) return;
    if (next === null) {
      this.#unresolved(ref, `no module name names "${this.#moved(target)}" from "${this.#to}"`);
      return;
    }
    this.#replace(ref.start, ref.end, ref.source, next);
    if (ref.alias !== null) return;
    // `import a.b` binds `a`: the file spells the module `a.b` wherever it uses it.
    const [head, ...rest] = ref.source.split(".");
    if (!this.#bindings) return;
    for (const use of dottedUses(this.#bindings, head!, rest)) this.#edits.push({ ...use, text: next });
  }

  #pythonFrom(ref: ModuleReference): void {
    const { before } = this.#world;
    const module = before.resolve(this.#rel, "python", ref.source);
    const names: FromName[] = (ref.names ?? []).map((n) => ({
      ...n,
      target: before.resolve(this.#rel, "python", submoduleName(ref.source, n.name)),
    }));
    if (module === null && names.every((n) => n.target === null)) {
      if (this.#moves.has(this.#rel) && ref.source.startsWith(".")) {
        this.#unresolved(ref, "it names no workspace module, so it cannot be rewritten for the new location");
      }
      return;
    }
    const spec = this.#fromModule(ref, { module, names });
    if (spec !== null) this.#rewriteFrom(ref, { spec, names });
  }

  /**
   * The module a `from m import …` takes its names from after the move (a package without __init__.py: where
   * its submodules now are); null when no module name names it (reported unresolved).
   */
  #fromModule(
    ref: ModuleReference,
    { module, names }: { module: string | null; names: FromName[] },
  ): string | null {
    let spec = ref.source;
    if (module !== null) {
      const next = this.#respell(ref.source, module);
      if (next === null) {
        this.#unresolved(ref, `no module name names "${this.#moved(module)}" from "${this.#to}"`);
        return null;
      }
      if (next !== undefined) spec = next;
    }
    if (module === null && !names.every((n) => this.#fits(spec, n))) {
      // A package without __init__.py: its submodules say where it is now.
      const parent = this.#respelt(ref, names.find((n) => n.target !== null && !this.#fits(spec, n))!)
        ?.module;
      if (parent !== undefined && names.every((n) => this.#fits(parent, n))) spec = parent;
    }
    return spec;
  }

  /** Whether `from spec import n` still reaches what `n` named before the move. */
  #fits(spec: string, n: FromName): boolean {
    return n.target === null ||
      this.#world.after.resolve(this.#to, "python", submoduleName(spec, n.name)) === this.#moved(n.target);
  }

  /** The new dotted name of a submodule imported by `from`, split into module and last part. */
  #respelt(ref: ModuleReference, n: FromName): { module: string; last: string } | null {
    const want = this.#moved(n.target!);
    const whole = pythonSpecifier(this.#world.after, {
      from: this.#to,
      target: want,
      old: {
        source: submoduleName(ref.source, n.name),
        target: n.target!,
      },
    });
    return whole === null ? null : splitModule(whole);
  }

  /**
   * Rewrite a `from … import` to take its names from `spec`; submodules that now live elsewhere get statements
   * of their own.
   */
  #rewriteFrom(ref: ModuleReference, { spec, names }: { spec: string; names: FromName[] }): void {
    const misfits = names.filter((n) => !this.#fits(spec, n));
    const lines: string[] = [];
    for (const n of misfits) {
      const split = this.#respelt(ref, n);
      if (!split) {
        const source = submoduleName(ref.source, n.name);
        this.#unresolved({ start: n.start, source }, `no module name names "${this.#moved(n.target!)}"`);
        return;
      }
      const local = n.alias ?? n.name;
      lines.push(`from ${split.module} import ${split.last === local ? local : `${split.last} as ${local}`}`);
    }
    const eol = dominantEol(this.#text);
    if (misfits.length > 0 && misfits.length === names.length) {
      this.#edits.push({ start: ref.statement.start, end: ref.statement.end, text: lines.join(eol) });
    } else if (misfits.length > 0) {
      this.#edits.push(...listItemRemovals(names, new Set(misfits.map((n) => names.indexOf(n)))));
      this.#edits.push(linesAfter(this.#text, ref.statement, { lines, eol }));
    }
    if (spec !== ref.source && misfits.length < names.length) {
      this.#edits.push({ start: ref.start, end: ref.end, text: spec });
    }
    for (const n of misfits) {
      const split = this.#respelt(ref, n)!;
      this.#plan.updated.push({
        path: this.#to,
        line: this.#line(n.start),
        before: submoduleName(ref.source, n.name),
        after: submoduleName(split.module, split.last),
      });
    }
    if (spec !== ref.source && misfits.length < names.length) {
      this.#plan.updated.push({
        path: this.#to,
        line: this.#line(ref.start),
        before: ref.source,
        after: spec,
      });
    }
  }

  /**
   * Every member access that spells a moved module by its dotted name (`pkg.mod` in `pkg.mod.x`, after
   * `import pkg`), rewritten to its new name; where the module leaves its package, the file also imports it
   * (`import pkg.sub.mod`) after the `import pkg` the access starts from. An access that may name a moved
   * module but cannot be followed is unsettled.
   *
   * @param collector The reference search's walker over the workspace before the move.
   * @param refs The file's module references.
   */
  async pythonChains(collector: Collector, refs: ModuleReference[]): Promise<void> {
    const fb = this.#bindings!;
    const names = new Set([...this.#moves.keys()].map(moduleName));
    const done = new Set(this.#edits.map((e) => e.start));
    const imported = new Set<string>();
    for (const occ of fb.occurrences) {
      if (occ.kind !== "member_property" || !names.has(occ.name)) continue;
      const chain = await collector.moduleChain(fb, occ, true);
      if (chain === null || done.has(chain.start)) continue;
      const last = chain.steps.at(-1);
      if (chain.end === "unknown") {
        this.#unsettled(occ, chain, "a name on its way may hold a module, so it may be the moved module");
        continue;
      }
      if (chain.end !== "module" || !last?.submodule || !this.#moves.has(last.module)) continue;
      const next = this.#chainRewrite(chain, last.spec);
      if (next.reason !== undefined) {
        this.#unsettled(occ, chain, next.reason);
        continue;
      }
      done.add(chain.start);
      const root = fb.text.slice(chain.start).match(/^[\p{L}\p{N}_]+/u)![0];
      this.#replace(chain.start, occ.end, this.#text.slice(chain.start, occ.end), `${root}.${next.rest}`);
      if (dirOf(this.#moved(last.module)) === dirOf(last.module) || chain.hidden) continue;
      // It leaves its package: `import pkg` alone no longer says that it is loaded.
      const rootBinding = memberPath(fb, occ)?.root;
      const def = fb.occurrences.find((o) => o.binding === rootBinding && o.kind === "definition");
      if (def) this.#importAfter(refs, def.start, next.whole, imported);
    }
  }

  /** The new spelling of an access whose last step is a moved module's dotted name `spec`, or why there is none. */
  #chainRewrite(
    chain: ModuleChain,
    spec: string | null,
  ): { whole: string; rest: string; reason?: undefined } | { reason: string } {
    const last = chain.steps.at(-1)!;
    if (spec === null) {
      return {
        reason: "it reaches the module through a name another module imports, which does not follow it",
      };
    }
    const want = this.#moved(last.module);
    const whole = pythonSpecifier(this.#world.after, {
      from: this.#to,
      target: want,
      old: { source: spec, target: last.module },
    });
    if (whole === null) return { reason: `no module name names "${want}" from "${this.#to}"` };
    const head = chain.hidden ? chain.steps[0]!.spec : chain.source;
    const rest = head === null ? null : dottedRest(whole, head);
    if (rest === null) return { reason: `its first name cannot spell the module's new name "${whole}"` };
    return { whole, rest };
  }

  /**
   * `import <module>` after the unaliased `import pkg[.x]` statement that binds an access's first name (its
   * definition at `at`), unless the file imports the module by name already.
   */
  #importAfter(refs: ModuleReference[], at: number, module: string, imported: Set<string>): void {
    const want = this.#world.after.resolve(this.#to, "python", module);
    const statement = refs.find((r) =>
      r.kind === "module" && r.alias === null && r.statement.start <= at && at < r.statement.end
    );
    const key = `${module}\0${statement?.statement.start}`;
    if (want === null || !statement || imported.has(key)) return;
    imported.add(key);
    const own = refs.some((r) =>
      r.kind === "module" && r.alias === null &&
      this.#moved(this.#world.before.resolve(this.#rel, "python", r.source) ?? "") === want
    );
    if (own) return;
    this.#edits.push(
      linesAfter(this.#text, statement.statement, {
        lines: [`import ${module}`],
        eol: dominantEol(this.#text),
      }),
    );
  }

  #unsettled(occ: Occurrence, chain: ModuleChain, reason: string): void {
    this.#plan.unsettled.push({
      path: this.#to,
      line: this.#line(chain.start),
      specifier: this.#text.slice(chain.start, occ.end).replace(/\s+/g, ""),
      reason,
    });
  }

  /** The file's new text, or null when nothing changes. */
  result(): string | null {
    if (this.#edits.length === 0) return null;
    return applyTextEdits(this.#text, this.#edits);
  }
}

/** A dotted module name split into its parent module and last part (`.sub.a` → `.sub`, `a`), or null. */
function splitModule(whole: string): { module: string; last: string } | null {
  const dots = /^\.*/.exec(whole)![0];
  const parts = whole.slice(dots.length).split(".").filter((p) => p !== "");
  const last = parts.pop();
  const module = dots + parts.join(".");
  return last && module !== "" ? { module, last } : null;
}

export { movableSystem } from "../shared/refactor_languages.ts";
export { nativeMoveRefusal } from "./native_file_moves.ts";

/**
 * Whether graver rewrites imports for files of a path's language.
 *
 * @param parsing Grammars.
 * @param path A relative path.
 * @returns True for TypeScript, TSX, JavaScript and Python files.
 */
export function importsUpdatable(parsing: Parsing, path: string): boolean {
  return movableSystem(parsing.grammars?.languageOf(path) ?? "") !== null;
}

/** One module system's rewrite of a reference (a method of {@linkcode FileUpdater}). */
interface ReferenceUpdate extends FamilyStrategy {
  update(updater: FileUpdater, ref: ModuleReference): void;
}

/** Each module system's rewrite, by the system's name. */
const REFERENCE_UPDATES: readonly ReferenceUpdate[] = [
  { family: "ecmascript", update: (updater, ref) => updater.ecmascript(ref) },
  { family: "python", update: (updater, ref) => updater.python(ref) },
];
