import assert from "node:assert/strict";
import { Hono } from "hono";
import { hostAllowList } from "../../../src/surfaces/http_hosts.ts";

function app(hosts: string[]): Hono {
  return new Hono().use("*", hostAllowList(hosts)).get("/v1/health", (c) => c.json({ ok: true }));
}

Deno.test("hostAllowList() lets in the listed Host, without regard to case", async () => {
  const a = app(["127.0.0.1:8787", "LocalHost:8787"]);
  assert.equal((await a.request("http://127.0.0.1:8787/v1/health")).status, 200);
  assert.equal((await a.request("http://localhost:8787/v1/health")).status, 200);
  const byHeader = await a.request("http://127.0.0.1:8787/v1/health", {
    headers: { host: "LOCALHOST:8787" },
  });
  assert.equal(byHeader.status, 200);
});

Deno.test("hostAllowList() refuses another Host (DNS rebinding) with 403 unauthorized naming the addresses", async () => {
  const res = await app(["127.0.0.1:8787"]).request("http://127.0.0.1:8787/v1/health", {
    headers: { host: "rebound.example:8787" },
  });
  assert.equal(res.status, 403);
  const body = await res.json();
  assert.equal(body.error.code, "unauthorized");
  assert.equal(body.error.message, 'Cannot serve host "rebound.example:8787": not an allowed Host');
  assert.equal(body.error.hint, "Call the server by one of its addresses: 127.0.0.1:8787");
});

Deno.test("hostAllowList() quotes at most 100 characters of a refused Host", async () => {
  const host = "h".repeat(300) + ".example";
  const res = await app(["127.0.0.1:8787"]).request(`http://${host}/v1/health`);
  assert.equal(res.status, 403);
  assert.ok((await res.json()).error.message.includes(`"${"h".repeat(100)}"`));
});
