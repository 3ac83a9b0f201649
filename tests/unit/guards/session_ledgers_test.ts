/** The ledgers of a workspace's sessions: one per session id, exported and imported whole. */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { SessionLedgers } from "../../../src/guards/session_ledgers.ts";
import { textLines } from "../../../src/fs/lines.ts";

/** A real source file: jsdiff's base.js (253 lines). */
const SOURCE = await Deno.readTextFile(
  fileURLToPath(
    new URL("../../../node_modules/.deno/diff@9.0.0/node_modules/diff/libesm/diff/base.js", import.meta.url),
  ),
);
const V1 = { version: "v1", lines: textLines(SOURCE) };

Deno.test("SessionLedgers: each session has its own ledger, created on first use and kept", () => {
  const ledgers = new SessionLedgers();
  assert.equal(ledgers.has("agent-1"), false);
  assert.equal(ledgers.size, 0);
  const first = ledgers.get("agent-1");
  first.recordRead("base.js", V1, { start: 1, end: 40 });
  assert.equal(ledgers.get("agent-1"), first, "the same ledger on the next call");
  assert.deepEqual(ledgers.get("agent-1").view("base.js").seen, [{ start: 1, end: 40 }]);
  assert.equal(ledgers.get("agent-2").view("base.js").state, "never_read", "another session saw nothing");
  assert.equal(ledgers.size, 2);
});

Deno.test("SessionLedgers: has() and export() of an unknown session create nothing that was read", () => {
  const ledgers = new SessionLedgers();
  assert.equal(ledgers.has("nobody"), false);
  assert.equal(ledgers.size, 0, "has() does not create a ledger");
  const data = ledgers.export("nobody");
  assert.deepEqual(
    JSON.parse(JSON.stringify(data)),
    JSON.parse(JSON.stringify(ledgers.get("fresh").toJSON())),
  );
});

Deno.test("SessionLedgers: a session exported as JSON and imported elsewhere keeps what it saw; delete forgets it", () => {
  const a = new SessionLedgers();
  a.get("agent").recordRead("base.js", V1, { start: 150, end: 200 });
  a.get("agent").recordOutline("base.js", V1);
  const data = JSON.parse(JSON.stringify(a.export("agent")));

  const b = new SessionLedgers();
  b.get("agent").recordRead("other.js", { version: "x", lines: ["a"] }, { start: 1, end: 1 });
  b.import("agent", data); // replaces what b's session had
  assert.deepEqual(b.get("agent").view("base.js").seen, [{ start: 150, end: 200 }]);
  assert.equal(b.get("agent").view("other.js").state, "never_read", "import replaces the ledger whole");

  b.delete("agent");
  assert.equal(b.has("agent"), false);
  assert.equal(b.get("agent").view("base.js").state, "never_read");
});
