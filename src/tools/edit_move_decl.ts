/**
 * edit_move_decl: move a top-level declaration to another file with the
 * imports it needs, and rewrite every referrer's imports, as one atomic
 * commit — an adapter over the structural engine's {@linkcode planMoveDecl}.
 *
 * @module
 */
import { moveDeclEngine } from "./_lazy.ts";
import { DRY_RUN, EXPECTED_VERSION, objectSchema, PATH } from "./_schema.ts";
import type { ToolDefinition } from "./types.ts";
import { BOOLEAN, FILE_PATH, INTEGER, shape, STRING } from "./_result_schema.ts";

/** Arguments of edit_move_decl. */
export interface EditMoveDeclArgs {
  /** The file that declares it. */
  path: string;
  /** Name path of a top-level declaration (aliases: `target`, `symbol`). */
  name_path: string;
  /** The destination file, created when absent (aliases: `to`, `destination`). */
  to_path: string;
  /** Version of path last read. */
  expected_version?: string;
  /** Preview only. */
  dry_run?: boolean;
}

/** The edit_move_decl tool. */
export const editMoveDecl: ToolDefinition<EditMoveDeclArgs> = {
  name: "edit_move_decl",
  description:
    "Move a top-level declaration (function, class, const/let/var, type, interface, enum; Python def, class or assignment) to another file of the same language, created if absent (TypeScript, TSX, JavaScript ES modules, Python). The imports it uses are copied (respelled for the destination), what it uses that stays in the source is imported from there (exported first when it is a plain declaration), it is placed after the destination's imports and exported there when the source exported it or still uses it; every file importing it from the source (named, default, namespace, re-exports, export * barrels) is rewritten to import it from the destination, and the source imports it back if it still uses it. Refused, writing nothing: destination_conflict (the destination already has the name), import_cycle (source and destination would import each other), visibility_required (it needs a private or unexportable name of the source, or assigns to one), name_clash (a name it uses means something else in the destination), value_reference (a decorator that may register it when the module is imported — one of the workspace, an unknown one, any TypeScript decorator — would no longer run there; staticmethod, classmethod, property, functools.wraps/lru_cache/cache, dataclasses.dataclass, typing.overload/final, contextlib.contextmanager, abc.abstractmethod and the like move), unsupported_language (CommonJS, other languages). To move a whole file use move_file. One atomic commit; dry_run previews.",
  inputSchema: objectSchema({
    path: PATH,
    name_path: {
      type: "string",
      minLength: 1,
      description: 'Name path of the top-level declaration in path, e.g. "parseConfig" or "Config"',
    },
    to_path: {
      type: "string",
      minLength: 1,
      description: "Destination file (relative to the root), created if absent",
    },
    expected_version: EXPECTED_VERSION,
    dry_run: DRY_RUN,
  }, ["path", "name_path", "to_path"]),
  kind: "structural",
  mutates: true,
  resultData: shape({
    moved: shape({
      name: STRING,
      kind: STRING,
      from: FILE_PATH,
      to: FILE_PATH,
      start_line: INTEGER,
      end_line: INTEGER,
    }, ["name", "from", "to"]),
    destination_created: BOOLEAN,
    exported: BOOLEAN,
    source_exported: {
      type: "array",
      items: STRING,
      description: "Private declarations of the source now exported because the moved code imports them",
    },
    referrers: {
      type: "array",
      items: FILE_PATH,
      description: "Files whose imports now take the name from the destination",
    },
    unresolved: {
      type: "array",
      items: shape({ path: FILE_PATH, line: INTEGER, reason: STRING }, ["path", "reason"]),
    },
    namespaces: {
      type: "array",
      items: shape({ path: FILE_PATH, name: STRING }, ["path", "name"]),
      description:
        "Files passing the source on as a namespace (export * as name), which no longer holds the moved name",
    },
  }, ["moved", "destination_created", "referrers"]),
  aliases: {
    target: "name_path",
    symbol: "name_path",
    to: "to_path",
    destination: "to_path",
    toPath: "to_path",
    new_path: "to_path",
    destination_path: "to_path",
  },
  async handler(args, { workspace, stage }) {
    const { planMoveDecl, stageMoveDecl } = await moveDeclEngine();
    const plan = await planMoveDecl(workspace, stage, {
      path: args.path,
      namePath: args.name_path,
      toPath: args.to_path,
      tool: "edit_move_decl",
      expectedVersion: args.expected_version,
    });
    await stageMoveDecl(stage, plan);
    const warnings: string[] = [];
    if (plan.unresolved.length > 0) {
      warnings.push(`${plan.unresolved.length} reference(s) could not be followed (data.unresolved)`);
    }
    if (plan.sourceExported.length > 0) {
      const names = plan.sourceExported.map((n) => `"${n}"`).join(", ");
      warnings.push(
        `"${plan.moved.from}" now exports ${names} (the moved code imports it); move it too or keep the export`,
      );
    }
    for (const ns of plan.namespaces) {
      warnings.push(
        `"${ns.path}" passes "${plan.moved.from}" on as the namespace ${ns.name}: ${ns.name}.${plan.moved.name} ` +
          `no longer exists for code outside the workspace; re-export "${plan.moved.name}" from "${plan.moved.from}" ` +
          `if that is public API`,
      );
    }
    return {
      data: {
        moved: plan.moved,
        destination_created: plan.created,
        exported: plan.exported,
        source_exported: plan.sourceExported,
        referrers: plan.referrers,
        unresolved: plan.unresolved,
        ...(plan.namespaces.length > 0 ? { namespaces: plan.namespaces } : {}),
      },
      ...(warnings.length > 0 ? { warnings } : {}),
    };
  },
};
