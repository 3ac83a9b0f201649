/**
 * The compass: reminder providers plus the per-call router that steers
 * freeform text edits on files with a grammar toward graver's structural
 * tools (off | suggest | rewrite), counting each decision and reporting it as
 * a `compass_routing_decision` event. Pure logic over a tool name and its
 * args; the file facts come from a {@linkcode CompassFiles} the tool layer
 * provides.
 *
 * @module
 */
import { NOOP_TELEMETRY, type TelemetrySink } from "../telemetry.ts";
import { type DefinitionChange, definitionChange } from "./definition_change.ts";
import { recogniseEdit } from "./edit_shape.ts";
import { provablySameReplace, sameVersion } from "./exact_rewrite.ts";
import { ReminderRegistry } from "./reminder_providers.ts";
import { suggestionText } from "./suggestion.ts";
import { candidateTargets, orderTargets, type TargetTool } from "./targets.ts";
import {
  type CompassFiles,
  type CompassMode,
  type CompassReminder,
  type CompassSetting,
  type CounterMeter,
  type EditShape,
  type FileFacts,
  type Persona,
  type ReminderProvider,
  type ReminderProviderInfo,
  RENAME_LANGUAGES,
  type RouteInput,
  type RouteOutcome,
  type RoutingAction,
  type RoutingDecision,
} from "./types.ts";

/** The session id of a call that names none. */
export const DEFAULT_SESSION = "default";

/** The counters of routing decisions, by action. */
export const COMPASS_COUNTERS: Readonly<Record<RoutingAction, string>> = {
  suggested: "graver.compass.suggested",
  rewritten: "graver.compass.rewritten",
  fell_back: "graver.compass.fell_back",
};

/** The event every routing decision emits (routing metadata only, never file contents). */
export const ROUTING_EVENT = "compass_routing_decision";

/** What the router names for an edit that leaves every definition's name and shape alone. */
const TEXT_TARGETS: readonly TargetTool[] = ["edit_safe_text_patch"];

/**
 * What a recognised edit does to the definitions of the files it edits: one
 * file's hunks or new content, or each file of an apply_edits text (a shape
 * change in any of them counts; a rename only for one hunk in one file).
 */
async function editChange(
  input: RouteInput,
  shape: EditShape,
  scope: { file: FileFacts; files: { facts: FileFacts; path: string }[]; renames: boolean },
): Promise<DefinitionChange> {
  const { file, renames } = scope;
  if (shape.kind === "str_replace") {
    return await definitionChange(file, { hunks: [shape.hunk], all: shape.replaceAll, renames });
  }
  if (shape.kind === "hunks") return await definitionChange(file, { hunks: shape.hunks, renames });
  if (shape.kind === "whole_file") {
    const after = input.args["content"];
    return typeof after === "string" ? await definitionChange(file, { after }) : { kind: "unknown" };
  }
  let known = false;
  for (const f of scope.files) {
    const hunks = input.editHunks?.[f.path];
    if (!hunks || f.facts.language === null) continue;
    const change = await definitionChange(f.facts, { hunks });
    if (change.kind === "shape" || change.kind === "rename") return { kind: "shape" };
    known ||= change.kind === "body";
  }
  return { kind: known ? "body" : "unknown" };
}

/** What {@linkcode Compass} is built from. */
export interface CompassInit {
  /** The `compass` workspace option (absent: suggest, for calls that carry a session). */
  setting?: CompassSetting;
  /** The persona, when already loaded (a persona named by the setting is read later: {@linkcode Compass.usePersona}). */
  persona?: Persona | null;
  /** Where counters and events go (the workspace's sink). */
  telemetry?: TelemetrySink;
  /** An OpenTelemetry-shaped meter to count decisions through as well. */
  meter?: CounterMeter;
  /** Extra reminder providers (same id replaces a canonical one). */
  providers?: readonly ReminderProvider[];
}

/** One counter series of {@linkcode Compass.stats}. */
export interface CompassSeries {
  /** Counter name. */
  name: string;
  /** Persona, freeform tool and structural target. */
  attributes: { persona: string; tool: string; target: string };
  /** Its total. */
  value: number;
}

/** What {@linkcode Compass.stats} returns: totals by action, and every series. */
export interface CompassStats {
  /** Advisory decisions. */
  suggested: number;
  /** Calls substituted. */
  rewritten: number;
  /** Rewrite-mode calls that ran unchanged, with a suggestion. */
  fell_back: number;
  /** One entry per counter and attribute set. */
  series: CompassSeries[];
}

