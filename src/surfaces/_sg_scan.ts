/**
 * `graver sg scan`, as ast-grep's `scan` behaves: its rules come from `--inline-rules TEXT` or a rule file
 * (`-r FILE`, `--rule FILE`: in scan mode these name ast-grep's rule file, not a rewrite or a rule object), one
 * or several configs each (`inlineRules`); each match is reported as ast-grep's `--report-style short` prints it
 * (`path:line:column: label[id]: message`, the label `help`, `note`, `warning` or `error` by severity), in `--format ast-grep` with the rule's `ruleId`, `severity`,
 * `note`, `message` and primary label added as `ast-grep scan --json` adds them; and the exit code is a lint's:
 * 1 when a rule of severity `error` matched, else 0 (found or not), 2 on an error. A rule of severity `off` is
 * not run.
 *
 * @module
 */
import type { CliHost } from "./_cli_contract.ts";
import { resolveRoot } from "./_cli_workspace.ts";
import { type InlineRule, inlineRules } from "./_sg_inline_rules.ts";
import type { Paint } from "./cli_output.ts";

/** One match of a `search_structural` result, as far as a report line reads it. */
interface ReportedMatch {
  path: string;
  line: number;
  column: number;
}

/**
 * The rule configs a `graver sg` invocation runs: those of `--inline-rules`, or in scan mode of the rule file
 * `-r`/`--rule` names (read from the host, relative to the current folder); null when it names none (a pattern
 * or a rule object is searched instead).
 *
 * @param flags The command's flags.
 * @param on The host, and whether `scan` was the command's first word.
 * @returns The configs, null, or the problem.
 */
export async function ruleConfigs(
  flags: Record<string, string | boolean>,
  on: { host: CliHost; scan: boolean },
): Promise<InlineRule[] | null | { problem: string }> {
  const inline = flags["inline-rules"];
  const file = on.scan ? ruleFileOf(flags) : undefined;
  if (typeof file === "object") return file;
  if (typeof inline === "string" && file !== undefined) {
    return { problem: "give the rules with --inline-rules or in a rule file (-r FILE), not both" };
  }
  if (typeof inline === "string") return await inlineRules(inline, "--inline-rules");
  if (file === undefined) return null;
  const text = await readRuleFile(on.host, resolveRoot(on.host.cwd, file));
  if (typeof text === "object") {
    return {
      problem: `cannot read the rule file "${file}" (${text.problem}); in scan mode -r and --rule name ` +
        "ast-grep's rule file (a YAML rule config): to rewrite by a pattern, run graver sg -p PATTERN -r REWRITE " +
        "without the word scan",
    };
  }
  return await inlineRules(text, `the rule file "${file}"`);
}

/**
 * A rule file's text, read only when it is a regular file of at most {@linkcode RULE_FILE_MAX_BYTES}: a FIFO
 * (which would block the read for ever), a device or a huge file named as a rule file, or planted in a rule
 * folder, is refused, not read.
 *
 * @param host The host (its disk backend reads no special file).
 * @param path The file's absolute path.
 * @returns The text, or the problem.
 */
export async function readRuleFile(host: CliHost, path: string): Promise<string | { problem: string }> {
  try {
    const st = await host.backend.stat(path);
    if (!st.isFile()) return { problem: "it is not a regular file" };
    if ((st.size ?? 0) > RULE_FILE_MAX_BYTES) {
      return { problem: `it has ${st.size} bytes; a rule file may have ${RULE_FILE_MAX_BYTES}` };
    }
    const bytes = await host.backend.readFile(path);
    return typeof bytes === "string" ? bytes : new TextDecoder().decode(bytes);
  } catch (err) {
    return { problem: err instanceof Error ? err.message : String(err) };
  }
}

/** The largest rule file read (a rule text's own bound: `RULE_TEXT_MAX_CHARS`). */
const RULE_FILE_MAX_BYTES = 1_000_000;

/** The rule file of scan mode (`-r FILE` or `--rule FILE`), undefined without one, or the problem of two. */
function ruleFileOf(flags: Record<string, string | boolean>): string | undefined | { problem: string } {
  const given = [flags["rewrite"], flags["rule"]].filter((f): f is string => typeof f === "string");
  if (given.length > 1) return { problem: "give one rule file (-r FILE or --rule FILE)" };
  if (given.length === 1 && typeof flags["pattern"] === "string") {
    return { problem: "scan runs the rules of a rule file or --inline-rules: it takes no -p PATTERN" };
  }
  return given[0];
}

/**
 * The flags one rule config's run reads: its rule file flags taken out (in scan mode `-r`/`--rule` named the
 * file, not a rewrite or a rule object) and `--inline-rules` left to the config itself.
 *
 * @param flags The command's flags.
 * @param scan Whether `scan` was the command's first word.
 * @returns The flags of one rule's run.
 */
export function flagsOfOneRule(
  flags: Record<string, string | boolean>,
  scan: boolean,
): Record<string, string | boolean> {
  const out = { ...flags };
  delete out["inline-rules"];
  if (scan) {
    delete out["rewrite"];
    delete out["rule"];
  }
  return out;
}

/**
 * A match as ast-grep's short report prints it: `path:line:column: label[id]: message`.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportLine } from "./_sg_scan.ts";
 *
 * const plain = { cyan: (s: string) => s, green: (s: string) => s, bold: (s: string) => s } as never;
 * const rule = { id: "no-log", severity: "warning", message: "use the logger" } as never;
 * assert.equal(reportLine({ path: "a.js", line: 2, column: 17 }, rule, plain), "a.js:2:17: warning[no-log]: use the logger");
 * ```
 *
 * @param m The match (its path as the command line names it).
 * @param rule The rule that found it.
 * @param paint The colours.
 * @returns The line.
 */
