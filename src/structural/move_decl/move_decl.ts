/**
 * Move a declaration: a top-level function, class, variable, type or
 * interface (Python def, class or assignment) leaves its file for another
 * (created when absent), with the imports it needs — the source file's
 * imports it uses, respelled for the destination, and imports from the
 * source file of what it uses that stays there (exported when needed). The
 * destination exports it when the source did or the source still uses it;
 * every importer of the source file that took the name now takes it from the
 * destination (named, default and namespace imports, re-exports, `export *`
 * barrels), and the source imports it back when it still uses it. Refused
 * with `visibility_required`, `destination_conflict`, `name_clash`,
 * `import_cycle` or `unsupported_language` whenever the result cannot be
 * proven, and with `value_reference` when a decorator that may register it
 * at import time would no longer run in its module or when it is a Python
 * module's dunder name (`__all__`), which Python reads on that module.
 *
 * @module
 */
import { profileOf } from "../../languages/profiles.ts";
import type { ModuleSystemFacts } from "../../languages/types.ts";
import { RecoverableError } from "../../errors.ts";
import type { Stage } from "../../fs/stage.ts";
import { dominantEol } from "../../fs/text.ts";
import { type Binding, type FileBindings, fileBindings, type Occurrence } from "../../syntax/bindings.ts";
import { ModuleResolver } from "../../syntax/module_resolution.ts";
import { ecmaSpecifier, pythonSpecifier } from "../../syntax/module_specifier.ts";
import { type FamilyStrategy, strategyFor } from "../shared/family_strategies.ts";
import { TextIndex } from "../../syntax/text_index.ts";
import type { Parsing } from "../../syntax/types.ts";
import { type ImportItem, importStatements, importStyleOf } from "../shared/import_edits.ts";
import { futureFeatures, importSiteAt, topStatement } from "./_import_sites.ts";
import {
  assigned,
  dropImports,
  exportPrefix,
  habitOf,
  inLocalExportClause,
  isCommonJs,
  refuse,
  syntheticHabit,
  typeOnlyImport,
  typingOnly,
} from "./_source.ts";
import { type ModuleWorld, moduleWorld, movableSystem } from "../move_file/imports_rewrite.ts";
import { placeDeclaration, type Referrers, updateReferrers } from "./_files.ts";
import { refuseRegisteringDecorators } from "../shared/decorators.ts";
import { removalEdit } from "../edit/node_edit.ts";
import { nodeTarget, symbolTarget, type Target } from "../edit/selectors.ts";
import { applyTextEdits, joinOverlappingRemovals, type TextEdit } from "../edit/source.ts";
import { openSymbol, type SymbolTarget } from "../edit/symbol_target.ts";
import { checkTargetVersion } from "../edit/syntax_needs.ts";

/** Options of {@linkcode planMoveDecl}. */
export interface MoveDeclOptions {
  /** Tool name for messages. */
  tool: string;
  /** Version of the source file the caller holds. */
  expectedVersion?: string | undefined;
}

/** What a move would do. */
export interface MoveDeclPlan {
  /** New text of every file that changes (the destination included), by path. */
  files: Map<string, { text: string; bom: boolean }>;
  /** The declaration moved. */
  moved: { name: string; kind: string; from: string; to: string; start_line: number; end_line: number };
  /** Whether the destination is a new file. */
  created: boolean;
  /** Whether the destination exports it. */
  exported: boolean;
  /** Declarations of the source that were private and are now exported, because the moved code imports them. */
  sourceExported: string[];
  /** Files whose imports were rewritten to take the name from the destination. */
  referrers: string[];
  /** Imports the refactor could not follow (left alone). */
  unresolved: { path: string; line: number; reason: string }[];
  /** Files that pass the source on as a namespace (`export * as ns`), which no longer holds the name. */
  namespaces: { path: string; name: string }[];
}

const USES = new Set(["reference", "shorthand"]);

/** The module system of a language graver moves declarations in. */
type System = "ecmascript" | "python";

/** The declaration to move and its source file, once the move is known to make sense there. */
interface MoveSource {
  /** The declaration as opened: its file's text, tree and symbol. */
  decl: SymbolTarget;
  /** The name path asked for (for messages). */
  namePath: string;
  system: System;
  /** The source language's module-system facts. */
  facts: ModuleSystemFacts | null;
  /** The destination file. */
  to: string;
  /** The destination's language. */
  toLanguage: string;
  /** The source file's bindings. */
  sourceBindings: FileBindings;
  /** The source file's module scope. */
  module: FileBindings["scopes"][number];
  /** The moved name. */
  name: string;
  /** The moved binding in the source. */
  binding: Binding;
  /** The 1-based line of an offset of the source. */
  lineOf: (offset: number) => number;
  /** Every declaration of the name (overloads, merged declarations, Python reassignments), in text order. */
  targets: Target[];
  /** Whether an offset of the source lies in the moved code. */
  inMoved: (offset: number) => boolean;
}

