/**
 * `graver sg scan --format github`: each finding as a GitHub Actions workflow command, as ast-grep's scan prints
 * it (`::error file=src/a.js,line=2,endLine=3,title=no-log::use the logger`), so that a CI step's findings show
 * on the pull request's lines. The level is the rule's severity (`error`, `warning`; `info` is a `notice`); a
 * `hint` prints nothing. Values are escaped as the runner reads them: `%`, CR and LF in the message, and also
 * `:` and `,` in the file and title. A rule's fix is not applied or shown: the findings are reported, as
 * ast-grep does; `-U` with it is refused rather than passed over (`reportFormatProblem`).
 *
 * @module
 */
import type { InlineRule } from "./_sg_inline_rules.ts";

/** A finding: its path as printed, and its first and last line (1-based). */
export interface GithubFinding {
  path: string;
  line: number;
  end_line?: number;
}

/** The workflow command of each severity; a hint has none. */
const LEVEL: Readonly<Record<InlineRule["severity"], string | null>> = {
  error: "error",
  warning: "warning",
  info: "notice",
  hint: null,
  off: null,
};

/** A message escaped as the runner reads a command's data. */
function escapeData(s: string): string {
  return s.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

/** A property's value escaped as the runner reads it (a `:` or `,` would end it). */
function escapeProperty(s: string): string {
  return escapeData(s).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

/**
 * The workflow command of one finding, or null for a rule whose severity has none (a hint).
 *
 * @example
 * ```ts
 * import { githubLine } from "./_sg_github.ts";
 * import type { InlineRule } from "./_sg_inline_rules.ts";
 * import assert from "node:assert/strict";
 *
 * const rule = { id: "no-log", severity: "info", message: "100% bad,\nreally" } as InlineRule;
 * assert.equal(
 *   githubLine({ path: "a,b:c.js", line: 2, end_line: 3 }, rule),
 *   "::notice file=a%2Cb%3Ac.js,line=2,endLine=3,title=no-log::100%25 bad,%0Areally",
 * );
 * assert.equal(githubLine({ path: "a.js", line: 1 }, { ...rule, severity: "hint" }), null);
 * ```
 *
 * @param f The finding.
 * @param rule The rule that found it.
 * @returns The line, without its line break.
 */
export function githubLine(f: GithubFinding, rule: InlineRule): string | null {
  const level = LEVEL[rule.severity];
  if (level === null) return null;
  const file = escapeProperty(f.path);
  return `::${level} file=${file},line=${f.line},endLine=${f.end_line ?? f.line},title=${
    escapeProperty(rule.id)
  }::${escapeData(rule.message)}`;
}

/**
 * The workflow commands of a rule's findings, a line each.
 *
 * @param findings The findings (their paths as printed).
 * @param rule The rule.
 * @returns The text.
 */
export function githubText(findings: readonly GithubFinding[], rule: InlineRule): string {
  return findings.flatMap((f) => {
    const line = githubLine(f, rule);
    return line === null ? [] : [line + "\n"];
  }).join("");
}

/**
 * The rules as a GitHub report runs them: searched, their fixes neither written nor shown (SARIF shows them
 * as a result's fixes, and keeps them).
 *
 * @param rules The scan's rules.
 * @returns The rules without their fixes.
 */
export function reportedOnly(rules: readonly InlineRule[]): InlineRule[] {
  return rules.map((r) => {
    if (r.rewrite === undefined) return r;
    const { rewrite: _, transform: _t, rewriters: _r, expandStart: _s, expandEnd: _e, ...rest } = r;
    return rest;
  });
}
