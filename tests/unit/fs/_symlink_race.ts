/**
 * The symlink swap race on a real disk: `write_file` calls into `root/src/` while a child process
 * (`_symlink_swapper.ts`) swaps `src` for a symbolic link to a directory outside the root and back. Shared by
 * `links_race_test.ts` (a bounded count) and `bench/symlink_race.ts` (the storm).
 *
 * @module
 */
import { createDiskBackend, createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createWorkspace } from "../../../src/mod.ts";

/** What a race run did. */
export interface RaceOutcome {
  /** `write_file` calls answered `applied`. */
  applied: number;
  /** Calls refused (any error code), by code. */
  refused: Record<string, number>;
  /** Files that landed in the outside directory: writes that escaped the root. */
  escaped: number;
}

const SWAPPER = new URL("./_symlink_swapper.ts", import.meta.url).pathname;

/** Put `src` back as a directory once the swapper is gone. */
async function restore(victim: string): Promise<void> {
  const aside = `${victim}.aside`;
  const link = await Deno.lstat(victim).then((s) => s.isSymlink, () => false);
  if (link) await Deno.remove(victim);
  if (await Deno.lstat(aside).then(() => true, () => false)) {
    await Deno.remove(victim, { recursive: true }).catch(() => {});
    await Deno.rename(aside, victim);
  }
}

/**
 * Run `writes` `write_file` calls into `src/` while a child process swaps `src` for a link to an outside
 * directory, then count where the files landed.
 *
 * @param writes How many `write_file` calls.
 * @param options `pauseMicros`: how long the swapper leaves the directory in place between swaps (default 0).
 * @returns Applied, refused (by code) and escaped counts.
 */
export async function symlinkRace(
  writes: number,
  options: { pauseMicros?: number } = {},
): Promise<RaceOutcome> {
  const dir = await Deno.makeTempDir({ prefix: "graver-race-" });
  const root = `${dir}/root`;
  const outside = `${dir}/outside`;
  await Deno.mkdir(`${root}/src`, { recursive: true });
  await Deno.mkdir(outside);
  const ws = await createWorkspace({ backend: createDiskBackend(), root, wasm: createWasmLoader() });
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      SWAPPER,
      `${root}/src`,
      outside,
      String(options.pauseMicros ?? 0),
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const outcome: RaceOutcome = { applied: 0, refused: {}, escaped: 0 };
  try {
    // Start writing only once the swapper runs.
    const reader = child.stdout.getReader();
    await reader.read();
    reader.releaseLock();
    for (let i = 0; i < writes; i++) {
      const r = await ws.call("write_file", { path: `src/f${i}.txt`, content: `write ${i}\n` });
      if (r.ok) outcome.applied++;
      else outcome.refused[r.error.code] = (outcome.refused[r.error.code] ?? 0) + 1;
    }
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await child.stdout.cancel().catch(() => {});
    await restore(`${root}/src`);
    for await (const _ of Deno.readDir(outside)) outcome.escaped++;
    await Deno.remove(dir, { recursive: true });
  }
  return outcome;
}
