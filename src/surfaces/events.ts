/**
 * The event feed of the served surfaces: a telemetry sink that hands each
 * `graver.*` event (commits, refusals, routing and guard decisions) to live
 * subscribers — the HTTP API's `GET /v1/events` stream and each MCP
 * session's logging notifications. Events carry names, counts, codes and
 * session ids, never file contents: {@linkcode publicAttributes} drops the
 * attributes that could hold them.
 *
 * @module
 */
import type { Attributes, TelemetrySink } from "../telemetry.ts";

/** One event as the feed delivers it. */
export interface FeedEvent {
  /** Increasing per hub, from 1 (the SSE `id`). */
  id: number;
  /** The telemetry event name, e.g. `graver.commit`, `graver.refusal`. */
  name: string;
  /** The session the event belongs to, when the pipeline knows it. */
  session?: string;
  /** Its attributes, contents removed (see {@linkcode publicAttributes}). */
  attributes: Attributes;
  /** When the hub received it (ms since the epoch). */
  time: number;
}

/** Options of {@linkcode EventHub}. */
export interface EventHubOptions {
  /** A sink that also receives every counter and event, unchanged (e.g. an OpenTelemetry bridge). */
  forward?: TelemetrySink;
  /** Most live subscribers at once (default 64); one more replaces the oldest, which is told to stop. */
  maxSubscribers?: number;
}

/** Attribute names that may carry file contents or arguments: never published. */
const CONTENT_KEYS = new Set([
  "content",
  "text",
  "new_text",
  "old_text",
  "code",
  "diff",
  "body",
  "search",
  "replace",
  "args",
  "before",
  "after",
]);

/** Attribute names kept even though they look like content (`code` of a refusal is an error code). */
const CODE_EVENTS = new Set(["graver.refusal"]);

/** Longest string attribute published; longer ones are cut (a message may quote a line). */
const MAX_STRING = 200;

/**
 * The attributes of an event that may leave the process: drops the ones
 * named like contents (`content`, `new_text`, `diff`, ...; an error `code`
 * is kept on `graver.refusal`) and cuts strings to 200 characters.
 *
 * @example Contents never leave
 * ```ts
 * import { publicAttributes } from "./events.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(
 *   publicAttributes("graver.route", { tool: "edit_file", new_text: "secret", files: 1 }),
 *   { tool: "edit_file", files: 1 },
 * );
 * assert.deepEqual(publicAttributes("graver.refusal", { code: "stale_base" }), { code: "stale_base" });
 * ```
 *
 * @param name The event name.
 * @param attributes Its attributes.
 * @returns The publishable copy.
 */
export function publicAttributes(name: string, attributes: Attributes): Attributes {
  const out: Attributes = {};
  for (const [k, v] of Object.entries(attributes)) {
    if (CONTENT_KEYS.has(k) && !(k === "code" && CODE_EVENTS.has(name))) continue;
    out[k] = typeof v === "string" && v.length > MAX_STRING ? `${v.slice(0, MAX_STRING)}…` : v;
  }
  return out;
}

/** A live subscription; call `close()` to stop it. */
export interface Subscription {
  /** Stop receiving events. */
  close(): void;
}

interface Subscriber {
  session: string | undefined;
  deliver(event: FeedEvent): void;
  evicted(): void;
}

/**
 * A telemetry sink that publishes events to live subscribers. Give it to
 * `createWorkspace({ telemetry })` and to the surfaces that serve that
 * workspace.
 *
 * @example Subscribe to one session's events
 * ```ts
 * import { createMemoryBackend, createWorkspace } from "@graver/core";
 * import { EventHub } from "./events.ts";
 * import assert from "node:assert/strict";
 *
 * const hub = new EventHub();
 * const ws = await createWorkspace({ backend: createMemoryBackend(), telemetry: hub });
 * const seen: string[] = [];
 * const sub = hub.subscribe((e) => seen.push(`${e.name} ${e.attributes["code"] ?? ""}`), { session: "s1" });
 * await ws.call("read_file", { path: "missing.txt" }, { session: "s1" });
 * await ws.call("read_file", { path: "missing.txt" }, { session: "s2" });
 * sub.close();
 * assert.deepEqual(seen, ["graver.refusal not_found"]);
 * ```
 */
export class EventHub implements TelemetrySink {
  readonly #forward: TelemetrySink | undefined;
  readonly #max: number;
  readonly #subscribers = new Set<Subscriber>();
  #nextId = 1;

  /**
   * Make an event hub.
   *
   * @param options A sink to forward to, and the subscriber bound.
   */
  constructor(options: EventHubOptions = {}) {
    this.#forward = options.forward;
    this.#max = options.maxSubscribers ?? 64;
  }

  /** Forward a counter (counters are not published). */
  counter(name: string, value: number, attributes: Attributes): void {
    this.#forward?.counter(name, value, attributes);
  }

  /** Publish an event to the subscribers (and forward it). */
  event(name: string, attributes: Attributes): void {
    this.#forward?.event(name, attributes);
    if (this.#subscribers.size === 0) return;
    const attrs = publicAttributes(name, attributes);
    const session = typeof attributes["session"] === "string" ? attributes["session"] : undefined;
    const event: FeedEvent = { id: this.#nextId++, name, attributes: attrs, time: Date.now() };
    if (session !== undefined) event.session = session;
    for (const s of [...this.#subscribers]) {
      if (s.session !== undefined && s.session !== session) continue;
      try {
        s.deliver(event);
      } catch {
        // A subscriber that throws must not break the call that emitted the event.
      }
    }
  }

  /** How many subscribers are live. */
  get subscribers(): number {
    return this.#subscribers.size;
  }

  /**
   * Receive events as they happen.
   *
   * @param deliver Called with each event (synchronously, inside the call that emitted it: keep it short).
   * @param options `session`: only that session's events; `onEvicted`: called when a newer subscriber
   *   replaced this one (the hub holds at most `maxSubscribers`).
   * @returns The subscription.
   */
  subscribe(
    deliver: (event: FeedEvent) => void,
    options: { session?: string; onEvicted?: () => void } = {},
  ): Subscription {
    if (this.#subscribers.size >= this.#max) {
      const oldest = this.#subscribers.values().next().value!;
      this.#subscribers.delete(oldest);
      oldest.evicted();
    }
    const sub: Subscriber = { session: options.session, deliver, evicted: options.onEvicted ?? (() => {}) };
    this.#subscribers.add(sub);
    return { close: () => this.#subscribers.delete(sub) };
  }
}
