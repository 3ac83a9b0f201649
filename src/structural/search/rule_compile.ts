/**
 * ast-grep's rule objects compiled for one language (matching them is `rule.ts`'s): a node matches a rule when
 * every key of the rule holds —
 * `pattern` (a code pattern matches the node itself), `kind` (its node type), `regex` (its text holds a match
 * of an RE2 regular expression, linear-time), `inside` / `has` (an enclosing / enclosed node matches another
 * rule), `precedes` / `follows` (a later / earlier sibling does; for all four, `stopBy: "neighbor"` — the
 * default — looks one step, `"end"` all the way, a rule up to and including the first node it matches), and
 * `all` / `any` / `not` over other rules; `inside` and `has` take a `field` too (the target lies in that field
 * of the enclosing node; the target's child in that field holds, or with `stopBy`, a node below it). Metavariables that patterns bind are the match's (the first of `any`
 * that holds gives its own). At the top, `constraints` (as ast-grep's YAML puts beside `rule`) maps a
 * metavariable to a rule its bound node must match; a `$$$X` list, or a name the match did not bind, is not
 * checked (ast-grep's rule). `nthChild` (where the node stands among its parent's named children) and `range`
 * (its exact span) are `rule_position.ts`'s. `matches` names a utility rule of the top's `utils` (as ast-grep's
 * config puts `utils` beside `rule`), compiled once.
 *
 * @module
 */
import type { Language } from "web-tree-sitter";
import type { RE2JS } from "re2js";
import { RecoverableError } from "../../errors.ts";
import { nearestNames } from "../../fs/stage.ts";
import type * as LinearRegex from "../../syntax/linear_regex.ts";
import type { Binding, CompiledPattern } from "../edit/pattern.ts";
import type { PatternInContext } from "../edit/pattern_compile.ts";
import { compileNthChild, compileRange, type NthChild, type RuleRange } from "./rule_position.ts";

/** How far a relational rule looks. */
export type StopBy = "neighbor" | "end" | CompiledRule;

/**
 * A relational key's rule, how far it looks, and (`inside` and `has` only, as in ast-grep) the field of the
 * related node it is about: `has` with a field tests the target's child in that field (with `stopBy`, what is
 * below it too); `inside` with a field takes an enclosing node only where the target lies in that field of it.
 */
export interface RelationRule {
  rule: CompiledRule;
  stopBy: StopBy;
  field?: string;
}

/** A rule compiled for one language. */
export interface CompiledRule {
  pattern?: CompiledPattern;
  kind?: string;
  regex?: RE2JS;
  /** Where the node stands among its parent's named children (`rule_position.ts`). */
  nthChild?: NthChild<CompiledRule>;
  /** The exact span the node has (0-based lines, character columns). */
  range?: RuleRange;
  inside?: RelationRule;
  has?: RelationRule;
  precedes?: RelationRule;
  follows?: RelationRule;
  /** Metavariable name -> the rule its bound node must match (top-level rules only). */
  constraints?: Map<string, CompiledRule>;
  /** The names written `$$$NAME` in the rule's patterns: lists, which constraints do not check. */
  lists?: Set<string>;
  all?: CompiledRule[];
  any?: CompiledRule[];
  not?: CompiledRule;
  /** The utility rule `matches` names (the top's `utils`), compiled once however many rules name it. */
  matches?: CompiledRule;
}

/** The keys a rule may have, and the ones ast-grep has that are not built yet. */
const KEYS = [
  "pattern",
  "kind",
  "regex",
  "nthChild",
  "range",
  "inside",
  "has",
  "precedes",
  "follows",
  "all",
  "any",
  "not",
  "matches",
];

/** The relational keys: each takes a rule and a `stopBy`. */
export const RELATIONAL = ["inside", "has", "precedes", "follows"] as const;

/**
 * The names written `$$$NAME` in a query's patterns (a rule's included, however deep): the metavariables
 * that bind a list of nodes.
 *
 * @param query The pattern or rule.
 * @returns The names.
 */
