/**
 * The `GET /v1/events` route: server-sent events from an {@linkcode EventHub},
 * one bounded queue per subscriber. Events arrive inside other requests and
 * are only queued there (workerd forbids writing this response from their
 * context); the stream's own loop writes them. A subscriber that does not
 * read (its socket full, its writes pending) lets its queue grow; at
 * `maxQueued` events it is dropped: it leaves the hub, its queue is freed,
 * a final `graver.dropped` event is written if the stream drains within
 * `dropGraceMs`, and the stream ends (it is aborted when it does not drain).
 * When the server stops, every stream ends with `graver.shutdown` (an open
 * stream would otherwise hold the server's shutdown forever).
 *
 * @module
 */
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { EventHub } from "./events.ts";

/** Default most events queued for one subscriber before it is dropped. */
export const DEFAULT_MAX_QUEUED_EVENTS = 1_000;

/** Default time a dropped subscriber's stream has to take its final event before it is aborted. */
export const DEFAULT_DROP_GRACE_MS = 5_000;

/** Seconds of quiet after which a comment line keeps an idle stream open. */
const KEEP_ALIVE_MS = 15_000;

/** Options of {@linkcode streamEvents}. */
export interface EventStreamOptions {
  /** Most events queued unwritten for one subscriber (default {@linkcode DEFAULT_MAX_QUEUED_EVENTS}). */
  maxQueued?: number;
  /** Time a dropped subscriber's stream gets to take its final event (default {@linkcode DEFAULT_DROP_GRACE_MS}). */
  dropGraceMs?: number;
  /** Aborted when the server stops: the stream ends with a `graver.shutdown` event. */
  closing?: AbortSignal;
}

interface Frame {
  event: string;
  data: unknown;
  id?: number;
}

/** One subscriber's queue and state, fed by the hub and drained by the stream's loop. */
class SubscriberQueue {
  readonly frames: Frame[] = [];
  live = true;
  #wake = () => {};

  /** Add a frame and wake the writer. */
  push(frame: Frame): void {
    this.frames.push(frame);
    this.#wake();
  }

  /** End the feed with a last frame, dropping what was queued. */
  finish(last: Frame): void {
    this.live = false;
    this.frames.length = 0;
    this.push(last);
  }

  /** Stop without a frame (the client went away). */
  stop(): void {
    this.live = false;
    this.frames.length = 0;
    this.#wake();
  }

  /** Resolves true when a frame arrives or the feed stops, false after `ms` of quiet. */
  wait(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.#wake = () => {
        clearTimeout(timer);
        this.#wake = () => {};
        resolve(true);
      };
    });
  }
}

/**
 * Answer `GET /v1/events` with a stream of the hub's events (`?session=` keeps one session's).
 *
 * @param c The request's context.
 * @param hub The event feed.
 * @param options The per-subscriber bound.
 * @returns The `text/event-stream` response.
 */
export function streamEvents(c: Context, hub: EventHub, options: EventStreamOptions = {}): Response {
  const maxQueued = options.maxQueued ?? DEFAULT_MAX_QUEUED_EVENTS;
  const graceMs = options.dropGraceMs ?? DEFAULT_DROP_GRACE_MS;
  const session = c.req.query("session");
  return streamSSE(c, async (stream) => {
    const queue = new SubscriberQueue();
    let grace: ReturnType<typeof setTimeout> | undefined;
    const sub = hub.subscribe((e) => {
      if (!queue.live) return;
      if (queue.frames.length < maxQueued) return queue.push({ event: e.name, data: e, id: e.id });
      sub.close();
      queue.finish({
        event: "graver.dropped",
        data: { reason: `too slow: ${maxQueued} events were queued unread`, max_queued: maxQueued },
      });
      grace = setTimeout(() => stream.abort(), graceMs);
    }, {
      ...(session !== undefined ? { session } : {}),
      onEvicted: () =>
        queue.finish({
          event: "graver.evicted",
          data: { reason: "too many subscribers: this one was the oldest" },
        }),
    });
    stream.onAbort(() => {
      sub.close();
      queue.stop();
    });
    const shutdown = () => {
      sub.close();
      queue.finish({ event: "graver.shutdown", data: { reason: "the server is stopping" } });
    };
    if (options.closing?.aborted) shutdown();
    options.closing?.addEventListener("abort", shutdown);
    queue.push({ event: "graver.ready", data: { session: session ?? null } });
    try {
      while (!stream.aborted) {
        const frame = queue.frames.shift();
        if (frame) {
          await stream.writeSSE({
            event: frame.event,
            data: JSON.stringify(frame.data),
            ...(frame.id !== undefined ? { id: String(frame.id) } : {}),
          });
          continue;
        }
        if (!queue.live) break;
        const woken = await queue.wait(KEEP_ALIVE_MS);
        if (!woken && !stream.aborted) await stream.write(": keep-alive\n\n");
      }
    } finally {
      options.closing?.removeEventListener("abort", shutdown);
      clearTimeout(grace);
      sub.close();
      queue.stop();
    }
  });
}
