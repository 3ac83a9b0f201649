/**
 * One implementation per language family behind one interface: where a
 * refactor's code for a family walks syntax trees (so it cannot live in the
 * profile, which holds facts only), each family's implementation is an object
 * that names its family, and {@linkcode strategyFor} picks the one a
 * profile's family field names (`profile.flow.family`,
 * `profile.moduleSystem.name`). An engine asks the strategy instead of
 * comparing a language name; a new family adds an implementation to the
 * concern's list.
 *
 * @module
 */

/** An implementation of one concern for one language family. */
export interface FamilyStrategy {
  /** The family it serves, as the profile names it (`"ecmascript"`, a module system's name). */
  readonly family: string;
}

/**
 * The implementation of a concern for a family.
 *
 * @param strategies The concern's implementations, one per family.
 * @param family The family the profile names.
 * @returns The one serving that family.
 * @throws Error when no implementation serves it: a profile claims a refactor its family has no code for.
 *
 * @example
 * ```ts
 * import { strategyFor } from "./family_strategies.ts";
 * import assert from "node:assert/strict";
 *
 * const quoting = [{ family: "a", quote: "'" }, { family: "b", quote: '"' }];
 * assert.equal(strategyFor(quoting, "b").quote, '"');
 * assert.throws(() => strategyFor(quoting, "c"));
 * ```
 */
export function strategyFor<T extends FamilyStrategy>(strategies: readonly T[], family: string): T {
  const found = strategies.find((s) => s.family === family);
  if (!found) {
    throw new Error(`no implementation for the ${family} family among ${strategies.map((s) => s.family)}`);
  }
  return found;
}