/**
 * The router's mode for a `compass` setting: `false`, `{enabled: false}` and
 * `{mode: "off"}` are off; a mode given is that mode; otherwise the persona's
 * mode, else suggest.
 *
 * @param setting The option.
 * @param persona The persona, if any.
 * @returns The mode.
 *
 * @example Every off spelling
 * ```ts
 * import { compassMode } from "./compass.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(compassMode(false), "off");
 * assert.equal(compassMode({ enabled: false }), "off");
 * assert.equal(compassMode({ mode: "off" }), "off");
 * assert.equal(compassMode({}), "suggest");
 * assert.equal(compassMode({ mode: "rewrite" }), "rewrite");
 * ```
 */
export function compassMode(setting: CompassSetting, persona: Persona | null = null): CompassMode {
  if (setting === false || setting?.enabled === false) return "off";
  return setting?.mode ?? persona?.compass?.mode ?? "suggest";
}

/**
 * Reminder providers and the tool-call router. One per workspace; the tool
 * layer's `compassStep` plugs it into dispatch.
 *
 * @example Suggest the hash-guarded text patch for a str_replace on a TypeScript file
 * ```ts
 * import { Compass } from "./compass.ts";
 * import assert from "node:assert/strict";
 *
 * // Without an outline (FileFacts.outline) the router cannot tell a definition's change: no structural tool.
 * const compass = new Compass({ setting: { mode: "suggest" } });
 * const files = {
 *   facts: (path: string) =>
 *     Promise.resolve({ path, language: "typescript", text: "f(1);\n", version: "ab".repeat(32) }),
 * };
 * const out = await compass.route(
 *   { tool: "edit_file", args: { path: "a.ts", old_string: "f(1)", new_string: "f(2)" }, session: "s" },
 *   files,
 * );
 * assert.equal(out.decision?.action, "suggested");
 * assert.equal(out.decision?.targetTool, "edit_safe_text_patch");
 * assert.equal(compass.stats().suggested, 1);
 * ```
 */
export class Compass {
  readonly #setting: CompassSetting;
  readonly #telemetry: TelemetrySink;
  readonly #meter: CounterMeter | undefined;
  readonly #registry: ReminderRegistry;
  readonly #series = new Map<string, CompassSeries>();
  readonly #state = new Map<string, Map<string, unknown>>();
  #persona: Persona | null;
  #calls = 0;

  /**
   * Make a compass.
   *
   * @param init Setting, persona, telemetry, extra providers.
   */
  constructor(init: CompassInit = {}) {
    this.#setting = init.setting;
    this.#telemetry = init.telemetry ?? NOOP_TELEMETRY;
    this.#meter = init.meter ?? (init.setting ? init.setting.meter : undefined);
    this.#persona = init.persona ?? null;
    this.#registry = new ReminderRegistry({});
    for (const p of init.providers ?? []) this.#registry.register(p);
    this.usePersona(this.#persona);
  }

  /**
   * Switch to a persona (or none): its `edit_strategy.prefer`, reminder
   * switches and mode apply wherever the `compass` option does not say.
   *
   * @param persona The persona, or null.
   */
  usePersona(persona: Persona | null): void {
    this.#persona = persona;
    const own = this.#setting === false ? undefined : this.#setting?.reminders?.providers;
    this.#registry.configure({ providers: { ...persona?.reminders?.providers, ...own } });
  }

  /** The persona in use, or null. */
  get persona(): Persona | null {
    return this.#persona;
  }

  /** The router's mode. */
  get mode(): CompassMode {
    return compassMode(this.#setting, this.#persona);
  }

  /** Whether the embedder configured the compass (an option or a persona); unconfigured, it routes only calls with a session. */
  get configured(): boolean {
    return this.#setting !== undefined || this.#persona !== null;
  }

  /** The `prefer` order: the option's, else the persona's `edit_strategy.prefer`. */
  get prefer(): readonly string[] {
    const own = this.#setting === false ? undefined : this.#setting?.prefer;
    return own ?? this.#persona?.edit_strategy?.prefer ?? [];
  }

  /**
   * Whether the router acts on a call of this session: not when off; when
   * the compass was not configured, only for calls naming a session.
   *
   * @param session The call's session id.
   * @returns True when the router routes it.
   */
  routesFor(session: string): boolean {
    return this.mode !== "off" && (this.configured || session !== DEFAULT_SESSION);
  }

  /** Every reminder provider's metadata and whether it is on. */
  providers(): ReminderProviderInfo[] {
    return this.#registry.list();
  }

  /**
   * The reminders for the start (or resume) of a session: the enabled
   * standing reminders, e.g. `compass_ast_edits` when turned on.
   *
   * @param options The session and whether it resumes.
   * @returns The reminders.
   */
  sessionStart(options: { session?: string; resume?: boolean } = {}): CompassReminder[] {
    const session = options.session ?? DEFAULT_SESSION;
    return this.#registry.collect({
      event: options.resume ? "resume" : "session_start",
      session,
      state: this.#stateOf(session),
    });
  }

