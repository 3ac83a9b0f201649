/**
 * The safety layer: the read ledger (what a session has seen of each file),
 * the edit guard built on it, and the definition gate's decision engine.
 *
 * ```ts
 * import { Ledger } from "@graver/core/guards";
 * import assert from "node:assert/strict";
 *
 * const ledger = new Ledger();
 * assert.equal(ledger.view("src/a.ts").state, "never_read");
 * ```
 *
 * @module
 */
export { Ledger } from "./ledger.ts";
export type { FileSnapshot, FileState, FileView, LedgerData } from "./ledger.ts";
export { createReadGuard, DERIVED_EDIT_TOOLS, SessionLedgers } from "./read_guard.ts";
export type {
  GuardedCall,
  GuardedResult,
  GuardHost,
  ReadGuard,
  ReadGuardMode,
  ReadGuardOptions,
} from "./read_guard.ts";
export { coversLines, formatRanges, mergeRanges } from "./line_ranges.ts";
export type { LineRange } from "./line_ranges.ts";
export { definitionGateError, judgeDefinitionEdit, RENAME_TOOL, renameCall } from "./definition_gate.ts";
export type {
  DefinitionEditInput,
  DefinitionEditKind,
  DefinitionFinding,
  DefinitionGateOptions,
  DefinitionGateVerdict,
  LineSpan,
  TouchedDefinition,
} from "./definition_gate.ts";
