/**
 * The arguments of a structural search (`search_structural`, `edit_rewrite_structural`), folded into one
 * query: the pattern, the rewrite and the languages are its own; the file selection (`path`, `glob`, `type`,
 * `hidden`, `no_ignore`, `max_file_bytes`) and the page (`max_results`, `offset`, `cursor`, `max_chars`) are
 * read exactly as a text search reads them (`normalizeSearchTextArgs`), so both select the same files.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { fileTypeNames, languagesOfType } from "./file_types.ts";
import { normalizeSearchTextArgs, offsetOfCursor } from "./text_args.ts";
import type { StructuralQuery } from "./types.ts";

/** Arguments a structural query reads itself; every other one is a file or page argument of a text search. */
const OWN = new Set([
  "pattern",
  "rule",
  "rewrite",
  "language",
  "cursor",
  "output_format",
  "constraints",
  "utils",
  "transform",
  "rewriters",
  "expand_start",
  "expand_end",
  "debug_query",
]);

/** The shapes a structural search answers in. */
const OUTPUT_FORMATS = ["graver", "ast-grep"] as const;

/** A refusal of one argument. */
function badArg(name: string, message: string, hint: string): RecoverableError {
  return new RecoverableError("invalid_args", `Cannot search: ${message}`, {
    hint,
    details: { argument: name },
  });
}

/** The language ids `language` names (ripgrep's type names and manifest ids both work: `ts`, `typescript`). */
function languagesOf(value: unknown): string[] {
  if (value === undefined) return [];
  const names = typeof value === "string" ? [value] : value;
  if (!Array.isArray(names) || !names.every((n) => typeof n === "string")) {
    throw badArg("language", '"language" must be a string or a list of strings', 'Pass e.g. "typescript"');
  }
  const out: string[] = [];
  for (const name of names) {
    const ids = languagesOfType(name.toLowerCase());
    if (ids === null) {
      throw badArg(
        "language",
        `no grammar for the language "${name}"`,
        "Pass a language graver has a grammar for (typescript, tsx, javascript, python, go, rust …), or leave language out to search every file with a grammar",
      );
    }
    for (const id of ids) if (!out.includes(id)) out.push(id);
  }
  return out;
}

/**
 * Refuse a text type (`md`, `txt`): it names no file a pattern can match in. An unknown type is refused with the
 * others, by the file filter.
 */
function refuseTextOnlyTypes(types: readonly string[]): void {
  const textOnly = types.find((t) =>
    languagesOfType(t.toLowerCase()) === null && fileTypeNames().includes(t.toLowerCase())
  );
  if (textOnly === undefined) return;
  throw badArg(
    "type",
    `the type "${textOnly}" has no grammar: a structural search matches code only`,
    `Search ${textOnly} files with search_text, or pass a type with a grammar (ts, py, go, rust …)`,
  );
}

/** An argument that must be an object when given: it, undefined when absent, refused `invalid_args` otherwise. */
function objectArg(
  raw: Record<string, unknown>,
  name: string,
  refusal: { message: string; hint: string },
): Record<string, unknown> | undefined {
  const value = raw[name];
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw badArg(name, refusal.message, refusal.hint);
  }
  return value as Record<string, unknown>;
}

/** The arguments that take a rule object, or its text ({@linkcode withRuleTexts}). */
const RULE_OBJECT_ARGS = ["rule", "constraints", "utils", "transform", "expand_start", "expand_end"];

/**
 * The arguments with each rule object given as text (`rule`, `constraints`, `utils`, `transform`) read into the
 * object it stands for: YAML as ast-grep's docs write rules, or JSON (an MCP client may send a nested object as
 * a string). The reader (`rule_text.ts`, with the `js-yaml` package: ~10 ms to load) is imported only when some
 * argument is text. Text that does not read as one object is refused `invalid_args` with the problem's line
 * and column and how to quote.
 *
 * @param raw The arguments as given.
 * @returns The same arguments, each rule text read (the object itself when none was text).
 * @throws RecoverableError `invalid_args` for text that does not read as one object.
 */
