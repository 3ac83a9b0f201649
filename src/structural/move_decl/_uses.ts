/**
 * What the moved code uses and how the source uses the name once it left: the source's module-level bindings
 * and the globals the moved code reads, the uses that stay (in an export clause or not, listed in `__all__`),
 * and whether the destination must export it — refused when the name is assigned outside its declaration, the
 * moved code declares or assigns a name that stays, or the source would import a private name back.
 *
 * @module
 */
import type { Binding, Occurrence } from "../../syntax/bindings.ts";
import { assigned, inLocalExportClause, refuse } from "./_source.ts";
import type { MoveSource, SourceUses } from "./_move.ts";

/** The occurrence kinds that use a name: a reference, or an object shorthand (`{ name }`). */
export const USES = new Set(["reference", "shorthand"]);

/**
 * The module-level bindings the moved code uses and the globals it reads; refused when the name is assigned
 * outside its declaration or the moved code declares or assigns a name that stays.
 */
export function collectDependencies(move: MoveSource): Pick<SourceUses, "deps" | "free"> {
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
export function sourceUses(move: MoveSource, dependencies: Pick<SourceUses, "deps" | "free">): SourceUses {
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