  /**
   * The session-start reminders as one text, for an MCP server's `instructions`.
   *
   * @returns The texts, blank-line separated ("" when none is enabled).
   */
  instructions(): string {
    return this.sessionStart().map((r) => r.text).join("\n\n");
  }

  /** The decisions counted so far (the in-memory view of the `graver.compass.*` counters). */
  stats(): CompassStats {
    const series = [...this.#series.values()].map((s) => ({ ...s, attributes: { ...s.attributes } }));
    const total = (name: string) => series.filter((s) => s.name === name).reduce((n, s) => n + s.value, 0);
    return {
      suggested: total(COMPASS_COUNTERS.suggested),
      rewritten: total(COMPASS_COUNTERS.rewritten),
      fell_back: total(COMPASS_COUNTERS.fell_back),
      series,
    };
  }

  /**
   * Forget what the providers keep for a session (streaks, counts): a server
   * calls it when it drops the session.
   *
   * @param session The session id.
   */
  forget(session: string): void {
    this.#state.delete(session);
  }

  /** How many sessions the providers keep state for. */
  get sessions(): number {
    return this.#state.size;
  }

  #stateOf(session: string): Map<string, unknown> {
    let s = this.#state.get(session);
    if (!s) this.#state.set(session, s = new Map());
    return s;
  }

  /**
   * Whether the compass looks at calls of this session at all: the router
   * routes them, or a provider is turned on explicitly. The step skips the
   * others without reading anything.
   *
   * @param session The call's session id.
   * @returns True when {@linkcode Compass.route} may act.
   */
  listens(session: string): boolean {
    return this.routesFor(session) ||
      this.#registry.list().some((p) => this.#registry.explicitlyEnabled(p.id));
  }

