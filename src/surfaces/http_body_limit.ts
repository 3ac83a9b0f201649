/**
 * The HTTP surface's request-body bounds as one hono middleware: a size
 * limit judged from `Content-Length` before a byte is read (413), the same
 * limit counted on bodies that declare no length (chunked), and a time limit
 * on receiving the whole body (408), so that a client dribbling a body, or
 * declaring a huge one and never sending it, cannot hold a connection.
 * Refusals close the connection (`Connection: close`).
 *
 * @module
 */
import type { Context, MiddlewareHandler } from "hono";
import type { ErrorPayload } from "../errors.ts";

/** Options of {@linkcode bodyLimits}. */
export interface BodyLimitOptions {
  /** Largest request body in bytes; larger ones get 413 `limit_exceeded`. */
  maxBytes: number;
  /** Time to receive a whole body, in ms from the request's start (0: none); beyond it 408 `limit_exceeded`. */
  timeoutMs: number;
}

/** Why a body was refused. */
export type BodyFailure = "too_large" | "too_slow";

/**
 * The error a guarded body's stream fails with when it is refused: a route that reads the body as it arrives
 * (`POST /v1/stream/:tool`) answers {@linkcode bodyRefusalError} of its `failure` itself.
 */
export class BodyRefused extends Error {
  /** Why. */
  readonly failure: BodyFailure;

  /** @param failure Why the body was refused. */
  constructor(failure: BodyFailure) {
    super(`request body refused: ${failure}`);
    this.failure = failure;
  }
}

/**
 * The error of a refused body (`limit_exceeded`, what it was over, what to do).
 *
 * @param failure Why it was refused.
 * @param options The limits.
 * @returns The error object of the answer.
 */
export function bodyRefusalError(
  failure: BodyFailure,
  options: BodyLimitOptions,
): ErrorPayload {
  return failure === "too_large"
    ? {
      code: "limit_exceeded",
      message: `Cannot read the request body: it is larger than ${options.maxBytes} bytes`,
      hint: "Split the work into smaller calls (e.g. several edits instead of one whole-file write)",
      details: { max_body_bytes: options.maxBytes },
    }
    : {
      code: "limit_exceeded",
      message: `Cannot read the request body: it did not arrive within ${options.timeoutMs} ms`,
      hint: "Send the whole body at once, right after the headers; nothing was run or written",
      details: { body_time_limit_ms: options.timeoutMs },
    };
}

/** The JSON error answer of a refused body; the connection is closed after it. */
function refusal(failure: BodyFailure, options: BodyLimitOptions): Response {
  const error = bodyRefusalError(failure, options);
  return new Response(JSON.stringify({ ok: false, error }), {
    status: failure === "too_large" ? 413 : 408,
    headers: { "content-type": "application/json", connection: "close" },
  });
}

/** The length a request declares, or null when it declares none (or a transfer encoding overrides it). */
function declaredLength(request: Request): number | null {
  if (request.headers.has("transfer-encoding")) return null;
  const value = request.headers.get("content-length");
  if (value === null || !/^\s*\d+\s*$/.test(value)) return null;
  return Number(value);
}

/**
 * Read and drop a refused body of a declared length no larger than twice the limit, within the time
 * limit: some servers (workerd) reset a connection whose body was not read, and the client would see that
 * instead of the 413. A larger or slower body is not waited for.
 */
async function drainBriefly(body: ReadableStream<Uint8Array>, options: BodyLimitOptions): Promise<void> {
  if (body.locked) return;
  const reader = body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    if (options.timeoutMs > 0) timer = setTimeout(() => resolve("late"), options.timeoutMs);
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), late]);
      if (next === "late" || next.done) return;
    }
  } catch {
    // The client went away: nothing to drain.
  } finally {
    clearTimeout(timer);
    reader.cancel().catch(() => {});
  }
}

/**
 * The request's body behind a stream that errors (and cancels the client's body) when it grows past the
 * size limit or is not complete by the deadline; `fail` records which.
 */
function guardedBody(
  body: ReadableStream<Uint8Array>,
  options: BodyLimitOptions & { fail(failure: BodyFailure): void },
): { stream: ReadableStream<Uint8Array>; stop(): void } {
  const reader = body.getReader();
  let seen = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const refuse = (failure: BodyFailure) => {
    clearTimeout(timer);
    options.fail(failure);
    try {
      controller.error(new BodyRefused(failure));
    } catch {
      // Already closed or errored.
    }
    reader.cancel().catch(() => {});
  };
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      if (options.timeoutMs > 0) timer = setTimeout(() => refuse("too_slow"), options.timeoutMs);
    },
    async pull(c) {
      try {
        const { value, done } = await reader.read();
        if (done) {
          clearTimeout(timer);
          c.close();
          return;
        }
        seen += value.byteLength;
        if (seen > options.maxBytes) return refuse("too_large");
        c.enqueue(value);
      } catch (err) {
        clearTimeout(timer);
        c.error(err);
      }
    },
    cancel(reason) {
      clearTimeout(timer);
      return reader.cancel(reason);
    },
  });
  return { stream, stop: () => clearTimeout(timer) };
}

/**
 * The request again with its body read through the guard. Built from its parts, not from the request itself:
 * a copy made from a request follows its abort signal, and in Deno 2.9 touching a served request's signal
 * prints a warning (its signal also aborts when a response succeeds) — nothing here needs the signal.
 */
function guardedRequest(request: Request, body: ReadableStream<Uint8Array>): Request {
  const init = { method: request.method, headers: request.headers, body, duplex: "half" };
  return new Request(request.url, init as RequestInit);
}

/**
 * The body bounds as hono middleware: a request declaring more than `maxBytes` is answered 413 at once
 * (its body is not read, but for a short drain of one at most twice the limit); a body without a declared
 * length is counted as it is read; a body not received within `timeoutMs` is answered 408. Either refusal
 * replaces whatever the route answered and closes the connection; nothing has run on a refused body (the
 * route fails reading its arguments).
 *
 * @example A declared length over the limit is refused before the body is read
 * ```ts
 * import { Hono } from "hono";
 * import { bodyLimits } from "./http_body_limit.ts";
 * import assert from "node:assert/strict";
 *
 * const app = new Hono();
 * app.use("*", bodyLimits({ maxBytes: 10, timeoutMs: 1000 }));
 * app.post("/", async (c) => c.text(await c.req.text()));
 * const never = new ReadableStream({ pull() {} }); // a body that never arrives
 * const res = await app.request("/", {
 *   method: "POST",
 *   headers: { "content-length": "100000000" },
 *   body: never,
 *   duplex: "half",
 * } as RequestInit);
 * assert.equal(res.status, 413);
 * assert.equal((await res.json()).error.details.max_body_bytes, 10);
 * ```
 *
 * @param options The size limit and the time limit.
 * @returns The middleware.
 */
export function bodyLimits(options: BodyLimitOptions): MiddlewareHandler {
  return async (c: Context, next) => {
    const body = c.req.raw.body;
    if (!body) return await next();
    const declared = declaredLength(c.req.raw);
    if (declared !== null && declared > options.maxBytes) {
      if (declared <= 2 * options.maxBytes) await drainBriefly(body, options);
      return refusal("too_large", options);
    }
    const refused: { failure?: BodyFailure } = {};
    const guarded = guardedBody(body, { ...options, fail: (f) => refused.failure ??= f });
    c.req.raw = guardedRequest(c.req.raw, guarded.stream);
    try {
      await next();
    } finally {
      guarded.stop();
    }
    if (refused.failure !== undefined) {
      c.res = undefined;
      c.res = refusal(refused.failure, options);
    }
  };
}
