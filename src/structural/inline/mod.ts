/**
 * The inline refactor (edit_inline): plan the replacement of a variable's or
 * a function's uses by its value or body. The plan carries the file's new
 * text; the tool writes it.
 *
 * @module
 */
export { inlineLanguages, planInline } from "./inline.ts";
export type { InlineOptions, InlinePlan } from "./inline.ts";