export function reportLine(m: ReportedMatch, rule: InlineRule, paint: Paint): string {
  return `${paint.cyan(m.path)}:${paint.green(String(m.line))}:${m.column}: ${
    paint.bold(reportLabel(rule))
  }: ${rule.message}`;
}

/**
 * A rule's label in a report, as ast-grep prints it: `help[id]`, `note[id]`, `warning[id]`, `error[id]`.
 *
 * @param rule The rule.
 * @returns The label.
 */
export function reportLabel(rule: InlineRule): string {
  return `${REPORT_LABEL[rule.severity]}[${rule.id}]`;
}

/** How ast-grep's report labels each severity (its JSON keeps the severity's own name). */
const REPORT_LABEL: Readonly<Record<InlineRule["severity"], string>> = {
  hint: "help",
  info: "note",
  warning: "warning",
  error: "error",
  off: "off",
};

/**
 * The report lines of a `search_structural` result's matches under one rule.
 *
 * @param matches The result's matches (their paths as shown).
 * @param rule The rule.
 * @param paint The colours.
 * @returns The text, a line a match.
 */
export function reportText(matches: readonly ReportedMatch[], rule: InlineRule, paint: Paint): string {
  return matches.map((m) => reportLine(m, rule, paint) + "\n").join("");
}

/**
 * ast-grep's matches as `ast-grep scan --json` prints them: each with the rule's `ruleId`, `severity`, `note`,
 * `message` and its primary label (the match's own text and range).
 *
 * @param matches Matches in `ast-grep run --json`'s shape.
 * @param rule The rule that found them.
 * @returns The same matches with the rule's report keys.
 */
export function scanJsonOf(
  matches: readonly Record<string, unknown>[],
  rule: InlineRule,
): Record<string, unknown>[] {
  return matches.map((m) => ({
    ...m,
    ruleId: rule.id,
    severity: rule.severity,
    note: rule.note,
    message: rule.message,
    labels: [{ text: m["text"], range: m["range"], style: "primary" }],
  }));
}

/**
 * The exit code of a scan, as ast-grep's: 2 when a call failed, 1 when a rule of severity `error` matched and its
 * matches were not fixed (no `fix`, or one only previewed), else 0 (whether or not anything was found: a scan is
 * a lint).
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { scanExit } from "./_sg_scan.ts";
 *
 * const error = { severity: "error" } as never;
 * const hint = { severity: "hint" } as never;
 * assert.equal(scanExit([{ codes: [1], rule: error, fixed: false }, { codes: [0], rule: hint, fixed: false }]), 0);
 * assert.equal(scanExit([{ codes: [0], rule: error, fixed: false }]), 1);
 * assert.equal(scanExit([{ codes: [0], rule: error, fixed: true }]), 0);
 * assert.equal(scanExit([{ codes: [2], rule: hint, fixed: false }]), 2);
 * ```
 *
 * @param runs Each rule's exit codes of its calls (0 found or rewritten, 1 none, 2 failed), the rule, and whether
 *   its fix was written.
 * @returns The command's code.
 */
export function scanExit(
  runs: readonly { codes: readonly number[]; rule: InlineRule; fixed: boolean }[],
): number {
  if (runs.some((r) => r.codes.includes(2))) return 2;
  return runs.some((r) => r.rule.severity === "error" && !r.fixed && r.codes.includes(0)) ? 1 : 0;
}

/**
 * The report lines of a rewrite's sites (scan mode: a rule with a fix), each file's in order.
 *
 * @param data The rewrite's result data (its files, each with its sites).
 * @param on The rule, the colours, and how a path is printed.
 * @returns One line per site.
 */
export function rewrittenReport(
  data: Record<string, unknown>,
  on: { report: InlineRule; paint: Paint; shown: (path: string) => string },
): string[] {
  const files =
    (data["files"] as { path: string; sites?: { line: number; column: number }[] }[] | undefined) ?? [];
  return files.flatMap((f) =>
    (f.sites ?? []).map((s) =>
      reportLine({ path: on.shown(f.path), line: s.line, column: s.column }, on.report, on.paint)
    )
  );
}

/**
 * Why a report format (`--format github`, `--format sarif`) cannot be used as given, if it cannot: each
 * reports a scan's findings, so it goes with `scan` and its rules, and neither writes fixes (`-U`) nor prints
 * another shape beside it (`--json`).
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportFormatProblem } from "./_sg_scan.ts";
 *
 * assert.equal(reportFormatProblem({ format: "sarif" }, true), undefined);
 * assert.match(reportFormatProblem({ format: "github" }, false)!, /goes with "graver sg scan"/);
 * ```
 *
 * @param flags The parsed options.
 * @param scan Whether the command is a scan with rules.
 * @returns The problem, or undefined.
 */
export function reportFormatProblem(
  flags: Readonly<Record<string, string | boolean>>,
  scan: boolean,
): string | undefined {
  const format = flags["format"];
  if (format !== "github" && format !== "sarif") return undefined;
  const shape = format === "github" ? "GitHub annotations" : "a SARIF log";
  if (!scan) return `--format ${format} reports a scan's findings as ${shape}: it goes with "graver sg scan"`;
  if (flags["update-all"] === true) {
    return `--format ${format} reports findings and writes nothing; -U writes the fixes: run one, then the other`;
  }
  if (flags["json"] === true) return `--format ${format} and --json print two shapes: give one`;
  return undefined;
}
