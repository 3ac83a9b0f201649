/**
 * The texts a move writes from the source: the moved code (its uses renamed, exported when the destination
 * must export it, overloads kept together) and the source without it (its now-unused imports dropped, what the
 * destination imports exported, and the import of the name back when the source still uses it).
 *
 * @module
 */
import { importStatements, importStyleOf } from "../shared/import_edits.ts";
import { importSiteAt, topStatement } from "./_import_sites.ts";
import { dropImports, refuse, syntheticHabit } from "./_source.ts";
import { importHabit } from "./_dependencies.ts";
import { removalEdit } from "../edit/node_edit.ts";
import { nodeTarget, type Target } from "../edit/selectors.ts";
import { applyTextEdits, joinOverlappingRemovals, type TextEdit } from "../edit/source.ts";
import type { DestinationImports, Move } from "./_move.ts";

/** The code that moves, exported in the destination when it must be. */
export function movedCode(move: Move, renames: TextEdit[]): string {
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
export function sourceText(move: Move, imports: DestinationImports): { text: string; lines: string[] } {
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
