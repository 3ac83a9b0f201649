/**
 * Which languages each refactor supports, apart from the engines so that a
 * caller that only lists them (`edit_capabilities`) loads no engine. The
 * engines read their lists from here.
 *
 * @module
 */
import { languagesWhere, profileOf } from "../../languages/profiles.ts";

/** Languages edit_extract_function supports (each profile with flow rules). */
export const EXTRACT_LANGUAGES: readonly string[] = Object.freeze(
  languagesWhere((p) => p.refactors.extractFunction),
);

/** Languages edit_inline supports: the ECMAScript and Python families. */
export const INLINE_LANGUAGES: readonly string[] = Object.freeze(languagesWhere((p) => p.refactors.inline));

/** Languages edit_change_signature supports. */
export const SIGNATURE_LANGUAGES: readonly string[] = Object.freeze(
  languagesWhere((p) => p.refactors.changeSignature),
);

/**
 * The languages extraction supports.
 *
 * @returns Language ids.
 */
export function extractLanguages(): string[] {
  return [...EXTRACT_LANGUAGES];
}

/**
 * The languages inlining supports.
 *
 * @returns Language ids.
 */
export function inlineLanguages(): string[] {
  return [...INLINE_LANGUAGES];
}

/**
 * The module system whose imports graver rewrites for a language (TypeScript, TSX, JavaScript: "ecmascript";
 * Python: "python"), or null.
 *
 * @param language Language id.
 * @returns The system, or null.
 */
export function movableSystem(language: string): "ecmascript" | "python" | null {
  const profile = profileOf(language);
  // Only the ECMAScript and Python profiles name languages a declaration may move into.
  return profile.refactors.moveDeclarationInto.length > 0
    ? profile.moduleSystem!.name as "ecmascript" | "python"
    : null;
}

/**
 * Whether a language's calls may pass arguments by parameter name.
 *
 * @param language Language id.
 * @returns True for Python.
 */
export function hasKeywordArguments(language: string): boolean {
  return profileOf(language).functions.keywordArguments;
}
