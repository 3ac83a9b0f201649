/**
 * Which languages each refactor supports, apart from the engines so that a
 * caller that only lists them (`edit_capabilities`) loads no engine. The
 * engines read their lists from here.
 *
 * @module
 */
import { ModuleResolver } from "../../syntax/module_resolution.ts";

/** Languages edit_extract_function supports (each has its family's rules in `statement_ranges.ts`). */
export const EXTRACT_LANGUAGES = ["typescript", "tsx", "javascript", "python", "go", "rust"] as const;

/** A language edit_extract_function supports. */
export type ExtractLanguage = (typeof EXTRACT_LANGUAGES)[number];

/** Languages edit_inline supports: the ECMAScript and Python families. */
export const INLINE_LANGUAGES: readonly ExtractLanguage[] = ["typescript", "tsx", "javascript", "python"];

/** Languages edit_change_signature supports. */
export const SIGNATURE_LANGUAGES: readonly string[] = ["typescript", "tsx", "javascript", "python"];

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
  const system: string | null = ModuleResolver.systemOf(language);
  return system === "ecmascript" || system === "python" ? system : null;
}

/** Languages whose calls may name a parameter (`f(cte="7bit")`): renaming one reaches into keyword arguments. */
const KEYWORD_ARGUMENT_LANGUAGES: ReadonlySet<string> = new Set(["python"]);

/**
 * Whether a language's calls may pass arguments by parameter name.
 *
 * @param language Language id.
 * @returns True for Python.
 */
export function hasKeywordArguments(language: string): boolean {
  return KEYWORD_ARGUMENT_LANGUAGES.has(language);
}
