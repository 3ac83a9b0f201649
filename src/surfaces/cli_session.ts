/**
 * `--session ID` and `--guard MODE` for the CLI: a session's read ledger
 * lives in `.graver/sessions/ID.json` under the workspace root (written
 * atomically: a temp file renamed over it), loaded before the call and
 * saved after it. No tool can read or write it: the sandbox refuses every
 * path inside `.graver/`. Two processes of one session at the same time
 * keep the last one's ledger.
 *
 * @module
 */
import { INTERNAL_DIR } from "../fs/sandbox.ts";
import { ignoreInternalDir } from "../fs/internal_dir.ts";
import { errnoCode } from "../fs/backend.ts";
import type { ReadGuardMode } from "../tools/types.ts";
import type { Workspace } from "../workspace.ts";

/** Folder of the session files, relative to the workspace root. */
export const SESSIONS_DIR = `${INTERNAL_DIR}/sessions`;

/** The read guard modes `--guard` takes. */
export const GUARD_MODES: readonly ReadGuardMode[] = ["off", "warn", "refuse"];

/** What a session id may look like: it names a file. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * The problem with a `--session` or `--guard` value, or null when both are fine.
 *
 * @param flags Parsed options (`session`, `guard`).
 * @returns A sentence fragment for a usage error, or null.
 */
export function sessionFlagsProblem(flags: Record<string, string | boolean>): string | null {
  const session = flags["session"];
  if (typeof session === "string" && !SESSION_ID.test(session)) {
    return `session id "${session}" is not valid: use letters, digits, ".", "_" and "-" (at most 128, not starting with "." or "-")`;
  }
  const guard = flags["guard"];
  if (guard !== undefined && !GUARD_MODES.includes(guard as ReadGuardMode)) {
    return `unknown guard mode "${String(guard)}" (use ${GUARD_MODES.join(", ")})`;
  }
  if (guard !== undefined && guard !== "off" && session === undefined) {
    return `option "--guard ${
      String(guard)
    }" needs "--session ID": a one-shot call has no ledger to judge by`;
  }
  const gate = flags["gate"];
  if (gate !== undefined && !GUARD_MODES.includes(gate as ReadGuardMode)) {
    return `unknown gate mode "${String(gate)}" (use ${GUARD_MODES.join(", ")})`;
  }
  return null;
}

/**
 * The workspace path of a session's file.
 *
 * @param id A valid session id.
 * @returns `.graver/sessions/ID.json`.
 */
export function sessionPath(id: string): string {
  return `${SESSIONS_DIR}/${id}.json`;
}

/**
 * Load a session's ledger into the workspace (nothing when it has none yet).
 *
 * @param ws The workspace.
 * @param id Session id.
 * @throws TypeError when the file is not a graver ledger.
 */
export async function loadSession(ws: Workspace, id: string): Promise<void> {
  const bytes = await ws.fs.read(ws.sandbox.abs(sessionPath(id)));
  if (bytes === null) return;
  let data: unknown;
  try {
    data = JSON.parse(new TextDecoder().decode(bytes));
  } catch (cause) {
    throw new TypeError(`Cannot load session "${id}": "${sessionPath(id)}" is not valid JSON`, { cause });
  }
  ws.importSession(id, data);
}

/**
 * Save a session's ledger atomically: write a temp file, rename it over the
 * old one.
 *
 * @param ws The workspace.
 * @param id Session id.
 */
export async function saveSession(ws: Workspace, id: string): Promise<void> {
  const target = ws.sandbox.abs(sessionPath(id));
  const bytes = new TextEncoder().encode(JSON.stringify(ws.exportSession(id)) + "\n");
  const tmp = `${target}.${crypto.randomUUID()}.tmp`;
  for (let attempt = 0;; attempt++) {
    try {
      await ws.fs.write(tmp, bytes);
      await ws.fs.rename(tmp, target, { parentExists: true });
      await ignoreInternalDir(ws.fs, ws.sandbox.abs(INTERNAL_DIR));
      return;
    } catch (err) {
      // A committing process may remove an empty `.graver/` between mkdir and write: try again.
      const code = errnoCode(err);
      if (attempt >= 3 || (code !== "ENOENT" && code !== "ENOTDIR")) {
        await ws.fs.remove(tmp).catch(() => {});
        throw err;
      }
    }
  }
}

/** The per-call options `--session` and `--guard` give. */
export interface SessionCallOptions {
  /** The session id. */
  session?: string;
  /** The read guard's mode for the call. */
  readGuard?: ReadGuardMode;
  /** The definition gate's mode for the call. */
  gate?: ReadGuardMode;
}

/**
 * The dispatch options of `--session` and `--guard`.
 *
 * @param flags Parsed options (checked by {@linkcode sessionFlagsProblem}).
 * @param unguarded The command applies text written for another harness (`graver apply`): the guard is
 *   off unless `--guard` asks for it.
 * @returns Session and read guard options.
 */
export function sessionCallOptions(
  flags: Record<string, string | boolean>,
  unguarded = false,
): SessionCallOptions {
  const out: SessionCallOptions = {};
  if (typeof flags["session"] === "string") out.session = flags["session"];
  const guard = flags["guard"] as ReadGuardMode | undefined;
  if (guard !== undefined) out.readGuard = guard;
  else if (unguarded && out.session !== undefined) out.readGuard = "off";
  const gate = flags["gate"] as ReadGuardMode | undefined;
  if (gate !== undefined) out.gate = gate;
  else if (unguarded && out.session !== undefined) out.gate = "off";
  return out;
}