/** What the moved code uses and how the source uses the name once it left. */
interface SourceUses {
  /** Module-level bindings of the source the moved code uses, with those uses. */
  deps: Map<Binding, Occurrence[]>;
  /** Names the moved code uses that nothing binds (globals). */
  free: Set<string>;
  /** The source's uses of the name outside the moved code. */
  remaining: Occurrence[];
  /** Those of them in a local `export { name }` clause. */
  clauseUses: Occurrence[];
  /** Whether the source still uses the name (other than in an export clause), or lists it in `__all__`. */
  stillUsed: boolean;
  /** Whether the source's `__all__` lists the name (it then stays importable from the source). */
  listed: boolean;
  /** The source's own exports of the name. */
  exportsOfMoved: FileBindings["exports"];
  /** Whether the source exports it as default. */
  isDefault: boolean;
  /** Whether the destination exports it. */
  exportedInDest: boolean;
}

/** The destination and the workspace's module resolution. */
interface MoveDestination {
  /** The workspace's files and path mapping. */
  modules: ModuleWorld;
  /** Whether the destination is a new file. */
  created: boolean;
  /** Resolution over the files after the move. */
  resolver: ModuleResolver;
  /** The destination as it is (null when created). */
  dest: Awaited<ReturnType<Stage["readText"]>> | null;
  /** The destination's bindings. */
  destBindings: FileBindings | null;
  /** The destination's module scope. */
  destModule: FileBindings["scopes"][number] | null;
  /** The file a specifier of `from` names. */
  resolve: (from: string, source: string) => string | null;
  /** The specifier naming `target` from `from`, in the style of `old`. */
  respell: (from: string, target: string, old: { source: string; target: string }) => string | null;
  /** The destination's import of the name from the source, which the declaration replaces. */
  destImportOfMoved: Binding | null;
}

/** Everything the phases of a move share. */
type Move = MoveSource & SourceUses & MoveDestination;

/** The imports the moved code needs, and what the source must change to give them. */
interface DestinationImports {
  /** Import items the destination needs, by specifier. */
  needs: { spec: string; item: ImportItem }[];
  /** Uses in the moved code of a name the destination declares under another name. */
  renames: TextEdit[];
  /** `export` prefixes on the source's declarations the destination now imports. */
  exportPrefixes: TextEdit[];
  /** Their names. */
  sourceExported: string[];
  /** What the destination imports from the source. */
  fromSource: ImportItem[];
  /** Source imports only the moved code used. */
  dropFromSource: Binding[];
}

/**
 * Plan moving the top-level declaration `namePath` of `path` to `toPath`.
 *
 * @param parsing Grammars and parse cache.
 * @param stage The call's stage (read only: the plan is staged by {@linkcode stageMoveDecl}).
 * @param args The source file, the declaration's name path, the destination (created when absent), tool
 *   name and expected version.
 * @returns The plan; a refusal otherwise.
 */
export async function planMoveDecl(
  parsing: Parsing,
  stage: Stage,
  args: { path: string; namePath: string; toPath: string } & MoveDeclOptions,
): Promise<MoveDeclPlan> {
  const source = await openMoveSource(parsing, stage, args);
  // The moved code must use only syntax the destination's target version runs.
  await checkTargetVersion(stage, source.decl, {
    to: source.to,
    toLanguage: source.toLanguage,
    name: source.name,
    ranges: source.targets,
  });
  const uses = sourceUses(source, collectDependencies(source));
  const move: Move = { ...source, ...uses, ...await openDestination(parsing, stage, { ...source, ...uses }) };
  checkDestination(move);
  const imports = destinationImports(move);
  refuseImportCycle(move, imports);
  const code = movedCode(move, imports.renames);
  const sourceAfter = sourceText(move, imports);
  return await placeMove(parsing, stage, { move, imports, code, sourceAfter });
}

/**
 * Open the declaration and its file, and refuse a move that cannot be proven there: a language whose imports
 * graver does not resolve or whose declarations the destination cannot hold, a declaration already in the
 * destination or not at the top level, a CommonJS module, a module's dunder name, a name not bound at the top
 * level.
 */
async function openMoveSource(
  parsing: Parsing,
  stage: Stage,
  { path, namePath, toPath, ...options }:
    & { path: string; namePath: string; toPath: string }
    & MoveDeclOptions,
): Promise<MoveSource> {
  const decl = await openDeclaration(parsing, stage, path, namePath, toPath, options);
  const system = movableSystem(decl.language);
  const facts = profileOf(decl.language).moduleSystem;
  const to = await stage.resolve(toPath);
  const toLanguage = parsing.grammars!.languageOf(to);
  const sourceBindings = system
    ? await fileBindings(parsing, {
      path: decl.rel,
      language: decl.language,
      version: decl.version,
      text: decl.text,
    })
    : null;
  if (
    !system || !sourceBindings || !toLanguage ||
    !profileOf(decl.language).refactors.moveDeclarationInto.includes(toLanguage)
  ) {
    throw unsupportedMove(decl, { namePath, to, toLanguage, system });
  }
  refuseMisplacedMove(decl, { namePath, to, facts, sourceBindings });
  const module = sourceBindings.scopes[0]!;
  const name = decl.symbol.name;
  if (facts?.modulesAreValues) refuseModuleProtocolName(decl.rel, name);
  const binding = movedBinding(decl, { module, name, namePath });
  const index = new TextIndex(decl.text);
  const lineOf = (o: number) => index.position(o).line;
  const targets = declarationsOf(decl, name);
  const inMoved = (o: number) => targets.some((g) => o >= g.fullStart && o < g.fullEnd);
  return {
    decl,
    namePath,
    system,
    facts,
    to,
    toLanguage,
    sourceBindings,
    module,
    name,
    binding,
    lineOf,
    targets,
    inMoved,
  };
}

