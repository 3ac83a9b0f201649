/**
 * The imports the moved code needs in the destination: each name it takes from the source's imports,
 * respelled for the destination, and each declaration that stays in the source, imported from there (exported
 * when it was private); what the source then gives up (imports only the moved code used); and the refusal of
 * a move after which the two files would import each other.
 *
 * @module
 */
import type { Binding, FileBindings, Occurrence } from "../../syntax/bindings.ts";
import type { ImportItem } from "../shared/import_edits.ts";
import { exportPrefix, habitOf, refuse, syntheticHabit, typeOnlyImport, typingOnly } from "./_source.ts";
import type { DestinationImports, Move } from "./_move.ts";

/** How a file imports from another (`from`'s imports, resolved), to spell a new import alike. */
export function importHabit(
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
export function destinationImports(move: Move): DestinationImports {
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
export function refuseImportCycle(move: Move, { fromSource, dropFromSource }: DestinationImports): void {
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
