/**
 * Which declaration edit_move_decl moves: the name path opened (every overload of a name together), every
 * declaration of the name in the source, and the refusals of a move that cannot be proven there — a language
 * whose imports graver does not resolve, a declaration already in the destination or not at the top level, a
 * CommonJS module, a Python module's dunder name, a name the top level does not bind.
 *
 * @module
 */
import { profileOf } from "../../languages/profiles.ts";
import type { ModuleSystemFacts } from "../../languages/types.ts";
import { RecoverableError } from "../../errors.ts";
import type { Stage } from "../../fs/stage.ts";
import { type Binding, type FileBindings, fileBindings } from "../../syntax/bindings.ts";
import { TextIndex } from "../../syntax/text_index.ts";
import type { Parsing } from "../../syntax/types.ts";
import { isCommonJs, refuse } from "./_source.ts";
import { movableSystem } from "../move_file/imports_rewrite.ts";
import { symbolTarget, type Target } from "../edit/selectors.ts";
import { openSymbol, type SymbolTarget } from "../edit/symbol_target.ts";
import type { MoveDeclOptions, MoveSource, System } from "./_move.ts";

/**
 * Open the declaration and its file, and refuse a move that cannot be proven there: a language whose imports
 * graver does not resolve or whose declarations the destination cannot hold, a declaration already in the
 * destination or not at the top level, a CommonJS module, a module's dunder name, a name not bound at the top
 * level.
 */
export async function openMoveSource(
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
