/**
 * `graver sg scan`'s rule configs: ast-grep's `scan --inline-rules TEXT` and `scan -r FILE`, each a text of one
 * or more rule configs (YAML as ast-grep writes them, JSON too; several separated by `---` lines), each config
 * (`id`, `language`, `rule`, `constraints`, `utils`, `transform`, `fix`, `files`, `ignores`, and the reporting
 * keys `severity`, `message`, `note`) read as the `search_structural` / `edit_rewrite_structural` arguments it
 * stands for. What only decorates a report (`url`, `metadata`, `labels`) is passed over.
 *
 * @module
 */

/** ast-grep's severities; `off` turns a rule off. */
const SEVERITIES = ["hint", "info", "warning", "error", "off"] as const;

/** A rule's severity. */
export type Severity = typeof SEVERITIES[number];

/** What one rule config stands for: the rule (its constraints and utils inside), the language, the rewrite, globs. */
export interface InlineRule {
  rule: Record<string, unknown>;
  transform?: Record<string, unknown>;
  rewriters?: unknown[];
  /** A FixConfig's `expandStart` / `expandEnd`: relations to the siblings the replaced span widens to. */
  expandStart?: Record<string, unknown>;
  expandEnd?: Record<string, unknown>;
  language?: string;
  rewrite?: string;
  globs: string[];
  /** The config's `id` ("" when it has none). */
  id: string;
  /** Its `severity` (ast-grep's default: hint). */
  severity: Severity;
  /** Its `message` ("" when it has none). */
  message: string;
  /** Its `note` (null when it has none). */
  note: string | null;
}

/**
 * The `search_structural` / `edit_rewrite_structural` arguments a rule config stands for, beside the files it
 * is run on: its rule, language, fix, transform, rewriters and expansions.
 *
 * @param c The config.
 * @returns The arguments.
 */
export function toolArgsOf(c: InlineRule): Record<string, unknown> {
  const args: Record<string, unknown> = { rule: c.rule };
  if (c.language !== undefined) args["language"] = [c.language];
  if (c.rewrite !== undefined) args["rewrite"] = c.rewrite;
  if (c.transform !== undefined) args["transform"] = c.transform;
  if (c.rewriters !== undefined) args["rewriters"] = c.rewriters;
  if (c.expandStart !== undefined) args["expand_start"] = c.expandStart;
  if (c.expandEnd !== undefined) args["expand_end"] = c.expandEnd;
  return args;
}

/** Keys of a rule config that only decorate a report: nothing to search by. */
const DECORATING = ["url", "metadata", "labels"];

/** Keys of a rule config graver reads. */
const READ = [
  "id",
  "severity",
  "message",
  "note",
  "language",
  "rule",
  "constraints",
  "utils",
  "transform",
  "fix",
  "files",
  "ignores",
  "rewriters",
];

/** ast-grep's FixConfig (`{template, expandStart, expandEnd}`), undefined for a string fix, or the problem. */
function fixConfigOf(
  fix: unknown,
): { template: string; expandStart?: Record<string, unknown>; expandEnd?: Record<string, unknown> } | {
  problem: string;
} | undefined {
  if (typeof fix !== "object" || fix === null || Array.isArray(fix)) return undefined;
  const f = fix as Record<string, unknown>;
  for (const key of Object.keys(f)) {
    if (!["template", "expandStart", "expandEnd", "title"].includes(key)) {
      return { problem: `"fix.${key}" is not a key of a FixConfig (template, expandStart, expandEnd)` };
    }
  }
  if (typeof f["template"] !== "string") return { problem: '"fix.template" takes the rewrite as a string' };
  const out: {
    template: string;
    expandStart?: Record<string, unknown>;
    expandEnd?: Record<string, unknown>;
  } = {
    template: f["template"],
  };
  for (const key of ["expandStart", "expandEnd"] as const) {
    const value = f[key];
    if (value === undefined) continue;
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return { problem: `"fix.${key}" takes a rule (and a stopBy)` };
    }
    out[key] = value as Record<string, unknown>;
  }
  return out;
}

/** A config's `files` or `ignores`: a glob, or a list of them. */
function globList(value: unknown, key: string): string[] | { problem: string } {
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || !list.every((g) => typeof g === "string")) {
    return { problem: `"${key}" takes a glob or a list of globs` };
  }
  return list;
}

/** A key whose value must be a string when given: it, the default when absent, or the problem. */
function stringKey(
  c: Record<string, unknown>,
  key: string,
  what: string,
): string | undefined | { problem: string } {
  const value = c[key];
  if (value === undefined || typeof value === "string") return value;
  return { problem: `"${key}" takes ${what}, not ${JSON.stringify(value)}` };
}

