/**
 * The `Graver-Session` request header as one hono middleware: a well-formed
 * id names the call's session (and `Graver-Session-Persist` asks to keep its
 * ledger), no header makes a fresh one-shot session, and a malformed one is
 * refused (400 `invalid_args`). Every answer after it carries the id back
 * in `Graver-Session`; the route reads the session with `c.get("graverSession")`.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { errorResponse } from "./http_errors.ts";
import { type CallSession, SESSION_HEADER, sessionOf } from "./http_sessions.ts";

declare module "hono" {
  interface ContextVariableMap {
    /** The call's session, from {@linkcode sessionHeader}. */
    graverSession: CallSession;
  }
}

/**
 * Read the call's session from its header, answer it back, and hand it to the route.
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * import { sessionHeader } from "./http_session_header.ts";
 * import assert from "node:assert/strict";
 *
 * const app = new Hono().post("/call", sessionHeader(), (c) => c.json(c.get("graverSession")));
 * const res = await app.request("/call", { method: "POST", headers: { "graver-session": "agent-1" } });
 * assert.equal(res.headers.get("graver-session"), "agent-1");
 * assert.deepEqual(await res.json(), { id: "agent-1", named: true, persist: false });
 * ```
 *
 * @returns The middleware.
 */
export function sessionHeader(): MiddlewareHandler {
  return async (c, next) => {
    const session = sessionOf(c.req.raw.headers);
    if (!session) {
      return errorResponse(c, {
        status: 400,
        code: "invalid_args",
        message: `Cannot use session "${
          (c.req.header(SESSION_HEADER) ?? "").slice(0, 40)
        }": a ${SESSION_HEADER} is 1-128 of A-Z a-z 0-9 . _ : -`,
        hint: `Send a valid ${SESSION_HEADER} header, or none to have one made`,
      });
    }
    c.header(SESSION_HEADER, session.id);
    c.set("graverSession", session);
    await next();
  };
}
