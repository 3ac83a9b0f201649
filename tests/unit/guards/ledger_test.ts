import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Ledger } from "../../../src/guards/ledger.ts";
import { textLines } from "../../../src/fs/lines.ts";

/** A real source file: jsdiff's base.js (253 lines). */
const SOURCE = await Deno.readTextFile(
  fileURLToPath(
    new URL("../../../node_modules/.deno/diff@9.0.0/node_modules/diff/libesm/diff/base.js", import.meta.url),
  ),
);
const LINES = textLines(SOURCE);
const V1 = { version: "v1", lines: LINES };

Deno.test("Ledger: reads add up into merged ranges; the whole file is fully_read", () => {
  const l = new Ledger();
  assert.equal(l.view("base.js").state, "never_read");
  l.recordRead("base.js", V1, { start: 1, end: 100 });
  l.recordRead("base.js", V1, { start: 101, end: 200 });
  l.recordRead("base.js", V1, { start: 150, end: 160 });
  assert.deepEqual(l.view("base.js").seen, [{ start: 1, end: 200 }]);
  assert.equal(l.view("base.js").state, "partial_read");
  l.recordRead("base.js", V1, { start: 190, end: 9999 }); // clipped to the file
  assert.deepEqual(l.view("base.js").seen, [{ start: 1, end: LINES.length }]);
  assert.equal(l.view("base.js").state, "fully_read");
  assert.equal(l.view("base.js", "v2").state, "stale", "another version is stale");
});

Deno.test("Ledger: an unrelated change outside the session keeps what was seen, shifted; changed lines drop out", () => {
  const l = new Ledger();
  l.recordRead("base.js", V1, { start: 1, end: 40 });
  l.recordRead("base.js", V1, { start: 180, end: 200 });
  // Someone else adds a 3-line comment at line 100 and rewrites line 190.
  const changed = [...LINES.slice(0, 99), "// a", "// b", "// c", ...LINES.slice(99)];
  changed[189 + 3 - 1] = "    /* rewritten */";
  assert.equal(l.reconcile("base.js", { version: "v2", lines: changed }), true);
  const view = l.view("base.js");
  assert.equal(view.state, "stale");
  assert.deepEqual(view.seen, [{ start: 1, end: 40 }, { start: 183, end: 191 }, { start: 193, end: 203 }]);
  // Reading again clears staleness; the ranges stay.
  l.recordRead("base.js", { version: "v2", lines: changed }, { start: 41, end: 50 });
  assert.equal(l.view("base.js").state, "partial_read");
  assert.deepEqual(l.view("base.js").seen[0], { start: 1, end: 50 });
});

Deno.test("Ledger: the session's own writes: created is model_authored, an edit adds the lines it wrote", () => {
  const l = new Ledger();
  l.recordWrite("new.js", null, { version: "n1", lines: ["a", "b"] });
  assert.equal(l.view("new.js").state, "model_authored");
  l.recordRead("base.js", V1, { start: 1, end: 10 });
  const after = [...LINES.slice(0, 49), "// inserted by the session", ...LINES.slice(49)];
  l.recordWrite("base.js", V1, { version: "v2", lines: after });
  assert.deepEqual(l.view("base.js").seen, [{ start: 1, end: 10 }, { start: 50, end: 50 }]);
  assert.equal(l.view("base.js").version, "v2");
  // Someone else changes a model-authored file: it is stale and no longer the session's own.
  l.reconcile("new.js", { version: "n2", lines: ["a", "B"] });
  assert.equal(l.view("new.js").state, "stale");
  assert.deepEqual(l.view("new.js").seen, [{ start: 1, end: 1 }]);
  l.recordWrite("base.js", V1, null);
  assert.equal(l.view("base.js").state, "never_read", "a deletion forgets the file");
});

Deno.test("Ledger: seen but evicted stays seen; reading again clears the eviction", () => {
  const l = new Ledger();
  l.recordRead("base.js", V1, { start: 1, end: 60 });
  l.markEvicted();
  assert.deepEqual(l.view("base.js").evicted, [{ start: 1, end: 60 }]);
  assert.deepEqual(l.view("base.js").seen, [{ start: 1, end: 60 }]);
  l.recordRead("base.js", V1, { start: 11, end: 20 });
  assert.deepEqual(l.view("base.js").evicted, [{ start: 1, end: 10 }, { start: 21, end: 60 }]);
});

Deno.test("Ledger: serialisation round trip keeps every state, and a restored ledger still remaps", () => {
  const l = new Ledger();
  l.tick();
  l.recordRead("base.js", V1, { start: 5, end: 30 });
  l.recordOutline("base.js", V1);
  l.recordExpanded("base.js", V1, { start: 90, end: 95 });
  l.recordWrite("mine.ts", null, { version: "m1", lines: ["export {};"] });
  l.markEvicted(["base.js"]);
  const data = JSON.parse(JSON.stringify(l.toJSON()));
  assert.equal(data.format, "graver.ledger/1");
  const back = Ledger.from(data);
  assert.deepEqual(back.toJSON(), l.toJSON());
  assert.equal(back.calls, 1);
  assert.deepEqual(back.view("base.js"), l.view("base.js"));
  assert.equal(back.view("mine.ts").state, "model_authored");
  back.reconcile("base.js", { version: "v2", lines: ["// top", ...LINES] });
  assert.deepEqual(back.view("base.js").seen, [{ start: 6, end: 31 }, { start: 91, end: 96 }]);
  assert.throws(() => Ledger.from({ files: {} }), TypeError);
});
