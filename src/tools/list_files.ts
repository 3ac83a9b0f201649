/**
 * list_files: the files and directories under a path, walked as every
 * project-wide walk is (`src/fs/walk.ts`): version-control folders and
 * graver's `.graver/` hidden, `.gitignore` and `node_modules` skipped unless
 * `include_ignored` is set.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { skippedCounts } from "../fs/walk.ts";
import { openProject } from "../project/project_view.ts";
import { objectSchema } from "./_schema.ts";
import type { ToolDefinition } from "./types.ts";
import { BOOLEAN, FILE_PATH, INTEGER, shape, SKIPPED, STRING, UNREADABLE } from "./_result_schema.ts";

/** Arguments of list_files. */
export interface ListFilesArgs {
  /** Directory relative to the root (default: the root). */
  path?: string;
  /** Walk subdirectories (default false). */
  recursive?: boolean;
  /** Most entries returned (default 1000). */
  max_entries?: number;
  /** Also list what `.gitignore` ignores and `node_modules` (default false). */
  include_ignored?: boolean;
}

/** The list_files tool. */
export const listFiles: ToolDefinition<ListFilesArgs> = {
  name: "list_files",
  description:
    "List files and directories under a directory of the workspace (default: the root). Directories end with '/'. Set recursive to walk subdirectories. Version-control folders (.git …) are never listed; what .gitignore ignores and node_modules are left out unless include_ignored is true. A file path is refused (call read_file); to find a definition by name, call find_symbol instead of listing.",
  inputSchema: objectSchema({
    path: { type: "string", description: 'Directory relative to the root ("" or "." for the root)' },
    recursive: { type: "boolean", description: "Walk subdirectories (default false)" },
    max_entries: {
      type: "integer",
      minimum: 1,
      maximum: 100000,
      description: "Most entries to return (default 1000)",
    },
    include_ignored: {
      type: "boolean",
      description: "Also list what .gitignore ignores and node_modules (default false)",
    },
  }),
  aliases: { max_results: "max_entries" },
  kind: "read",
  mutates: false,
  resultData: shape({
    path: FILE_PATH,
    entries: { type: "array", items: STRING, description: "Paths from the root; directories end with '/'" },
    count: INTEGER,
    truncated: BOOLEAN,
    ignored: INTEGER,
    skipped: SKIPPED,
    unreadable: UNREADABLE,
  }, ["path", "entries", "count"]),
  async handler(args, { stage }) {
    const dir = (await stage.sandbox.resolve(stage.fs, args.path ?? "", { allowRoot: true })).rel;
    const kind = dir === "" ? "dir" : await stage.fs.kind(stage.sandbox.abs(dir));
    if (kind !== "dir") {
      if (kind === null) throw await stage.notFound(dir);
      throw new RecoverableError("invalid_args", `Cannot list "${dir}": it is a file, not a directory`, {
        hint: `Call read_file with {"path": "${dir}"} to read it`,
        suggestedCall: { tool: "read_file", args: { path: dir } },
        details: { path: dir },
      });
    }
    const walked = await openProject({ stage }).list({
      under: dir,
      accept: () => true, // folders too: a listing shows both
      recursive: args.recursive === true,
      includeIgnored: args.include_ignored === true,
      limit: args.max_entries ?? 1000,
    });
    const entries = walked.entries.map((e) => e.kind === "dir" ? `${e.rel}/` : e.rel);
    const data: Record<string, unknown> = { path: dir, entries, count: entries.length };
    if (walked.truncated) data["truncated"] = true;
    if (walked.ignored > 0) data["ignored"] = walked.ignored;
    const skipped = skippedCounts(walked.skipped);
    if (skipped) data["skipped"] = skipped;
    if (walked.unreadable.length > 0) data["unreadable"] = walked.unreadable;
    return { data };
  },
};
