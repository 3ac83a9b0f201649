import assert from "node:assert/strict";
import { Hono } from "hono";
import { sessionHeader } from "../../../src/surfaces/http_session_header.ts";
import { errorResponse } from "../../../src/surfaces/http_errors.ts";

function app(): Hono {
  return new Hono()
    .post("/v1/tools/:name", sessionHeader(), (c) => c.json(c.get("graverSession")))
    .post(
      "/refuse",
      sessionHeader(),
      (c) =>
        errorResponse(c, { status: 415, code: "invalid_args", message: "Cannot read", hint: "Send JSON" }),
    );
}

Deno.test("sessionHeader() makes a fresh one-shot session when the request names none, and answers its id", async () => {
  const res = await app().request("/v1/tools/read_file", { method: "POST" });
  const session = await res.json();
  assert.equal(session.named, false);
  assert.equal(session.persist, false);
  assert.match(session.id, /^[0-9a-f-]{36}$/);
  assert.equal(res.headers.get("graver-session"), session.id);
});

Deno.test("sessionHeader() takes a named session, and its ask to persist", async () => {
  const named = await app().request("/v1/tools/read_file", {
    method: "POST",
    headers: { "graver-session": "agent-1:run.2_x" },
  });
  assert.deepEqual(await named.json(), { id: "agent-1:run.2_x", named: true, persist: false });
  assert.equal(named.headers.get("graver-session"), "agent-1:run.2_x");
  const kept = await app().request("/v1/tools/read_file", {
    method: "POST",
    headers: { "graver-session": "agent-1", "graver-session-persist": "true" },
  });
  assert.equal((await kept.json()).persist, true);
});

Deno.test("sessionHeader() refuses a malformed id with 400 invalid_args saying what an id is", async () => {
  const res = await app().request("/v1/tools/read_file", {
    method: "POST",
    headers: { "graver-session": "has spaces/and slashes" },
  });
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.equal(body.error.code, "invalid_args");
  assert.equal(
    body.error.message,
    'Cannot use session "has spaces/and slashes": a Graver-Session is 1-128 of A-Z a-z 0-9 . _ : -',
  );
  assert.equal(body.error.hint, "Send a valid Graver-Session header, or none to have one made");
  assert.equal(res.headers.get("graver-session"), null);
});

Deno.test("sessionHeader() answers the id on a refusal made after it too", async () => {
  const res = await app().request("/refuse", { method: "POST", headers: { "graver-session": "agent-7" } });
  assert.equal(res.status, 415);
  assert.equal(res.headers.get("graver-session"), "agent-7");
});
