/**
 * The Host allow-list as one hono middleware: a request whose `Host` header
 * is not one of the server's own addresses is refused (403 `unauthorized`),
 * so that a web page on a name that resolves to a loopback address (DNS
 * rebinding) cannot reach a local server.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { errorResponse } from "./http_errors.ts";

/**
 * Refuse every request whose Host is not in the list (compared without case).
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * import { hostAllowList } from "./http_hosts.ts";
 * import assert from "node:assert/strict";
 *
 * const app = new Hono().use("*", hostAllowList(["127.0.0.1:8787"])).get("/", (c) => c.text("hi"));
 * assert.equal((await app.request("http://127.0.0.1:8787/")).status, 200);
 * assert.equal((await app.request("http://evil.example/")).status, 403);
 * ```
 *
 * @param allowed Host header values accepted (e.g. `["127.0.0.1:8787", "localhost:8787"]`).
 * @returns The middleware.
 */
export function hostAllowList(allowed: readonly string[]): MiddlewareHandler {
  const hosts = new Set(allowed.map((h) => h.toLowerCase()));
  return async (c, next) => {
    const host = (c.req.header("host") ?? new URL(c.req.url).host).toLowerCase();
    if (!hosts.has(host)) {
      return errorResponse(c, {
        status: 403,
        code: "unauthorized",
        message: `Cannot serve host "${host.slice(0, 100)}": not an allowed Host`,
        hint: `Call the server by one of its addresses: ${[...hosts].join(", ")}`,
      });
    }
    await next();
  };
}
