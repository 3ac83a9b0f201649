/**
 * checkpoint_list, checkpoint_undo, checkpoint_restore: the workspace's
 * checkpoints (a shadow git repository under `.graver/checkpoints/`, workspace
 * option `checkpoints`). Undo and restore stage the files to write back, so
 * dispatch's syntax guard, commit and ledger apply as for any edit, and the
 * commit is recorded as a checkpoint of its own.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import type { CheckpointRevert, Checkpoints } from "../fs/checkpoints.ts";
import type { Stage } from "../fs/stage.ts";
import { DRY_RUN, objectSchema, PATH } from "./_schema.ts";
import type { ToolDefinition, ToolHost } from "./types.ts";
import { BOOLEAN, FILE_PATH, INTEGER, shape, STRING } from "./_result_schema.ts";

/** The host's checkpoints, or a refusal saying how to turn them on. */
export function requireCheckpoints(host: ToolHost, tool: string): Checkpoints {
  if (host.checkpoints) return host.checkpoints;
  throw new RecoverableError("invalid_args", `Cannot call ${tool}: this workspace records no checkpoints`, {
    hint:
      "Open the workspace with checkpoints: true to record every commit; until then revert an edit by editing the file back (edit_file or write_file)",
  });
}

async function stageRevert(stage: Stage, revert: CheckpointRevert): Promise<string[]> {
  const paths: string[] = [];
  for (const [path, bytes] of revert.files) {
    const rel = await stage.resolve(path);
    const mode = revert.modes.get(path);
    if (bytes !== null) await stage.write(rel, bytes, mode === undefined ? {} : { mode });
    else if (await stage.exists(rel)) await stage.remove(rel);
    else continue; // absent then and now
    paths.push(rel);
  }
  return paths;
}

/** Arguments of checkpoint_list. */
export interface CheckpointListArgs {
  /** Most checkpoints to list (default 50). */
  limit?: number;
}

/** The checkpoint_list tool. */
export const checkpointList: ToolDefinition<CheckpointListArgs> = {
  name: "checkpoint_list",
  description:
    "List the workspace's checkpoints, newest first: id, tool, session, files, whether a later undo reverted it. Refused when the workspace records no checkpoints (option checkpoints); then revert by editing the file back.",
  inputSchema: objectSchema({
    limit: { type: "integer", minimum: 1, description: "Most checkpoints to list (default 50)" },
  }),
  aliases: { max_results: "limit" },
  kind: "session",
  mutates: false,
  resultData: shape({
    checkpoints: {
      type: "array",
      items: shape({
        id: STRING,
        message: STRING,
        tool: STRING,
        session: STRING,
        paths: { type: "array", items: FILE_PATH },
        timestamp: INTEGER,
        undoes: STRING,
        undone: BOOLEAN,
      }, ["id", "tool", "session", "paths", "undone"]),
    },
    total: INTEGER,
  }, ["checkpoints", "total"]),
  async handler(args, { workspace }) {
    const all = await requireCheckpoints(workspace, "checkpoint_list").list();
    return { data: { checkpoints: all.slice(0, args.limit ?? 50), total: all.length } };
  },
};

/** Arguments of checkpoint_undo. */
export interface CheckpointUndoArgs {
  /** Undo the newest checkpoint that changed this file (default: the newest of all). */
  path?: string;
  /** Preview only. */
  dry_run?: boolean;
}

/** The checkpoint_undo tool. */
export const checkpointUndo: ToolDefinition<CheckpointUndoArgs> = {
  name: "checkpoint_undo",
  description:
    "Undo the newest checkpoint not yet undone (with path: the newest that changed that file): its files go back to their bytes before it (repeat to walk back). Refused stale_base when a file changed since that checkpoint wrote it (nothing written; edit it by hand), and when the workspace records no checkpoints.",
  inputSchema: objectSchema({
    path: {
      ...PATH,
      description: "Undo the newest checkpoint that changed this file (default: the newest of all)",
    },
    dry_run: DRY_RUN,
  }),
  kind: "session",
  mutates: true,
  resultData: shape({ undid: STRING, paths: { type: "array", items: FILE_PATH } }, ["undid", "paths"]),
  async handler(args, { workspace, stage }) {
    const cps = requireCheckpoints(workspace, "checkpoint_undo");
    const revert = await cps.undo(args.path === undefined ? undefined : await stage.resolve(args.path));
    const paths = await stageRevert(stage, revert);
    return { data: { undid: revert.id, paths } };
  },
};

/** Arguments of checkpoint_restore. */
export interface CheckpointRestoreArgs {
  /** A checkpoint id from checkpoint_list (or a unique prefix of 4+ hex digits). */
  id: string;
  /** Preview only. */
  dry_run?: boolean;
}

/** The checkpoint_restore tool. */
export const checkpointRestore: ToolDefinition<CheckpointRestoreArgs> = {
  name: "checkpoint_restore",
  description:
    "Bring every file changed after a checkpoint back to its state right after it (id from checkpoint_list). Refused stale_base when a file changed outside graver since its last checkpoint (nothing written), not_found for an unknown id, and when the workspace records no checkpoints.",
  inputSchema: objectSchema({
    id: {
      type: "string",
      description: "Checkpoint id from checkpoint_list (or a unique prefix of 4+ hex digits)",
    },
    dry_run: DRY_RUN,
  }, ["id"]),
  kind: "session",
  mutates: true,
  // restoring the same checkpoint again changes nothing more
  behaviour: { idempotent: true },
  resultData: shape({ restored: STRING, paths: { type: "array", items: FILE_PATH } }, [
    "restored",
    "paths",
  ]),
  async handler(args, { workspace, stage }) {
    const revert = await requireCheckpoints(workspace, "checkpoint_restore").restore(args.id);
    const paths = await stageRevert(stage, revert);
    return { data: { restored: revert.id, paths } };
  },
};
