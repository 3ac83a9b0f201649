/**
 * Shared types of the compass: the router's modes and options, personas,
 * recognised edit shapes, routing decisions and reminder providers.
 *
 * @module
 */

import type { ToolKind } from "../tool_kinds.ts";
import type { SymbolInfo } from "../syntax/types.ts";
import { languagesWhere } from "../languages/profiles.ts";

/** What the router does with a freeform edit it recognises. */
export type CompassMode = "off" | "suggest" | "rewrite";

/** What a routing decision did: named a structural tool, swapped the call, or could not swap it. */
export type RoutingAction = "suggested" | "rewritten" | "fell_back";

/** A reminder the compass attaches to a result or hands out at session start (same shape as a ToolResult's). */
export interface CompassReminder {
  /** Which provider produced it. */
  provider: string;
  /** The text for the model. */
  text: string;
  /** Whether a harness should keep it when compacting context. */
  preserve_on_compact: boolean;
}

/** Which reminder providers are on: provider id -> enabled (absent: the provider's `default_enabled`). */
export interface ReminderConfig {
  /** Per-provider switches, e.g. `{ compass_ast_edits: true }`. */
  providers?: Readonly<Record<string, boolean>>;
}

/**
 * A named configuration of an agent: which edit primitives it prefers and
 * which reminder providers it enables. Read from `.graver/personas/NAME.json`
 * or passed by the embedder.
 */
export interface Persona {
  /** The persona's name (tags counters and events). */
  name: string;
  /** How it edits: `prefer` orders the structural tools a suggestion names. */
  edit_strategy?: { prefer?: readonly string[] };
  /** Reminder providers it turns on or off. */
  reminders?: ReminderConfig;
  /** Its router settings (the workspace's `compass` option wins). */
  compass?: { mode?: CompassMode };
}

/** The shape of an OpenTelemetry `Meter` the compass can count through (no dependency on OpenTelemetry). */
export interface CounterMeter {
  /** Create (or get) a counter instrument. */
  createCounter(name: string, options?: { description?: string }): {
    /** Add to the counter. */
    add(value: number, attributes?: Record<string, string>): void;
  };
}

/**
 * The `compass` option of a workspace. `false`, `{ enabled: false }` and
 * `{ mode: "off" }` turn the router off; `{ mode: "suggest" }` is the default
 * once configured; `{ mode: "rewrite" }` substitutes provably equivalent calls.
 */
export interface CompassOptions {
  /** `false` is the same as `mode: "off"`. */
  enabled?: boolean;
  /** off | suggest (default) | rewrite. */
  mode?: CompassMode;
  /** Order of the structural tools a suggestion names (wins over the persona's `edit_strategy.prefer`). */
  prefer?: readonly string[];
  /** A persona: its name (read from `.graver/personas/NAME.json` at open) or the persona itself. */
  persona?: string | Persona;
  /** Reminder providers to turn on or off (wins over the persona's). */
  reminders?: ReminderConfig;
  /** Languages whose one-identifier edits read as renames (default {@linkcode RENAME_LANGUAGES}). */
  renameLanguages?: readonly string[];
  /** An OpenTelemetry `Meter` (or anything shaped like one) to count decisions through, besides the workspace's sink. */
  meter?: CounterMeter;
}

/** The `compass` workspace option as given: `false`, an options object, or absent. */
export type CompassSetting = false | CompassOptions | undefined;

/** The languages edit_rename_symbol is meant for (scope-aware binding queries). */
export const RENAME_LANGUAGES: readonly string[] = Object.freeze(
  languagesWhere((p) => p.refactors.renameFromEdits),
);

/** One exact replacement of a str_replace-shaped or hunks call. */
export interface ShapeHunk {
  /** Text to find. */
  oldText: string;
  /** Its replacement. */
  newText: string;
}

/**
 * A freeform edit the router recognised from a tool name and its args.
 * `str_replace`: one old/new pair (`edit_file` and any tool taking
 * old_text|old_string|old_str with new_text|new_string|new_str);
 * `hunks`: a hunks array; `whole_file`: a write_file/create_file content;
 * `edit_text`: apply_edits text naming files.
 */
export type EditShape =
  | {
    kind: "str_replace";
    /** The path as the call wrote it. */
    path: string;
    /** The one replacement. */
    hunk: ShapeHunk;
    /** Whether the call replaces every occurrence. */
    replaceAll: boolean;
  }
  | {
    kind: "hunks";
    /** The path as the call wrote it. */
    path: string;
    /** The replacements. */
    hunks: ShapeHunk[];
  }
  | {
    kind: "whole_file";
    /** The path as the call wrote it. */
    path: string;
  }
  | {
    kind: "edit_text";
    /** The files the text edits, in order (the first is the event's path). */
    paths: string[];
  };

