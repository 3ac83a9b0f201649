/**
 * Telemetry: `graver.*` counters and events sent to a sink the embedder
 * provides (shaped so an OpenTelemetry meter/logger can back it).
 *
 * @module
 */

/** Attributes on a counter or event. */
export type Attributes = Record<string, string | number | boolean>;

/** Where counters and events go. */
export interface TelemetrySink {
  /** Add `value` to counter `name` (e.g. `graver.tool.calls`). */
  counter(name: string, value: number, attributes: Attributes): void;
  /** Record one event (e.g. `graver.commit`). */
  event(name: string, attributes: Attributes): void;
}

/**
 * A sink that keeps totals in memory; useful for tests and the CLI.
 *
 * @example Count calls
 * ```ts
 * import { MemoryTelemetry } from "@graver/core";
 * import assert from "node:assert/strict";
 *
 * const t = new MemoryTelemetry();
 * t.counter("graver.tool.calls", 1, { tool: "read_file" });
 * t.counter("graver.tool.calls", 1, { tool: "read_file" });
 * assert.equal(t.total("graver.tool.calls"), 2);
 * ```
 */
export class MemoryTelemetry implements TelemetrySink {
  /** Every event recorded, oldest first. */
  readonly events: { name: string; attributes: Attributes }[] = [];
  readonly #counters = new Map<string, number>();

  /** Add to a counter. */
  counter(name: string, value: number, _attributes: Attributes): void {
    this.#counters.set(name, (this.#counters.get(name) ?? 0) + value);
  }

  /** Record an event. */
  event(name: string, attributes: Attributes): void {
    this.events.push({ name, attributes });
  }

  /** The total of a counter over all attributes. */
  total(name: string): number {
    return this.#counters.get(name) ?? 0;
  }
}

/** A sink that drops everything. */
export const NOOP_TELEMETRY: TelemetrySink = {
  counter() {},
  event() {},
};
