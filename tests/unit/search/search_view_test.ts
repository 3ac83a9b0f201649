import assert from "node:assert/strict";
import { Sandbox } from "../../../src/fs/sandbox.ts";
import type { WalkEntry } from "../../../src/fs/walk.ts";
import type { Listing } from "../../../src/project/project_view.ts";
import { GrowingView, isHiddenPath, searchViewOf } from "../../../src/search/search_view.ts";

const ENTRIES: WalkEntry[] = [
  { rel: ".config/c.ts", real: ".config/c.ts", kind: "file" },
  { rel: "a.ts", real: "a.ts", kind: "file" },
  { rel: "lib/x.ts", real: "real/x.ts", kind: "file" },
  { rel: "src/.env", real: "src/.env", kind: "file" },
  { rel: "src/b.ts", real: "src/b.ts", kind: "file" },
];

function listingOf(entries: WalkEntry[]): Listing {
  return {
    entries,
    files: entries.map((e) => e.real),
    truncated: false,
    limit: Infinity,
    ignored: 2,
    skipped: { outside_root: 0, special_file: 0, unreadable: 0 },
    unreadable: [],
  };
}

for (const hidden of [false, true]) {
  Deno.test(`GrowingView: grown run by run, it is the whole listing's view, and remembered as it (hidden: ${hidden})`, () => {
    const sandbox = new Sandbox("/w");
    const walked: WalkEntry[] = [];
    const grown = new GrowingView({ hidden, sandbox });
    for (const e of ENTRIES) {
      walked.push(e);
      grown.take(walked);
      grown.take(walked); // taking again adds nothing
    }
    const listing = listingOf(walked);
    grown.end(listing);
    const whole = searchViewOf(listingOf([...ENTRIES]), { hidden, sandbox });
    assert.deepEqual(grown.view, whole);
    assert.equal(grown.taken, ENTRIES.length);
    assert.equal(grown.view.hidden, hidden ? 0 : 2);
    assert.deepEqual(
      grown.view.abs,
      hidden
        ? ["/w/.config/c.ts", "/w/a.ts", "/w/real/x.ts", "/w/src/.env", "/w/src/b.ts"]
        : ["/w/a.ts", "/w/real/x.ts", "/w/src/b.ts"],
    );
    // The listing's view from now on is the grown one (a warm search builds no names again).
    assert.equal(searchViewOf(listing, { hidden, sandbox }), grown.view);
  });
}

Deno.test("searchViewOf: one view per listing and hidden flag", () => {
  const sandbox = new Sandbox("/w");
  const listing = listingOf(ENTRIES);
  const shown = searchViewOf(listing, { hidden: false, sandbox });
  assert.equal(searchViewOf(listing, { hidden: false, sandbox }), shown);
  assert.deepEqual(shown.files.map((f) => f.path), ["a.ts", "lib/x.ts", "src/b.ts"]);
  assert.equal(shown.index.get("lib/x.ts"), 1);
  assert.equal(shown.reals[1], "real/x.ts");
  assert.equal(searchViewOf(listing, { hidden: true, sandbox }).files.length, 5);
  assert.ok(isHiddenPath(".config/c.ts") && !isHiddenPath("a.ts"));
});