export async function withRuleTexts(raw: Record<string, unknown>): Promise<Record<string, unknown>> {
  const texts = RULE_OBJECT_ARGS.filter((name) => typeof raw[name] === "string");
  if (texts.length === 0 && typeof raw["rewriters"] !== "string") return raw;
  const { ruleObject, ruleDocuments } = await import("./rule_text.ts");
  const out = { ...raw };
  if (typeof raw["rewriters"] === "string") {
    const read = ruleDocuments(raw["rewriters"]);
    const list = "problem" in read ? undefined : read.documents[0];
    if (!Array.isArray(list) || ("documents" in read && read.documents.length !== 1)) {
      const why = "problem" in read ? read.problem : "it does not read as one list";
      throw badArg(
        "rewriters",
        `"rewriters" was given as text that does not read as a list: ${why}`,
        'Write it as YAML "- id: …" items or a JSON list',
      );
    }
    out["rewriters"] = list;
  }
  for (const name of texts) {
    const read = ruleObject(raw[name] as string);
    if ("problem" in read) {
      throw badArg(
        name,
        `"${name}" was given as text that does not read as one object: ${read.problem}`,
        `Write it as YAML "key: value" lines or JSON. In YAML, quote a value that starts with ` +
          `[ { * & ! | > ' " % @ or holds ": " or " #" (pattern: '[$$$A]')`,
      );
    }
    out[name] = read.object;
  }
  return out;
}

/**
 * The `rule` argument: an object of rule keys (or its YAML or JSON text). A whole ast-grep rule config given as
 * the rule (its rule under `rule`, beside `language` or `fix`) is refused with the arguments it stands for.
 */
function ruleArg(raw: Record<string, unknown>): Record<string, unknown> | undefined {
  const rule = objectArg(raw, "rule", {
    message: '"rule" must be an object of rule keys',
    hint: 'Pass e.g. {"rule": {"kind": "call_expression"}}, or its YAML text "kind: call_expression"',
  });
  if (rule !== undefined && "rule" in rule) {
    const parts = Object.keys(rule).filter((k) =>
      ["constraints", "utils", "transform", "fix", "language"].includes(k)
    );
    throw badArg(
      "rule",
      `"rule" holds a whole ast-grep rule config (a "rule" inside it${
        parts.length > 0 ? `, beside ${parts.join(", ")}` : ""
      })`,
      'Pass the config\'s parts as arguments: its rule as "rule", "constraints", "utils" and "transform" as they are, ' +
        '"fix" as "rewrite" (edit_rewrite_structural), "language" as "language"',
    );
  }
  return rule;
}

/**
 * `constraints` and `utils` given beside the rule, where ast-grep's YAML config puts them: graver's rule object
 * takes them at its top (a pattern with constraints becomes the rule `{pattern, constraints}`).
 */
function besideTheRule(query: StructuralQuery, raw: Record<string, unknown>): void {
  const constraints = objectArg(raw, "constraints", {
    message: '"constraints" must map metavariable names to rules',
    hint: 'Pass e.g. {"pattern": "$F($$$A)", "constraints": {"F": {"regex": "^use[A-Z]"}}}',
  });
  if (constraints !== undefined) {
    // ast-grep's YAML puts constraints beside the rule: graver's rule object takes them at its top.
    query.rule = { ...(query.rule ?? { pattern: query.pattern }), constraints };
    query.pattern = "";
  }
  const utilsRefusal = {
    message: '"utils" must map names to rules, beside a "rule" that names them with "matches"',
    hint: 'Pass e.g. {"rule": {"matches": "call"}, "utils": {"call": {"kind": "call_expression"}}}',
  };
  const utils = objectArg(raw, "utils", utilsRefusal);
  if (utils !== undefined) {
    if (query.rule === undefined) throw badArg("utils", utilsRefusal.message, utilsRefusal.hint);
    // ast-grep's YAML puts utils beside the rule: graver's rule object takes them at its top.
    query.rule = { ...query.rule, utils };
  }
}

/**
 * What a rewrite takes beside its template: a fix's `expand_start` / `expand_end` (ast-grep's FixConfig) and the
 * `rewriters` a transform names, into the query.
 */
function rewriteParts(query: StructuralQuery, raw: Record<string, unknown>): void {
  for (const [arg, key] of [["expand_start", "expandStart"], ["expand_end", "expandEnd"]] as const) {
    const expansion = objectArg(raw, arg, {
      message: `"${arg}" must be a rule the sibling the replaced span widens to holds (and a stopBy)`,
      hint:
        `Pass e.g. {"${arg}": {"regex": ",", "stopBy": "neighbor"}} beside the rewrite: ast-grep's FixConfig`,
    });
    if (expansion !== undefined) query[key] = expansion;
  }
  const rewriters = raw["rewriters"];
  if (rewriters !== undefined) {
    if (!Array.isArray(rewriters)) {
      throw badArg(
        "rewriters",
        '"rewriters" must be a list of rewriters (each with id, rule and fix)',
        'Pass e.g. [{"id": "num", "rule": {"kind": "number"}, "fix": "N"}] and name them in a rewrite transform',
      );
    }
    query.rewriters = rewriters;
  }
}