/** What the router learned about a file it routes for. */
export interface FileFacts {
  /** The path relative to the root. */
  path: string;
  /** The grammar's language id, or null when no grammar applies (or none is loaded). */
  language: string | null;
  /** The decoded text (BOM excluded), or null when the file does not exist or is not text. */
  text: string | null;
  /** The version (SHA-256) of the bytes read, or null when absent. */
  version: string | null;
  /**
   * The definitions of a text of this file (its current text, or the text an edit would leave), or
   * null when its language has no outline. Absent: the router cannot tell what an edit does to the
   * file's definitions, so it names no structural tool.
   */
  outline?: (text: string) => Promise<SymbolInfo[] | null>;
  /**
   * The names this file's current text declares (locals and parameters included: what its binding
   * query reads as a definition), with their UTF-16 spans; null when its language has no binding query.
   */
  declarations?: () => Promise<{ name: string; start: number; end: number }[] | null>;
}

/** What the router needs of its host: the facts of a path, or null when the path cannot be resolved. */
export interface CompassFiles {
  /** Resolve, read and classify one path (null: outside the sandbox, protected, or not a path). */
  facts(path: string): Promise<FileFacts | null>;
}

/** One call as the router sees it. */
export interface RouteInput {
  /** The tool called. */
  tool: string;
  /**
   * What the tool is (its definition's kind; dispatch always passes it). Structural, derived and plan
   * tools are never routed; a `whole_file` tool is a whole-file rewrite; only a `freeform_edit` with
   * edit_file's str_replace shape is rewritten. Without a kind the call is read from its args alone
   * (a `content` argument is a whole file, by graver's one name per meaning).
   */
  kind?: ToolKind;
  /** Its validated args. */
  args: Readonly<Record<string, unknown>>;
  /** Session id. */
  session: string;
  /** Paths an edit text (apply_edits' `text`) edits (the tool layer parses them; absent for other tools). */
  editPaths?: readonly string[];
  /** The replacements an `apply_edits` text makes, per path as written (parsed by the tool layer). */
  editHunks?: Readonly<Record<string, readonly ShapeHunk[]>>;
}

/** One routing decision (what the `compass_routing_decision` event reports). */
export interface RoutingDecision {
  /** Id of the call the decision is about (`session:n`). */
  toolCallId: string;
  /** The router's mode. */
  mode: CompassMode;
  /** What it did. */
  action: RoutingAction;
  /** The persona in use ("none" without one). */
  persona: string;
  /** The freeform tool called. */
  originalTool: string;
  /** The tool that runs (the original unless rewritten). */
  routedTool: string;
  /** The structural tool named or substituted. */
  targetTool: string;
  /** The file the edit named (the first one for an apply_edits text). */
  path: string;
}

/** What the router did with one call. */
export interface RouteOutcome {
  /** The decision, or null when the router stayed inert. */
  decision: RoutingDecision | null;
  /** The call to run instead (rewrite mode, provably equivalent). */
  rewrite?: { tool: string; args: Record<string, unknown> };
  /** The reminders to attach to this call's result (the suggestion, and conditional providers'). */
  reminders: CompassReminder[];
}

/** When a provider is asked: at session start or resume, before a call runs, or after it ran. */
export type ReminderEvent = "session_start" | "resume" | "tool_call" | "tool_result";

/** What a provider sees when asked for a reminder. */
export interface ReminderContext {
  /** Why it is asked. */
  event: ReminderEvent;
  /** Session id. */
  session: string;
  /** The tool (tool_call / tool_result). */
  tool?: string;
  /** What the tool is (tool_call), when the caller knows it: `text_patch` edits any file as text. */
  kind?: ToolKind;
  /** The edited file's facts (tool_call of a recognised edit shape, any mode). */
  file?: FileFacts;
  /** The outcome (tool_result): ok, or the refusal's code, and the path the call named. */
  result?: { ok: boolean; code?: string; path?: string };
  /** Per-session scratch space a provider may keep state in (keyed by its id). */
  state: Map<string, unknown>;
}

/** A source of reminders. */
export interface ReminderProvider {
  /** Stable id, e.g. `compass_ast_edits`. */
  readonly id: string;
  /** One line saying what it reminds of. */
  readonly summary: string;
  /** Whether it runs when no config mentions it. */
  readonly default_enabled: boolean;
  /** Whether its reminders survive a context compaction. */
  readonly preserve_on_compact: boolean;
  /** Its reminder text for this context, or null to stay silent. */
  collect(context: ReminderContext): string | null;
}

/** A provider's metadata, as listed. */
export interface ReminderProviderInfo {
  /** Stable id. */
  id: string;
  /** One line. */
  summary: string;
  /** Whether it runs when no config mentions it. */
  default_enabled: boolean;
  /** Whether its reminders survive compaction. */
  preserve_on_compact: boolean;
  /** Whether it is on in this compass. */
  enabled: boolean;
}