/** The reporting keys of a config: id, severity, message, note. */
function reportingOf(
  c: Record<string, unknown>,
): Pick<InlineRule, "id" | "severity" | "message" | "note"> | { problem: string } {
  const id = stringKey(c, "id", "the rule's name");
  const message = stringKey(c, "message", "a line of text");
  const note = stringKey(c, "note", "text");
  for (const v of [id, message, note]) if (typeof v === "object") return v;
  const severity = c["severity"] ?? "hint";
  if (!SEVERITIES.includes(severity as Severity)) {
    return { problem: `"severity" takes one of ${SEVERITIES.join(", ")}, not ${JSON.stringify(severity)}` };
  }
  return {
    id: (id as string | undefined) ?? "",
    severity: severity as Severity,
    message: (message as string | undefined) ?? "",
    note: (note as string | undefined) ?? null,
  };
}

/** One config, read. */
function configOf(config: unknown): InlineRule | { problem: string } {
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    return { problem: "a rule config is an object of keys (id, language, rule, fix …)" };
  }
  const c = config as Record<string, unknown>;
  for (const key of Object.keys(c)) {
    if (![...READ, ...DECORATING].includes(key)) {
      return { problem: `"${key}" is not a key of ast-grep's rule config` };
    }
  }
  if (typeof c["rule"] !== "object" || c["rule"] === null || Array.isArray(c["rule"])) {
    return { problem: 'the config needs "rule", an object of rule keys' };
  }
  const reporting = reportingOf(c);
  if ("problem" in reporting) return reporting;
  const out: InlineRule = { rule: { ...c["rule"] as Record<string, unknown> }, globs: [], ...reporting };
  // Beside the rule in ast-grep's config, at the top of graver's rule object.
  if (c["constraints"] !== undefined) out.rule["constraints"] = c["constraints"];
  if (c["utils"] !== undefined) out.rule["utils"] = c["utils"];
  if (c["transform"] !== undefined) out.transform = c["transform"] as Record<string, unknown>;
  if (c["rewriters"] !== undefined) out.rewriters = c["rewriters"] as unknown[];
  const language = stringKey(c, "language", "a language's name");
  const fixConfig = fixConfigOf(c["fix"]);
  if (fixConfig !== undefined && "problem" in fixConfig) return fixConfig;
  const fix = fixConfig?.template ??
    stringKey(c, "fix", "the rewrite as a string, or a FixConfig (template …)");
  for (const v of [language, fix]) if (typeof v === "object") return v;
  if (language !== undefined) out.language = language as string;
  if (fix !== undefined) out.rewrite = fix as string;
  if (fixConfig?.expandStart !== undefined) out.expandStart = fixConfig.expandStart;
  if (fixConfig?.expandEnd !== undefined) out.expandEnd = fixConfig.expandEnd;
  for (const [key, negate] of [["files", false], ["ignores", true]] as const) {
    if (c[key] === undefined) continue;
    const list = globList(c[key], key);
    if ("problem" in list) return list;
    out.globs.push(...list.map((g) => negate ? `!${g}` : g));
  }
  return out;
}

/**
 * Read a text of rule configs (`--inline-rules`, or a rule file's content).
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { inlineRules } from "./_sg_inline_rules.ts";
 *
 * const read = await inlineRules(
 *   "id: no-log\nlanguage: ts\nseverity: error\nrule:\n  pattern: console.log($A)\nfix: log($A)\nignores: [dist/**]\n" +
 *     "---\n" + '{"id": "n", "rule": {"kind": "number"}}',
 *   "--inline-rules",
 * );
 * assert.deepEqual(read, [
 *   {
 *     rule: { pattern: "console.log($A)" },
 *     language: "ts",
 *     rewrite: "log($A)",
 *     globs: ["!dist/**"],
 *     id: "no-log",
 *     severity: "error",
 *     message: "",
 *     note: null,
 *   },
 *   { rule: { kind: "number" }, globs: [], id: "n", severity: "hint", message: "", note: null },
 * ]);
 * assert.match((await inlineRules("id: x\nrule: [", "--inline-rules") as { problem: string }).problem, /line 2/);
 * ```
 *
 * @param text The configs, as given.
 * @param source Where they came from, as the problem names it (`--inline-rules`, a file's path).
 * @returns Each config's arguments, in order, or the problem with the first that has one.
 */
export async function inlineRules(text: string, source: string): Promise<InlineRule[] | { problem: string }> {
  // The YAML reader (`js-yaml`, ~10 ms to load) only for a command that has rules to read.
  const { ruleDocuments } = await import("../search/rule_text.ts");
  const read = ruleDocuments(text);
  if ("problem" in read) return { problem: `${source} does not read as YAML: ${read.problem}` };
  if (read.documents.length === 0) return { problem: `${source} holds no rule config` };
  const out: InlineRule[] = [];
  for (const [i, doc] of read.documents.entries()) {
    const config = configOf(doc);
    const which = read.documents.length > 1 ? ` (its rule config ${i + 1})` : "";
    if ("problem" in config) return { problem: `${source}${which}: ${config.problem}` };
    out.push(config);
  }
  return out;
}