export function multiNames(query: { pattern?: string; rule?: unknown }): Set<string> {
  const out = new Set<string>();
  const visit = (v: unknown) => {
    if (typeof v === "string") {
      for (const m of v.matchAll(/\$\$\$([A-Za-z_][A-Za-z0-9_]*)/g)) {
        out.add(m[1]!);
      }
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (typeof v === "object" && v !== null) Object.values(v).forEach(visit);
  };
  visit(query.pattern);
  visit(query.rule);
  return out;
}

/** What a rule's patterns bound, by metavariable name. */
export type Bindings = Record<string, Binding>;

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

/** How deep rules may nest in a rule (`not` in `has` in `inside` …): a rule is untrusted input, compiled and run by recursion. */
export const MAX_RULE_DEPTH = 64;

/** The refusal of a rule nested past {@linkcode MAX_RULE_DEPTH}. */
function ruleTooDeep(where: string): RecoverableError {
  return new RecoverableError(
    "limit_exceeded",
    `Cannot use the rule: it nests more than ${MAX_RULE_DEPTH} rules deep (at ${where.slice(0, 120)}…)`,
    {
      hint: "Flatten it: a list of rules under all or any instead of rules nested in rules, or a pattern",
      details: { max_depth: MAX_RULE_DEPTH },
    },
  );
}

/** A grammar's node kinds: its language's name, the named node types (`ERROR` among them), its field names. */
export interface GrammarKinds {
  /** The language, as the refusal names it. */
  language: string;
  /** Every named node type of the grammar. */
  names: ReadonlySet<string>;
  /** Every field name of the grammar (`body`, `condition`, …), as a relation's `field` may name them. */
  fields?: ReadonlySet<string>;
}

/** The named node types of a tree-sitter language, listed once per language. */
const NAMED_KINDS = new WeakMap<Language, ReadonlySet<string>>();

/**
 * The node kinds of a grammar, as a rule's `kind` may name them.
 *
 * @param language The grammar's language name.
 * @param grammar Its tree-sitter language.
 * @returns Its named node types, `ERROR` included.
 */
export function grammarKinds(language: string, grammar: Language): GrammarKinds {
  let names = NAMED_KINDS.get(grammar);
  if (names === undefined) {
    const found = new Set<string>(["ERROR"]);
    for (let id = 0; id < grammar.nodeTypeCount; id++) {
      const type = grammar.nodeTypeForId(id);
      if (type && grammar.nodeTypeIsNamed(id)) found.add(type);
    }
    NAMED_KINDS.set(grammar, names = found);
  }
  return { language, names, fields: new Set(grammar.fields.filter((f): f is string => f !== null)) };
}

/**
 * A relation's `field`: a string, on `inside` or `has` (ast-grep refuses it on `precedes` and `follows`), and,
 * when the grammar is known, one of its field names (a misspelt one would match nothing, silently).
 */
function relationField(
  value: unknown,
  where: string,
  on: { key: typeof RELATIONAL[number]; kinds: GrammarKinds | undefined },
): string {
  if (typeof value !== "string") {
    throw badRule(where, "must be a string", 'Name a field of the related node, e.g. "field": "body"');
  }
  if (on.key === "precedes" || on.key === "follows") {
    throw badRule(
      where,
      "is taken only by inside and has (as in ast-grep)",
      "Drop field, or put it on inside or has",
    );
  }
  const fields = on.kinds?.fields;
  if (fields === undefined || fields.has(value)) return value;
  const near = nearestNames(value, [...fields], 3);
  throw new RecoverableError(
    "invalid_query",
    `Cannot use the rule: ${where} "${value}" is not a field name of the ${on.kinds!.language} grammar`,
    {
      hint: (near.length > 0 ? `Did you mean ${near.map((f) => `"${f}"`).join(" or ")}? ` : "") +
        `A field is one of the ${
          on.kinds!.language
        } grammar's field names (such as tree-sitter's playground ` +
        "shows before a child: `body:`, `condition:`)",
      details: { at: where, field: value, language: on.kinds!.language, nearest: near },
    },
  );
}

/**
 * A rule's `kind`, when the grammar has it; refused `invalid_query` otherwise, with the nearest kinds it has
 * (ast-grep refuses an unknown kind too: a misspelt one would match nothing, silently).
 */
function knownKind(kind: string, where: string, kinds: GrammarKinds | undefined): string {
  if (kinds === undefined || kinds.names.has(kind)) return kind;
  const visible = [...kinds.names].filter((k) => !k.startsWith("_"));
  const near = nearestNames(kind, visible, 3);
  throw new RecoverableError(
    "invalid_query",
    `Cannot use the rule: ${where} "${kind}" is not a node kind of the ${kinds.language} grammar`,
    {
      hint: (near.length > 0 ? `Did you mean ${near.map((k) => `"${k}"`).join(" or ")}? ` : "") +
        `A kind is one of the named node types of the ${kinds.language} grammar, as tree-sitter names them; ` +
        "or find the code by a pattern, which needs no kind names",
      details: { at: where, kind, language: kinds.language, nearest: near },
    },
  );
}

/**
 * Compile a rule object (as ast-grep's YAML `rule:` holds it).
 *
 * @param raw The rule, as given.
 * @param pattern Compiles a code pattern for the rule's language (refusing one the grammar cannot read).
 * @param on `kinds`: the node kinds of the rule's language (a `kind` among none of them is refused; without
 *   them any is taken); `regex`: compiles a `regex` key (`compileRe2`, needed when the rule has one).
 * @returns The compiled rule.
 * @throws RecoverableError `invalid_args` for an unknown or unbuilt key, an empty rule or a bad regex;
 *   `invalid_query` for a kind the language's grammar does not have.
 */
export function compileRule(
  raw: unknown,
  pattern: (source: string | PatternInContext) => CompiledPattern,
  on: { kinds?: GrammarKinds | undefined; regex?: RegexCompiler | undefined } = {},
): CompiledRule {
  const { kinds, regex } = on;
  let depth = 0;
  let relations = 0; // relational keys (inside, has, precedes, follows) the compile is inside of now
  const compile = (value: unknown, where: string): CompiledRule => {
    if (depth >= MAX_RULE_DEPTH) throw ruleTooDeep(where);
    depth++;
    try {
      return compileOne(value, where);
    } finally {
      depth--;
    }
  };
  const compileOne = (value: unknown, where: string): CompiledRule => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw badRule(where, "must be an object of rule keys", `Use keys among ${KEYS.join(", ")}`);
    }
    const r = value as Record<string, unknown>;
    refuseTopKeysBelow(r, where);
    const out: CompiledRule = {};
    for (const [key, v] of Object.entries(r)) {
      const at = `${where}.${key}`;
      if (key === "stopBy" && where !== "rule") continue;
      if (key === "field" && RELATIONAL.some((k) => where.endsWith(`.${k}`))) continue; // the relation's own
      refuseStrayField(key, at);
      if (key === "utils") continue; // the top's: compiled as matches names them (utilityRules)
      if (key === "constraints") out.constraints = compileConstraints(v, at, compile);
      else if (compileAtomic(out, { key, value: v, at }, { pattern, kinds, compile, regex })) continue;
      else if ((RELATIONAL as readonly string[]).includes(key)) {
        const relation = key as typeof RELATIONAL[number];
        relations++;
        try {
          out[relation] = compileRelation(v, at, { key: relation, compile, kinds });
        } finally {
          relations--;
        }
      } else if (key === "all" || key === "any") {
        if (!Array.isArray(v) || v.length === 0) throw badRule(at, "must be a non-empty list of rules", "");
        out[key] = v.map((x, i) => compile(x, `${at}[${i}]`));
      } else if (key === "not") out.not = compile(v, at);
      else if (key === "matches") out.matches = utility(v, at);
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
  const utility = utilityRules(raw, { compile, relations: () => relations });
  const top = compile(raw, "rule");
  utility.every(); // a utility rule no rule names is checked too, as ast-grep checks it
  if (top.constraints) top.lists = multiNames({ rule: raw });
  return top;
}

/**
 * ast-grep's utility rules: the top's `utils` (name → rule), each compiled once, when a `matches` first names
 * it. One may name another, and itself through a relation (`{any: [{kind: number}, {has: {matches: nested}}]}`
 * looks at other nodes, so it ends where the tree does): the rule is then a graph, the name standing for the
 * same object that is being compiled. A cycle with no relation on its way (`a` matches `b`, `b` matches `a`,
 * at the same node for ever) is refused, as ast-grep refuses it.
 *
 * @param raw The top rule, as given.
 * @param on `compile`: compiles a rule at a place; `relations`: how many relational keys it is inside of now.
 * @returns The lookup of a name at a place (refusing an unknown name or a cycle), and `every()`, compiling the
 *   ones no rule named.
 */
function utilityRules(
  raw: unknown,
  on: { compile: (value: unknown, where: string) => CompiledRule; relations: () => number },
): ((name: unknown, at: string) => CompiledRule) & { every(): void } {
  const given = typeof raw === "object" && raw !== null
    ? (raw as Record<string, unknown>)["utils"]
    : undefined;
  if (given !== undefined && (typeof given !== "object" || given === null || Array.isArray(given))) {
    throw badRule(
      "rule.utils",
      "must map names to rules",
      'Pass e.g. {"utils": {"call": {"kind": "call_expression"}}}',
    );
  }
  const utils = (given ?? {}) as Record<string, unknown>;
  const compiled = new Map<string, CompiledRule>();
  // The utils being compiled, innermost last: each one's object (filled in when its compile ends) and how many
  // relations the compile was inside of when it began.
  const compiling: { name: string; rule: CompiledRule; relations: number }[] = [];
  const lookup = (name: unknown, at: string): CompiledRule => {
    if (typeof name !== "string" || !Object.hasOwn(utils, name)) {
      const near = typeof name === "string" ? nearestNames(name, Object.keys(utils), 3) : [];
      throw badRule(
        at,
        `names no rule of the top's utils (${JSON.stringify(name)})`,
        near.length > 0
          ? `Did you mean ${near.map((n) => `"${n}"`).join(" or ")}?`
          : 'Define it beside the top rule\'s keys: {"utils": {"name": {…}}, …, "matches": "name"}',
      );
    }
    const known = compiled.get(name);
    if (known !== undefined) return known;
    const open = compiling.find((c) => c.name === name);
    if (open !== undefined) {
      if (on.relations() > open.relations) return open.rule; // through a relation: another node each time
      throw badRule(
        at,
        `makes utils "${name}" match itself at the same node (${
          [...compiling.map((c) => c.name), name].join(" → ")
        })`,
        "Utility rules may use one another, and themselves inside a has, inside, precedes or follows, " +
          "but not in a cycle that stays at one node",
      );
    }
    const rule: CompiledRule = {};
    compiling.push({ name, rule, relations: on.relations() });
    try {
      Object.assign(rule, on.compile(utils[name], `rule.utils.${name}`));
      compiled.set(name, rule);
      return rule;
    } finally {
      compiling.pop();
    }
  };
  return Object.assign(lookup, {
    every: () => Object.keys(utils).forEach((n) => lookup(n, `rule.utils.${n}`)),
  });
}

/** Refuse the keys only the top of a rule takes (`constraints`, `utils`) below it. */
function refuseTopKeysBelow(r: Record<string, unknown>, where: string): void {
  if (where === "rule") return;
  for (const key of ["constraints", "utils"]) {
    if (Object.hasOwn(r, key)) {
      throw badRule(
        `${where}.${key}`,
        "is only taken at the top of the rule",
        `Put "${key}" beside the top rule's keys`,
      );
    }
  }
}

/**
 * Compiles an RE2 regular expression (`syntax/linear_regex.ts`'s `compileRe2`): a rule's `regex` and a
 * transformation's `replace`. Passed in by whoever compiles a query that has one, so that a query without
 * one never loads the RE2 engine (`patternMatcherOf` loads it for a query that mentions either key).
 */
export type RegexCompiler = typeof LinearRegex.compileRe2;

/** The regex compiler given, or one that says it was not (a query with a regex compiled without it). */
export function regexCompiler(given: RegexCompiler | undefined): RegexCompiler {
  return given ?? (() => {
    throw new Error("A regular expression was compiled without the RE2 compiler (pass compileRe2 in)");
  });
}

/**
 * An atomic key of a rule (`pattern`, `kind`, `regex`, `nthChild`, `range`) into `out`.
 *
 * @returns Whether the key was one of them.
 */
function compileAtomic(
  out: CompiledRule,
  entry: { key: string; value: unknown; at: string },
  on: {
    pattern: (source: string | PatternInContext) => CompiledPattern;
    kinds: GrammarKinds | undefined;
    compile: (raw: unknown, where: string) => CompiledRule;
    regex: RegexCompiler | undefined;
  },
): boolean {
  const { key, value: v, at } = entry;
  if (key === "pattern" && typeof v === "object" && v !== null && !Array.isArray(v)) {
    out.pattern = on.pattern(patternObject(v as Record<string, unknown>, at, on.kinds));
  } else if (key === "pattern" || key === "kind") {
    if (typeof v !== "string") throw badRule(at, `must be a string, not ${shapeOf(v)}`, stringHint(key, v));
    if (key === "pattern") out.pattern = on.pattern(v);
    else out.kind = knownKind(v, at, on.kinds);
  } else if (key === "regex") {
    if (typeof v !== "string") throw badRule(at, `must be a string, not ${shapeOf(v)}`, stringHint(key, v));
    out.regex = regexCompiler(on.regex)(v, { what: `the rule's ${at}` });
  } else if (key === "nthChild") {
    out.nthChild = compileNthChild(v, at, { compile: on.compile, refuse: badRule });
  } else if (key === "range") out.range = compileRange(v, at, badRule);
  else return false;
  return true;
}

/** Refuse a `field` outside a relation (a relation's own is read there). */
function refuseStrayField(key: string, at: string): void {
  if (key === "field") {
    throw badRule(
      at,
      "is taken only in an inside or has rule",
      'Put it beside the relation\'s rule: {"has": {"field": "body", "kind": …}}',
    );
  }
}

/** A relational key's value: its rule, its `stopBy` and (`inside`, `has`) its `field`. */
function compileRelation(
  value: unknown,
  at: string,
  on: {
    key: typeof RELATIONAL[number];
    compile: (raw: unknown, where: string) => CompiledRule;
    kinds: GrammarKinds | undefined;
  },
): RelationRule {
  const rel: RelationRule = {
    rule: on.compile(value, at),
    stopBy: stopByOf((value as Record<string, unknown>)["stopBy"], at, on.compile),
  };
  const field = (value as Record<string, unknown>)["field"];
  if (field !== undefined) rel.field = relationField(field, `${at}.field`, { key: on.key, kinds: on.kinds });
  return rel;
}

/** The `constraints` map: each metavariable name's rule. */
function compileConstraints(
  value: unknown,
  where: string,
  compile: (raw: unknown, where: string) => CompiledRule,
): Map<string, CompiledRule> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw badRule(
      where,
      "must map metavariable names to rules",
      'Pass e.g. {"constraints": {"A": {"regex": "^use"}}} for a pattern with $A',
    );
  }
  return new Map(
    Object.entries(value).map((
      [name, rule],
    ) => [name.replace(/^\$+/, ""), compile(rule, `${where}.${name}`)]),
  );
}

