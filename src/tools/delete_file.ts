/**
 * delete_file: remove a file.
 *
 * @module
 */
import { DRY_RUN, EXPECTED_VERSION, objectSchema, PATH } from "./_schema.ts";
import type { ToolDefinition } from "./types.ts";
import { FILE_PATH, shape } from "./_result_schema.ts";

/** Arguments of delete_file. */
export interface DeleteFileArgs {
  /** Relative path. */
  path: string;
  /** Version last read. */
  expected_version?: string;
  /** Preview only. */
  dry_run?: boolean;
}

/** The delete_file tool. */
export const deleteFile: ToolDefinition<DeleteFileArgs> = {
  name: "delete_file",
  description: "Delete a file. Pass expected_version to refuse if it changed since you read it.",
  inputSchema: objectSchema({ path: PATH, expected_version: EXPECTED_VERSION, dry_run: DRY_RUN }, ["path"]),
  kind: "file",
  mutates: true,
  // a second delete is refused: nothing more changes
  behaviour: { idempotent: true },
  resultData: shape({ path: FILE_PATH }, ["path"]),
  async handler(args, { stage }) {
    const rel = await stage.resolve(args.path);
    await stage.readExisting(rel);
    await stage.checkExpected(rel, args.expected_version);
    await stage.remove(rel);
    return { data: { path: rel } };
  },
};
