/**
 * The attacker of the symlink swap race (a child process, so that it runs truly in parallel with graver):
 * in a tight loop it moves a directory aside, puts a symbolic link to an outside directory in its place,
 * removes the link and moves the directory back, until it is killed. Each step may fail when graver
 * re-created the directory meanwhile; the loop repairs that and goes on.
 *
 * `deno run --allow-read --allow-write tests/unit/fs/_symlink_swapper.ts <dir> <outside dir> [pause µs]`
 *
 * The optional pause leaves the directory in place that long between two swaps (default 0: a tight loop).
 *
 * @module
 */
const [victim, outside, pauseArg] = Deno.args;
const pauseMs = Number(pauseArg ?? 0) / 1000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));
if (!victim || !outside) throw new Error("usage: _symlink_swapper.ts <dir> <outside dir>");
const aside = `${victim}.aside`;

function attempt(step: () => void): void {
  try {
    step();
  } catch {
    // raced with graver (or with ourselves); the next step repairs it
  }
}

function isLink(path: string): boolean {
  try {
    return Deno.lstatSync(path).isSymlink;
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

console.log("swapping");
for (;;) {
  // The directory back in place, repairing what the race left (graver may have made the directory anew
  // while it was aside: that one goes, the original comes back).
  attempt(() => isLink(victim) && Deno.removeSync(victim));
  if (exists(aside)) {
    attempt(() => exists(victim) && Deno.removeSync(victim, { recursive: true }));
    attempt(() => Deno.renameSync(aside, victim));
  }
  if (pauseMs > 0) Atomics.wait(sleeper, 0, 0, pauseMs);
  // The swap: the directory aside, a link to the outside in its place.
  attempt(() => !isLink(victim) && !exists(aside) && Deno.renameSync(victim, aside));
  attempt(() => Deno.symlinkSync(outside, victim));
}
