/**
 * create_file: create a new file; refuses to overwrite.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { DRY_RUN, objectSchema, PATH } from "./_schema.ts";
import type { ToolDefinition } from "./types.ts";
import { FILE_PATH, shape } from "./_result_schema.ts";

/** Arguments of create_file. */
export interface CreateFileArgs {
  /** Relative path. */
  path: string;
  /** Content (default empty). */
  content?: string;
  /** Preview only. */
  dry_run?: boolean;
}

/** The create_file tool. */
export const createFile: ToolDefinition<CreateFileArgs> = {
  name: "create_file",
  description:
    "Create a new file (parent directories are created). Refused with already_exists if the path exists: read and edit it instead.",
  inputSchema: objectSchema({
    path: PATH,
    content: { type: "string", description: "Initial content (default empty)" },
    dry_run: DRY_RUN,
  }, ["path"]),
  kind: "whole_file",
  mutates: true,
  // it only adds a file; a second create is refused
  behaviour: { destructive: false, idempotent: true },
  resultData: shape({ path: FILE_PATH }, ["path"]),
  async handler(args, { stage }) {
    const rel = await stage.resolve(args.path);
    const existing = await stage.read(rel);
    if (existing) {
      throw new RecoverableError("already_exists", `Cannot create "${rel}": it already exists`, {
        hint:
          `Read it with read_file and edit it, or replace it whole with write_file and expected_version "${existing.version}"`,
        suggestedCall: { tool: "read_file", args: { path: rel } },
        details: { path: rel, current_version: existing.version },
      });
    }
    await stage.write(rel, new TextEncoder().encode(args.content ?? ""));
    return { data: { path: rel } };
  },
};