/** The source's module-level binding of the moved name; refused when the top level does not bind it. */
function movedBinding(
  decl: SymbolTarget,
  { module, name, namePath }: { module: FileBindings["scopes"][number]; name: string; namePath: string },
): Binding {
  const binding = module.bindings.get(name);
  if (!binding) {
    refuse(
      "invalid_args",
      `Cannot move "${namePath}": "${name}" is not bound at the top level of "${decl.rel}"`,
      {
        hint: "Name a top-level declaration",
        details: {
          path: decl.rel,
          name_path: namePath,
        },
      },
    );
  }
  return binding;
}

/** Every declaration of the name, in text order: all move (overloads, merged declarations, Python reassignments). */
function declarationsOf(decl: SymbolTarget, name: string): Target[] {
  return decl.siblings.filter((s) => s.name === name).map((s) => symbolTarget(decl, s)).sort((x, y) =>
    x.fullStart - y.fullStart
  );
}

/** The refusal of a move between languages graver cannot follow. */
function unsupportedMove(
  decl: SymbolTarget,
  { namePath, to, toLanguage, system }: {
    namePath: string;
    to: string;
    toLanguage: string | null;
    system: System | null;
  },
): RecoverableError {
  return new RecoverableError(
    "unsupported_language",
    `Cannot move "${namePath}" from "${decl.rel}" (${decl.language}) to "${to}" (${
      toLanguage ?? "unknown"
    }): ${
      system ? "the destination's language cannot hold it" : "graver does not resolve this language's imports"
    }`,
    {
      hint:
        "Move it to a file of the same language, or cut it with remove_symbol and paste it with insert_code",
      suggestedCall: { tool: "edit_capabilities", args: { language: decl.language } },
      details: { path: decl.rel, to, language: decl.language, to_language: toLanguage },
    },
  );
}

/** Refuse a declaration already in the destination, one not at the top level, or one of a CommonJS module. */
function refuseMisplacedMove(
  decl: SymbolTarget,
  { namePath, to, facts, sourceBindings }: {
    namePath: string;
    to: string;
    facts: ModuleSystemFacts | null;
    sourceBindings: FileBindings;
  },
): void {
  if (to === decl.rel || !decl.topLevel) {
    refuse(
      "invalid_args",
      to === decl.rel
        ? `Cannot move "${namePath}" to "${to}": it is already there`
        : `Cannot move "${namePath}" in "${decl.rel}": only top-level declarations move`,
      {
        hint: "Name a top-level declaration (outline shows them) and another file",
        details: { path: decl.rel, name_path: namePath, to },
      },
    );
  }
  if (facts?.commonJs && isCommonJs(sourceBindings)) {
    throw new RecoverableError(
      "unsupported_language",
      `Cannot move "${namePath}": "${decl.rel}" is a CommonJS module`,
      {
        hint:
          "edit_move_decl moves between ES modules (import/export); move the code with remove_symbol and insert_code",
        details: { path: decl.rel },
      },
    );
  }
}

/**
 * The module-level bindings the moved code uses and the globals it reads; refused when the name is assigned
 * outside its declaration or the moved code declares or assigns a name that stays.
 */
function collectDependencies(move: MoveSource): Pick<SourceUses, "deps" | "free"> {
  const { decl, facts, binding, module, name, lineOf } = move;
  const deps = new Map<Binding, Occurrence[]>();
  const free = new Set<string>();
  for (const occ of move.sourceBindings.occurrences) {
    if (!move.inMoved(occ.start)) {
      refuseAssignmentOutside(move, occ);
      continue;
    }
    const x = occ.binding;
    refuseDeclarationOfOther(move, occ);
    if (!USES.has(occ.kind)) continue;
    if (!x) free.add(occ.name);
    else if (x !== binding && x.scope === module) {
      if (facts?.importsAreReadOnly && assigned(decl, occ)) {
        refuse(
          "visibility_required",
          `Cannot move "${name}": it assigns to "${x.name}" (line ${
            lineOf(occ.start)
          }), which stays in "${decl.rel}"`,
          {
            hint: `An imported binding cannot be assigned: move "${x.name}" first`,
            details: { path: decl.rel, line: lineOf(occ.start), name: x.name },
          },
        );
      }
      const list = deps.get(x) ?? [];
      list.push(occ);
      deps.set(x, list);
    }
  }
  return { deps, free };
}

