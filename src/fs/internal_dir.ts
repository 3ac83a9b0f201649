/**
 * graver's own folder, `.graver/`, stays out of the user's version control: when graver keeps something
 * there for longer than a commit (checkpoints, saved sessions), it writes `.graver/.gitignore` holding `*`,
 * as test runners and linters do for their caches, so `git status` does not list it and `git add -A` does
 * not commit it. The user's own `.gitignore` is never touched.
 *
 * @module
 */
import type { BackendFs } from "./backend.ts";

/** What `.gitignore` inside `.graver/` holds: everything there, itself included, is ignored. */
export const INTERNAL_GITIGNORE =
  "# graver's working folder (checkpoints, sessions): not part of the project\n*\n";

/**
 * Write `.graver/.gitignore` when `.graver/` is a folder without one. Idempotent; a failure to write it is
 * not the caller's failure (the data it kept is still there), so it is swallowed.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { BackendFs, createMemoryBackend } from "./mod.ts";
 * import { ignoreInternalDir } from "./internal_dir.ts";
 *
 * const fs = BackendFs.wrap(createMemoryBackend({ "/w/.graver/checkpoints/HEAD": "ref" }));
 * await ignoreInternalDir(fs, "/w/.graver");
 * assert.match(new TextDecoder().decode((await fs.read("/w/.graver/.gitignore"))!), /^\*$/m);
 * ```
 *
 * @param fs Wrapped backend.
 * @param dir Backend path of the root's `.graver/` (`sandbox.abs(INTERNAL_DIR)`).
 */
export async function ignoreInternalDir(fs: BackendFs, dir: string): Promise<void> {
  try {
    if ((await fs.kind(dir)) !== "dir" || (await fs.kind(`${dir}/.gitignore`)) !== null) return;
    await fs.write(`${dir}/.gitignore`, new TextEncoder().encode(INTERNAL_GITIGNORE), { parentExists: true });
  } catch {
    // A committer may have removed an empty `.graver/` meanwhile, or the root is read-only: nothing kept.
  }
}
