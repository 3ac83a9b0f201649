/**
 * The workspace a command opens: the options every workspace command takes (`WORKSPACE_FLAGS`), `--root`
 * resolved against the cwd and refused unless it is an existing directory, and the workspace options the
 * compass, checkpoint and events flags ask for.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { errnoCode } from "../fs/backend.ts";
import { createWorkspace, type Workspace, type WorkspaceOptions } from "../workspace.ts";
import type { MatchPool } from "../structural/search/match_pool.ts";
import type { CliFlag, CliHost } from "./_cli_contract.ts";

/** The options every workspace command takes: `--root`, `--session`, `--guard`, `--gate`, the compass's and `--events`. */
export const WORKSPACE_FLAGS: Readonly<
  Record<
    | "root"
    | "session"
    | "guard"
    | "gate"
    | "compass"
    | "persona"
    | "events"
    | "checkpoints"
    | "no-checkpoints"
    | "max-checkpoints",
    CliFlag
  >
> = {
  root: {
    kind: "string",
    value: "DIR",
    help: "the workspace root, an existing directory (default: the current one)",
  },
  session: {
    kind: "string",
    value: "ID",
    help: "a session: its read ledger persists in .graver/sessions/ID.json and guards its edits",
  },
  guard: {
    kind: "string",
    value: "MODE",
    help: "the read guard: off, warn or refuse (needs --session; default refuse for call, off for apply)",
  },
  gate: {
    kind: "string",
    value: "MODE",
    help:
      "the definition gate on freeform edits: off, warn or refuse (default refuse with --session for call, else off)",
  },
  compass: {
    kind: "string",
    value: "MODE",
    help:
      "route freeform edits of code: off (default here), suggest (a reminder naming the structural tool) or rewrite",
  },
  persona: {
    kind: "string",
    value: "NAME",
    help: "use .graver/personas/NAME.json (edit_strategy.prefer, reminders)",
  },
  events: {
    kind: "boolean",
    help: "print events (compass_routing_decision, graver.commit …) as JSON lines on stderr",
  },
  checkpoints: {
    kind: "boolean",
    help:
      "record each applied edit as a checkpoint in .graver/checkpoints/ (graver undo reverts it; on by default with --session)",
  },
  "no-checkpoints": {
    kind: "boolean",
    help: "record no checkpoints, even with --session",
  },
  "max-checkpoints": {
    kind: "string",
    value: "N",
    help: "keep at most N checkpoints, pruning the oldest past it (default 200)",
  },
};

/**
 * Resolve `--root` against the host cwd to an absolute posix path.
 *
 * @param cwd The current directory (absolute posix).
 * @param root The `--root` value, if any.
 * @returns The absolute path.
 */
export function resolveRoot(cwd: string, root: string | undefined): string {
  if (root === undefined) return cwd;
  if (root.startsWith("/")) return root;
  return resolveHostPath(cwd, root);
}

/**
 * Resolve a host path against the cwd to an absolute posix path, `.` and `..` taken lexically (as a shell's
 * `cd` takes them), empty parts dropped.
 *
 * @param cwd The current directory (absolute posix).
 * @param path The path, relative or absolute.
 * @returns The absolute path.
 */
export function resolveHostPath(cwd: string, path: string): string {
  const parts = path.startsWith("/") ? [] : cwd.split("/").filter(Boolean);
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") parts.pop();
    else parts.push(seg);
  }
  return "/" + parts.join("/");
}

/**
 * Open the workspace at `root` on the host's disk, refusing (`invalid_args`)
 * a root that does not exist or is not a directory: graver never creates it.
 *
 * @param host The runtime.
 * @param root The `--root` value, if any.
 * @param opened `flags`: the command's options (the workspace flags); `matchPool`: the pool its structural
 *   searches parse with; `maxParseBytes`: its parse limit (`--max-parse-size`).
 * @returns The workspace.
 */