  /** Which providers may speak for a call of this session: all enabled ones while routing, else only those turned on explicitly. */
  #speaks(session: string): (id: string) => boolean {
    return this.routesFor(session) ? () => true : (id) => this.#registry.explicitlyEnabled(id);
  }

  /**
   * Route one call: recognise a freeform edit of a file with a grammar and
   * suggest, substitute or fall back as the mode says. A structural tool is
   * named only for an edit that renames a definition or changes its shape
   * (the file's outline before and after compared); any other edit gets the
   * hash-guarded text patch. Inert (no decision,
   * nothing counted) for structural calls, files without a grammar, missing
   * files and shapes it does not understand.
   *
   * @param input The tool, its args, the session.
   * @param files How to learn a path's language, text and version.
   * @returns The decision (or null), a substitute call, and the reminders to attach.
   */
  async route(input: RouteInput, files: CompassFiles): Promise<RouteOutcome> {
    const inert: RouteOutcome = { decision: null, reminders: [] };
    const speaks = this.#speaks(input.session);
    const routing = this.routesFor(input.session);
    if (!this.listens(input.session)) return inert;
    const shape = recogniseEdit(input.tool, input.args, {
      ...(input.editPaths ? { editPaths: input.editPaths } : {}),
      ...(input.kind ? { kind: input.kind } : {}),
    });
    if (!shape) return inert;
    const paths = shape.kind === "edit_text" ? shape.paths.slice(0, 50) : [shape.path];
    const facts: FileFacts[] = [];
    const written = new Map<FileFacts, string>();
    for (const p of paths) {
      const f = await files.facts(p);
      if (!f) continue;
      facts.push(f);
      written.set(f, p);
    }
    const state = this.#stateOf(input.session);
    const reminders = facts.length === 0 ? [] : this.#registry.collect(
      {
        event: "tool_call",
        session: input.session,
        tool: input.tool,
        ...(input.kind ? { kind: input.kind } : {}),
        file: facts[0]!,
        state,
      },
      speaks,
    );
    const file = facts.find((f) => f.language !== null && f.text !== null);
    if (!routing || !file) return { decision: null, reminders };
    const renameLanguages = (this.#setting === false ? undefined : this.#setting?.renameLanguages) ??
      RENAME_LANGUAGES;
    const change = await editChange(input, shape, {
      file,
      files: facts.map((f) => ({ facts: f, path: written.get(f)! })),
      renames: renameLanguages.includes(file.language!),
    });
    const rename = change.kind === "rename" ? { from: change.from, to: change.to } : null;
    // A structural tool only for an edit that renames a definition or changes its shape.
    const candidates = change.kind === "rename" || change.kind === "shape"
      ? candidateTargets(shape, rename !== null)
      : TEXT_TARGETS;
    const [target] = orderTargets(candidates, this.prefer);
    if (!target || target === input.tool) return { decision: null, reminders };
    const mode = this.mode;
    const decide = (action: RoutingAction, targetTool: string, routedTool: string): RoutingDecision => ({
      toolCallId: `${input.session}:${++this.#calls}`,
      mode,
      action,
      persona: this.#persona?.name ?? "none",
      originalTool: input.tool,
      routedTool,
      targetTool,
      path: file.path,
    });
    const suggestion: CompassReminder = {
      provider: "compass_router",
      text: suggestionText(input.tool, shape, { target, rename }),
      preserve_on_compact: false,
    };
    if (mode === "rewrite" && shape.kind === "str_replace" && rename === null) {
      const rewrite = this.#rewrite(input, shape.hunk, file);
      if (rewrite) {
        const decision = decide("rewritten", rewrite.tool, rewrite.tool);
        this.#record(decision);
        return { decision, rewrite, reminders };
      }
    }
    const decision = decide(mode === "rewrite" ? "fell_back" : "suggested", target, input.tool);
    this.#record(decision);
    return { decision, reminders: [suggestion, ...reminders] };
  }

  /**
   * The edit_safe_text_patch call that lands the same bytes as this
   * str_replace, pinned to the version the router read; null unless provable.
   */
  #rewrite(
    input: RouteInput,
    hunk: { oldText: string; newText: string },
    file: FileFacts,
  ): { tool: string; args: Record<string, unknown> } | null {
    // Only a freeform str_replace (edit_file's matcher: exact first) is swapped; a tool of unknown kind is not.
    if (input.kind !== "freeform_edit" || file.text === null || file.version === null) return null;
    if (!provablySameReplace(file.text, hunk.oldText, hunk.newText)) return null;
    const given = input.args["expected_version"];
    if (given !== undefined && (typeof given !== "string" || !sameVersion(file.version, given))) return null;
    const args: Record<string, unknown> = {
      path: input.args["path"],
      hunks: [{ old_text: hunk.oldText, new_text: hunk.newText }],
      expected_hash: file.version,
    };
    for (const k of ["dry_run", "syntax_guard"]) if (input.args[k] !== undefined) args[k] = input.args[k];
    return { tool: "edit_safe_text_patch", args };
  }

  /** Count a decision (in memory, on the sink, on the meter) and emit its event. */
  #record(d: RoutingDecision): void {
    const name = COMPASS_COUNTERS[d.action];
    const attributes = { persona: d.persona, tool: d.originalTool, target: d.targetTool };
    const key = `${name}\0${attributes.persona}\0${attributes.tool}\0${attributes.target}`;
    const s = this.#series.get(key);
    if (s) s.value++;
    else this.#series.set(key, { name, attributes, value: 1 });
    this.#telemetry.counter(name, 1, attributes);
    this.#meter?.createCounter(name).add(1, attributes);
    this.#telemetry.event(ROUTING_EVENT, { ...d });
  }

  /**
   * Tell the providers how a call ended (e.g. a `no_match` refusal), and
   * collect what they have to say about it.
   *
   * @param input The session, the tool, and the outcome with the path it concerned.
   * @returns Reminders to attach to the call's result.
   */
  observe(
    input: { session: string; tool: string; ok: boolean; code?: string; path?: string },
  ): CompassReminder[] {
    const result: { ok: boolean; code?: string; path?: string } = { ok: input.ok };
    if (input.code !== undefined) result.code = input.code;
    if (input.path !== undefined) result.path = input.path;
    return this.#registry.collect({
      event: "tool_result",
      session: input.session,
      tool: input.tool,
      result,
      state: this.#stateOf(input.session),
    }, this.#speaks(input.session));
  }
}
