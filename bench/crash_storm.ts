/**
 * Crash storm: does the commit promise hold under SIGKILL, SIGSTOP and a
 * writer outside graver? Not timings: counts, all of which must be 0.
 *
 * 1. Kills through the library: a `deno run` child (tests/unit/fs/_commit_child.ts) commits a
 *    24-file change and is SIGKILLed at a random moment: half after a random number of renames, half
 *    after a random delay once it is about to commit. Then at once a second writer commits another file
 *    and the root is reopened.
 * 2. Kills through the CLI: `bin/graver apply` of a 24-file unified diff, SIGKILLed a random 0–8 ms after
 *    its lock file appears; then the same second writer and reopen.
 * 3. Pause storm: a child is SIGSTOPped at a random moment of its commit, a second writer rewrites all
 *    24 files as if a minute had passed (the paused lease expired), then the child is continued. Half the
 *    children look like holders on another machine (lease and fencing only), half are on this host.
 * 4. A writer outside graver: a process appends numbered lines (one every ~1 ms) to a file while graver rewrites its first
 *    line over and over (edit_file, whose commit checks the bytes it read; stale_base is retried); lines lost.
 *
 * Prints, per part: runs, how many kills or stops landed mid-commit (a journal or torn files before
 * recovery), torn sets after recovery, lost acknowledged updates, leftovers in `.graver/`.
 *
 *   deno run -A bench/crash_storm.ts [--kills 200] [--cli-kills 60] [--pauses 40] [--appends 8000]
 *
 * @module
 */
import { createDiskBackend } from "../src/adapters/deno/mod.ts";
import { BackendFs } from "../src/fs/backend.ts";
import { commitChanges } from "../src/fs/commit.ts";
import { Sandbox } from "../src/fs/sandbox.ts";
import { Stage } from "../src/fs/stage.ts";
import { isRecoverable } from "../src/errors.ts";
import { createWorkspace } from "../src/workspace.ts";
import { machine, result, ROOT } from "./_util.ts";

const CHILD = `${ROOT}tests/unit/fs/_commit_child.ts`;
const GRAVER = `${ROOT}bin/graver`;
const N = 24;

function numberArg(name: string, fallback: number): number {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Number(Deno.args[i + 1]) : fallback;
}

interface Tally {
  runs: number;
  midCommit: number;
  torn: number;
  lostAcknowledged: number;
  leftovers: number;
  writerRefused: number;
}

const tally = (): Tally => ({
  runs: 0,
  midCommit: 0,
  torn: 0,
  lostAcknowledged: 0,
  leftovers: 0,
  writerRefused: 0,
});

async function freshRoot(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "graver-storm-" });
  for (let i = 0; i < N; i++) await Deno.writeTextFile(`${root}/f${i}.txt`, `old ${i}\n`);
  return root;
}

async function tags(root: string): Promise<string[]> {
  const out = new Set<string>();
  for (let i = 0; i < N; i++) out.add((await Deno.readTextFile(`${root}/f${i}.txt`)).split(" ", 1)[0]!);
  return [...out].sort();
}

async function leftovers(root: string): Promise<number> {
  let n = 0;
  try {
    for await (const _ of Deno.readDir(`${root}/.graver`)) n++;
  } catch {
    // absent: nothing left
  }
  return n;
}

/** Commit `files` (path -> text) in this process; true when acknowledged. */
async function write(root: string, files: Record<string, string>, lock = {}): Promise<boolean> {
  const fs = BackendFs.wrap(createDiskBackend());
  const sandbox = new Sandbox(root);
  const stage = new Stage(fs, sandbox);
  for (const [path, text] of Object.entries(files)) await stage.write(path, new TextEncoder().encode(text));
  try {
    await commitChanges({ fs, sandbox }, stage.changes(), { lock: { waitMs: 1_000, ...lock } });
    return true;
  } catch (err) {
    if (isRecoverable(err)) return false;
    throw err;
  }
}

