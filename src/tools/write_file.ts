/**
 * write_file: create or replace a whole file.
 *
 * @module
 */
import { DRY_RUN, EXPECTED_VERSION, objectSchema, PATH } from "./_schema.ts";
import type { ToolDefinition } from "./types.ts";

/** Arguments of write_file. */
export interface WriteFileArgs {
  /** Relative path. */
  path: string;
  /** The whole new content. */
  content: string;
  /** Version last read; refused with stale_base if the file moved on. */
  expected_version?: string;
  /** Preview only. */
  dry_run?: boolean;
}

/** The write_file tool. */
export const writeFile: ToolDefinition<WriteFileArgs> = {
  name: "write_file",
  description:
    "Create a file or replace its whole content. Pass expected_version (from read_file) when replacing, so a concurrent change is refused instead of overwritten. Prefer edit tools for partial changes.",
  inputSchema: objectSchema({
    path: PATH,
    content: { type: "string", description: "The complete new content (UTF-8)" },
    expected_version: EXPECTED_VERSION,
    dry_run: DRY_RUN,
  }, ["path", "content"]),
  mutates: true,
  async handler(args, { stage }) {
    const rel = await stage.resolve(args.path);
    await stage.checkExpected(rel, args.expected_version);
    const existed = await stage.exists(rel);
    await stage.write(rel, new TextEncoder().encode(args.content));
    return { data: { path: rel, created: !existed } };
  },
};
