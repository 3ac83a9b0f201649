/**
 * A child process for the crash tests and bench/crash_storm.ts: commits one
 * multi-file change to `f0.txt … f<n-1>.txt` under a root through the library
 * (Stage + commitChanges over the Deno disk backend), optionally killing
 * itself with SIGKILL after a chosen number of renames into the tree, or
 * stopping itself (SIGSTOP) right after (or just before) writing its journal;
 * it prints `journal` as it stops.
 *
 *   deno run -A tests/unit/fs/_commit_child.ts ROOT N TAG [--kill-after-renames K] [--stop-after-journal]
 *     [--stop-before-journal] [--foreign-host] [--ready]
 *
 * `--foreign-host` makes the child's lock look like one taken on another
 * machine (no liveness answer): its lock is then a time lease only.
 *
 * Prints `committed` once the commit returned.
 *
 * @module
 */
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";
import { BackendFs } from "../../../src/fs/backend.ts";
import { commitChanges } from "../../../src/fs/commit.ts";
import { Sandbox } from "../../../src/fs/sandbox.ts";
import { Stage } from "../../../src/fs/stage.ts";

const [root, n, tag] = [Deno.args[0]!, Number(Deno.args[1]), Deno.args[2]!];
const flag = (name: string) => Deno.args.indexOf(name);
const killAfter = flag("--kill-after-renames") >= 0
  ? Number(Deno.args[flag("--kill-after-renames") + 1])
  : -1;
const stopAfterJournal = flag("--stop-after-journal") >= 0;
const stopBeforeJournal = flag("--stop-before-journal") >= 0;

const disk = flag("--foreign-host") >= 0
  ? {
    ...createDiskBackend(),
    processIdentity: { pid: Deno.pid, host: "another-machine", started: Date.now(), isAlive: () => null },
  }
  : createDiskBackend();
let renames = 0;
let stopped = false;
const backend = {
  ...disk,
  async rename(from: string, to: string) {
    // Commits write through held directories (`/proc/self/fd/N/name`): files are told apart by their names.
    if (/\/f\d+\.txt$/.test(to) && ++renames > killAfter && killAfter >= 0) Deno.kill(Deno.pid, "SIGKILL");
    if (stopBeforeJournal && !stopped && to.endsWith("/journal.json")) {
      stopped = true;
      console.log("journal");
      Deno.kill(Deno.pid, "SIGSTOP");
    }
    await disk.rename(from, to);
    if (stopAfterJournal && !stopped && to.endsWith("/journal.json")) {
      stopped = true;
      console.log("journal");
      Deno.kill(Deno.pid, "SIGSTOP");
    }
  },
};
const fs = BackendFs.wrap(backend);
const sandbox = new Sandbox(root);
const stage = new Stage(fs, sandbox);
for (let i = 0; i < n; i++) await stage.write(`f${i}.txt`, new TextEncoder().encode(`${tag} ${i}\n`));
if (flag("--ready") >= 0) console.log("ready"); // about to commit: a parent may now kill or stop it at random
await commitChanges({ fs, sandbox }, stage.changes());
console.log("committed");
