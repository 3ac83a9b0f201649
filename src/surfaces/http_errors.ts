/**
 * The HTTP surface's error answers: every error that is not a tool's own
 * answer is JSON `{ ok: false, error: { code, message, hint } }` with a code
 * of the one vocabulary, and its status. One hono error handler maps a
 * thrown refusal to its status (and anything else to 500 `internal`); one
 * not-found handler names the routes there are.
 *
 * @module
 */
import type { Context } from "hono";
import { type ErrorCode, isRecoverable } from "../errors.ts";
import { httpStatusOf } from "./http_status.ts";

/** An error answer: its status, and the code, message and hint of its body. */
export interface HttpError {
  /** The HTTP status. */
  status: number;
  /** A code of the one vocabulary. */
  code: ErrorCode;
  /** What went wrong, and where. */
  message: string;
  /** What to do next. */
  hint: string;
}

/**
 * The JSON answer of an error that is not a tool's answer.
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * import { errorResponse } from "./http_errors.ts";
 * import assert from "node:assert/strict";
 *
 * const app = new Hono().get("/", (c) =>
 *   errorResponse(c, { status: 418, code: "invalid_args", message: "Cannot brew", hint: "Ask for coffee" }));
 * const res = await app.request("/");
 * assert.equal(res.status, 418);
 * assert.deepEqual(await res.json(), {
 *   ok: false,
 *   error: { code: "invalid_args", message: "Cannot brew", hint: "Ask for coffee" },
 * });
 * ```
 *
 * @param c The request's context (headers set on it are kept).
 * @param error The status, code, message and hint.
 * @returns The response.
 */
export function errorResponse(c: Context, error: HttpError): Response {
  const { status, code, message, hint } = error;
  return c.json({ ok: false, error: { code, message, hint } }, status as 400);
}

/**
 * The app's error handler (`app.onError`): a refusal thrown on the way answers with its own body and the
 * status of its code (`limit_exceeded`: 503 while calls are stuck, 504 at the time limit); anything else is a
 * bug, 500 `internal`, naming the route.
 *
 * @param err What was thrown.
 * @param c The request's context.
 * @returns The response.
 */
export function answerError(err: Error, c: Context): Response {
  if (isRecoverable(err)) {
    const status = err.code !== "limit_exceeded"
      ? httpStatusOf(err.code)
      : err.details?.["stuck_calls"] !== undefined
      ? 503
      : 504;
    return c.json({ ok: false, error: err.toJSON() }, status as 400);
  }
  return errorResponse(c, {
    status: 500,
    code: "internal",
    message: `Cannot answer ${c.req.method} ${new URL(c.req.url).pathname}: ${
      err instanceof Error ? err.message : String(err)
    }`,
    hint: "This is a bug in graver; nothing was written by this request. Report it with the route called",
  });
}

/**
 * The app's not-found handler (`app.notFound`): 404 `not_found`, naming the routes there are.
 *
 * @param c The request's context.
 * @returns The response.
 */
export function routeNotFound(c: Context): Response {
  return errorResponse(c, {
    status: 404,
    code: "not_found",
    message: `Cannot ${c.req.method} ${new URL(c.req.url).pathname}: no such route`,
    hint:
      "Routes: GET /v1/health, GET /v1/tools, POST /v1/tools/:name, POST /v1/stream/:tool, GET /v1/events, /mcp",
  });
}