/** Refuse an occurrence outside the moved code that defines the name again or assigns it where imports are read only. */
function refuseAssignmentOutside(move: MoveSource, occ: Occurrence): void {
  const { decl, facts, binding, name, lineOf, to } = move;
  if (occ.binding === binding && occ.kind === "definition") {
    refuse(
      "invalid_args",
      `Cannot move "${name}": it is also assigned at "${decl.rel}" line ${
        lineOf(occ.start)
      }, outside its declaration`,
      { hint: "Move a name declared in one place", details: { path: decl.rel, line: lineOf(occ.start) } },
    );
  }
  if (facts?.importsAreReadOnly && occ.binding === binding && USES.has(occ.kind) && assigned(decl, occ)) {
    refuse(
      "visibility_required",
      `Cannot move "${name}": "${decl.rel}" assigns to it (line ${
        lineOf(occ.start)
      }), and an imported binding cannot be assigned`,
      {
        hint:
          `Move it together with the code that assigns it (or make the assignment a function exported from "${to}"), then call again`,
        details: { path: decl.rel, line: lineOf(occ.start), name },
      },
    );
  }
}

/** Refuse an occurrence in the moved code that declares or assigns another module-level name of the source. */
function refuseDeclarationOfOther(move: MoveSource, occ: Occurrence): void {
  const { decl, binding, module, name, lineOf } = move;
  const x = occ.binding;
  if (
    !((occ.kind === "definition" || occ.kind === "shorthand_pattern") && x && x !== binding &&
      x.scope === module)
  ) return;
  if (occ.scope === module || x.kind === "import") {
    refuse(
      "invalid_args",
      `Cannot move "${name}": its declaration also declares "${x.name}" (line ${lineOf(occ.start)})`,
      {
        hint: "Split the declaration first, or move the other name with it by hand",
        details: { path: decl.rel, line: lineOf(occ.start), also: x.name },
      },
    );
  }
  refuse(
    "visibility_required",
    `Cannot move "${name}": it assigns to "${x.name}" (line ${
      lineOf(occ.start)
    }), which stays in "${decl.rel}"`,
    {
      hint: `Move "${x.name}" first, or make the assignment a function of "${decl.rel}"`,
      details: { path: decl.rel, line: lineOf(occ.start), name: x.name },
    },
  );
}

/** How the source uses and exports the name once it left; refused when it would import a private name. */
function sourceUses(move: MoveSource, dependencies: Pick<SourceUses, "deps" | "free">): SourceUses {
  const { decl, facts, binding, name, lineOf, sourceBindings } = move;
  const remaining = sourceBindings.occurrences.filter((o) =>
    o.binding === binding && USES.has(o.kind) && !move.inMoved(o.start)
  );
  const clauseUses = remaining.filter((o) => inLocalExportClause(decl, o.start));
  // A name the module lists in `__all__` is its declared interface (`from m import *`, and `m.x` in code outside
  // the workspace): the entry stays, and the source imports the name back from the destination.
  const listed = sourceBindings.occurrences.some((o) =>
    o.binding === binding && o.kind === "export_entry" && !move.inMoved(o.start)
  );
  const stillUsed = remaining.length > clauseUses.length || listed;
  const exportsOfMoved = sourceBindings.exports.filter((e) => e.local === binding && !e.from);
  const isDefault = exportsOfMoved.some((e) => e.exported === "default");
  const exportedInDest = exportsOfMoved.length > 0 || stillUsed;
  if (facts?.privatePrefix && stillUsed && name.startsWith(facts.privatePrefix)) {
    refuse(
      "visibility_required",
      `Cannot move "${name}": "${decl.rel}" still uses it and would have to import a private name from "${move.to}"`,
      {
        hint:
          `Rename it without the leading underscore first (edit_rename_symbol), or move its users with it`,
        details: {
          path: decl.rel,
          name,
          uses: remaining.map((o) => lineOf(o.start)),
        },
      },
    );
  }
  return {
    ...dependencies,
    remaining,
    clauseUses,
    stillUsed,
    listed,
    exportsOfMoved,
    isDefault,
    exportedInDest,
  };
}

/**
 * The destination, read and bound, and the workspace's resolution after the move; refused when a decorator
 * that registers the declaration would no longer run in its module.
 */
