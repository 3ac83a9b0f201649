/**
 * list_files: the files and directories under a path (graver's own
 * `.graver/` is hidden).
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { objectSchema } from "./_schema.ts";
import type { ToolDefinition } from "./types.ts";

/** Arguments of list_files. */
export interface ListFilesArgs {
  /** Directory relative to the root (default: the root). */
  path?: string;
  /** Walk subdirectories (default false). */
  recursive?: boolean;
  /** Most entries returned (default 1000). */
  max_entries?: number;
}

/** The list_files tool. */
export const listFiles: ToolDefinition<ListFilesArgs> = {
  name: "list_files",
  description:
    "List files and directories under a directory of the workspace (default: the root). Directories end with '/'. Set recursive to walk subdirectories.",
  inputSchema: objectSchema({
    path: { type: "string", description: 'Directory relative to the root ("" or "." for the root)' },
    recursive: { type: "boolean", description: "Walk subdirectories (default false)" },
    max_entries: {
      type: "integer",
      minimum: 1,
      maximum: 100000,
      description: "Most entries to return (default 1000)",
    },
  }),
  mutates: false,
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
    const max = args.max_entries ?? 1000;
    const entries: string[] = [];
    let truncated = false;
    const walk = async (rel: string): Promise<void> => {
      for (const e of await stage.list(rel)) {
        if (entries.length >= max) {
          truncated = true;
          return;
        }
        const child = rel === "" ? e.name : `${rel}/${e.name}`;
        entries.push(e.kind === "dir" ? `${child}/` : child);
        if (e.kind === "dir" && args.recursive) await walk(child);
      }
    };
    await walk(dir);
    const data: Record<string, unknown> = { path: dir, entries, count: entries.length };
    if (truncated) data["truncated"] = true;
    return { data };
  },
};
