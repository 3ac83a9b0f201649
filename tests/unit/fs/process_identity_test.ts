import assert from "node:assert/strict";
import { webProcessIdentity } from "../../../src/fs/process_identity.ts";

Deno.test("webProcessIdentity() is one realm's identity: no pid, a random host, no liveness answer", () => {
  const a = webProcessIdentity();
  const b = webProcessIdentity();
  assert.equal(a.pid, null);
  // it never claims to know whether a process lives, not even this one
  assert.equal(a.isAlive(Deno.pid), null);
  // the same realm answers the same every time, and its host name is no real host's
  assert.equal(a.host, b.host);
  assert.equal(a.started, b.started);
  assert.notEqual(a.host, Deno.hostname());
});
