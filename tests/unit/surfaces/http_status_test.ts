import assert from "node:assert/strict";
import { HTTP_STATUS, httpStatusOf } from "../../../src/surfaces/http_status.ts";

Deno.test("HTTP_STATUS maps every wire code to an error status; unknown codes are 500", () => {
  for (const [code, status] of Object.entries(HTTP_STATUS)) {
    assert.ok(status >= 400 && status < 600, code);
  }
  assert.equal(httpStatusOf("sandbox_violation"), 403);
  assert.equal(httpStatusOf("unauthorized"), 401);
  assert.equal(httpStatusOf("internal"), 500);
  assert.equal(httpStatusOf("some_future_code"), 500);
});
