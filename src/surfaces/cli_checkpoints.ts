/**
 * `graver checkpoints` and `graver undo [--path FILE]`: the workspace's
 * checkpoints (recorded by calls made with `--checkpoints`, docs/checkpoints.md),
 * through the checkpoint_list and checkpoint_undo tools. Registered at module load.
 *
 * @module
 */
import { loadSession, saveSession } from "./cli_session.ts";
import type { ToolResult } from "../tools/types.ts";
import { type CliHost, EXIT, printJson, registerCliCommand, WORKSPACE_FLAGS } from "./cli.ts";
import { failureText, painter } from "./cli_output.ts";

function print(
  host: CliHost,
  result: ToolResult,
  json: boolean,
  text: (r: Extract<ToolResult, { ok: true }>) => string,
): number {
  if (json) printJson(host, result);
  else host.stdout(result.ok ? text(result) : failureText(result, painter(host)));
  return result.ok ? EXIT.ok : EXIT.failed;
}

registerCliCommand({
  name: "checkpoints",
  synopsis: "checkpoints [--root DIR] [--json]",
  summary: "List the checkpoints recorded by edits made with --checkpoints, newest first",
  details: `
Lists the shadow repository under .graver/checkpoints/ (the project's own .git is never touched):
id, tool, session and files of each checkpoint, newest first; "undone" marks one a later undo reverted.`,
  flags: { ...WORKSPACE_FLAGS, json: { kind: "boolean", help: "print the tool result as JSON" } },
  maxPositional: 0,
  async run({ flags, host, open }) {
    flags["checkpoints"] = true;
    const ws = await open(flags["root"] as string | undefined);
    const result = await ws.call("checkpoint_list", {});
    return print(host, result, flags["json"] === true, (r) => {
      const rows = r.data["checkpoints"] as { id: string; message: string; undone: boolean }[];
      if (rows.length === 0) return "no checkpoints (edit with --checkpoints to record them)\n";
      return rows.map((c) => `${c.id.slice(0, 10)}  ${c.message}${c.undone ? "  (undone)" : ""}\n`).join("");
    });
  },
});

registerCliCommand({
  name: "undo",
  synopsis: "undo [--path FILE] [--session ID] [--dry-run] [--root DIR] [--json]",
  summary: "Revert the newest checkpoint not yet undone (repeat to walk back)",
  details: `
Runs checkpoint_undo: the files of the newest checkpoint go back to their bytes before it, committed like
any edit (and recorded as a checkpoint of its own). With --path, the newest checkpoint that changed that
file. Refused (stale_base, nothing written) when a file changed since that checkpoint wrote it. With
--session ID the undo is that session's own write: its ledger (.graver/sessions/ID.json) records it, so the
session's next edit there is not judged as after a change by someone else.`,
  flags: {
    ...WORKSPACE_FLAGS,
    path: { kind: "string", value: "FILE", help: "undo the newest checkpoint that changed this file" },
    "dry-run": { kind: "boolean", help: "show what would change, write nothing" },
    json: { kind: "boolean", help: "print the tool result as JSON" },
    session: {
      kind: "string",
      value: "ID",
      help: "undo as this session: its ledger records the undo as its own",
    },
  },
  maxPositional: 0,
  async run({ flags, host, open }) {
    flags["checkpoints"] = true;
    const ws = await open(flags["root"] as string | undefined);
    const args: Record<string, unknown> = {};
    if (typeof flags["path"] === "string") args["path"] = flags["path"];
    if (flags["dry-run"] === true) args["dry_run"] = true;
    const session = typeof flags["session"] === "string" ? flags["session"] : undefined;
    if (session !== undefined) await loadSession(ws, session);
    const result = await ws.call("checkpoint_undo", args, session !== undefined ? { session } : {});
    if (session !== undefined) await saveSession(ws, session);
    return print(
      host,
      result,
      flags["json"] === true,
      (r) =>
        `${r.status === "dry_run" ? "would undo" : "undid"} ${String(r.data["undid"]).slice(0, 10)}: ${
          (r.data["paths"] as string[]).join(", ")
        }\n`,
    );
  },
});
