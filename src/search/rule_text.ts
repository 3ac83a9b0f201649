/**
 * ast-grep's rules as people write them: YAML text (JSON is YAML too). A structural query's object arguments
 * (`rule`, `constraints`, `utils`, `transform`) may come as that text — an MCP client that sends a nested object
 * as a string, a model that writes the rule as in ast-grep's docs — and `graver sg scan` reads whole rule
 * configs from it, several in one text separated by `---` as ast-grep's `--inline-rules` and rule files hold
 * them. Read with the `js-yaml` package (it reads no environment, where `yaml` reads `process.env` on each
 * parse: Deno asks for an env permission there): YAML 1.2's core schema (no custom tags), at most
 * {@linkcode RULE_TEXT_MAX_CHARS} characters, {@linkcode MAX_DEPTH} levels of nesting, {@linkcode MAX_ALIASES}
 * aliases, and at most {@linkcode MAX_NODES} values once its aliases are expanded (an alias bomb shares its
 * objects when read, and would blow up when a rule is walked or printed); every problem said with its line and
 * column.
 *
 * @module
 */
import { loadAll, YAMLException } from "js-yaml";

/** The longest rule text read (a rule is a few lines; a megabyte of them is a mistake or an attack). */
export const RULE_TEXT_MAX_CHARS = 1_000_000;

/** Aliases a text may use (`*name`): enough for any rule. */
const MAX_ALIASES = 100;

/** Levels of nesting a text may have (a rule a few dozen deep is already unusual). */
const MAX_DEPTH = 100;

/** Values a text may stand for, each alias counted as the copy it stands for. */
const MAX_NODES = 100_000;

/** What {@linkcode ruleDocuments} answers: each document's value, or the first problem found. */
export type RuleDocuments = { documents: unknown[] } | { problem: string };

/** A YAML error as one line: its reason and place (1-based line and column). */
function problemOf(err: unknown): string {
  if (err instanceof YAMLException) {
    const at = err.mark ? ` at line ${err.mark.line + 1}, column ${err.mark.column + 1}` : "";
    return `${err.reason}${at}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** Whether a value stands for more than {@linkcode MAX_NODES} values, its shared objects counted each time. */
function tooLarge(value: unknown): boolean {
  let budget = MAX_NODES;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (--budget < 0) return true;
    if (Array.isArray(v)) { for (const item of v) stack.push(item); }
    else if (typeof v === "object" && v !== null) { for (const item of Object.values(v)) stack.push(item); }
  }
  return false;
}

/**
 * Read a text of YAML documents (one, or several separated by `---` lines; JSON is one YAML document).
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { ruleDocuments } from "./rule_text.ts";
 *
 * assert.deepEqual(ruleDocuments("id: a\nrule:\n  pattern: $A == null\n---\nid: b\nrule: {kind: number}\n"), {
 *   documents: [{ id: "a", rule: { pattern: "$A == null" } }, { id: "b", rule: { kind: "number" } }],
 * });
 * assert.deepEqual(ruleDocuments('{"kind": "number"}'), { documents: [{ kind: "number" }] });
 * assert.match((ruleDocuments("rule: [") as { problem: string }).problem, /line 1/);
 * ```
 *
 * @param text The text as given.
 * @returns The documents' values (empty documents left out), or the problem with the text.
 */
export function ruleDocuments(text: string): RuleDocuments {
  if (text.length > RULE_TEXT_MAX_CHARS) {
    return {
      problem: `the text is ${text.length} characters long; a rule text may have ${RULE_TEXT_MAX_CHARS}`,
    };
  }
  let documents: unknown[];
  try {
    documents = loadAll(text, { maxAliases: MAX_ALIASES, maxDepth: MAX_DEPTH });
  } catch (err) {
    return { problem: problemOf(err) }; // never thrown at the caller: every problem is the text's
  }
  documents = documents.filter((d) => d !== null && d !== undefined);
  if (tooLarge(documents)) {
    return { problem: `the text stands for more than ${MAX_NODES} values once its aliases are expanded` };
  }
  return { documents };
}

/**
 * Read one YAML (or JSON) object: what an object argument given as text stands for.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { ruleObject } from "./rule_text.ts";
 *
 * assert.deepEqual(ruleObject("kind: call_expression\nhas:\n  kind: identifier\n"), {
 *   object: { kind: "call_expression", has: { kind: "identifier" } },
 * });
 * assert.match((ruleObject("- a\n- b") as { problem: string }).problem, /reads as a list/);
 * ```
 *
 * @param text The text as given.
 * @returns The object, or the problem with the text.
 */
export function ruleObject(text: string): { object: Record<string, unknown> } | { problem: string } {
  const read = ruleDocuments(text);
  if ("problem" in read) return read;
  if (read.documents.length !== 1) {
    return {
      problem: `the text holds ${read.documents.length} YAML documents, where one object was expected`,
    };
  }
  const value = read.documents[0];
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const what = Array.isArray(value) ? "a list" : typeof value === "string" ? "a string" : String(value);
    return {
      problem:
        `the text reads as ${what}, where an object of keys was expected: write "key: value" lines (or JSON)`,
    };
  }
  return { object: value as Record<string, unknown> };
}