async function openDestination(
  parsing: Parsing,
  stage: Stage,
  move: MoveSource & SourceUses,
): Promise<MoveDestination> {
  const { decl, to, toLanguage, system, name, targets, sourceBindings } = move;
  const modules = await moduleWorld(stage, new Map());
  const destFile = await stage.read(to);
  const created = destFile === null;
  const resolver = new ModuleResolver(created ? [...modules.files, to] : modules.files, modules.mapping);
  const dest = created ? null : await stage.readText(to);
  const destBindings = dest
    ? await fileBindings(parsing, { path: to, language: toLanguage, version: dest.version, text: dest.text })
    : null;
  const destModule = destBindings?.scopes[0] ?? null;
  const resolve = (from: string, source: string) => resolver.resolve(from, toLanguage, source);
  // A decorator that registers the declaration runs only where it is declared.
  refuseRegisteringDecorators(
    { rel: decl.rel, text: decl.text, language: decl.language, root: decl.tree.rootNode },
    sourceBindings,
    { name, spans: targets, inWorkspace: (source) => resolve(decl.rel, source) !== null },
  );
  const writer = strategyFor(SPECIFIER_WRITERS, system);
  const respell = (from: string, target: string, old: { source: string; target: string }) =>
    writer.specifier(resolver, { from, target, old, mapping: modules.mapping });
  // An import of the name from the source is replaced by the declaration.
  const destOwn = destModule?.bindings.get(name);
  const destImportOfMoved = destOwn?.import && resolve(to, destOwn.import.source) === decl.rel &&
      (destOwn.import.imported === name || (move.isDefault && destOwn.import.kind === "default"))
    ? destOwn
    : null;
  return { modules, created, resolver, dest, destBindings, destModule, resolve, respell, destImportOfMoved };
}

/** Refuse a destination that holds the name already, uses a global of that name, or declares a global the code uses. */
function checkDestination(move: Move): void {
  const { name, to, isDefault, destModule, destBindings, dest } = move;
  const destOwn = destModule?.bindings.get(name);
  if (
    (destOwn && !move.destImportOfMoved) ||
    destBindings?.exports.some((e) => e.exported === name || (isDefault && e.exported === "default"))
  ) {
    refuse(
      "destination_conflict",
      `Cannot move "${name}" to "${to}": it already ${destOwn ? "declares or imports" : "exports"} "${
        isDefault ? "default" : name
      }"`,
      {
        hint: "Rename one of them first (edit_rename_symbol), or pick another destination",
        details: { path: to, name },
      },
    );
  }
  for (const occ of destBindings?.occurrences ?? []) {
    if (occ.binding === null && occ.name === name && USES.has(occ.kind)) {
      refuse(
        "name_clash",
        `Cannot move "${name}" to "${to}": line ${
          new TextIndex(dest!.text).position(occ.start).line
        } uses a global "${name}" the moved declaration would capture`,
        { hint: "Rename the declaration first (edit_rename_symbol)", details: { path: to, name } },
      );
    }
  }
  for (const f of move.free) {
    if (destModule?.bindings.has(f)) {
      refuse(
        "name_clash",
        `Cannot move "${name}" to "${to}": it uses the global "${f}", which "${to}" declares`,
        { hint: `Rename "${f}" in "${to}" first`, details: { path: to, name: f } },
      );
    }
  }
}

/** How a file imports from another (`from`'s imports, resolved), to spell a new import alike. */
function importHabit(
  move: Move,
  bindings: FileBindings | null,
  from: string,
): { source: string; target: string } | null {
  return habitOf(bindings, from, { resolve: move.resolve, system: move.system });
}

/** Python: a name the source binds only under `if TYPE_CHECKING:` is imported under one in the destination. */
function typingOnlyIn(move: Move, x: Binding): boolean {
  return move.facts?.typeCheckingImports === true && typingOnly(move.decl, move.sourceBindings, x);
}

/** The imports the moved code needs in the destination, and the source changes that give them. */
function destinationImports(move: Move): DestinationImports {
  const imports: DestinationImports = {
    needs: [],
    renames: [],
    exportPrefixes: [],
    sourceExported: [],
    fromSource: [],
    dropFromSource: [],
  };
  for (const [x, uses] of move.deps) {
    const imp = x.import;
    const need = imp ? importedDependency(move, { x, uses, imports }) : sourceDependency(move, x, imports);
    if (!need) continue;
    const there = move.destModule?.bindings.get(x.name);
    if (there) {
      const same = there.import &&
        move.resolve(move.to, there.import.source) ===
          (imp ? move.resolve(move.decl.rel, imp.source) : move.decl.rel) &&
        there.import.imported === need.item.imported;
      if (!same) {
        refuse(
          "name_clash",
          `Cannot move "${move.name}" to "${move.to}": it uses "${x.name}", and "${move.to}" declares another "${x.name}"`,
          {
            hint: `Rename "${x.name}" in one of the files first (edit_rename_symbol)`,
            details: { path: move.to, name: x.name },
          },
        );
      }
      continue;
    }
    imports.needs.push(need);
  }
  return imports;
}

/**
 * The destination's import of a name the source imports, respelled for the destination; null when it imports
 * it from the destination itself (its uses then take the destination's own name).
 */
