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
  /** Closed when the server stops: the stream ends with a `graver.shutdown` event. */
  closing?: EventStreamsClosing;
}

interface Frame {
  event: string;
  data: unknown;
  id?: number;
}

/**
 * One subscriber's queue and state, fed by the hub and drained by the stream's loop. The hub's side only
 * pushes and resolves promises (it runs inside other requests, where workerd allows no I/O on this one and
 * no timers of it); timers and writes stay in the loop.
 */
class SubscriberQueue {
  readonly frames: Frame[] = [];
  live = true;
  /** Whether the subscriber was dropped for being slow. */
  dropped = false;
  #wake = () => {};
  #onDrop = () => {};

  /** Add a frame and wake the writer. */
  push(frame: Frame): void {
    this.frames.push(frame);
    this.#wake();
  }

  /** End the feed with a last frame, dropping what was queued (`slow`: the subscriber did not read). */
  finish(last: Frame, slow = false): void {
    this.live = false;
    this.frames.length = 0;
    if (slow) {
      this.dropped = true;
      this.#onDrop();
    }
    this.push(last);
  }

  /** Stop without a frame (the client went away). */
  stop(): void {
    this.live = false;
    this.frames.length = 0;
    this.#wake();
  }

  /**
   * Wait for a pending write, or for the subscriber to be dropped while it waits (one listener at a time,
   * released after: nothing accumulates over a long stream).
   *
   * @returns True when it was dropped first (or already).
   */
  async droppedDuring(pending: Promise<unknown>): Promise<boolean> {
    if (this.dropped) return true;
    const dropped = new Promise<boolean>((resolve) => this.#onDrop = () => resolve(true));
    try {
      return await Promise.race([pending.then(() => false), dropped]);
    } finally {
      this.#onDrop = () => {};
    }
  }

  /** Resolves on the next push or stop. */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = () => {
        this.#wake = () => {};
        resolve();
      };
    });
  }
}

/** Ends every open event stream when the server stops (a plain listener set: no AbortSignal crosses requests). */
export class EventStreamsClosing {
  readonly #listeners = new Set<() => void>();
  #closed = false;

  /** Whether the server is stopping. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Be told when the server stops.
   *
   * @param listener Called once.
   * @returns Stops listening.
   */
  listen(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The server stops: tell every stream. */
  close(): void {
    this.#closed = true;
    for (const listener of [...this.#listeners]) listener();
    this.#listeners.clear();
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
    const sub = hub.subscribe((e) => {
      if (!queue.live) return;
      if (queue.frames.length < maxQueued) return queue.push({ event: e.name, data: e, id: e.id });
      sub.close();
      queue.finish({
        event: "graver.dropped",
        data: { reason: `too slow: ${maxQueued} events were queued unread`, max_queued: maxQueued },
      }, true);
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
    const unlisten = options.closing?.listen(() => {
      sub.close();
      queue.finish({ event: "graver.shutdown", data: { reason: "the server is stopping" } });
    });
    if (options.closing?.closed) {
      queue.finish({ event: "graver.shutdown", data: { reason: "the server is stopping" } });
    }
    let grace: ReturnType<typeof setTimeout> | undefined;
    // A write to a client that does not read waits for ever: once the subscriber is dropped, the stream
    // gets `graceMs` to take what is pending and its final frame, then it is aborted.
    const write = async (pending: Promise<unknown>): Promise<void> => {
      if (!(await queue.droppedDuring(pending))) return;
      grace ??= setTimeout(() => stream.abort(), graceMs);
      await pending;
    };
    queue.push({ event: "graver.ready", data: { session: session ?? null } });
    try {
      while (!stream.aborted) {
        const frame = queue.frames.shift();
        if (frame) {
          await write(stream.writeSSE({
            event: frame.event,
            data: JSON.stringify(frame.data),
            ...(frame.id !== undefined ? { id: String(frame.id) } : {}),
          }));
          continue;
        }
        if (!queue.live) break;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const quiet = new Promise<boolean>((resolve) =>
          timer = setTimeout(() => resolve(false), KEEP_ALIVE_MS)
        );
        const woken = await Promise.race([queue.next().then(() => true), quiet]);
        clearTimeout(timer);
        if (!woken && !stream.aborted) await write(stream.write(": keep-alive\n\n"));
      }
    } finally {
      unlisten?.();
      clearTimeout(grace);
      sub.close();
      queue.stop();
    }
  });
}
