/**
 * Browser origins as one hono middleware: a request that carries an `Origin`
 * not in the server's list is refused (403 `unauthorized`), so that a web
 * page cannot drive a local server; the listed origins get CORS answers
 * (preflights, the allowed and exposed headers graver's clients use). With
 * no origin listed, CORS is off and every browser request is refused.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { errorResponse } from "./http_errors.ts";
import { PERSIST_HEADER, SESSION_HEADER } from "./http_sessions.ts";

/**
 * Refuse browser requests from other origins; answer CORS for the listed ones.
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * import { browserOrigins } from "./http_origins.ts";
 * import assert from "node:assert/strict";
 *
 * const app = new Hono().use("*", browserOrigins(["https://ide.example"])).get("/", (c) => c.text("hi"));
 * const ok = await app.request("/", { headers: { origin: "https://ide.example" } });
 * assert.equal(ok.headers.get("access-control-allow-origin"), "https://ide.example");
 * assert.equal((await app.request("/", { headers: { origin: "https://evil.example" } })).status, 403);
 * assert.equal((await app.request("/")).status, 200); // not a browser request
 * ```
 *
 * @param origins Origins allowed to call from a browser (none: CORS off, every browser request refused).
 * @returns The middleware.
 */
export function browserOrigins(origins: readonly string[]): MiddlewareHandler {
  const answerCors = origins.length > 0 ? corsFor(origins) : null;
  return async (c, next) => {
    const origin = c.req.header("origin");
    if (origin !== undefined && !origins.includes(origin)) {
      return errorResponse(c, {
        status: 403,
        code: "unauthorized",
        message: `Cannot serve a browser request from origin "${
          origin.slice(0, 100)
        }": not an allowed origin`,
        hint: origins.length === 0
          ? "CORS is off: start the server with the origins allowed to call it (corsOrigins / --cors)"
          : `Allowed origins: ${origins.join(", ")}`,
      });
    }
    if (answerCors) return await answerCors(c, next);
    await next();
  };
}

/** hono's CORS middleware with the headers graver's clients send and read (sessions, MCP, event replay). */
function corsFor(origins: readonly string[]): MiddlewareHandler {
  return cors({
    origin: [...origins],
    allowHeaders: [
      "Authorization",
      "Content-Type",
      SESSION_HEADER,
      PERSIST_HEADER,
      "Mcp-Session-Id",
      "Mcp-Protocol-Version",
      "Last-Event-ID",
    ],
    allowMethods: ["GET", "POST", "DELETE", "OPTIONS"],
    exposeHeaders: [SESSION_HEADER, "Mcp-Session-Id"],
    maxAge: 600,
  });
}
