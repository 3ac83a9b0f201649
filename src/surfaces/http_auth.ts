/**
 * The bearer token as one hono middleware: every route but the open ones
 * (health) needs `Authorization: Bearer <token>`, compared in constant time;
 * a missing or wrong one is 401 `unauthorized` with `WWW-Authenticate`.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { errorResponse } from "./http_errors.ts";

/**
 * Require the bearer token on every path but the open ones.
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * import { bearerToken } from "./http_auth.ts";
 * import assert from "node:assert/strict";
 *
 * const app = new Hono().use("*", bearerToken("s3cret-token-0123456789", { open: ["/health"] }))
 *   .get("/health", (c) => c.text("up")).get("/data", (c) => c.text("data"));
 * assert.equal((await app.request("/health")).status, 200);
 * assert.equal((await app.request("/data")).status, 401);
 * const res = await app.request("/data", { headers: { authorization: "Bearer s3cret-token-0123456789" } });
 * assert.equal(res.status, 200);
 * ```
 *
 * @param token The token the server was started with.
 * @param options `open`: paths that need no token.
 * @returns The middleware.
 */
export function bearerToken(token: string, options: { open?: readonly string[] } = {}): MiddlewareHandler {
  const expected = `Bearer ${token}`;
  const open = new Set(options.open ?? []);
  return async (c, next) => {
    if (open.has(c.req.path)) return await next();
    const got = c.req.header("authorization") ?? "";
    if (!(await sameSecret(got, expected))) {
      c.header("WWW-Authenticate", 'Bearer realm="graver"');
      return errorResponse(c, {
        status: 401,
        code: "unauthorized",
        message: got === ""
          ? "Cannot serve the request: no Authorization header"
          : "Cannot serve the request: wrong bearer token",
        hint: "Send the header Authorization: Bearer <token> with the token the server was started with",
      });
    }
    await next();
  };
}

/** Constant-time comparison of two strings (through their SHA-256 digests). */
async function sameSecret(a: string, b: string): Promise<boolean> {
  const enc = new TextEncoder();
  const [x, y] = await Promise.all([
    crypto.subtle.digest("SHA-256", enc.encode(a)),
    crypto.subtle.digest("SHA-256", enc.encode(b)),
  ]);
  const u = new Uint8Array(x);
  const v = new Uint8Array(y);
  let diff = 0;
  for (let i = 0; i < u.length; i++) diff |= u[i]! ^ v[i]!;
  return diff === 0;
}
