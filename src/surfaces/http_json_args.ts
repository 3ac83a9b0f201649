/**
 * A tool call's arguments as one hono middleware: the body must be declared
 * `application/json` (415 `invalid_args` otherwise) and parse as JSON (400
 * `invalid_args`); an empty body is `{}`. The route reads the arguments with
 * `c.get("graverArgs")`; what they must hold is the tool's schema's business,
 * judged by dispatch.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { errorResponse } from "./http_errors.ts";

declare module "hono" {
  interface ContextVariableMap {
    /** The call's arguments, from {@linkcode jsonArgs}. */
    graverArgs: unknown;
  }
}

/**
 * Read a request's JSON body as a tool's arguments and hand them to the route.
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * import { jsonArgs } from "./http_json_args.ts";
 * import assert from "node:assert/strict";
 *
 * const app = new Hono().post("/call", jsonArgs(), (c) => c.json({ got: c.get("graverArgs") }));
 * const post = (body: string, type = "application/json") =>
 *   app.request("/call", { method: "POST", headers: { "content-type": type }, body });
 * assert.deepEqual(await (await post('{"path":"a.txt"}')).json(), { got: { path: "a.txt" } });
 * assert.deepEqual(await (await post("")).json(), { got: {} });
 * assert.equal((await post("{oops")).status, 400);
 * assert.equal((await post("{}", "text/plain")).status, 415);
 * ```
 *
 * @returns The middleware.
 */
export function jsonArgs(): MiddlewareHandler {
  return async (c, next) => {
    const type = c.req.header("content-type") ?? "";
    if (!/^application\/json\b/i.test(type)) {
      return errorResponse(c, {
        status: 415,
        code: "invalid_args",
        message: `Cannot read the arguments: Content-Type is "${type.slice(0, 60)}", not application/json`,
        hint: "Send the tool's args as one JSON object with Content-Type: application/json",
      });
    }
    const text = await c.req.text();
    let args: unknown = {};
    if (text.trim() !== "") {
      try {
        args = JSON.parse(text);
      } catch (err) {
        return errorResponse(c, {
          status: 400,
          code: "invalid_args",
          message: `Cannot read the arguments: not valid JSON (${
            err instanceof Error ? err.message : String(err)
          })`,
          hint: "Send the tool's args as one JSON object",
        });
      }
    }
    c.set("graverArgs", args);
    await next();
  };
}
