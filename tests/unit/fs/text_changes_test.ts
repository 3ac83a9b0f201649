import assert from "node:assert/strict";
import { changedRuns, changedSpan, lineHunks } from "../../../src/fs/text_changes.ts";

/** Apply runs (old coordinates, in order) to `before`. */
function applyRuns(before: string, after: string, runs: ReturnType<typeof changedRuns>): string {
  let out = "";
  let at = 0;
  for (const r of runs) {
    out += before.slice(at, r.oldStart) + after.slice(r.newStart, r.newEnd);
    at = r.oldEnd;
  }
  return out + before.slice(at);
}

const SOURCE = await Deno.readTextFile(new URL("../../../src/fs/stage.ts", import.meta.url));

Deno.test("changedRuns() gives one short run per changed line of a rename, and they rebuild the new text", () => {
  const after = SOURCE.replaceAll(/\bpath\b/g, "where");
  const runs = changedRuns(SOURCE, after);
  // One run per group of consecutive changed lines.
  const changed = SOURCE.split("\n").map((l) => /\bpath\b/.test(l));
  assert.equal(runs.length, changed.filter((c, i) => c && !changed[i - 1]).length);
  assert.ok(runs.length > 10);
  assert.equal(applyRuns(SOURCE, after, runs), after);
  for (const r of runs) {
    assert.match(SOURCE.slice(r.oldStart, r.oldEnd), /^path\b[^]*\bpath$|^path$/);
    const lineStart = SOURCE.lastIndexOf("\n", r.oldStart - 1) + 1;
    assert.equal(r.column, r.oldStart - lineStart);
    assert.equal(r.row, SOURCE.slice(0, r.oldStart).split("\n").length - 1);
    // The same column on the same line of the new text.
    assert.equal(after.lastIndexOf("\n", r.newStart - 1) + 1 + r.column, r.newStart);
  }
});

Deno.test("changedRuns() rebuilds the new text when lines are added, removed and changed", () => {
  const lines = SOURCE.split("\n");
  const edits: [string, (l: string[]) => void][] = [
    ["insert at the top", (l) => l.unshift("// first")],
    ["insert at the end", (l) => l.push("tail")],
    ["remove three", (l) => l.splice(40, 3)],
    ["change and insert", (l) => {
      l[10] = l[10] + " // changed";
      l.splice(100, 0, "a", "b");
    }],
    ["remove everything", (l) => l.splice(0, l.length)],
  ];
  for (const [what, edit] of edits) {
    const copy = lines.slice();
    edit(copy);
    const after = copy.join("\n");
    assert.equal(applyRuns(SOURCE, after, changedRuns(SOURCE, after)), after, what);
  }
  assert.deepEqual(changedRuns("same", "same"), []);
  assert.deepEqual(changedRuns("", "x\ny"), [{
    oldStart: 0,
    oldEnd: 0,
    newStart: 0,
    newEnd: 3,
    row: 0,
    column: 0,
  }]);
});

Deno.test("lineHunks() counts changed rows apart, with rows 0-based", () => {
  assert.deepEqual(lineHunks("a\nb\nc\n", "a\nB\nc\nd\n"), [
    { beforeStart: 1, removed: 1, afterStart: 1, added: 1 },
    { beforeStart: 3, removed: 0, afterStart: 3, added: 1 },
  ]);
  assert.deepEqual(lineHunks("a\nb\nc", "a\nc"), [{ beforeStart: 1, removed: 1, afterStart: 1, added: 0 }]);
  assert.deepEqual(lineHunks("x", "x"), []);
  // A method removed at the end: its own rows (and the empty row after the last line break), not the blank
  // line above it.
  const store = "class S:\n    def a(self):\n        return 1\n\n    def b(self):\n        return 2\n";
  assert.deepEqual(lineHunks(store, store.replace("\n    def b(self):\n        return 2\n", "")), [
    { beforeStart: 4, removed: 3, afterStart: 4, added: 0 },
  ]);
  // A last line that gains its line break gains an empty row after it.
  assert.deepEqual(lineHunks("a\nc", "a\nc\n"), [{ beforeStart: 2, removed: 0, afterStart: 2, added: 1 }]);
  assert.deepEqual(changedSpan("abcdef", "abXYef"), { start: 2, oldEnd: 4, newEnd: 4 });
});
