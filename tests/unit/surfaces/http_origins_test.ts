import assert from "node:assert/strict";
import { Hono } from "hono";
import { browserOrigins } from "../../../src/surfaces/http_origins.ts";

function app(origins: string[]): Hono {
  return new Hono().use("*", browserOrigins(origins)).post(
    "/v1/tools/read_file",
    (c) => c.json({ ok: true }),
  );
}

Deno.test("browserOrigins() with no origin listed lets in requests without Origin and refuses every browser one", async () => {
  const a = app([]);
  const plain = await a.request("/v1/tools/read_file", { method: "POST" });
  assert.equal(plain.status, 200);
  assert.equal(plain.headers.get("access-control-allow-origin"), null);
  const browser = await a.request("/v1/tools/read_file", {
    method: "POST",
    headers: { origin: "https://page.example" },
  });
  assert.equal(browser.status, 403);
  const body = await browser.json();
  assert.equal(body.error.code, "unauthorized");
  assert.equal(
    body.error.message,
    'Cannot serve a browser request from origin "https://page.example": not an allowed origin',
  );
  assert.match(body.error.hint, /CORS is off/);
});

Deno.test("browserOrigins() answers a listed origin's preflight with graver's headers", async () => {
  const res = await app(["https://ide.example"]).request("/v1/tools/read_file", {
    method: "OPTIONS",
    headers: {
      origin: "https://ide.example",
      "access-control-request-method": "POST",
      "access-control-request-headers": "graver-session, content-type",
    },
  });
  assert.ok(res.status === 204 || res.status === 200, `preflight status ${res.status}`);
  assert.equal(res.headers.get("access-control-allow-origin"), "https://ide.example");
  const allowed = (res.headers.get("access-control-allow-headers") ?? "").toLowerCase();
  for (const h of ["authorization", "content-type", "graver-session", "mcp-session-id", "last-event-id"]) {
    assert.ok(allowed.includes(h), `${h} not allowed: ${allowed}`);
  }
  assert.match(res.headers.get("access-control-allow-methods") ?? "", /POST/);
  assert.equal(res.headers.get("access-control-max-age"), "600");
});

Deno.test("browserOrigins() exposes the session header to a listed origin and refuses the others by name", async () => {
  const a = app(["https://ide.example", "https://other.example"]);
  const ok = await a.request("/v1/tools/read_file", {
    method: "POST",
    headers: { origin: "https://ide.example" },
  });
  assert.equal(ok.status, 200);
  assert.match((ok.headers.get("access-control-expose-headers") ?? "").toLowerCase(), /graver-session/);
  const refused = await a.request("/v1/tools/read_file", {
    method: "POST",
    headers: { origin: "https://evil.example" },
  });
  assert.equal(refused.status, 403);
  assert.equal(
    (await refused.json()).error.hint,
    "Allowed origins: https://ide.example, https://other.example",
  );
});
