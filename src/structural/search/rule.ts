/**
 * ast-grep's rule objects, for a structural search: a node matches a rule when every key of the rule holds —
 * `pattern` (a code pattern matches the node itself), `kind` (its node type), `regex` (its text holds a match
 * of an RE2 regular expression, linear-time), `inside` / `has` (an enclosing / enclosed node matches another
 * rule; `stopBy: "neighbor"` — the default — looks one level, `"end"` all the way, a rule up to the first node
 * it matches), and `all` / `any` / `not` over other rules. Metavariables that patterns bind are the match's
 * (the first of `any` that holds gives its own). `precedes`, `follows`, `constraints` and `matches` are
 * refused as not built yet.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import type { RE2JS } from "re2js";
import { RecoverableError } from "../../errors.ts";
import { compileRe2 } from "../../syntax/linear_regex.ts";
import {
  type Binding,
  type CompiledPattern,
  matchPattern,
  matchPatternAround,
  matchPatternAt,
  type PatternMatch,
} from "../edit/pattern.ts";

/** How far a relational rule looks. */
type StopBy = "neighbor" | "end" | CompiledRule;

/** A rule compiled for one language. */
export interface CompiledRule {
  pattern?: CompiledPattern;
  kind?: string;
  regex?: RE2JS;
  inside?: { rule: CompiledRule; stopBy: StopBy };
  has?: { rule: CompiledRule; stopBy: StopBy };
  all?: CompiledRule[];
  any?: CompiledRule[];
  not?: CompiledRule;
}

/** The keys a rule may have, and the ones ast-grep has that are not built yet. */
const KEYS = ["pattern", "kind", "regex", "inside", "has", "all", "any", "not"];
const NOT_YET = ["precedes", "follows", "constraints", "matches", "nthChild", "range"];

type Bindings = Record<string, Binding>;

/** A refusal of a rule, naming its place in the rule object. */
function badRule(where: string, message: string, hint: string): RecoverableError {
  return new RecoverableError("invalid_args", `Cannot use the rule: ${where} ${message}`, {
    hint,
    details: { at: where },
  });
}

/** The stopBy of a relational rule. */
function stopByOf(
  value: unknown,
  where: string,
  compile: (raw: unknown, where: string) => CompiledRule,
): StopBy {
  if (value === undefined || value === "neighbor") return "neighbor";
  if (value === "end") return "end";
  if (typeof value === "object" && value !== null) return compile(value, `${where}.stopBy`);
  throw badRule(
    `${where}.stopBy`,
    `must be "neighbor", "end" or a rule`,
    'Pass stopBy: "end" to look all the way',
  );
}

/**
 * Compile a rule object (as ast-grep's YAML `rule:` holds it).
 *
 * @param raw The rule, as given.
 * @param pattern Compiles a code pattern for the rule's language (refusing one the grammar cannot read).
 * @returns The compiled rule.
 * @throws RecoverableError `invalid_args` for an unknown or unbuilt key, an empty rule or a bad regex.
 */
export function compileRule(raw: unknown, pattern: (source: string) => CompiledPattern): CompiledRule {
  const compile = (value: unknown, where: string): CompiledRule => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw badRule(where, "must be an object of rule keys", `Use keys among ${KEYS.join(", ")}`);
    }
    const r = value as Record<string, unknown>;
    const out: CompiledRule = {};
    for (const [key, v] of Object.entries(r)) {
      const at = `${where}.${key}`;
      if (key === "stopBy" && where !== "rule") continue;
      if (NOT_YET.includes(key)) {
        throw badRule(at, "is an ast-grep rule key graver does not support yet", `Use ${KEYS.join(", ")}`);
      }
      if (key === "pattern" || key === "kind") {
        if (typeof v !== "string") throw badRule(at, "must be a string", `Pass ${key} as a string`);
        if (key === "pattern") out.pattern = pattern(v);
        else out.kind = v;
      } else if (key === "regex") {
        if (typeof v !== "string") throw badRule(at, "must be a string", "Pass an RE2 regular expression");
        out.regex = compileRe2(v, { what: `the rule's ${at}` });
      } else if (key === "inside" || key === "has") {
        const rel = compile(v, at);
        out[key] = { rule: rel, stopBy: stopByOf((v as Record<string, unknown>)["stopBy"], at, compile) };
      } else if (key === "all" || key === "any") {
        if (!Array.isArray(v) || v.length === 0) throw badRule(at, "must be a non-empty list of rules", "");
        out[key] = v.map((x, i) => compile(x, `${at}[${i}]`));
      } else if (key === "not") out.not = compile(v, at);
      else throw badRule(at, "is not a rule key", `Use keys among ${KEYS.join(", ")}`);
    }
    if (Object.keys(out).length === 0) {
      throw badRule(
        where,
        "has no rule key",
        'Give at least one of pattern, kind, regex, e.g. {"kind": "call_expression"}',
      );
    }
    return out;
  };
  return compile(raw, "rule");
}