/**
 * Normalize a structural search's arguments.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeStructuralArgs } from "./structural_args.ts";
 *
 * const q = normalizeStructuralArgs({ pattern: "console.log($$$A)", language: "ts", glob: "src/**" });
 * assert.deepEqual(q.languages, ["typescript", "tsx"]);
 * assert.deepEqual(q.globs, ["src/**"]);
 * ```
 *
 * @param raw The arguments as given (aliases already folded by the tool).
 * @returns The query with defaults.
 * @throws RecoverableError `invalid_args` for a missing or empty pattern (and no rule), both given, a rule
 *   that is no object, an unknown language, a file or page
 *   argument a text search refuses, or a cursor of another search.
 */
export function normalizeStructuralArgs(raw: Record<string, unknown>): StructuralQuery {
  const pattern = raw["pattern"];
  const rule = ruleArg(raw);
  if (rule !== undefined && pattern !== undefined) {
    throw badArg(
      "pattern",
      'pass "pattern" or "rule", not both',
      'Put the pattern inside the rule: {"rule": {"pattern": "…", …}}',
    );
  }
  if (rule === undefined && (typeof pattern !== "string" || pattern.trim() === "")) {
    throw badArg(
      "pattern",
      '"pattern" (or "rule") is required',
      'Pass the code to find with metavariables: {"pattern": "console.log($$$ARGS)"}',
    );
  }
  const rewrite = raw["rewrite"];
  if (rewrite !== undefined && typeof rewrite !== "string") {
    throw badArg("rewrite", '"rewrite" must be a string', 'Pass the new code, e.g. "logger.info($$$ARGS)"');
  }
  const rest = Object.fromEntries(Object.entries(raw).filter(([k]) => !OWN.has(k)));
  const files = normalizeSearchTextArgs({ ...rest, pattern: "", literal: true });
  refuseTextOnlyTypes(files.types);
  const query: StructuralQuery = {
    pattern: typeof pattern === "string" ? pattern.trim() : "",
    languages: languagesOf(raw["language"]),
    scope: files.scope,
    globs: files.globs,
    types: files.types,
    maxResults: files.maxResults,
    offset: files.offset,
    maxChars: files.maxChars,
    maxFileBytes: files.maxFileBytes,
  };
  if (files.symbols === false) query.symbols = false;
  if (files.contextBefore > 0 || files.contextAfter > 0) {
    query.context = { before: files.contextBefore, after: files.contextAfter };
  }
  if (rule !== undefined) query.rule = rule;
  besideTheRule(query, raw);
  if (rewrite !== undefined) query.rewrite = rewrite;
  const transform = objectArg(raw, "transform", {
    message: '"transform" must map new metavariable names to transformations',
    hint: 'Pass e.g. {"transform": {"SNAKE": {"convert": {"source": "$NAME", "toCase": "snakeCase"}}}}',
  });
  if (transform !== undefined) query.transform = transform;
  rewriteParts(query, raw);
  if (raw["debug_query"] === true) query.debugQuery = true;
  const format = raw["output_format"];
  if (format !== undefined) {
    if (!OUTPUT_FORMATS.includes(format as typeof OUTPUT_FORMATS[number])) {
      throw badArg(
        "output_format",
        `"output_format" must be one of ${OUTPUT_FORMATS.map((f) => `"${f}"`).join(", ")}`,
        "Pass \"ast-grep\" for ast-grep's JSON match shape, or leave it out for graver's",
      );
    }
    query.outputFormat = format as typeof OUTPUT_FORMATS[number];
  }
  if (files.outputMode !== "content") query.outputMode = files.outputMode;
  if (query.outputMode !== undefined && query.outputFormat === "ast-grep") {
    throw badArg(
      "output_mode",
      `output_mode "${query.outputMode}" lists files, output_format "ast-grep" lists matches: pass one of them`,
      "Leave output_format out for files or counts, or output_mode out for ast-grep's matches",
    );
  }
  if (typeof raw["cursor"] === "string") query.offset = offsetOfCursor(raw["cursor"], query);
  return query;
}
