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
 * assert.equal(t.total("graver.tool.calls", { tool: "write_file" }), 0);
 * ```
 */
export class MemoryTelemetry implements TelemetrySink {
  /** Every event recorded, oldest first. */
  readonly events: { name: string; attributes: Attributes }[] = [];
  /** One series per counter name and attribute set (bounded by distinct attribute sets, not by calls). */
  readonly #series = new Map<string, { name: string; value: number; attributes: Attributes }>();

  /** Add to a counter. */
  counter(name: string, value: number, attributes: Attributes): void {
    const key = `${name}\0${JSON.stringify(Object.entries(attributes).sort(([a], [b]) => a < b ? -1 : 1))}`;
    const series = this.#series.get(key);
    if (series) series.value += value;
    else this.#series.set(key, { name, value, attributes: { ...attributes } });
  }

  /** Record an event. */
  event(name: string, attributes: Attributes): void {
    this.events.push({ name, attributes });
  }

  /**
   * The total of a counter, over all attributes or only where every attribute of `where` matches.
   *
   * @param name Counter name.
   * @param where Attributes the counted values must carry (e.g. `{ tool: "read_file" }`).
   * @returns The sum.
   */
  total(name: string, where: Attributes = {}): number {
    let sum = 0;
    for (const c of this.#series.values()) {
      if (c.name !== name) continue;
      if (Object.entries(where).every(([k, v]) => c.attributes[k] === v)) sum += c.value;
    }
    return sum;
  }
}

/** A sink that drops everything. */
export const NOOP_TELEMETRY: TelemetrySink = {
  counter() {},
  event() {},
};