/**
 * The patterns some node of every file a rule matches in must match: those in positions every match must
 * satisfy (the rule's own, `all`'s, and the relational rules'; not `any`'s or `not`'s).
 */
export function requiredPatterns(rule: CompiledRule): CompiledPattern[] {
  const out: CompiledPattern[] = [];
  const seen = new Set<CompiledRule>(); // a utility rule named many times is one rule
  const visit = (r: CompiledRule) => {
    if (seen.has(r)) return;
    seen.add(r);
    if (r.pattern) out.push(r.pattern);
    for (const a of r.all ?? []) visit(a);
    if (r.matches) visit(r.matches);
    for (const key of RELATIONAL) if (r[key]) visit(r[key].rule);
  };
  visit(rule);
  return out;
}

/** The texts every match of a rule holds: its {@linkcode requiredPatterns}' texts. */
export function ruleLiterals(
  rule: CompiledRule,
  patternLiterals: (p: CompiledPattern) => string[],
): string[] {
  const out = new Set(requiredPatterns(rule).flatMap(patternLiterals));
  return [...out].sort((a, b) => b.length - a.length);
}

/** What a value is, in a refusal: a list, an object, a number … */
function shapeOf(v: unknown): string {
  return Array.isArray(v)
    ? "a list"
    : v === null
    ? "null"
    : typeof v === "object"
    ? "an object"
    : `a ${typeof v}`;
}