/** After a kill: was it mid-commit, then a second writer and a reopen, then the checks. */
async function afterKill(root: string, t: Tally, acknowledged: boolean): Promise<void> {
  t.runs++;
  const before = await tags(root);
  if (before.length > 1 || (await leftovers(root)) > 0) t.midCommit++;
  if (!(await write(root, { "other.txt": "second writer\n" }))) t.writerRefused++;
  await createWorkspace({ backend: createDiskBackend(), root });
  const after = await tags(root);
  if (after.length !== 1) t.torn++;
  if (acknowledged && after[0] !== "new") t.lostAcknowledged++;
  t.leftovers += await leftovers(root);
}

/** Spawn the child; resolves its stdout lines as they come. */
function spawnChild(root: string, extra: string[]) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CHILD, root, String(N), "new", ...extra],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let out = "";
  const done = child.stdout.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (chunk) => void (out += chunk) }),
  );
  return { child, output: () => out, done };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(output: () => string, text: string): Promise<void> {
  for (let i = 0; i < 2_000 && !output().includes(text); i++) await sleep(1);
}

async function libraryKills(count: number): Promise<Tally> {
  const t = tally();
  for (let run = 0; run < count; run++) {
    const root = await freshRoot();
    const byRenames = run % 2 === 0;
    const extra = byRenames ? ["--kill-after-renames", String(Math.floor(Math.random() * N))] : ["--ready"];
    const { child, output, done } = spawnChild(root, extra);
    if (!byRenames) {
      await waitFor(output, "ready");
      await sleep(Math.random() * 12);
      try {
        child.kill("SIGKILL");
      } catch {
        // already exited
      }
    }
    await child.status;
    await done;
    await afterKill(root, t, output().includes("committed"));
    await Deno.remove(root, { recursive: true });
  }
  return t;
}

function udiff(): string {
  let text = "";
  for (let i = 0; i < N; i++) {
    text += `--- a/f${i}.txt\n+++ b/f${i}.txt\n@@ -1 +1 @@\n-old ${i}\n+new ${i}\n`;
  }
  return text;
}

/** Spin until the lock file appears (the CLI is committing) or `limitMs` passes; then a random 0–8 ms more. */
function spinUntilLocked(root: string, limitMs: number): void {
  const end = performance.now() + limitMs;
  while (performance.now() < end) {
    try {
      Deno.statSync(`${root}/.graver/lock`);
      break;
    } catch {
      // not yet
    }
  }
  const more = performance.now() + Math.random() * 8;
  while (performance.now() < more) {
    // spin: a timer would wake too late on a loaded machine
  }
}

