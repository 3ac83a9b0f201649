/**
 * move_file: rename or move a file inside the workspace, and (TypeScript,
 * TSX, JavaScript, Python) rewrite every import that named it — and its own
 * relative imports — in the same commit ({@linkcode planImportUpdates}).
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import type { UnresolvedImport } from "../structural/move_file/imports_rewrite.ts";
import { encodeText } from "../fs/text.ts";
import { importsEngine } from "./_lazy.ts";
import { DRY_RUN, EXPECTED_VERSION, objectSchema, PATH } from "./_schema.ts";
import type { HandlerResult, ToolDefinition } from "./types.ts";
import { FILE_PATH, INTEGER, shape, STRING } from "./_result_schema.ts";

/** Arguments of move_file. */
export interface MoveFileArgs {
  /** Source path. */
  from: string;
  /** Destination path. */
  to: string;
  /** Replace an existing destination (default false). */
  overwrite?: boolean;
  /** Version of the source last read. */
  expected_version?: string;
  /** Rewrite the imports of the moved module and its own relative imports (default true where supported). */
  update_imports?: boolean;
  /** Preview only. */
  dry_run?: boolean;
}

/** The refusal of a move that would leave behind member accesses that may spell the moved module. */
function unsettledChains(from: string, to: string, sites: UnresolvedImport[]): RecoverableError {
  const list = sites.slice(0, 5).map((s) => `${s.path}:${s.line} ${s.specifier}`).join(", ");
  const more = sites.length > 5 ? ` and ${sites.length - 5} more` : "";
  return new RecoverableError(
    "unresolved",
    `Cannot move "${from}" to "${to}": ${sites.length} use(s) may reach the module by its dotted name and cannot be followed for certain (${list}${more}); ${
      sites[0]!.reason
    }`,
    {
      hint:
        "Import the module by name at those sites (import pkg.mod, or from pkg import mod) and call again, or pass update_imports: false to move the bytes only",
      details: { from, to, unresolved: sites },
    },
  );
}

/** The move_file tool. */
export const moveFile: ToolDefinition<MoveFileArgs> = {
  name: "move_file",
  description:
    "Move or rename a file. For TypeScript, TSX, JavaScript and Python files, every import of the moved module in the workspace (static imports, re-exports, dynamic import and require calls with a string literal, Python from/import) and the file's own relative imports are rewritten in the same atomic commit, in each import's own style (extension or not, directory index, quotes, tsconfig paths alias, Python relative or absolute); a Python module's dotted uses (`import pkg` then `pkg.mod.x`) follow it too. data.imports lists what changed and the references it could not rewrite (unresolved); a dotted use that may name the module but cannot be followed for certain refuses the move (unresolved). A Go file moves only within its directory keeping its `_test`/GOOS/GOARCH suffixes, and a Rust file only when cargo finds it by its directory (tests/, examples/, benches/, src/bin/): other moves would break its package or `mod` declaration and are refused (unsupported_language). update_imports: false only moves the bytes. Refused with already_exists when the destination exists unless overwrite is true. To move one declaration between files use edit_move_decl.",
  inputSchema: objectSchema({
    from: PATH,
    to: PATH,
    overwrite: { type: "boolean", description: "Replace an existing destination" },
    update_imports: {
      type: "boolean",
      description:
        "Rewrite every import of the moved file and its own relative imports (default true for TypeScript, TSX, JavaScript and Python; other files just move)",
    },
    expected_version: EXPECTED_VERSION,
    dry_run: DRY_RUN,
  }, ["from", "to"]),
  // The names models reach for first: read_file's `path` for the source, and the destination as most file
  // APIs name it.
  aliases: {
    path: "from",
    source: "from",
    old_path: "from",
    to_path: "to",
    new_path: "to",
    destination: "to",
  },
  kind: "file",
  mutates: true,
  // a repeated move finds no source
  behaviour: { idempotent: true },
  resultData: shape({
    from: FILE_PATH,
    to: FILE_PATH,
    imports: shape({
      updated: {
        type: "array",
        items: shape({ path: FILE_PATH, line: INTEGER, before: STRING, after: STRING }, [
          "path",
          "line",
          "before",
          "after",
        ]),
      },
      files: { type: "array", items: FILE_PATH },
      unresolved: {
        type: "array",
        items: shape({ path: FILE_PATH, line: INTEGER, specifier: STRING, reason: STRING }, [
          "path",
          "specifier",
        ]),
      },
    }, ["updated", "files", "unresolved"]),
  }, ["from", "to"]),
  async handler(args, { workspace, stage }) {
    const from = await stage.resolve(args.from);
    const to = await stage.resolve(args.to);
    const source = await stage.readExisting(from);
    await stage.checkExpected(from, args.expected_version);
    if (from === to) return { data: { from, to }, warnings: ["Source and destination are the same path"] };
    const dest = await stage.read(to);
    if (dest && !args.overwrite) {
      throw new RecoverableError(
        "already_exists",
        `Cannot move "${from}" to "${to}": the destination exists`,
        {
          hint: "Pick another destination, or pass overwrite: true to replace it",
          suggestedCall: { tool: "move_file", args: { from, to, overwrite: true } },
          details: { from, to, destination_version: dest.version },
        },
      );
    }
    const imports = args.update_imports !== false ? await importsEngine() : null;
    const language = workspace.grammars?.languageOf(from) ?? "";
    const refusal = imports?.nativeMoveRefusal({ language, from, to });
    if (refusal) throw refusal;
    const plan = imports?.importsUpdatable(workspace, from)
      ? await imports.planImportUpdates(workspace, stage, new Map([[from, to]]))
      : null;
    if (plan && plan.unsettled.length > 0) throw unsettledChains(from, to, plan.unsettled);
    const moved = plan?.files.get(to);
    const mode = await stage.mode(from); // a script stays executable
    const bytes = moved === undefined
      ? source.bytes
      : encodeText({ text: moved, bom: (await stage.readText(from)).bom });
    await stage.write(to, bytes, { mode });
    await stage.remove(from);
    for (const [rel, text] of plan?.files ?? []) {
      if (rel === to) continue;
      await stage.writeText(rel, { text, bom: (await stage.readText(rel)).bom });
    }
    const data: Record<string, unknown> = { from, to };
    if (plan) {
      data["imports"] = {
        updated: plan.updated,
        files: [...plan.files.keys()].sort(),
        unresolved: plan.unresolved,
      };
    }
    const result: HandlerResult = { data, skipSyntaxCheck: true };
    if (plan && plan.unresolved.length > 0) {
      result.warnings = [
        `${plan.unresolved.length} import(s) could not be rewritten and may no longer resolve (data.imports.unresolved)`,
      ];
    }
    if (!dest) result.renames = new Map([[to, from]]);
    return result;
  },
};
