/** What a walk depended on: stamps noted, a stamp that cannot be trusted, the oldest change count. */
import assert from "node:assert/strict";
import { WalkRecord } from "../../../src/project/walk_record.ts";

Deno.test("WalkRecord: notes stamps and the oldest change count; an untrusted stamp makes it unusable", () => {
  const record = new WalkRecord();
  record.note("/w", "d:1:2:3:4", 7);
  record.note("/w/.gitignore", "f:5:6:7:8", 5);
  assert.deepEqual([...record.stamps.keys()], ["/w", "/w/.gitignore"]);
  assert.deepEqual([record.usable, record.seen], [true, 5]);
  record.note("/w/new", null, 9);
  assert.deepEqual([record.usable, record.seen], [false, 5]);
  assert.equal(record.stamps.has("/w/new"), false);
});
