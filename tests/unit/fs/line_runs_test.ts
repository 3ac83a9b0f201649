/**
 * The runs of lines that differ (`line_runs.ts`): the shortest script while it is small, the window diff past
 * it — each a valid diff (the lines outside the runs equal and in order on both sides), checked on random
 * texts and on a text whose every line changed.
 */
import assert from "node:assert/strict";
import { differingRuns, linesOf, type Run, WINDOW, windowRuns } from "../../../src/fs/line_runs.ts";

const enc = (s: string) => new TextEncoder().encode(s);

/** The lines of `text` (without their "\n"). */
function split(text: string): string[] {
  const out = text.split("\n");
  if (out.at(-1) === "") out.pop();
  return out;
}

/** Whether the runs are a valid diff of `a` into `b`: in order, and every line outside them equal on both sides. */
function valid(runs: readonly Run[], a: string[], b: string[]): boolean {
  let [i, j] = [0, 0];
  for (const [a0, b0, a1, b1] of runs) {
    if (a0 < i || b0 < j || a1 < a0 || b1 < b0 || a0 - i !== b0 - j) return false;
    for (; i < a0; i++, j++) if (a[i] !== b[j]) return false;
    [i, j] = [a1, b1];
  }
  if (a.length - i !== b.length - j) return false;
  for (; i < a.length; i++, j++) if (a[i] !== b[j]) return false;
  return true;
}

Deno.test("differingRuns: the shortest script for a few edits, a valid window diff for many", () => {
  const a = "a\nb\nc\nd\n";
  assert.deepEqual(differingRuns(linesOf(enc(a)), linesOf(enc("a\nB\nc\nd\nE\n")), 10), [[1, 1, 2, 2], [
    4,
    4,
    4,
    5,
  ]]);
  const many = Array.from({ length: 5_000 }, (_, i) => `console.log(${i % 3});`);
  const before = many.join("\n") + "\n";
  const after = many.map((l) => l.replace("console.", "")).join("\n") + "\n";
  const runs = differingRuns(linesOf(enc(before)), linesOf(enc(after)), 100);
  assert.ok(valid(runs, split(before), split(after)));
  assert.ok(runs.length >= 5_000 / WINDOW, `${runs.length} runs`);
  assert.ok(runs.every(([a0, b0, a1, b1]) => a1 - a0 <= WINDOW && b1 - b0 <= WINDOW));
});

Deno.test("windowRuns is a valid diff of random texts: inserts, deletes, changes, repeated lines", () => {
  let seed = 11;
  const random = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
  for (let round = 0; round < 200; round++) {
    const a = Array.from({ length: random(300) }, () => `l${random(6)}`);
    const b = a.slice();
    for (let e = 0; e < random(80); e++) {
      const at = random(b.length + 1);
      const op = random(3);
      if (op === 0) b.splice(at, 0, `n${random(4)}`);
      else if (op === 1) b.splice(at, 1 + random(40));
      else b[Math.min(at, b.length - 1)] = `c${random(3)}`;
    }
    const text = (ls: string[]) => ls.map((l) => l + "\n").join("");
    const runs = windowRuns(linesOf(enc(text(a))), linesOf(enc(text(b))));
    assert.ok(valid(runs, a, b), `round ${round}`);
  }
});
