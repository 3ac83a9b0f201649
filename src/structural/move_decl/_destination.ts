/**
 * The destination of a move: read and bound, with the workspace's module resolution after the move and the
 * specifier writer of its module system — refused when it already holds the name, would capture a global of
 * that name or declares a global the moved code uses, and when a decorator that registers the declaration
 * would no longer run in its module.
 *
 * @module
 */
import type { Stage } from "../../fs/stage.ts";
import { fileBindings } from "../../syntax/bindings.ts";
import { ModuleResolver } from "../../syntax/module_resolution.ts";
import { ecmaSpecifier, pythonSpecifier } from "../../syntax/module_specifier.ts";
import { type FamilyStrategy, strategyFor } from "../shared/family_strategies.ts";
import { TextIndex } from "../../syntax/text_index.ts";
import type { Parsing } from "../../syntax/types.ts";
import { refuse } from "./_source.ts";
import { USES } from "./_uses.ts";
import { moduleWorld } from "../move_file/imports_rewrite.ts";
import { refuseRegisteringDecorators } from "../shared/decorators.ts";
import type { Move, MoveDestination, MoveSource, SourceUses } from "./_move.ts";

/**
 * The destination, read and bound, and the workspace's resolution after the move; refused when a decorator
 * that registers the declaration would no longer run in its module.
 */
export async function openDestination(
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
export function checkDestination(move: Move): void {
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

/** One module system's way of naming a moved module from an importer, in the style of the name it replaces. */
interface SpecifierWriter extends FamilyStrategy {
  specifier: typeof ecmaSpecifier;
}

/** Each module system's specifier writer, by the system's name. */
const SPECIFIER_WRITERS: readonly SpecifierWriter[] = [
  { family: "ecmascript", specifier: ecmaSpecifier },
  { family: "python", specifier: pythonSpecifier },
];
