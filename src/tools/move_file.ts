/**
 * move_file: rename or move a file inside the workspace.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { DRY_RUN, EXPECTED_VERSION, objectSchema, PATH } from "./_schema.ts";
import type { HandlerResult, ToolDefinition } from "./types.ts";

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
  /** Preview only. */
  dry_run?: boolean;
}

/** The move_file tool. */
export const moveFile: ToolDefinition<MoveFileArgs> = {
  name: "move_file",
  description:
    "Move or rename a file. Refused with already_exists when the destination exists unless overwrite is true.",
  inputSchema: objectSchema({
    from: PATH,
    to: PATH,
    overwrite: { type: "boolean", description: "Replace an existing destination" },
    expected_version: EXPECTED_VERSION,
    dry_run: DRY_RUN,
  }, ["from", "to"]),
  mutates: true,
  async handler(args, { stage }) {
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
    await stage.write(to, source.bytes, { mode: await stage.mode(from) }); // a script stays executable
    await stage.remove(from);
    const result: HandlerResult = { data: { from, to }, skipSyntaxCheck: true };
    if (!dest) result.renames = new Map([[to, from]]);
    return result;
  },
};
