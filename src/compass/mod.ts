/**
 * The compass: reminder providers and the router that steers freeform text
 * edits of code toward graver's structural tools (pure logic; the dispatch
 * step that applies it is `compassStep` in `@graver/core/tools`).
 *
 * ```ts
 * import { recogniseEdit } from "@graver/core/compass";
 * import assert from "node:assert/strict";
 *
 * const shape = recogniseEdit("edit_file", { path: "a.ts", old_string: "a", new_string: "b" });
 * assert.equal(shape?.kind, "str_replace");
 * ```
 *
 * @module
 */
export { Compass, COMPASS_COUNTERS, compassMode, ROUTING_EVENT } from "./compass.ts";
export type { CompassSeries, CompassStats } from "./compass.ts";
export { recogniseEdit, renameOf, STRUCTURAL_TOOLS } from "./edit_shape.ts";
export type { RecogniseOptions } from "./edit_shape.ts";
export { provablySameReplace } from "./exact_rewrite.ts";
export { loadPersona, parsePersona, PERSONA_DIR } from "./persona.ts";
export {
  CANONICAL_PROVIDERS,
  COMPASS_AST_EDITS,
  NO_GRAMMAR_EDIT,
  ReminderRegistry,
  REPEATED_NO_MATCH,
} from "./reminder_providers.ts";
export type {
  CompassFiles,
  CompassMode,
  CompassOptions,
  CompassReminder,
  CompassSetting,
  CounterMeter,
  EditShape,
  FileFacts,
  Persona,
  ReminderConfig,
  ReminderContext,
  ReminderEvent,
  ReminderProvider,
  ReminderProviderInfo,
  RouteInput,
  RouteOutcome,
  RoutingAction,
  RoutingDecision,
  ShapeHunk,
} from "./types.ts";