function importedDependency(
  move: Move,
  { x, uses, imports }: { x: Binding; uses: Occurrence[]; imports: DestinationImports },
): { spec: string; item: ImportItem } | null {
  const { decl, facts, name, to, sourceBindings } = move;
  const imp = x.import!;
  const usedOutside = sourceBindings.occurrences.some((o) =>
    o.binding === x && !move.inMoved(o.start) && o.kind !== "definition"
  );
  // A Python module's public imports are its attributes too (`email.utils.quote`): only private and
  // typing-only ones (absent at run time) go.
  const attribute = facts?.modulesAreValues === true && !x.name.startsWith(facts.privatePrefix ?? "") &&
    !typingOnlyIn(move, x);
  if (!usedOutside && !attribute) imports.dropFromSource.push(x);
  const target = move.resolve(decl.rel, imp.source);
  if (target === to) {
    if (imp.kind !== "named") {
      refuse(
        "unresolved",
        `Cannot move "${name}": it uses "${x.name}", a ${imp.kind} import of "${to}" itself`,
        {
          hint: "Use the names of the destination directly, then move",
          details: { path: decl.rel, name: x.name },
        },
      );
    }
    for (const u of uses) {
      if (imp.imported !== x.name) imports.renames.push({ start: u.start, end: u.end, text: imp.imported });
    }
    return null;
  }
  if (target === null && imp.source.startsWith(".")) {
    refuse(
      "unresolved",
      `Cannot move "${name}": it uses "${x.name}" from "${imp.source}", which names no workspace file`,
      { hint: "Fix the import first", details: { path: decl.rel, source: imp.source } },
    );
  }
  const spec = target === null ? imp.source : move.respell(to, target, { source: imp.source, target }) ?? "";
  if (spec === "") {
    refuse(
      "unresolved",
      `Cannot move "${name}": no import from "${to}" names "${target}"`,
      { hint: "Move it to a file from which the module can be imported", details: { path: to, target } },
    );
  }
  const item: ImportItem = {
    kind: imp.kind,
    imported: imp.imported,
    local: x.name,
    ...(typeOnlyImport(decl, sourceBindings, x) || typingOnlyIn(move, x) ? { typeOnly: true } : {}),
  };
  return { spec, item };
}

/**
 * The destination's import of a declaration that stays in the source (exported there when it was private);
 * refused when it is private by its name.
 */
function sourceDependency(
  move: Move,
  x: Binding,
  imports: DestinationImports,
): { spec: string; item: ImportItem } {
  const { decl, facts, name, to, sourceBindings, system } = move;
  if (facts?.privatePrefix && x.name.startsWith(facts.privatePrefix)) {
    refuse(
      "visibility_required",
      `Cannot move "${name}": it uses "${x.name}", private to "${decl.rel}"`,
      {
        hint: `Move "${x.name}" first or with it, or rename it without the underscore`,
        details: { path: decl.rel, name: x.name },
      },
    );
  }
  let item: ImportItem;
  const exp = sourceBindings.exports.find((e) => e.local === x && !e.from);
  if (exp) {
    item = {
      kind: exp.exported === "default" ? "default" : "named",
      imported: exp.exported,
      local: x.name,
    };
  } else {
    item = {
      kind: "named",
      imported: x.name,
      local: x.name,
      ...(typingOnlyIn(move, x) ? { typeOnly: true } : {}),
    };
    if (!facts?.exportsEveryTopLevelName) {
      imports.exportPrefixes.push(exportPrefix(decl, sourceBindings, x));
      imports.sourceExported.push(x.name);
    }
  }
  const spec = move.respell(
    to,
    decl.rel,
    importHabit(move, move.destBindings, to) ?? importHabit(move, sourceBindings, decl.rel) ??
      syntheticHabit(system, decl.rel),
  );
  if (spec === null) {
    refuse(
      "unresolved",
      `Cannot move "${name}": no import from "${to}" names "${decl.rel}"`,
      { hint: "Pick a destination that can import the source file", details: { path: to } },
    );
  }
  imports.fromSource.push(item);
  return { spec, item };
}