/**
 * How to give a key that takes a string: a list or an object there is most often YAML reading a pattern that
 * starts with `[` or `{` (`pattern: [$$$A]` is a list of one item), which quoting keeps a string.
 */
function stringHint(key: string, v: unknown): string {
  const what = key === "regex" ? "an RE2 regular expression" : key === "kind" ? "a node type" : "code";
  const yaml = typeof v === "object" && v !== null
    ? ` In YAML, quote it when it starts with [ or { (${key}: '[$$$A]'): unquoted, YAML reads it as ${
      shapeOf(v)
    }`
    : v === null || typeof v === "boolean" || typeof v === "number"
    ? ` In YAML, quote it (${key}: '${String(v)}'): unquoted, YAML reads ${String(v)} as ${shapeOf(v)}`
    : "";
  return `Pass ${key} as a string of ${what}.${yaml}`;
}

/** ast-grep's strictness levels; graver matches with `smart` (its default) only. */
const STRICTNESS = ["cst", "smart", "ast", "relaxed", "signature"];

/**
 * ast-grep's pattern object, `{context, selector, strictness}`: the context's code read whole, the first node
 * of the selector's type in it the pattern. `strictness` other than `smart` (the default, graver's) is
 * refused, as is a key ast-grep's pattern object does not have.
 */
