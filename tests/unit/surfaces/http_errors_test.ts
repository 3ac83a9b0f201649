import assert from "node:assert/strict";
import { Hono } from "hono";
import { RecoverableError } from "../../../src/errors.ts";
import { answerError, errorResponse, routeNotFound } from "../../../src/surfaces/http_errors.ts";

/** An app whose routes throw what the test asks, with graver's error and not-found handlers. */
function appThrowing(thrown: () => unknown): Hono {
  const app = new Hono();
  app.onError(answerError);
  app.notFound(routeNotFound);
  app.get("/throw", () => {
    throw thrown();
  });
  app.get("/refuse", (c) => {
    c.header("X-Kept", "yes");
    return errorResponse(c, { status: 409, code: "stale_base", message: "Cannot edit", hint: "Read again" });
  });
  return app;
}

Deno.test("answerError() answers a thrown refusal with its own body and the status of its code", async () => {
  const err = new RecoverableError("stale_base", 'Cannot edit "a.ts": it changed', {
    hint: "Call read_file",
    details: { path: "a.ts" },
  });
  const res = await appThrowing(() => err).request("/throw");
  assert.equal(res.status, 409);
  assert.deepEqual(await res.json(), { ok: false, error: err.toJSON() });
});

Deno.test("answerError() gives limit_exceeded 504 at a time limit and 503 while calls are stuck", async () => {
  const timeLimit = new RecoverableError("limit_exceeded", "Cannot answer: too slow", { hint: "Split it" });
  assert.equal((await appThrowing(() => timeLimit).request("/throw")).status, 504);
  const stuck = new RecoverableError("limit_exceeded", "Cannot run: a call is stuck", {
    hint: "Wait",
    details: { stuck_calls: [{ tool: "write_file" }] },
  });
  assert.equal((await appThrowing(() => stuck).request("/throw")).status, 503);
});

Deno.test("answerError() answers anything else 500 internal, naming the route and saying nothing was written", async () => {
  const res = await appThrowing(() => new TypeError("x is undefined")).request("/throw?q=1");
  assert.equal(res.status, 500);
  const body = await res.json();
  assert.equal(body.ok, false);
  assert.equal(body.error.code, "internal");
  assert.equal(body.error.message, "Cannot answer GET /throw: x is undefined");
  assert.match(body.error.hint, /nothing was written/);
});

Deno.test("routeNotFound() answers 404 not_found with the routes there are", async () => {
  const res = await appThrowing(() => null).request("/v2/nothing", { method: "DELETE" });
  assert.equal(res.status, 404);
  const body = await res.json();
  assert.equal(body.error.code, "not_found");
  assert.equal(body.error.message, "Cannot DELETE /v2/nothing: no such route");
  assert.match(body.error.hint, /POST \/v1\/tools\/:name/);
});

Deno.test("errorResponse() keeps the headers set on the context before it", async () => {
  const res = await appThrowing(() => null).request("/refuse");
  assert.equal(res.status, 409);
  assert.equal(res.headers.get("x-kept"), "yes");
  assert.deepEqual(await res.json(), {
    ok: false,
    error: { code: "stale_base", message: "Cannot edit", hint: "Read again" },
  });
});