async function runCli(root: string, killAfterMs: number | null): Promise<boolean> {
  const child = new Deno.Command(GRAVER, {
    args: ["apply", "-", "--root", root, "--format", "udiff", "--json"],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(udiff()));
  await writer.close();
  if (killAfterMs !== null) {
    spinUntilLocked(root, killAfterMs);
    try {
      child.kill("SIGKILL");
    } catch {
      // already exited
    }
  }
  const out = await child.output();
  return out.success && new TextDecoder().decode(out.stdout).includes('"ok": true');
}

async function cliKills(count: number): Promise<Tally & { runMs: number }> {
  const t = tally();
  const probe = await freshRoot();
  const start = performance.now();
  const ok = await runCli(probe, null);
  const runMs = performance.now() - start;
  await Deno.remove(probe, { recursive: true });
  if (!ok) throw new Error("the CLI did not apply the 24-file diff");
  for (let run = 0; run < count; run++) {
    const root = await freshRoot();
    const acknowledged = await runCli(root, runMs * 3);
    await afterKill(root, t, acknowledged);
    await Deno.remove(root, { recursive: true });
  }
  return { ...t, runMs };
}

async function pauses(count: number): Promise<Tally & { foreign: number }> {
  const t = tally();
  let foreign = 0;
  for (let run = 0; run < count; run++) {
    const root = await freshRoot();
    const remote = run % 2 === 0;
    if (remote) foreign++;
    const { child, output, done } = spawnChild(root, ["--ready", ...(remote ? ["--foreign-host"] : [])]);
    await waitFor(output, "ready");
    await sleep(Math.random() * 12);
    try {
      child.kill("SIGSTOP");
    } catch {
      // already exited
    }
    t.runs++;
    if ((await tags(root)).length > 1 || (await leftovers(root)) > 0) t.midCommit++;
    const files: Record<string, string> = {};
    for (let i = 0; i < N; i++) files[`f${i}.txt`] = `ack ${i}\n`;
    // As if the pause lasted a minute: the lease of the paused holder has run out.
    const acknowledged = await write(root, files, { now: () => Date.now() + 60_000, waitMs: 300 });
    if (!acknowledged) t.writerRefused++;
    try {
      child.kill("SIGCONT");
    } catch {
      // already exited
    }
    await child.status;
    await done;
    await createWorkspace({ backend: createDiskBackend(), root });
    const after = await tags(root);
    if (after.length !== 1) t.torn++;
    if (acknowledged && after[0] !== "ack") t.lostAcknowledged++;
    if (!acknowledged && output().includes("committed") && after[0] !== "new") t.lostAcknowledged++;
    t.leftovers += await leftovers(root);
    await Deno.remove(root, { recursive: true });
  }
  return { ...t, foreign };
}

async function appender(
  lines: number,
): Promise<{ lines: number; kept: number; edits: number; stale: number }> {
  const root = await Deno.makeTempDir({ prefix: "graver-append-" });
  const file = `${root}/log.txt`;
  await Deno.writeTextFile(file, "header 0\n");
  // Open, append one line, close; about one line per millisecond (a log writer), for `lines` lines.
  const script = `for (let i = 1; i <= ${lines}; i++) {
    Deno.writeTextFileSync(${JSON.stringify(file)}, "line " + i + "\\n", { append: true });
    await new Promise((r) => setTimeout(r, 1));
  }`;
  const shell = new Deno.Command(Deno.execPath(), { args: ["eval", script] }).spawn();
  let running = true;
  void shell.status.then(() => running = false);
  const ws = await createWorkspace({ backend: createDiskBackend(), root });
  let edits = 0;
  let stale = 0;
  const codes = new Set<string>();
  while (running) {
    // No expected_version: the call's own read is the base, so only the commit's check guards the append.
    const r = await ws.call("edit_file", {
      path: "log.txt",
      old_text: `header ${edits}\n`,
      new_text: `header ${edits + 1}\n`,
    });
    if (r.ok) edits++;
    else if (r.error.code === "stale_base") stale++;
    else codes.add(r.error.code);
  }
  const text = await Deno.readTextFile(file);
  const kept = text.split("\n").filter((l) => l.startsWith("line ")).length;
  await Deno.remove(root, { recursive: true });
  if (codes.size > 0) console.log(`appender: edits also failed with ${[...codes].join(", ")}`);
  return { lines, kept, edits, stale };
}

function report(name: string, t: Tally): void {
  console.log(
    `| ${name} | ${t.runs} | ${t.midCommit} | ${t.torn} | ${t.lostAcknowledged} | ${t.leftovers} | ${t.writerRefused} |`,
  );
}

if (import.meta.main) {
  console.log(`# crash storm\n\n${machine()}\n`);
  const lib = await libraryKills(numberArg("--kills", 200));
  const cli = await cliKills(numberArg("--cli-kills", 60));
  const paused = await pauses(numberArg("--pauses", 40));
  console.log(
    "| part | runs | landed mid-commit | torn sets | lost acknowledged updates | leftovers in .graver/ | second writer refused |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- |");
  report("SIGKILL, library", lib);
  report(`SIGKILL, CLI (run ${Math.round(cli.runMs)} ms)`, cli);
  report(`SIGSTOP/SIGCONT (${paused.foreign} of them another host's lease)`, paused);
  const append = await appender(numberArg("--appends", 8_000));
  console.log(
    `\nwriter outside graver: ${append.lines} lines appended while graver made ${append.edits} edits ` +
      `(${append.stale} refused stale_base): ${append.lines - append.kept} lines lost`,
  );
  const bad = [lib, cli, paused].reduce((n, t) => n + t.torn + t.lostAcknowledged + t.leftovers, 0);
  result(
    "crash_storm",
    `${lib.runs + cli.runs} kills, ${paused.runs} pauses: torn + lost + leftovers = ${bad} (goal 0: ${
      bad === 0 ? "met" : "NOT met"
    })`,
  );
  result(
    "crash_storm_appender",
    `${append.lines - append.kept} of ${append.lines} appended lines lost over ${append.edits} edits`,
  );
}
