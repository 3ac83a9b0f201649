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
 * This module runs the phases in order and gathers the plan; each phase is a
 * private module of the folder: the declaration that moves (`_declaration`),
 * what it uses and how the source still uses it (`_uses`), the destination
 * (`_destination`), the imports it needs there (`_dependencies`), the moved
 * code and the source after it (`_moved_texts`), the importers rewritten
 * (`_referrers`) and the destination written (`_placement`).
 *
 * @module
 */
import type { Stage } from "../../fs/stage.ts";
import { dominantEol } from "../../fs/text.ts";
import type { Parsing } from "../../syntax/types.ts";
import { importStyleOf } from "../shared/import_edits.ts";
import { futureFeatures } from "./_import_sites.ts";
import { placeDeclaration } from "./_placement.ts";
import { type Referrers, updateReferrers } from "./_referrers.ts";
import { checkTargetVersion } from "../edit/syntax_needs.ts";
import type { DestinationImports, Move, MoveDeclOptions } from "./_move.ts";
import { openMoveSource } from "./_declaration.ts";
import { collectDependencies, sourceUses } from "./_uses.ts";
import { checkDestination, openDestination } from "./_destination.ts";
import { destinationImports, refuseImportCycle } from "./_dependencies.ts";
import { movedCode, sourceText } from "./_moved_texts.ts";

export type { MoveDeclOptions } from "./_move.ts";

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
 * Stage a move plan: write every changed file (the destination created when new).
 *
 * @param stage The call's stage.
 * @param plan The plan.
 */
export async function stageMoveDecl(stage: Stage, plan: MoveDeclPlan): Promise<void> {
  for (const [rel, f] of plan.files) await stage.writeText(rel, f);
}
