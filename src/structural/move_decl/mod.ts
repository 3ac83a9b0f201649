/**
 * The move-declaration refactor (edit_move_decl): plan the move of a
 * top-level declaration to another file with the imports on both sides and
 * in the files that use it, then stage the plan.
 *
 * @module
 */
export { planMoveDecl, stageMoveDecl } from "./move_decl.ts";
export type { MoveDeclOptions, MoveDeclPlan } from "./move_decl.ts";
