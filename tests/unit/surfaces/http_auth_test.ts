import assert from "node:assert/strict";
import { Hono } from "hono";
import { bearerToken } from "../../../src/surfaces/http_auth.ts";

const TOKEN = "unit-test-token-0123456789";

function app(): Hono {
  return new Hono().use("*", bearerToken(TOKEN, { open: ["/v1/health"] }))
    .get("/v1/health", (c) => c.json({ ok: true }))
    .get("/v1/tools", (c) => c.json({ tools: [] }));
}

Deno.test("bearerToken() leaves the open paths open", async () => {
  assert.equal((await app().request("/v1/health")).status, 200);
});

Deno.test("bearerToken() refuses a request with no Authorization header: 401 with WWW-Authenticate", async () => {
  const res = await app().request("/v1/tools");
  assert.equal(res.status, 401);
  assert.equal(res.headers.get("www-authenticate"), 'Bearer realm="graver"');
  const body = await res.json();
  assert.equal(body.error.code, "unauthorized");
  assert.equal(body.error.message, "Cannot serve the request: no Authorization header");
  assert.match(body.error.hint, /Authorization: Bearer <token>/);
});

Deno.test("bearerToken() refuses a wrong token, a token of another scheme and a prefix of the right one", async () => {
  for (const authorization of [`Bearer ${TOKEN}x`, `Basic ${TOKEN}`, `Bearer ${TOKEN.slice(0, 10)}`, TOKEN]) {
    const res = await app().request("/v1/tools", { headers: { authorization } });
    assert.equal(res.status, 401, authorization);
    assert.equal((await res.json()).error.message, "Cannot serve the request: wrong bearer token");
  }
});

Deno.test("bearerToken() lets in the right token", async () => {
  const res = await app().request("/v1/tools", { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { tools: [] });
});
