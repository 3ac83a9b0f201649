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
import { RecoverableError } from "../../errors.ts";
import type { Stage } from "../../fs/stage.ts";
import { dominantEol } from "../../fs/text.ts";
import { type Binding, type FileBindings, fileBindings, type Occurrence } from "../../syntax/bindings.ts";
import { ModuleResolver } from "../../syntax/module_resolution.ts";
import { ecmaSpecifier, pythonSpecifier } from "../../syntax/module_specifier.ts";
import { TextIndex } from "../../syntax/text_index.ts";
import type { Parsing } from "../../syntax/types.ts";
import { type ImportItem, importStatements, importStyleOf } from "../shared/import_edits.ts";
import { futureFeatures, importSiteAt, topStatement } from "./_import_sites.ts";
import {
  allEntryRemoval,
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
import { moduleWorld, movableSystem } from "../move_file/imports_rewrite.ts";
import { placeDeclaration, type Referrers, updateReferrers } from "./_files.ts";
import { refuseRegisteringDecorators } from "../shared/decorators.ts";
import { removalEdit } from "../edit/node_edit.ts";
import { nodeTarget, symbolTarget } from "../edit/selectors.ts";
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

/**
 * Plan moving the top-level declaration `namePath` of `path` to `toPath`.
 *
 * @param parsing Grammars and parse cache.
 * @param stage The call's stage (read only: the plan is staged by {@linkcode stageMoveDecl}).
 * @param path The source file.
 * @param namePath The declaration's name path.
 * @param toPath The destination file (created when absent).
 * @param options Tool name, expected version.
 * @returns The plan; a refusal otherwise.
 */
export async function planMoveDecl(
  parsing: Parsing,
  stage: Stage,
  { path, namePath, toPath, ...options }:
    & { path: string; namePath: string; toPath: string }
    & MoveDeclOptions,
): Promise<MoveDeclPlan> {
  const t = await openDeclaration(parsing, stage, path, namePath, toPath, options);
  const system = movableSystem(t.language);
  const facts = profileOf(t.language).moduleSystem;
  const to = await stage.resolve(toPath);
  const toLanguage = parsing.grammars!.languageOf(to);
  const fb = system
    ? await fileBindings(parsing, { path: t.rel, language: t.language, version: t.version, text: t.text })
    : null;
  if (
    !system || !fb || !toLanguage || !profileOf(t.language).refactors.moveDeclarationInto.includes(toLanguage)
  ) {
    throw new RecoverableError(
      "unsupported_language",
      `Cannot move "${namePath}" from "${t.rel}" (${t.language}) to "${to}" (${toLanguage ?? "unknown"}): ${
        system
          ? "the destination's language cannot hold it"
          : "graver does not resolve this language's imports"
      }`,
      {
        hint:
          "Move it to a file of the same language, or cut it with remove_symbol and paste it with insert_code",
        suggestedCall: { tool: "edit_capabilities", args: { language: t.language } },
        details: { path: t.rel, to, language: t.language, to_language: toLanguage },
      },
    );
  }
  if (to === t.rel || !t.topLevel) {
    refuse(
      "invalid_args",
      to === t.rel
        ? `Cannot move "${namePath}" to "${to}": it is already there`
        : `Cannot move "${namePath}" in "${t.rel}": only top-level declarations move`,
      {
        hint: "Name a top-level declaration (outline shows them) and another file",
        details: { path: t.rel, name_path: namePath, to },
      },
    );
  }
  if (facts?.commonJs && isCommonJs(fb)) {
    throw new RecoverableError(
      "unsupported_language",
      `Cannot move "${namePath}": "${t.rel}" is a CommonJS module`,
      {
        hint:
          "edit_move_decl moves between ES modules (import/export); move the code with remove_symbol and insert_code",
        details: { path: t.rel },
      },
    );
  }
  const module = fb.scopes[0]!;
  const name = t.symbol.name;
  if (facts?.modulesAreValues) refuseModuleProtocolName(t.rel, name);
  const b = module.bindings.get(name);
  if (!b) {
    refuse(
      "invalid_args",
      `Cannot move "${namePath}": "${name}" is not bound at the top level of "${t.rel}"`,
      {
        hint: "Name a top-level declaration",
        details: {
          path: t.rel,
          name_path: namePath,
        },
      },
    );
  }
  const index = new TextIndex(t.text);
  const lineOf = (o: number) => index.position(o).line;
  // Every declaration of the name moves (overloads, merged declarations, Python reassignments).
  const targets = t.siblings.filter((s) => s.name === name).map((s) => symbolTarget(t, s)).sort((x, y) =>
    x.fullStart - y.fullStart
  );
  const inMoved = (o: number) => targets.some((g) => o >= g.fullStart && o < g.fullEnd);
  await checkTargetVersion(stage, t, { to, toLanguage, name, ranges: targets }); // syntax the destination runs
  const deps = new Map<Binding, Occurrence[]>();
  const free = new Set<string>();
  for (const occ of fb.occurrences) {
    if (!inMoved(occ.start)) {
      if (occ.binding === b && occ.kind === "definition") {
        refuse(
          "invalid_args",
          `Cannot move "${name}": it is also assigned at "${t.rel}" line ${
            lineOf(occ.start)
          }, outside its declaration`,
          { hint: "Move a name declared in one place", details: { path: t.rel, line: lineOf(occ.start) } },
        );
      }
      if (facts?.importsAreReadOnly && occ.binding === b && USES.has(occ.kind) && assigned(t, occ)) {
        refuse(
          "visibility_required",
          `Cannot move "${name}": "${t.rel}" assigns to it (line ${
            lineOf(occ.start)
          }), and an imported binding cannot be assigned`,
          {
            hint:
              `Move it together with the code that assigns it (or make the assignment a function exported from "${to}"), then call again`,
            details: { path: t.rel, line: lineOf(occ.start), name },
          },
        );
      }
      continue;
    }
    const x = occ.binding;
    if (
      (occ.kind === "definition" || occ.kind === "shorthand_pattern") && x && x !== b && x.scope === module
    ) {
      if (occ.scope === module || x.kind === "import") {
        refuse(
          "invalid_args",
          `Cannot move "${name}": its declaration also declares "${x.name}" (line ${lineOf(occ.start)})`,
          {
            hint: "Split the declaration first, or move the other name with it by hand",
            details: { path: t.rel, line: lineOf(occ.start), also: x.name },
          },
        );
      }
      refuse(
        "visibility_required",
        `Cannot move "${name}": it assigns to "${x.name}" (line ${
          lineOf(occ.start)
        }), which stays in "${t.rel}"`,
        {
          hint: `Move "${x.name}" first, or make the assignment a function of "${t.rel}"`,
          details: { path: t.rel, line: lineOf(occ.start), name: x.name },
        },
      );
    }
    if (!USES.has(occ.kind)) continue;
    if (!x) free.add(occ.name);
    else if (x !== b && x.scope === module) {
      if (facts?.importsAreReadOnly && assigned(t, occ)) {
        refuse(
          "visibility_required",
          `Cannot move "${name}": it assigns to "${x.name}" (line ${
            lineOf(occ.start)
          }), which stays in "${t.rel}"`,
          {
            hint: `An imported binding cannot be assigned: move "${x.name}" first`,
            details: { path: t.rel, line: lineOf(occ.start), name: x.name },
          },
        );
      }
      const list = deps.get(x) ?? [];
      list.push(occ);
      deps.set(x, list);
    }
  }
  const remaining = fb.occurrences.filter((o) => o.binding === b && USES.has(o.kind) && !inMoved(o.start));
  const clauseUses = remaining.filter((o) => inLocalExportClause(t, o.start));
  const stillUsed = remaining.length > clauseUses.length;
  const exportsOfB = fb.exports.filter((e) => e.local === b && !e.from);
  const isDefault = exportsOfB.some((e) => e.exported === "default");
  const exportInD = exportsOfB.length > 0 || stillUsed;
  if (facts?.privatePrefix && stillUsed && name.startsWith(facts.privatePrefix)) {
    refuse(
      "visibility_required",
      `Cannot move "${name}": "${t.rel}" still uses it and would have to import a private name from "${to}"`,
      {
        hint:
          `Rename it without the leading underscore first (edit_rename_symbol), or move its users with it`,
        details: {
          path: t.rel,
          name,
          uses: remaining.map((o) => lineOf(o.start)),
        },
      },
    );
  }

  const world = await moduleWorld(stage, new Map());
  const destFile = await stage.read(to);
  const created = destFile === null;
  const resolver = new ModuleResolver(created ? [...world.files, to] : world.files, world.mapping);
  const dest = created ? null : await stage.readText(to);
  const dfb = dest
    ? await fileBindings(parsing, { path: to, language: toLanguage, version: dest.version, text: dest.text })
    : null;
  const dModule = dfb?.scopes[0] ?? null;
  const resolve = (from: string, source: string) => resolver.resolve(from, toLanguage, source);
  // A decorator that registers the declaration runs only where it is declared.
  refuseRegisteringDecorators(
    { rel: t.rel, text: t.text, language: t.language, root: t.tree.rootNode },
    fb,
    { name, spans: targets, inWorkspace: (source) => resolve(t.rel, source) !== null },
  );
  const respell = (from: string, target: string, old: { source: string; target: string }) =>
    system === "python"
      ? pythonSpecifier(resolver, { from, target, old })
      : ecmaSpecifier(resolver, { from, target, old, mapping: world.mapping });

  // The destination must not hold the name already (an import of it from the source is replaced).
  const dOwn = dModule?.bindings.get(name);
  const dImportOfB = dOwn?.import && resolve(to, dOwn.import.source) === t.rel &&
      (dOwn.import.imported === name || (isDefault && dOwn.import.kind === "default"))
    ? dOwn
    : null;
  if (
    (dOwn && !dImportOfB) ||
    dfb?.exports.some((e) => e.exported === name || (isDefault && e.exported === "default"))
  ) {
    refuse(
      "destination_conflict",
      `Cannot move "${name}" to "${to}": it already ${dOwn ? "declares or imports" : "exports"} "${
        isDefault ? "default" : name
      }"`,
      {
        hint: "Rename one of them first (edit_rename_symbol), or pick another destination",
        details: { path: to, name },
      },
    );
  }
  for (const occ of dfb?.occurrences ?? []) {
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
  for (const f of free) {
    if (dModule?.bindings.has(f)) {
      refuse(
        "name_clash",
        `Cannot move "${name}" to "${to}": it uses the global "${f}", which "${to}" declares`,
        { hint: `Rename "${f}" in "${to}" first`, details: { path: to, name: f } },
      );
    }
  }

  // Imports the moved code needs in the destination.
  const habit = (fbx: FileBindings | null, from: string) => habitOf(fbx, from, { resolve, system });
  const needs: { spec: string; item: ImportItem }[] = [];
  const renames: TextEdit[] = [];
  const exportPrefixes: TextEdit[] = [];
  const sourceExported: string[] = [];
  const fromSource: ImportItem[] = [];
  const dropFromSource: Binding[] = [];
  // Python: a name the source binds only under `if TYPE_CHECKING:` is imported under one in the destination.
  const typingOnlyIn = (x: Binding) => facts?.typeCheckingImports === true && typingOnly(t, fb, x);
  for (const [x, uses] of deps) {
    const usedOutside = fb.occurrences.some((o) =>
      o.binding === x && !inMoved(o.start) && o.kind !== "definition"
    );
    const imp = x.import;
    let item: ImportItem;
    let spec: string;
    if (imp) {
      // A Python module's public imports are its attributes too (`email.utils.quote`): only private and
      // typing-only ones (absent at run time) go.
      const attribute = facts?.modulesAreValues === true && !x.name.startsWith(facts.privatePrefix ?? "") &&
        !typingOnlyIn(x);
      if (!usedOutside && !attribute) dropFromSource.push(x);
      const target = resolve(t.rel, imp.source);
      if (target === to) {
        if (imp.kind !== "named") {
          refuse(
            "unresolved",
            `Cannot move "${name}": it uses "${x.name}", a ${imp.kind} import of "${to}" itself`,
            {
              hint: "Use the names of the destination directly, then move",
              details: { path: t.rel, name: x.name },
            },
          );
        }
        for (const u of uses) {
          if (imp.imported !== x.name) renames.push({ start: u.start, end: u.end, text: imp.imported });
        }
        continue;
      }
      if (target === null && imp.source.startsWith(".")) {
        refuse(
          "unresolved",
          `Cannot move "${name}": it uses "${x.name}" from "${imp.source}", which names no workspace file`,
          { hint: "Fix the import first", details: { path: t.rel, source: imp.source } },
        );
      }
      spec = target === null ? imp.source : respell(to, target, { source: imp.source, target }) ?? "";
      if (spec === "") {
        refuse(
          "unresolved",
          `Cannot move "${name}": no import from "${to}" names "${target}"`,
          { hint: "Move it to a file from which the module can be imported", details: { path: to, target } },
        );
      }
      item = {
        kind: imp.kind,
        imported: imp.imported,
        local: x.name,
        ...(typeOnlyImport(t, fb, x) || typingOnlyIn(x) ? { typeOnly: true } : {}),
      };
    } else {
      if (facts?.privatePrefix && x.name.startsWith(facts.privatePrefix)) {
        refuse(
          "visibility_required",
          `Cannot move "${name}": it uses "${x.name}", private to "${t.rel}"`,
          {
            hint: `Move "${x.name}" first or with it, or rename it without the underscore`,
            details: { path: t.rel, name: x.name },
          },
        );
      }
      const exp = fb.exports.find((e) => e.local === x && !e.from);
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
          ...(typingOnlyIn(x) ? { typeOnly: true } : {}),
        };
        if (!facts?.exportsEveryTopLevelName) {
          exportPrefixes.push(exportPrefix(t, fb, x));
          sourceExported.push(x.name);
        }
      }
      const s = respell(to, t.rel, habit(dfb, to) ?? habit(fb, t.rel) ?? syntheticHabit(system, t.rel));
      if (s === null) {
        refuse(
          "unresolved",
          `Cannot move "${name}": no import from "${to}" names "${t.rel}"`,
          { hint: "Pick a destination that can import the source file", details: { path: to } },
        );
      }
      spec = s;
      fromSource.push(item);
    }
    const there = dModule?.bindings.get(x.name);
    if (there) {
      const same = there.import &&
        resolve(to, there.import.source) === (imp ? resolve(t.rel, imp.source) : t.rel) &&
        there.import.imported === item.imported;
      if (!same) {
        refuse(
          "name_clash",
          `Cannot move "${name}" to "${to}": it uses "${x.name}", and "${to}" declares another "${x.name}"`,
          {
            hint: `Rename "${x.name}" in one of the files first (edit_rename_symbol)`,
            details: { path: to, name: x.name },
          },
        );
      }
      continue;
    }
    needs.push({ spec, item });
  }

  // Import cycles: the destination would import the source and the source the destination.
  const importsOf = (f: FileBindings | null, from: string, target: string, skip?: Binding | null) =>
    (f?.imports ?? []).some((i) => i.local !== skip && resolve(from, i.source) === target) ||
    (f?.exports ?? []).some((e) => e.from && resolve(from, e.from.source) === target);
  const sToD = importsOf(fb, t.rel, to);
  const dToS = importsOf(dfb, to, t.rel);
  const sToDAfter = stillUsed ||
    fb.imports.some((i) => resolve(t.rel, i.source) === to && !dropFromSource.includes(i.local));
  // An import under `if TYPE_CHECKING:` does not run: no cycle at run time.
  const dToSAfter = fromSource.some((i) => !i.typeOnly) || importsOf(dfb, to, t.rel, dImportOfB);
  if (sToDAfter && dToSAfter && !(sToD && dToS)) {
    refuse(
      "import_cycle",
      `Cannot move "${name}" to "${to}": "${to}" would import "${t.rel}" ${
        fromSource.length > 0 ? `(for ${fromSource.map((i) => i.local).join(", ")})` : ""
      } and "${t.rel}" would import "${to}" (for ${stillUsed ? name : "its other imports"})`,
      {
        hint:
          `Move what "${name}" uses along with it first, or pick a destination that does not import "${t.rel}"`,
        details: {
          path: t.rel,
          to,
          needs: fromSource.map((i) => i.local),
        },
      },
    );
  }

  // The code that moves, exported in the destination when it must be.
  const pieces: string[] = [];
  const eol = t.eol;
  for (const g of targets) {
    const edits = renames.filter((r) => r.start >= g.fullStart && r.end <= g.fullEnd).map((r) => ({
      ...r,
      start: r.start - g.fullStart,
      end: r.end - g.fullStart,
    }));
    const top = topStatement(t.tree, g.start)!;
    if (!facts?.exportsEveryTopLevelName && exportInD && top.type !== "export_statement") {
      edits.push({ start: top.startIndex - g.fullStart, end: top.startIndex - g.fullStart, text: "export " });
    }
    pieces.push(applyTextEdits(t.text.slice(g.fullStart, g.fullEnd), edits));
  }
  const contiguous = targets.every((g, i) =>
    i === 0 || t.text.slice(targets[i - 1]!.fullEnd, g.fullStart).trim() === ""
  );
  const code = contiguous && pieces.length > 1
    ? pieces.map((p, i) => (i === 0 ? "" : t.text.slice(targets[i - 1]!.fullEnd, targets[i]!.fullStart)) + p)
      .join("")
    : pieces.join(eol + eol);

  // The source: the declaration goes, its now-unused imports go, what the destination needs is exported.
  const sEdits: TextEdit[] = [...exportPrefixes];
  // Adjacent declarations (overloads) go as one span, so their blank lines are counted once.
  const runs: typeof targets = [];
  for (const g of targets) {
    const prev = runs[runs.length - 1];
    if (prev && t.text.slice(prev.fullEnd, g.fullStart).trim() === "") {
      runs[runs.length - 1] = { ...g, fullStart: prev.fullStart };
    } else runs.push(g);
  }
  for (const g of runs) sEdits.push(removalEdit(t, g));
  sEdits.push(...dropImports(t, system, { bindings: dropFromSource, fb }));
  for (const o of clauseUses) {
    const site = importSiteAt(t.tree, t.text, { system, offset: o.start });
    if (site) {
      sEdits.push(
        ...(site.only ? [removalEdit(t, nodeTarget(t, topStatement(t.tree, o.start)!))] : site.removal),
      );
    }
  }
  if (facts?.exportList) sEdits.push(...allEntryRemoval(t, name));
  let sText = applyTextEdits(t.text, joinOverlappingRemovals(sEdits));
  const sLines: string[] = [];
  if (stillUsed) {
    const s = respell(t.rel, to, habit(fb, t.rel) ?? syntheticHabit(system, to)) ?? "";
    if (s === "") {
      refuse(
        "unresolved",
        `Cannot move "${name}": no import from "${t.rel}" names "${to}"`,
        { hint: "Pick a destination the source can import", details: { path: t.rel, to } },
      );
    }
    sLines.push(
      ...importStatements(system, s, {
        items: [{
          kind: isDefault ? "default" : "named",
          imported: isDefault ? "default" : name,
          local: name,
        }],
        style: importStyleOf(t.text),
      }),
    );
  }

  const refs: Referrers = await updateReferrers(parsing, stage, {
    system,
    language: toLanguage,
    source: t.rel,
    to,
    name,
    isDefault,
    exportedInS: exportsOfB.length > 0,
    resolver,
    world,
    respell,
  });
  const files = new Map<string, { text: string; bom: boolean }>();
  const placed = await placeDeclaration(parsing, {
    source: { rel: t.rel, language: t.language, text: sText, bom: t.bom, lines: sLines },
    dest: {
      rel: to,
      language: toLanguage,
      text: dest?.text ?? "",
      bom: dest?.bom ?? false,
      eol: dest ? dominantEol(dest.text) : eol,
    },
    system,
    code,
    needs,
    dImportOfB: dImportOfB && dfb ? { fb: dfb, binding: dImportOfB, name } : null,
    dEdits: refs.destEdits,
    style: importStyleOf(t.text),
    futures: facts?.futureImports ? futureFeatures(t.tree) : [],
    usesOfDest: [...deps.keys()].filter((x) => x.import && resolve(t.rel, x.import.source) === to).map((x) =>
      x.import!.imported
    ),
  });
  sText = placed.source;
  files.set(t.rel, { text: sText, bom: t.bom });
  files.set(to, { text: placed.dest, bom: dest?.bom ?? false });
  for (const [rel, f] of refs.files) files.set(rel, f);
  return {
    files,
    moved: {
      name,
      kind: t.symbol.kind,
      from: t.rel,
      to,
      start_line: lineOf(targets[0]!.fullStart),
      end_line: lineOf(Math.max(targets.at(-1)!.fullEnd - 1, 0)),
    },
    created,
    exported: exportInD,
    sourceExported,
    referrers: [...refs.files.keys()].sort(),
    unresolved: refs.unresolved,
    namespaces: refs.namespaces,
  };
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
