/**
 * Reminder providers: a registry of sources of reminders, each with an id, a
 * one-line summary, whether it is on by default and whether its reminders
 * survive a context compaction; and graver's canonical providers.
 *
 * @module
 */
import type {
  CompassReminder,
  ReminderConfig,
  ReminderContext,
  ReminderProvider,
  ReminderProviderInfo,
} from "./types.ts";

/** The standing steer toward structural edits (opt-in), naming graver's own tools. */
export const COMPASS_AST_EDITS: ReminderProvider = {
  id: "compass_ast_edits",
  summary: "Steer the agent toward AST edit primitives over freeform text edits.",
  default_enabled: false,
  preserve_on_compact: true,
  collect(context) {
    if (context.event !== "session_start" && context.event !== "resume") return null;
    return "When a change renames a definition or changes its shape (adds, removes or re-signs one), prefer " +
      "graver's structural edit tools over freeform text edits: edit_apply_node / edit_insert_at_anchor for " +
      "node-level changes (replace_symbol, remove_symbol and insert_code when you know the definition's name " +
      "path), edit_rename_symbol for safe cross-file renames, and the refactor tools (edit_extract_function, " +
      "edit_change_signature, edit_inline, edit_move_decl) for compound changes. Preview a multi-step change " +
      "with edit_dry_run before committing. For an edit inside a body (a statement, an expression, a call " +
      "site) and for a language with no grammar support, use edit_safe_text_patch with expected_hash from " +
      "read_file.";
  },
};

/** A file the agent edits has no grammar: say which tools work there, once per file and session. */
export const NO_GRAMMAR_EDIT: ReminderProvider = {
  id: "no_grammar_edit",
  summary:
    "Say when an edited file has no grammar: structural tools refuse there, the hash-guarded text patch works.",
  default_enabled: true,
  preserve_on_compact: false,
  collect(context) {
    const file = context.file;
    if (context.event !== "tool_call" || !file || file.language !== null || file.text === null) return null;
    // A text patch edits any file as text: a file without a grammar is fine for it.
    if (context.kind === "text_patch") return null;
    const told = (context.state.get("no_grammar_edit") as Set<string> | undefined) ?? new Set<string>();
    context.state.set("no_grammar_edit", told);
    if (told.has(file.path)) return null;
    told.add(file.path);
    return `"${file.path}" has no grammar here, so the structural tools (edit_apply_node, replace_symbol, ` +
      `edit_rename_symbol …) refuse it with unsupported_language. Edit it with edit_safe_text_patch, passing ` +
      `expected_hash (the version read_file returned) so a change made since you read it is refused, not overwritten.`;
  },
};

/** How many no_match refusals in a row on one file prompt a reminder. */
export const NO_MATCH_STREAK = 2;

/** Repeated no_match refusals on one file: the agent edits from a stale or guessed picture of it. */
export const REPEATED_NO_MATCH: ReminderProvider = {
  id: "repeated_no_match",
  summary: "After repeated no_match refusals on one file, suggest re-reading it and selecting by structure.",
  default_enabled: true,
  preserve_on_compact: false,
  collect(context) {
    const r = context.result;
    if (context.event !== "tool_result" || !r || r.path === undefined) return null;
    const streaks = (context.state.get("repeated_no_match") as Map<string, number> | undefined) ??
      new Map<string, number>();
    context.state.set("repeated_no_match", streaks);
    if (r.ok || r.code !== "no_match") {
      if (r.ok) streaks.delete(r.path);
      return null;
    }
    const n = (streaks.get(r.path) ?? 0) + 1;
    streaks.set(r.path, n);
    if (n !== NO_MATCH_STREAK) return null;
    return `${n} edits of "${r.path}" in a row found no match: the file differs from what you are copying from. ` +
      `Call read_file on it (or outline / find_symbol to locate the code), then select by structure rather than ` +
      `by exact text: replace_symbol or edit_apply_node by name path or pattern.`;
  },
};

/** The providers every compass starts with. */
export const CANONICAL_PROVIDERS: readonly ReminderProvider[] = Object.freeze([
  COMPASS_AST_EDITS,
  NO_GRAMMAR_EDIT,
  REPEATED_NO_MATCH,
]);

/**
 * A set of reminder providers and which of them are on.
 *
 * @example List the canonical providers and turn the standing reminder on
 * ```ts
 * import { ReminderRegistry } from "./reminder_providers.ts";
 * import assert from "node:assert/strict";
 *
 * const registry = new ReminderRegistry({ providers: { compass_ast_edits: true } });
 * const info = registry.list().find((p) => p.id === "compass_ast_edits")!;
 * assert.equal(info.default_enabled, false);
 * assert.equal(info.enabled, true);
 * const [standing] = registry.collect({ event: "session_start", session: "s", state: new Map() });
 * assert.ok(standing!.preserve_on_compact && standing!.text.includes("edit_apply_node"));
 * ```
 */
export class ReminderRegistry {
  readonly #providers = new Map<string, ReminderProvider>();
  #config: ReminderConfig;

  /**
   * Choose the reminder providers that are on.
   *
   * @param config Which providers are on (absent ones follow `default_enabled`).
   * @param providers The providers (default {@linkcode CANONICAL_PROVIDERS}).
   */
  constructor(config: ReminderConfig = {}, providers: readonly ReminderProvider[] = CANONICAL_PROVIDERS) {
    this.#config = config;
    for (const p of providers) this.register(p);
  }

  /**
   * Add a provider (an embedder's own, or a replacement of one with the same id).
   *
   * @param provider The provider.
   */
  register(provider: ReminderProvider): void {
    this.#providers.set(provider.id, provider);
  }

  /**
   * Replace the switches.
   *
   * @param config Provider id -> on/off.
   */
  configure(config: ReminderConfig): void {
    this.#config = config;
  }

  /**
   * Whether a provider is on.
   *
   * @param id Provider id.
   * @returns Its switch, else its default.
   */
  enabled(id: string): boolean {
    const p = this.#providers.get(id);
    if (!p) return false;
    return this.#config.providers?.[id] ?? p.default_enabled;
  }

  /**
   * Whether the config turns a provider on explicitly (not by its default).
   *
   * @param id Provider id.
   * @returns True when `providers[id] === true`.
   */
  explicitlyEnabled(id: string): boolean {
    return this.#providers.has(id) && this.#config.providers?.[id] === true;
  }

  /** Every provider's metadata and switch, in registration order. */
  list(): ReminderProviderInfo[] {
    return [...this.#providers.values()].map((p) => ({
      id: p.id,
      summary: p.summary,
      default_enabled: p.default_enabled,
      preserve_on_compact: p.preserve_on_compact,
      enabled: this.enabled(p.id),
    }));
  }

  /**
   * Ask every enabled provider (or only those `only` admits) for a reminder.
   *
   * @param context What happened.
   * @param only Filter on provider ids (default: all enabled).
   * @returns The reminders, in provider order.
   */
  collect(context: ReminderContext, only: (id: string) => boolean = () => true): CompassReminder[] {
    const out: CompassReminder[] = [];
    for (const p of this.#providers.values()) {
      if (!this.enabled(p.id) || !only(p.id)) continue;
      const text = p.collect(context);
      if (text !== null) out.push({ provider: p.id, text, preserve_on_compact: p.preserve_on_compact });
    }
    return out;
  }
}
