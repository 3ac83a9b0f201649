/**
 * `.graver/` stays out of the user's git: after checkpointed edits in a real repository, `git status` lists
 * only the edited file, and the user's own `.gitignore` is untouched.
 */
import assert from "node:assert/strict";
import { createWorkspace } from "../../../src/mod.ts";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";
import { saveSession } from "../../../src/surfaces/cli_session.ts";

async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

Deno.test("checkpoints and a saved session leave git status showing only the edited file", async () => {
  const root = await Deno.makeTempDir({ prefix: "graver-gitignore-" });
  await Deno.writeTextFile(`${root}/a.ts`, "export const a = 1;\n");
  await Deno.writeTextFile(`${root}/.gitignore`, "dist/\n");
  await git(root, "init", "-q");
  await git(root, "add", "-A");
  await git(root, "commit", "-q", "-m", "init");
  const ws = await createWorkspace({ backend: createDiskBackend(), root, checkpoints: true });
  for (const n of [2, 3]) {
    const r = await ws.call("edit_file", { path: "a.ts", old_string: `= ${n - 1}`, new_string: `= ${n}` });
    assert.ok(r.ok && r.status === "applied", JSON.stringify(r));
  }
  await saveSession(ws, "agent-1");
  assert.ok((await Deno.stat(`${root}/.graver/checkpoints`)).isDirectory, "checkpoints were kept");
  assert.equal(await git(root, "status", "--porcelain"), " M a.ts\n");
  assert.equal(
    await Deno.readTextFile(`${root}/.gitignore`),
    "dist/\n",
    "the user's .gitignore is untouched",
  );
  await git(root, "add", "-A");
  assert.equal(
    await git(root, "diff", "--cached", "--name-only"),
    "a.ts\n",
    "git add -A takes nothing of .graver/",
  );
  await Deno.remove(root, { recursive: true });
});
