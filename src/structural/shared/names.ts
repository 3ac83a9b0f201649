/**
 * Which names a rename may give: the identifier syntax and the reserved words
 * of the language's profile. Private to `src/structural/`.
 *
 * @module
 */
import { profileOf } from "../../languages/profiles.ts";

/**
 * Whether `name` is an identifier of the language that is not a reserved word (ECMAScript rules for the
 * TypeScript family and any language without its own list).
 *
 * @param language Language id.
 * @param name The candidate name.
 * @returns True when a declaration may take it.
 */
export function isValidName(language: string, name: string): boolean {
  const { pattern, reserved } = profileOf(language).identifiers;
  return pattern.test(name) && !reserved.has(name);
}
