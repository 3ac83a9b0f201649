/**
 * A scan's rules checked before any runs, as ast-grep reads every rule before it scans: each compiled for its
 * language (its keys, kinds, fields, patterns, utilities, fix and transform), whether or not a file of that
 * language is in the scan. A scan runs its rules one after another, each fix one atomic commit; without this,
 * a bad third rule was found only after the first two had printed, or with `-U` written, their findings, and
 * a rule for a language with no file in the scan was never read at all.
 *
 * @module
 */
import { isRecoverable } from "../errors.ts";
import { normalizeStructuralArgs } from "../search/mod.ts";
import { compiledQueryOf } from "../search/structural_programs.ts";
import { patternMatcherOf } from "../structural/search/mod.ts";
import type { Workspace } from "../workspace.ts";
import { type InlineRule, toolArgsOf } from "./_sg_inline_rules.ts";

/**
 * The first rule that does not compile, as a problem naming it (its id, or its place among the rules) with
 * the refusal and its hint; null when all do.
 *
 * @param rules The scan's rules, in order.
 * @param ws A workspace (its grammars compile the rules).
 * @returns The problem, or null.
 */
export async function ruleProblem(rules: readonly InlineRule[], ws: Workspace): Promise<string | null> {
  const matcher = patternMatcherOf(ws);
  for (const [i, rule] of rules.entries()) {
    try {
      const query = normalizeStructuralArgs(toolArgsOf(rule));
      for (const language of query.languages) await matcher.compile(language, compiledQueryOf(query));
    } catch (err) {
      if (!isRecoverable(err)) throw err;
      const name = rule.id === "" ? `rule ${i + 1} of ${rules.length}` : `rule "${rule.id}"`;
      const hint = err.hint ? ` (${err.hint})` : "";
      return `${name} cannot be used, so no rule was run: ${err.message}${hint}`;
    }
  }
  return null;
}

/**
 * The first of a scan's rules (those not off) that does not compile, as {@linkcode ruleProblem} says it, in a
 * workspace opened at the scan's root for it.
 *
 * @param rules The scan's rules.
 * @param on How the command opens a workspace, and its options (`--root`).
 * @returns The problem, or null.
 */
export async function firstUnusableRule(
  rules: readonly InlineRule[],
  on: { open: (root: string | undefined) => Promise<Workspace>; flags: Record<string, string | boolean> },
): Promise<string | null> {
  const ws = await on.open(on.flags["root"] as string | undefined);
  try {
    return await ruleProblem(rules.filter((r) => r.severity !== "off"), ws);
  } finally {
    await ws.close();
  }
}
