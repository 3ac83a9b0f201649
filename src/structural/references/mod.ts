/**
 * The reference search (find_references), which the refactors that change
 * names or calls build on: every site that refers to one symbol, in its file
 * and across the project.
 *
 * @module
 */
export { findReferences, MAX_PROJECT_FILES } from "./references.ts";
export type { FindReferencesOptions, ReferenceSearch, ReferenceSite, ReferenceTarget } from "./references.ts";
