import assert from "node:assert/strict";
import { TextDoc } from "../../../src/text/_doc.ts";
import { closestWindow, compactDiff } from "../../../src/text/did_you_mean.ts";

const TEXT = await Deno.readTextFile(new URL("../../fixtures/text/idb-keyval.ts", import.meta.url));
const LINES = TEXT.split("\n");

Deno.test("closestWindow() finds the drifted lines with their real line numbers", () => {
  const search = LINES.slice(53, 58).map((l) =>
    l.replace("readwrite", "readonly").replace("req.result", "req.value")
  );
  const w = closestWindow(new TextDoc(TEXT), search);
  assert.ok(w);
  assert.equal(w.start_line, 54);
  assert.equal(w.end_line, 58);
  assert.ok(w.similarity > 0.8 && w.similarity < 1);
  assert.match(w.diff, /^- {3}\| {3}return store\._withIDBStore\('readonly'/m);
  assert.match(w.diff, /^\+56 \| {3}return store\._withIDBStore\('readwrite'/m);
});

Deno.test("closestWindow() finds a window through shared identifiers when no line is equal", () => {
  const search = [
    "  _close(): Promise<void> {",
    "    this._init()",
    "    return this._dbp.then((db) => db.close())",
  ];
  const w = closestWindow(new TextDoc(TEXT), search);
  assert.ok(w);
  assert.equal(w.start_line, 38);
});

Deno.test("closestWindow() returns null when nothing is similar", () => {
  assert.equal(closestWindow(new TextDoc(TEXT), ["qqqq zzzz wwww", "vvvv kkkk"]), null);
});

Deno.test("compactDiff() marks SEARCH-only and file-only lines and numbers file lines", () => {
  assert.equal(
    compactDiff(["a", "b", "c"], ["a", "B", "c"], { firstLine: 10 }),
    " 10 | a\n-   | b\n+11 | B\n 12 | c",
  );
});
