/** Shared parts of the compatibility aliases (tools with `forward`). @module */
import type { HandlerResult } from "./types.ts";

/**
 * The handler of a compatibility alias: never run, since dispatch replaces the
 * alias by the call its `forward` returns before any handler runs.
 *
 * @param name The alias.
 * @returns A handler that rejects with a TypeError naming the mistake.
 */
export function forwardedOnly(name: string): () => Promise<HandlerResult> {
  return () =>
    Promise.reject(
      new TypeError(`${name} is a compatibility alias: call it through dispatch, which forwards it`),
    );
}