/** The texts every match of a rule holds: its patterns' in positions every match must satisfy. */
export function ruleLiterals(
  rule: CompiledRule,
  patternLiterals: (p: CompiledPattern) => string[],
): string[] {
  const out = new Set<string>();
  const visit = (r: CompiledRule) => {
    if (r.pattern) { for (const l of patternLiterals(r.pattern)) out.add(l); }
    for (const a of r.all ?? []) visit(a);
    if (r.has) visit(r.has.rule);
    if (r.inside) visit(r.inside.rule);
  };
  visit(rule);
  return [...out].sort((a, b) => b.length - a.length);
}

/** Whether one node matches a rule; what its patterns bound goes into `env`. */
function holds(rule: CompiledRule, node: Node, ctx: { text: string; env: Bindings }): boolean {
  if (rule.kind !== undefined && node.type !== rule.kind) return false;
  if (rule.regex && !rule.regex.matcher(ctx.text.slice(node.startIndex, node.endIndex)).find()) return false;
  if (rule.pattern) {
    const bound = matchPatternAt(rule.pattern, node, ctx.text);
    if (bound === null) return false;
    Object.assign(ctx.env, bound);
  }
  if (rule.inside && !relative(node, rule.inside, { ...ctx, up: true })) return false;
  if (rule.has && !relative(node, rule.has, { ...ctx, up: false })) return false;
  for (const a of rule.all ?? []) if (!holds(a, node, ctx)) return false;
  if (rule.any && !rule.any.some((a) => holdsInto(a, node, ctx))) return false;
  if (rule.not && holds(rule.not, node, { text: ctx.text, env: {} })) return false;
  return true;
}

/** {@linkcode holds}, its bindings kept only when it holds (a rule that fails half-way binds nothing). */
function holdsInto(rule: CompiledRule, node: Node, ctx: { text: string; env: Bindings }): boolean {
  const env: Bindings = {};
  if (!holds(rule, node, { text: ctx.text, env })) return false;
  Object.assign(ctx.env, env);
  return true;
}

/** `inside` (up) or `has` (down): a node so related holds the rule, as far as stopBy lets it look. */
function relative(
  node: Node,
  rel: { rule: CompiledRule; stopBy: StopBy },
  ctx: { text: string; env: Bindings; up: boolean },
): boolean {
  const test = (n: Node) => holdsInto(rel.rule, n, ctx);
  const stops = (n: Node) =>
    rel.stopBy !== "end" && (rel.stopBy === "neighbor" || holds(rel.stopBy, n, { text: ctx.text, env: {} }));
  if (ctx.up) {
    for (let n = node.parent; n !== null; n = n.parent) {
      if (test(n)) return true;
      if (stops(n)) return false;
    }
    return false;
  }
  const queue = node.children.filter((c): c is Node => c !== null && !c.isExtra);
  while (queue.length > 0) {
    const n = queue.shift()!;
    if (test(n)) return true;
    if (!stops(n)) queue.push(...n.children.filter((c): c is Node => c !== null && !c.isExtra));
  }
  return false;
}

/** Every named node under `root` (and `root`), in document order; of one type when `kind` is given. */
function nodesOf(root: Node, kind: string | undefined): Node[] {
  const out: Node[] = [];
  const cursor = root.walk();
  try {
    for (;;) {
      if (cursor.nodeIsNamed && (kind === undefined || cursor.nodeType === kind)) {
        out.push(cursor.currentNode);
      }
      if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return out;
    }
  } finally {
    cursor.delete();
  }
}

/**
 * Every node under `root` that matches the rule, in document order, with what its patterns bound. The
 * candidates come from the rule's own pattern when it has one (from the occurrences of its longest required
 * text when it has one), else from its kind, else every named node.
 *
 * @param rule The compiled rule.
 * @param root The node to search.
 * @param options `text`: the tree's source; `literalOf`: a pattern's longest required text, if any;
 *   `limit`: most matches.
 * @returns The matches.
 */
export function matchRule(
  rule: CompiledRule,
  root: Node,
  options: { text: string; literalOf: (p: CompiledPattern) => string | undefined; limit: number },
): PatternMatch[] {
  const { text, limit } = options;
  const out: PatternMatch[] = [];
  let candidates: Node[];
  if (rule.pattern) {
    const literal = options.literalOf(rule.pattern);
    candidates = (literal === undefined
      ? matchPattern(rule.pattern, root, { text, limit: Infinity })
      : matchPatternAround(rule.pattern, root, { text, literal, limit: Infinity })).map((m) =>
        m.node
      );
  } else candidates = nodesOf(root, rule.kind);
  for (const node of candidates) {
    const env: Bindings = {};
    if (holds(rule, node, { text, env })) out.push({ node, bindings: env });
    if (out.length >= limit) break;
  }
  return out;
}