function patternObject(
  v: Record<string, unknown>,
  at: string,
  kinds: GrammarKinds | undefined,
): PatternInContext {
  for (const key of Object.keys(v)) {
    if (!["context", "selector", "strictness"].includes(key)) {
      throw badRule(
        `${at}.${key}`,
        "is not a key of a pattern object",
        "Pass {context, selector}, and strictness",
      );
    }
  }
  const { context, selector, strictness } = v;
  if (typeof context !== "string" || context.trim() === "") {
    throw badRule(
      `${at}.context`,
      "must be code",
      'Pass e.g. {"context": "class A { $F = $I }", "selector": "field_definition"}',
    );
  }
  if (selector !== undefined && typeof selector !== "string") {
    throw badRule(
      `${at}.selector`,
      "must be a node type",
      "Pass the type of the node in the context to match",
    );
  }
  if (strictness !== undefined && strictness !== "smart") {
    const known = STRICTNESS.includes(strictness as string);
    throw badRule(
      `${at}.strictness`,
      known ? `${JSON.stringify(strictness)} is not built` : `must be one of ${STRICTNESS.join(", ")}`,
      'Leave strictness out: graver matches with ast-grep\'s default, "smart" (unnamed tokens the pattern leaves out are passed over)',
    );
  }
  return { context, selector: selector === undefined ? "" : knownKind(selector, `${at}.selector`, kinds) };
}
