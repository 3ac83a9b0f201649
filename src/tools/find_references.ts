/**
 * find_references: every binding-resolved occurrence of one symbol, grouped
 * by file, with the same-name `unresolved` candidates — an adapter over the
 * structural engine's {@linkcode findReferences}.
 *
 * @module
 */
import type { ReferenceTarget } from "../structural/references/references.ts";
import { referencesEngine } from "./_lazy.ts";
import { groupByFile, positionAtTopLevel, TARGET } from "./_reference_args.ts";
import { objectSchema, PATH } from "./_schema.ts";
import type { ToolDefinition } from "./types.ts";
import { INTEGER, REFERENCES, shape, SKIPPED, SYMBOL } from "./_result_schema.ts";

/** Arguments of find_references. */
export interface FindReferencesArgs {
  /** The file that declares or uses the symbol. */
  path: string;
  /** Name path, or {line, column} (1-based) on one of its names (alias: `name_path`). */
  target: ReferenceTarget;
  /** "project" (default) or "file". */
  scope?: "file" | "project";
}

/** The find_references tool. */
export const findReferencesTool: ToolDefinition<FindReferencesArgs> = {
  name: "find_references",
  description:
    'Every reference to one symbol, resolved through scopes and imports rather than by matching text: its declaration, uses (shadowed names of other symbols excluded), imports and re-exports in other files, this.x/self.x for class members. Grouped by file with each line\'s text. unresolved lists same-name occurrences that cannot be tied to the symbol without types (obj.x for a member, imports from modules outside the workspace). target is a name path in path, or {line, column} on any occurrence. Across files: TypeScript, TSX, JavaScript, Python, Go (packages, go.mod imports), Rust (mod/use within the crate); within one file: Java, C#, C, C++, Kotlin, Ruby, PHP (see edit_capabilities) — there a project-wide search of a symbol other files may name is refused unsupported_language (call again with scope "file"); other languages are refused unsupported_language: use find_symbol instead. To rename them all, call edit_rename_symbol.',
  inputSchema: objectSchema({
    path: PATH,
    target: TARGET,
    scope: {
      type: "string",
      enum: ["file", "project"],
      description: '"project" (default): every file of the workspace; "file": only path',
    },
  }, ["path", "target"]),
  kind: "read",
  mutates: false,
  resultData: shape(
    { target: SYMBOL, total: INTEGER, files: REFERENCES, unresolved: REFERENCES, skipped: SKIPPED },
    ["target", "total", "files", "unresolved"],
  ),
  aliases: { name_path: "target", position: "target", symbol: "target" },
  foldArgs: positionAtTopLevel("target"),
  async handler(args, { workspace, stage }) {
    const { findReferences } = await referencesEngine();
    const search = await findReferences(workspace, stage, {
      path: args.path,
      target: args.target,
      tool: "find_references",
      scope: args.scope ?? "project",
    });
    const textOf = (p: string) => search.files.get(p)!.text;
    return {
      data: {
        target: search.target,
        total: search.sites.length,
        files: groupByFile(search.sites, textOf),
        unresolved: groupByFile(search.unresolved, textOf),
        ...(search.otherFiles ? { other_files_with_name: search.otherFiles } : {}),
        ...(search.skipped ? { skipped: search.skipped } : {}),
      },
    };
  },
};