/** Refuse a move after which the destination would import the source and the source the destination. */
function refuseImportCycle(move: Move, { fromSource, dropFromSource }: DestinationImports): void {
  const { decl, to, name, stillUsed, resolve } = move;
  const importsOf = (f: FileBindings | null, from: string, target: string, skip?: Binding | null) =>
    (f?.imports ?? []).some((i) => i.local !== skip && resolve(from, i.source) === target) ||
    (f?.exports ?? []).some((e) => e.from && resolve(from, e.from.source) === target);
  const sourceImportsDest = importsOf(move.sourceBindings, decl.rel, to);
  const destImportsSource = importsOf(move.destBindings, to, decl.rel);
  const sourceImportsDestAfter = stillUsed ||
    move.sourceBindings.imports.some((i) =>
      resolve(decl.rel, i.source) === to && !dropFromSource.includes(i.local)
    );
  // An import under `if TYPE_CHECKING:` does not run: no cycle at run time.
  const destImportsSourceAfter = fromSource.some((i) => !i.typeOnly) ||
    importsOf(move.destBindings, to, decl.rel, move.destImportOfMoved);
  if (sourceImportsDestAfter && destImportsSourceAfter && !(sourceImportsDest && destImportsSource)) {
    refuse(
      "import_cycle",
      `Cannot move "${name}" to "${to}": "${to}" would import "${decl.rel}" ${
        fromSource.length > 0 ? `(for ${fromSource.map((i) => i.local).join(", ")})` : ""
      } and "${decl.rel}" would import "${to}" (for ${
        move.listed
          ? `${name}, which its __all__ lists: it stays importable from there`
          : stillUsed
          ? name
          : "its other imports"
      })`,
      {
        hint:
          `Move what "${name}" uses along with it first, or pick a destination that does not import "${decl.rel}"${
            move.listed
              ? `, or take "${name}" out of __all__ first (edit_file) if it is to leave the module's interface`
              : ""
          }`,
        details: {
          path: decl.rel,
          to,
          needs: fromSource.map((i) => i.local),
        },
      },
    );
  }
}

/** The code that moves, exported in the destination when it must be. */
function movedCode(move: Move, renames: TextEdit[]): string {
  const { decl, targets, facts } = move;
  const pieces: string[] = [];
  for (const g of targets) {
    const edits = renames.filter((r) => r.start >= g.fullStart && r.end <= g.fullEnd).map((r) => ({
      ...r,
      start: r.start - g.fullStart,
      end: r.end - g.fullStart,
    }));
    const top = topStatement(decl.tree, g.start)!;
    if (!facts?.exportsEveryTopLevelName && move.exportedInDest && top.type !== "export_statement") {
      edits.push({ start: top.startIndex - g.fullStart, end: top.startIndex - g.fullStart, text: "export " });
    }
    pieces.push(applyTextEdits(decl.text.slice(g.fullStart, g.fullEnd), edits));
  }
  const contiguous = targets.every((g, i) =>
    i === 0 || decl.text.slice(targets[i - 1]!.fullEnd, g.fullStart).trim() === ""
  );
  return contiguous && pieces.length > 1
    ? pieces.map((p, i) =>
      (i === 0 ? "" : decl.text.slice(targets[i - 1]!.fullEnd, targets[i]!.fullStart)) + p
    )
      .join("")
    : pieces.join(decl.eol + decl.eol);
}

/**
 * The source without the declaration: its now-unused imports go, what the destination needs is exported, and
 * the import lines it needs to use the name from the destination.
 */
function sourceText(move: Move, imports: DestinationImports): { text: string; lines: string[] } {
  const { decl, system } = move;
  const edits: TextEdit[] = [...imports.exportPrefixes];
  for (const g of adjacentRuns(decl.text, move.targets)) edits.push(removalEdit(decl, g));
  edits.push(...dropImports(decl, system, { bindings: imports.dropFromSource, fb: move.sourceBindings }));
  for (const o of move.clauseUses) {
    const site = importSiteAt(decl.tree, decl.text, { system, offset: o.start });
    if (site) {
      edits.push(
        ...(site.only
          ? [removalEdit(decl, nodeTarget(decl, topStatement(decl.tree, o.start)!))]
          : site.removal),
      );
    }
  }
  const text = applyTextEdits(decl.text, joinOverlappingRemovals(edits));
  return { text, lines: move.stillUsed ? importBack(move) : [] };
}

/** Adjacent declarations (overloads) as one span, so their blank lines are counted once. */
function adjacentRuns(text: string, targets: Target[]): Target[] {
  const runs: Target[] = [];
  for (const g of targets) {
    const prev = runs[runs.length - 1];
    if (prev && text.slice(prev.fullEnd, g.fullStart).trim() === "") {
      runs[runs.length - 1] = { ...g, fullStart: prev.fullStart };
    } else runs.push(g);
  }
  return runs;
}

/** The source's import of the name from the destination, for the uses that stay. */
function importBack(move: Move): string[] {
  const { decl, system, name, to, isDefault } = move;
  const s = move.respell(
    decl.rel,
    to,
    importHabit(move, move.sourceBindings, decl.rel) ?? syntheticHabit(system, to),
  ) ??
    "";
  if (s === "") {
    refuse(
      "unresolved",
      `Cannot move "${name}": no import from "${decl.rel}" names "${to}"`,
      { hint: "Pick a destination the source can import", details: { path: decl.rel, to } },
    );
  }
  return importStatements(system, s, {
    items: [{
      kind: isDefault ? "default" : "named",
      imported: isDefault ? "default" : name,
      local: name,
    }],
    style: importStyleOf(decl.text),
  });
}

/** Rewrite the referrers, place the declaration in the destination, and gather the plan. */
async function placeMove(
  parsing: Parsing,
  stage: Stage,
  { move, imports, code, sourceAfter }: {
    move: Move;
    imports: DestinationImports;
    code: string;
    sourceAfter: { text: string; lines: string[] };
  },
): Promise<MoveDeclPlan> {
  const { decl, system, toLanguage, to, name, dest, facts, targets, lineOf } = move;
  const refs = await referrersOf(parsing, stage, move);
  const files = new Map<string, { text: string; bom: boolean }>();
  const placed = await placeDeclaration(parsing, {
    source: {
      rel: decl.rel,
      language: decl.language,
      text: sourceAfter.text,
      bom: decl.bom,
      lines: sourceAfter.lines,
    },
    dest: {
      rel: to,
      language: toLanguage,
      text: dest?.text ?? "",
      bom: dest?.bom ?? false,
      eol: dest ? dominantEol(dest.text) : decl.eol,
    },
    system,
    code,
    needs: imports.needs,
    dImportOfB: move.destImportOfMoved && move.destBindings
      ? { fb: move.destBindings, binding: move.destImportOfMoved, name }
      : null,
    dEdits: refs.destEdits,
    style: importStyleOf(decl.text),
    futures: facts?.futureImports ? futureFeatures(decl.tree) : [],
    usesOfDest: destinationNamesUsed(move),
  });
  files.set(decl.rel, { text: placed.source, bom: decl.bom });
  files.set(to, { text: placed.dest, bom: dest?.bom ?? false });
  for (const [rel, f] of refs.files) files.set(rel, f);
  return {
    files,
    moved: {
      name,
      kind: decl.symbol.kind,
      from: decl.rel,
      to,
      start_line: lineOf(targets[0]!.fullStart),
      end_line: lineOf(Math.max(targets.at(-1)!.fullEnd - 1, 0)),
    },
    created: move.created,
    exported: move.exportedInDest,
    sourceExported: imports.sourceExported,
    referrers: [...refs.files.keys()].sort(),
    unresolved: refs.unresolved,
    namespaces: refs.namespaces,
  };
}

/** Every importer of the source that takes the name, rewritten to take it from the destination. */
async function referrersOf(parsing: Parsing, stage: Stage, move: Move): Promise<Referrers> {
  return await updateReferrers(parsing, stage, {
    system: move.system,
    language: move.toLanguage,
    source: move.decl.rel,
    to: move.to,
    name: move.name,
    isDefault: move.isDefault,
    exportedInS: move.exportsOfMoved.length > 0,
    resolver: move.resolver,
    world: move.modules,
    respell: move.respell,
  });
}

/** The destination's names the moved code uses (through the source's imports of them). */
function destinationNamesUsed(move: Move): string[] {
  return [...move.deps.keys()].filter((x) =>
    x.import && move.resolve(move.decl.rel, x.import.source) === move.to
  )
    .map((x) => x.import!.imported);
}

/**
 * The declaration to move: every overload of a name moves together, so a
 * name whose candidates are all its overloads (`of[0]`, `of[1]` …) picks them
 * all; other ambiguities suggest the full call.
 */
async function openDeclaration(
  parsing: Parsing,
  stage: Stage,
  path: string,
  namePath: string,
  toPath: string,
  options: MoveDeclOptions,
): Promise<SymbolTarget> {
  const open = (name_path: string) =>
    openSymbol(parsing, stage, {
      path,
      name_path,
      expected_version: options.expectedVersion,
      tool: options.tool,
    });
  try {
    return await open(namePath);
  } catch (err) {
    if (!(err instanceof RecoverableError) || err.code !== "ambiguous") throw err;
    const candidates = (err.details?.["candidates"] ?? []) as { name_path: string }[];
    if (candidates.every((c) => c.name_path.startsWith(`${namePath}[`))) return await open(`${namePath}[0]`);
    const first = candidates[0]?.name_path ?? namePath;
    throw new RecoverableError(err.code, err.message, {
      hint: err.hint,
      suggestedCall: { tool: options.tool, args: { path, name_path: first, to_path: toPath } },
      details: err.details ?? {},
    });
  }
}

/**
 * Stage a move plan: write every changed file (the destination created when new).
 *
 * @param stage The call's stage.
 * @param plan The plan.
 */
export async function stageMoveDecl(stage: Stage, plan: MoveDeclPlan): Promise<void> {
  for (const [rel, f] of plan.files) await stage.writeText(rel, f);
}

/**
 * Python looks a module's dunder names (`__all__`, `__getattr__`, `__version__`…) up on that module itself:
 * moved elsewhere and imported back, they change what `from m import *`, attribute fallback or a version
 * check sees.
 */
function refuseModuleProtocolName(rel: string, name: string): void {
  if (!/^__\w+__$/.test(name)) return;
  refuse(
    "value_reference",
    `Cannot move "${name}" out of "${rel}": Python reads a module's dunder names on the module itself`,
    {
      hint: `Leave "${name}" in "${rel}"; move the declarations it names instead`,
      details: { path: rel, name },
    },
  );
}

/** One module system's way of naming a moved module from an importer, in the style of the name it replaces. */
interface SpecifierWriter extends FamilyStrategy {
  specifier: typeof ecmaSpecifier;
}

/** Each module system's specifier writer, by the system's name. */
const SPECIFIER_WRITERS: readonly SpecifierWriter[] = [
  { family: "ecmascript", specifier: ecmaSpecifier },
  { family: "python", specifier: pythonSpecifier },
];