export async function openRoot(
  host: CliHost,
  root: string | undefined,
  opened: { flags?: Record<string, string | boolean>; matchPool?: MatchPool; maxParseBytes?: number } = {},
): Promise<Workspace> {
  const { flags = {}, matchPool, maxParseBytes } = opened;
  const path = resolveRoot(host.cwd, root);
  const shown = root ?? path;
  const where = root !== undefined && path !== root ? ` (resolved to "${path}")` : "";
  let isDir: boolean;
  try {
    isDir = (await host.backend.stat(path)).isDirectory();
  } catch (err) {
    const code = errnoCode(err);
    const reason = code === "ENOENT" || code === "ENOTDIR"
      ? "no such directory"
      : `cannot stat it (${err instanceof Error ? err.message : String(err)})`;
    throw new RecoverableError("invalid_args", `Cannot open root "${shown}": ${reason}${where}`, {
      hint: "Pass --root an existing directory (check the spelling); graver never creates the root",
      details: { root: shown, resolved: path },
    });
  }
  if (!isDir) {
    const parent = path.slice(0, path.lastIndexOf("/")) || "/";
    throw new RecoverableError("invalid_args", `Cannot open root "${shown}": it is a file, not a directory`, {
      hint: `Pass --root the directory to work in (e.g. "${parent}") and the file's path in the tool's args`,
      details: { root: shown, resolved: path },
    });
  }
  return await createWorkspace({
    backend: host.backend,
    root: path,
    wasm: host.wasm,
    // One command per process: a cache or a watch of the tree would never serve a second search.
    readCache: false,
    watch: false,
    ...(matchPool ? { matchPool } : {}),
    ...(maxParseBytes !== undefined ? { maxParseBytes } : {}),
    ...workspaceFlags(host, flags),
  });
}

/**
 * The compass options `--compass MODE` and `--persona NAME` ask for; every command that opens a workspace
 * reads them the same way.
 *
 * @param flags Parsed options.
 * @returns `{ compass }`, or nothing when neither flag is given.
 * @throws RecoverableError `invalid_args` for an unknown mode.
 */
export function compassFlagOptions(flags: Record<string, string | boolean>): Partial<WorkspaceOptions> {
  const [mode, persona] = [flags["compass"], flags["persona"]];
  if (mode !== undefined && mode !== "off" && mode !== "suggest" && mode !== "rewrite") {
    throw new RecoverableError("invalid_args", `Cannot use --compass ${JSON.stringify(mode)}`, {
      hint: "Pass --compass off, suggest or rewrite",
      details: { flag: "compass", value: mode },
    });
  }
  if (typeof mode !== "string" && typeof persona !== "string") return {};
  return {
    compass: {
      ...(typeof mode === "string" ? { mode } : {}),
      ...(typeof persona === "string" ? { persona } : {}),
    },
  };
}

/**
 * The workspace option `--max-checkpoints N` asks for.
 *
 * @param flags Parsed flags.
 * @returns `{ maxCheckpoints }`, or nothing when the flag is absent.
 * @throws RecoverableError `invalid_args` when N is not a whole number of at least 1.
 */
export function maxCheckpointsFlag(flags: Record<string, string | boolean>): Partial<WorkspaceOptions> {
  const value = flags["max-checkpoints"];
  if (value === undefined) return {};
  const n = Number(value);
  if (typeof value !== "string" || !/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) {
    throw new RecoverableError("invalid_args", `Cannot use --max-checkpoints ${JSON.stringify(value)}`, {
      hint: "Pass --max-checkpoints N with N a whole number of at least 1 (default 200)",
      details: { flag: "max-checkpoints", value },
    });
  }
  return { maxCheckpoints: n };
}

/** The workspace options `--compass`, `--persona`, `--checkpoints` and `--events` ask for. */
function workspaceFlags(host: CliHost, flags: Record<string, string | boolean>): Partial<WorkspaceOptions> {
  const out: Partial<WorkspaceOptions> = { ...compassFlagOptions(flags), ...maxCheckpointsFlag(flags) };
  // A session is an agent's: undo is on for it unless turned off, as agents expect.
  const session = typeof flags["session"] === "string";
  if (flags["no-checkpoints"] !== true && (flags["checkpoints"] === true || session)) out.checkpoints = true;
  if (flags["events"] === true) {
    out.telemetry = {
      counter() {},
      event: (name, attributes) => host.stderr(JSON.stringify({ event: name, ...attributes }) + "\n"),
    };
  }
  return out;
}
