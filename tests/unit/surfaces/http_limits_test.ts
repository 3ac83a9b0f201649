import assert from "node:assert/strict";
import {
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_MS,
  DEFAULT_SHUTDOWN_GRACE_MS,
  DEFAULT_TIMEOUT_MS,
  STALL_MARGIN_MS,
} from "../../../src/surfaces/http_limits.ts";

Deno.test("the HTTP surface's default limits hold together", () => {
  // a request's body arrives well within the time a call may take
  assert.ok(DEFAULT_BODY_TIMEOUT_MS < DEFAULT_TIMEOUT_MS);
  // a session outlives many calls; a stalled call is noticed after its limit, not before
  assert.ok(DEFAULT_SESSION_IDLE_MS > 10 * DEFAULT_TIMEOUT_MS);
  assert.ok(STALL_MARGIN_MS > 0 && DEFAULT_SHUTDOWN_GRACE_MS > 0);
  assert.equal(DEFAULT_MAX_BODY_BYTES, 4 * 1024 * 1024);
  assert.ok(Number.isInteger(DEFAULT_MAX_SESSIONS) && DEFAULT_MAX_SESSIONS > 0);
});
