/**
 * The rename refactor (edit_rename_symbol): plan a rename of one symbol
 * across the files that refer to it, then stage the plan.
 *
 * @module
 */
export { planRename, stageRename } from "./rename.ts";
export type { RenameOptions, RenamePlan, TextOccurrence } from "./rename.ts";
