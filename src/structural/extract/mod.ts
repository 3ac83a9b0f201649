/**
 * The extract-function refactor (edit_extract_function): plan a new
 * function from a range of statements and the call that replaces them, then
 * stage the plan.
 *
 * @module
 */
export { extractLanguages, planExtract, stageExtract } from "./extract.ts";
export type { ExtractOptions, ExtractPlan, LineRange } from "./extract.ts";
