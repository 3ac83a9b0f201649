/**
 * The imports a file move rewrites (move_file): plan the updated import
 * specifiers in the moved file and in the files that import it. The plan
 * carries the new texts; the tool writes them with the move.
 *
 * @module
 */
export { importsUpdatable, moduleWorld, movableSystem, planImportUpdates } from "./imports_rewrite.ts";
export type { ImportChange, ImportUpdatePlan, ModuleWorld, UnresolvedImport } from "./imports_rewrite.ts";
