/**
 * `graver sg --inline-rules TEXT`: ast-grep's `scan --inline-rules`, a rule config (`id`, `language`, `rule`,
 * `constraints`, `utils`, `fix`, `files`, `ignores`) read as the `search_structural` /
 * `edit_rewrite_structural` arguments it stands for. The config is read as JSON (YAML's JSON form: the same
 * config); what only reports (`message`, `severity`, `note`, `url`, `metadata`, `labels`) is passed over, and
 * what graver does not build (`rewriters`) is refused naming the key; `transform` is passed on as it is.
 *
 * @module
 */

/** What an inline rule config stands for: the rule (its constraints inside), the language, the rewrite, globs. */
export interface InlineRule {
  rule: Record<string, unknown>;
  transform?: Record<string, unknown>;
  language?: string;
  rewrite?: string;
  globs: string[];
}

/** Keys of a rule config that only say how to report a match: nothing to search by. */
const REPORTING = ["id", "message", "severity", "note", "url", "metadata", "labels"];

/** Keys of a rule config graver does not build, with what to do instead. */
const NOT_BUILT: Readonly<Record<string, string>> = {
  rewriters: "rewrite each kind of site with its own call (rewriters is not built)",
};

/** A config's `files` or `ignores`: a glob, or a list of them. */
function globList(value: unknown, key: string): string[] | { problem: string } {
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || !list.every((g) => typeof g === "string")) {
    return { problem: `--inline-rules: "${key}" takes a glob or a list of globs` };
  }
  return list;
}

/**
 * Read an inline rule config.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { inlineRule } from "./_sg_inline_rules.ts";
 *
 * const read = inlineRule(
 *   '{"id": "no-log", "language": "ts", "rule": {"pattern": "console.log($A)"}, "fix": "log($A)", "ignores": ["dist/**"]}',
 * );
 * assert.deepEqual(read, {
 *   rule: { pattern: "console.log($A)" },
 *   language: "ts",
 *   rewrite: "log($A)",
 *   globs: ["!dist/**"],
 * });
 * assert.match((inlineRule("id: x\nrule: {kind: number}") as { problem: string }).problem, /JSON/);
 * ```
 *
 * @param text The config, as given.
 * @returns The arguments it stands for, or the problem with it.
 */
export function inlineRule(text: string): InlineRule | { problem: string } {
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch {
    return {
      problem:
        "--inline-rules is read as JSON (the JSON form of ast-grep's YAML config is the same config), " +
        `e.g. '{"id": "x", "language": "ts", "rule": {"kind": "call_expression"}}'`,
    };
  }
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    return { problem: "--inline-rules takes one rule config: a JSON object with a rule" };
  }
  const c = config as Record<string, unknown>;
  for (const key of Object.keys(c)) {
    if (NOT_BUILT[key]) return { problem: `--inline-rules: "${key}" is not taken here: ${NOT_BUILT[key]}` };
    if (
      ![...REPORTING, "language", "rule", "constraints", "utils", "transform", "fix", "files", "ignores"]
        .includes(key)
    ) {
      return { problem: `--inline-rules: "${key}" is not a key of ast-grep's rule config` };
    }
  }
  if (typeof c["rule"] !== "object" || c["rule"] === null || Array.isArray(c["rule"])) {
    return { problem: '--inline-rules: the config needs "rule", an object of rule keys' };
  }
  const out: InlineRule = { rule: { ...c["rule"] as Record<string, unknown> }, globs: [] };
  // Beside the rule in ast-grep's config, at the top of graver's rule object.
  if (c["constraints"] !== undefined) out.rule["constraints"] = c["constraints"];
  if (c["utils"] !== undefined) out.rule["utils"] = c["utils"];
  if (c["transform"] !== undefined) out.transform = c["transform"] as Record<string, unknown>;
  if (c["language"] !== undefined) {
    if (typeof c["language"] !== "string") return { problem: '--inline-rules: "language" takes a name' };
    out.language = c["language"];
  }
  if (c["fix"] !== undefined) {
    if (typeof c["fix"] !== "string") {
      return { problem: '--inline-rules: "fix" takes the rewrite as a string' };
    }
    out.rewrite = c["fix"];
  }
  for (const [key, negate] of [["files", false], ["ignores", true]] as const) {
    if (c[key] === undefined) continue;
    const list = globList(c[key], key);
    if ("problem" in list) return list;
    out.globs.push(...list.map((g) => negate ? `!${g}` : g));
  }
  return out;
}
