/**
 * edit_rename_symbol: rename one symbol at every binding-resolved occurrence,
 * in every file, as one atomic commit — an adapter over the structural
 * engine's {@linkcode planRename}.
 *
 * @module
 */
import { lazyEngine } from "./_lazy.ts";
import type { ReferenceSite, ReferenceTarget } from "../structural/references/references.ts";
import { groupByFile, positionAtTopLevel, TARGET } from "./_reference_args.ts";
import { DRY_RUN, EXPECTED_VERSION, objectSchema, PATH } from "./_schema.ts";
import type { ToolDefinition } from "./types.ts";
import { INTEGER, REFERENCES, shape, SKIPPED, STRING, SYMBOL } from "./_result_schema.ts";

/**
 * `structural/rename/rename.ts` (planRename, stageRename), loaded on first call from the structural engines'
 * chunk (`_engines_structural.ts` names it `rename`).
 */
const renameEngine = lazyEngine(
  "the structural engine (rename)",
  async () => (await import("./_engines_structural.ts")).rename,
);

/** Arguments of edit_rename_symbol. */
export interface EditRenameSymbolArgs {
  /** The file that declares or uses the symbol. */
  path: string;
  /** Name path, or {line, column} (1-based) on one of its names (aliases: `name_path`, `symbol`). */
  target: ReferenceTarget;
  /** The new name. */
  new_name: string;
  /** "project" (default): every file; "file": refused when other files refer to the symbol. */
  scope?: "file" | "project";
  /** Also rename the unresolved candidates (default false). */
  include_unresolved?: boolean;
  /** Version of path last read. */
  expected_version?: string;
  /** Preview only. */
  dry_run?: boolean;
}

/** The edit_rename_symbol tool. */
export const editRenameSymbol: ToolDefinition<EditRenameSymbolArgs> = {
  name: "edit_rename_symbol",
  description:
    'Rename a symbol (variable, function, class, parameter, import, class member) everywhere it is used, resolved through scopes and imports: other symbols with the same name, shadowed names and look-alikes in comments are left alone. Shorthand properties keep their key ({x} becomes {x: y}); Python keyword arguments follow a renamed parameter; import and export aliases stay consistent. Refused with name_clash when new_name is already visible where the symbol lives. Occurrences that cannot be resolved without types (obj.x for a member) are reported as unresolved and left alone unless include_unresolved; text_occurrences lists the old name in comments and strings (not changed). scope "file" is refused when other files use the symbol. Go and Rust rename across the project; Java, C#, C, C++, Kotlin, Ruby and PHP within one file: a symbol other files may name needs scope "file" (project is refused unsupported_language). One atomic commit; dry_run previews.',
  inputSchema: objectSchema({
    path: PATH,
    target: TARGET,
    new_name: { type: "string", minLength: 1, description: "The new name" },
    scope: {
      type: "string",
      enum: ["file", "project"],
      description:
        '"project" (default): every file that uses it; "file": only path (refused if other files use it)',
    },
    include_unresolved: {
      type: "boolean",
      description: "Also rename the unresolved candidates (default false: they are listed, not changed)",
    },
    expected_version: EXPECTED_VERSION,
    dry_run: DRY_RUN,
  }, ["path", "target", "new_name"]),
  kind: "derived",
  mutates: true,
  resultData: shape({
    target: SYMBOL,
    new_name: STRING,
    renamed: INTEGER,
    files: REFERENCES,
    unresolved: REFERENCES,
    text_occurrences: { type: "array", description: "The old name in comments and strings (not changed)" },
    skipped: SKIPPED,
  }, ["target", "new_name", "renamed", "files"]),
  aliases: { name_path: "target", position: "target", symbol: "target", newName: "new_name" },
  foldArgs: positionAtTopLevel("target"),
  async handler(args, { workspace, stage }) {
    const { planRename, stageRename } = await renameEngine();
    const plan = await planRename(workspace, stage, {
      path: args.path,
      target: args.target,
      newName: args.new_name,
      tool: "edit_rename_symbol",
      scope: args.scope ?? "project",
      includeUnresolved: args.include_unresolved === true,
      expectedVersion: args.expected_version,
    });
    await stageRename(stage, plan);
    const textOf = (p: string) => plan.search.files.get(p)!.text;
    const warnings = plan.unresolved.length > 0 ? [unresolvedWarning(plan.unresolved, args)] : [];
    return {
      warnings,
      data: {
        target: plan.search.target,
        new_name: args.new_name,
        renamed: plan.renamed.length,
        files: groupByFile(plan.renamed, textOf),
        unresolved: groupByFile(plan.unresolved, textOf),
        text_occurrences: plan.textOccurrences,
        ...(plan.search.otherFiles ? { other_files_with_name: plan.search.otherFiles } : {}),
        ...(plan.examples.length > 0 ? { examples_renamed: plan.examples } : {}),
        ...(plan.search.skipped ? { skipped: plan.search.skipped } : {}),
      },
    };
  },
};

/** The most unresolved sites a warning lists by place (the rest are counted). */
const LISTED = 5;

/**
 * The warning for unresolved candidates left unchanged: they may be uses of
 * the symbol (then the code calls a name that no longer exists), so it names
 * each place and the two ways on.
 */
function unresolvedWarning(sites: readonly ReferenceSite[], args: EditRenameSymbolArgs): string {
  const places = sites.slice(0, LISTED).map((s) => `${s.path}:${s.line}`).join(", ");
  const more = sites.length > LISTED ? ` and ${sites.length - LISTED} more` : "";
  const what = sites.length === 1 ? "1 occurrence" : `${sites.length} occurrences`;
  const next = args.dry_run
    ? "call again with include_unresolved: true to rename them as well, or without it to leave them"
    : `read them and, where one does, change it to "${args.new_name}" (edit_safe_text_patch)`;
  return `${what} of "${
    sites[0]!.name
  }" could not be tied to this symbol without types and kept the old name (${places}${more}; see data.unresolved). If any of them uses this symbol, that code refers to a name that no longer exists: ${next}`;
}
