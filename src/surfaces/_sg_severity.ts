/**
 * ast-grep scan's severity options: `--error`, `--warning`, `--info`, `--hint` and `--off`, each given bare (every
 * rule) or as `--error=RULE_ID` (that rule; repeatable). As ast-grep reads them: a rule named by id takes that
 * severity over one given to every rule, and where two options set the same rule (or two bare ones every rule)
 * the later in the order error, warning, info, hint, off wins, whatever order they were written in. A rule
 * turned `off` is not run; an `--off` for every rule with `--error=ID` runs only that one.
 *
 * @module
 */
import type { CliFlag, CliHost } from "./_cli_contract.ts";
import type { InlineRule, Severity } from "./_sg_inline_rules.ts";

/** The options in the order ast-grep applies them: a later one wins over an earlier one for the same rule. */
const OVERRIDES = ["error", "warning", "info", "hint", "off"] as const satisfies readonly Severity[];

/** The five options as `graver sg` declares them. */
export const SEVERITY_FLAGS: Readonly<Record<string, CliFlag>> = Object.fromEntries(
  OVERRIDES.map((s) => [
    s,
    {
      kind: "optional",
      value: "RULE_ID",
      help: s === "off"
        ? "with scan: turn off the rule RULE_ID (repeatable), or every rule given bare, as ast-grep's --off"
        : `with scan: set the severity of RULE_ID (repeatable), or of every rule given bare, to ${s}`,
    } satisfies CliFlag,
  ]),
);

/** What the options say: the severity for every rule, and by rule id. */
interface Overrides {
  every?: Severity;
  byId: Map<string, Severity>;
}

/** The options' values read into {@linkcode Overrides}, in ast-grep's order. */
function overridesOf(values: Readonly<Record<string, string[]>>): Overrides {
  const out: Overrides = { byId: new Map() };
  for (const severity of OVERRIDES) {
    for (const id of values[severity] ?? []) {
      if (id === "") out.every = severity;
      else out.byId.set(id, severity);
    }
  }
  return out;
}

/**
 * The rules with the severity options applied, and a note for each rule id an option names that no rule has
 * (ast-grep passes over such an id in silence; a typo here would leave a rule at its own severity unnoticed).
 *
 * @example `--error` for every rule, `--off=b` for one
 * ```ts
 * import { withSeverities } from "./_sg_severity.ts";
 * import assert from "node:assert/strict";
 *
 * import type { InlineRule } from "./_sg_inline_rules.ts";
 *
 * const rule = (id: string): InlineRule => ({ id, severity: "hint", rule: {}, globs: [], message: "", note: null });
 * const { rules, notes } = withSeverities([rule("a"), rule("b")], { error: [""], off: ["b", "c"] });
 * assert.deepEqual(rules.map((r) => [r.id, r.severity]), [["a", "error"], ["b", "off"]]);
 * assert.match(notes[0]!, /--off=c names no rule/);
 * ```
 *
 * @param rules The rules chosen.
 * @param values Every value of each option (`""` for one given bare).
 * @returns The rules with their severities set, and the notes for stderr.
 */
export function withSeverities(
  rules: readonly InlineRule[],
  values: Readonly<Record<string, string[]>>,
): { rules: InlineRule[]; notes: string[] } {
  const { every, byId } = overridesOf(values);
  const ids = new Set(rules.map((r) => r.id));
  const notes = [...byId].filter(([id]) => !ids.has(id)).map(([id, severity]) =>
    `--${severity}=${id} names no rule (the rules: ${
      [...ids].join(", ") || "none with an id"
    }); it is passed over`
  );
  const out = rules.map((r) => {
    const severity = byId.get(r.id) ?? every ?? r.severity;
    return severity === r.severity ? r : { ...r, severity };
  });
  return { rules: out, notes };
}

/**
 * Whether any of the options was given: they go with `scan` only (ast-grep's `run` has none).
 *
 * @param values Every value of each option.
 * @returns The first one given, as written (`--error`), or undefined.
 */
export function severityFlagGiven(values: Readonly<Record<string, string[]>>): string | undefined {
  const given = OVERRIDES.find((s) => (values[s]?.length ?? 0) > 0);
  return given === undefined ? undefined : `--${given}`;
}

/**
 * The scan's rules with `--error`, `--warning`, `--info`, `--hint` and `--off` applied (a note on stderr for each
 * rule id they name that no rule has), or the problem: those options go with `scan` only.
 *
 * @param found The rules `graver sg` found (null: a pattern, not rules), or its problem.
 * @param on The host (for the notes), whether the command is a scan, and the options' values.
 * @returns The rules with their severities set, or the problem.
 */
export function severitiesSet<T extends { rules: InlineRule[] | null }>(
  found: T | { problem: string },
  on: { host: CliHost; scan: boolean; values: Record<string, string[]> },
): T | { problem: string } {
  const given = severityFlagGiven(on.values);
  if ("problem" in found || given === undefined) return found;
  if (!on.scan || found.rules === null) {
    return { problem: `${given} sets the severity of a scan's rules: it goes with "graver sg scan"` };
  }
  const { rules, notes } = withSeverities(found.rules, on.values);
  for (const note of notes) on.host.stderr(`note: ${note}\n`);
  return { ...found, rules };
}
