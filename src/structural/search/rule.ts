/**
 * A compiled ast-grep rule matched in one tree (`rule_compile.ts` compiles it): every node that holds each key
 * of the rule, with what its patterns bound. Relations (`inside`, `has`, `precedes`, `follows`) that bind
 * nothing are answered once per node, one that binds looks from each candidate within a counted bound; a
 * utility rule is answered once per node; `nthChild` lists a parent's children once (`rule_position.ts`).
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import { nodesOfKind } from "../../syntax/node_index.ts";
import {
  type CompiledPattern,
  matchPattern,
  matchPatternAround,
  matchPatternAt,
  matchPatternAtWhole,
  type PatternMatch,
} from "../edit/pattern.ts";
import { appendAll } from "../../arrays.ts";
import { inRange, type NthChild, SiblingIndex } from "./rule_position.ts";
import type { Bindings, CompiledRule, RelationRule } from "./rule_compile.ts";

export {
  type CompiledRule,
  compileRule,
  type GrammarKinds,
  grammarKinds,
  MAX_RULE_DEPTH,
  multiNames,
  requiredPatterns,
  ruleLiterals,
} from "./rule_compile.ts";

/** Whether one node matches a rule; what its patterns bound goes into `env`. */
function holds(rule: CompiledRule, node: Node, ctx: { text: string; env: Bindings }): boolean {
  if (rule.kind !== undefined && node.type !== rule.kind) return false;
  if (rule.range && !inRange(node, rule.range, ctx.text)) return false;
  if (rule.nthChild && !nthChildHolds(node, rule.nthChild, ctx.text)) return false;
  if (rule.regex && !rule.regex.matcher(ctx.text.slice(node.startIndex, node.endIndex)).find()) return false;
  if (rule.pattern) {
    const bound = matchPatternAt(rule.pattern, node, ctx.text);
    if (bound === null) return false;
    Object.assign(ctx.env, bound);
  }
  if (rule.inside && !relative(node, rule.inside, { ...ctx, up: true })) return false;
  if (rule.has && !relative(node, rule.has, { ...ctx, up: false })) return false;
  if (rule.precedes && !sibling(node, rule.precedes, { ...ctx, forward: true })) return false;
  if (rule.follows && !sibling(node, rule.follows, { ...ctx, forward: false })) return false;
  for (const a of rule.all ?? []) if (!holds(a, node, ctx)) return false;
  if (rule.any && !rule.any.some((a) => holdsInto(a, node, ctx))) return false;
  if (rule.not && holds(rule.not, node, { text: ctx.text, env: {} })) return false;
  if (rule.matches && !holdsUtility(rule.matches, node, ctx)) return false;
  return true;
}

/** Whether a node stands at an `nthChild`'s position among the siblings its `ofRule` takes (binding nothing). */
function nthChildHolds(node: Node, nth: NthChild<CompiledRule>, text: string): boolean {
  const ofRule = nth.ofRule;
  return siblings.holds(node, nth, ofRule ? (c) => holds(ofRule, c, { text, env: {} }) : () => true);
}

/** Where nodes stand among their siblings, for one {@linkcode matchRule} call (node ids are one tree's). */
let siblings = new SiblingIndex();

/**
 * Each utility rule's answer per node for one {@linkcode matchRule} call: null where it does not hold, else
 * what it bound. A rule's answer at a node depends on the rule and the node alone (what it binds is added to
 * the match's, never checked against it), so a utility rule named many times — `a` naming `b` twice, `b`
 * naming `c` twice, thirty deep — is answered once per node, not two to the thirtieth times.
 */
let utilityAnswers = new Map<CompiledRule, Map<number, Bindings | null>>();

/**
 * How deep utility rules may be inside one another at one time: a rule that names itself inside a `has` goes
 * one level down the tree at each step, and a tree 10,000 levels deep would overflow the stack.
 */
export const MAX_UTILITY_DEPTH = 256;

/** How deep {@linkcode holdsUtility} is now. */
let utilityDepth = 0;

/**
 * A utility rule at a node ({@linkcode utilityAnswers}), its bindings added to the match's. While its answer at
 * a node is being found, it does not hold there: a rule that comes back to the same node through `has` and
 * `inside` ends rather than looping.
 */
function holdsUtility(util: CompiledRule, node: Node, ctx: { text: string; env: Bindings }): boolean {
  let answers = utilityAnswers.get(util);
  if (answers === undefined) utilityAnswers.set(util, answers = new Map());
  let bound = answers.get(node.id);
  if (bound === undefined) {
    if (utilityDepth >= MAX_UTILITY_DEPTH) throw utilityTooDeep(node);
    answers.set(node.id, null);
    const env: Bindings = {};
    utilityDepth++;
    try {
      bound = holds(util, node, { text: ctx.text, env }) ? env : null;
    } finally {
      utilityDepth--;
    }
    answers.set(node.id, bound);
  }
  if (bound === null) return false;
  Object.assign(ctx.env, bound);
  return true;
}

/** {@linkcode holds}, its bindings kept only when it holds (a rule that fails half-way binds nothing). */
function holdsInto(rule: CompiledRule, node: Node, ctx: { text: string; env: Bindings }): boolean {
  const env: Bindings = {};
  if (!holds(rule, node, { text: ctx.text, env })) return false;
  Object.assign(ctx.env, env);
  return true;
}

/**
 * Nodes the relational keys (`inside`, `has`, `precedes`, `follows`) of one rule may look at in one tree. A
 * relation that binds nothing is answered once per node (below), so a tree costs its size; one that binds
 * metavariables looks again from each candidate, which on a deep tree (`f(f(f(…)))` 5,000 deep, `has` with
 * `stopBy: end`) is the square of its depth: past this many looks the search is refused rather than run on
 * (it ran the heap out of memory). Counted, not timed: the same answer on every machine.
 */
export const MAX_RELATION_VISITS = 2_000_000;

/** One {@linkcode matchRule} call's looks: their count, and the relations answered per node (by node id). */
let looks: { visits: number; memo: Map<object, Map<number, boolean>> } = { visits: 0, memo: new Map() };

/**
 * {@linkcode holds} at a candidate: where the stack runs out first (utility rules each a few levels deep, that
 * reach {@linkcode MAX_UTILITY_DEPTH} only past the stack's end), the same refusal as past the count.
 */
function holdsAtTop(rule: CompiledRule, node: Node, ctx: { text: string; env: Bindings }): boolean {
  try {
    return holds(rule, node, ctx);
  } catch (err) {
    if (err instanceof RangeError && /call stack/i.test(err.message)) throw utilityTooDeep(node);
    throw err;
  }
}

/** The refusal of a utility rule nested past {@linkcode MAX_UTILITY_DEPTH}, at the node it had reached. */
function utilityTooDeep(n: Node): RecoverableError {
  return new RecoverableError(
    "limit_exceeded",
    `Cannot match the rule at line ${n.startPosition.row + 1}: its utility rules go more than ${
      MAX_UTILITY_DEPTH.toLocaleString("en")
    } levels inside one another (a rule that matches itself inside has or inside, on a tree that deep)`,
    {
      hint: 'Bound the recursion: stopBy: "neighbor" steps one level at a time, a kind or a pattern beside ' +
        "matches narrows where it runs; or search the deep code by a pattern",
      details: { line: n.startPosition.row + 1, max_depth: MAX_UTILITY_DEPTH },
    },
  );
}

/** Count one look; past {@linkcode MAX_RELATION_VISITS}, refuse. */
function look(n: Node): void {
  if (++looks.visits <= MAX_RELATION_VISITS) return;
  const line = n.startPosition.row + 1;
  throw new RecoverableError(
    "limit_exceeded",
    `Cannot match the rule at line ${line}: its inside/has/precedes/follows look at more than ${
      MAX_RELATION_VISITS.toLocaleString("en")
    } nodes (a relation that binds a metavariable is looked for again from each candidate)`,
    {
      hint: 'Bound the relation (stopBy: "neighbor", or a stopBy rule), give the rule a kind or a pattern ' +
        "that fewer nodes match, or bind no metavariable inside the relation",
      details: { line, max_visits: MAX_RELATION_VISITS },
    },
  );
}

/**
 * Whether a rule binds no metavariable anywhere in it (a relation to it is then answered once per node): no
 * pattern with one among the rules it reaches (a utility rule that names itself is reached once).
 */
function bindsNothing(rule: CompiledRule): boolean {
  let known = BINDS_NOTHING.get(rule);
  if (known === undefined) {
    known = true;
    const seen = new Set<CompiledRule>([rule]);
    for (const stack = [rule]; known && stack.length > 0;) {
      const r = stack.pop()!;
      if ((r.pattern?.metavariables.length ?? 0) > 0) known = false;
      const relations = [r.inside, r.has, r.precedes, r.follows].flatMap((x) => x ? [x.rule] : []);
      for (
        const next of [...relations, ...(r.all ?? []), ...(r.any ?? []), ...(r.matches ? [r.matches] : [])]
      ) {
        if (!seen.has(next)) stack.push(next), seen.add(next);
      }
    }
    BINDS_NOTHING.set(rule, known);
  }
  return known;
}

/** {@linkcode bindsNothing}'s answers, per compiled rule. */
const BINDS_NOTHING = new WeakMap<CompiledRule, boolean>();

/**
 * `inside` (up) or `has` (down): a node so related holds the rule, as far as stopBy lets it look (with a
 * `field`: `inside` takes only an enclosing node the target lies in that field of; `has` starts from the
 * target's child in that field, itself included).
 */
function relative(node: Node, rel: RelationRule, ctx: { text: string; env: Bindings; up: boolean }): boolean {
  const field = rel.field;
  const test = field === undefined || !ctx.up ? (n: Node) => (look(n), holdsInto(rel.rule, n, ctx)) : (
    n: Node,
    from: Node,
  ) => (look(n), n.childForFieldName(field)?.id === from.id && holdsInto(rel.rule, n, ctx));
  const stops = (n: Node) =>
    rel.stopBy !== "end" && (rel.stopBy === "neighbor" || holds(rel.stopBy, n, { text: ctx.text, env: {} }));
  let memo: Map<number, boolean> | undefined;
  if (bindsNothing(rel.rule)) {
    memo = looks.memo.get(rel);
    if (memo === undefined) looks.memo.set(rel, memo = new Map());
  }
  if (ctx.up) {
    return memo ? holdsAlong(node, { test, stops, memo }, parentOf) : holdsUpward(node, { test, stops });
  }
  let from = node;
  if (field !== undefined) {
    const child = node.childForFieldName(field);
    if (child === null) return false;
    if (test(child, node)) return true;
    if (stops(child)) return false;
    from = child;
  }
  return memo ? holdsBelow(from, { test, stops, memo }) : holdsUnder(from, { test, stops });
}

/** {@linkcode childrenOf}'s arrays, per node object (a warm search matches the same node objects again). */
const CHILDREN = new WeakMap<Node, Node[]>();

/**
 * A node's children, comments and other extras included: `has` looks at every node below, as ast-grep's does (a
 * function that has a `// TODO` comment: `has: {kind: comment, regex: TODO, stopBy: end}`), where a code
 * pattern passes over comments.
 */
function childrenOf(n: Node): Node[] {
  let kids = CHILDREN.get(n);
  if (kids === undefined) CHILDREN.set(n, kids = n.children.filter((c): c is Node => c !== null));
  return kids;
}

/** `inside` looked for from one node (it binds metavariables: the first enclosing node that holds gives them). */
function holdsUpward(node: Node, rel: Omit<Relation, "memo">): boolean {
  for (let from = node, n = node.parent; n !== null; from = n, n = n.parent) {
    if (rel.test(n, from)) return true;
    if (rel.stops(n)) return false;
  }
  return false;
}

/** `has` looked for from one node, breadth first (it binds metavariables: the first node that holds gives them). */
function holdsUnder(node: Node, rel: Omit<Relation, "memo">): boolean {
  const queue = [...childrenOf(node)]; // a copy: the children array is kept per node
  for (let at = 0; at < queue.length; at++) {
    const n = queue[at]!;
    if (rel.test(n, node)) return true;
    if (!rel.stops(n)) appendAll(queue, childrenOf(n));
  }
  return false;
}

/**
 * What a relation answered once per node needs: its test (of a node, reached from `from`: the node before it
 * on the way, which `inside` with a field asks for), where it stops, and its answers by node id.
 */
interface Relation {
  test: (n: Node, from: Node) => boolean;
  stops: (n: Node) => boolean;
  memo: Map<number, boolean>;
}

/** A node's parent: the step of `inside`. */
const parentOf = (n: Node): Node | null => n.parent;

/**
 * `inside`, `precedes` or `follows`, answered once per node: a node along `step` (the parent, the next or the
 * previous sibling) holds, before the first that stops the look.
 */
function holdsAlong(node: Node, rel: Relation, step: (n: Node) => Node | null): boolean {
  const { test, stops, memo } = rel;
  const path: Node[] = [node];
  let found = false;
  for (let from = node, n = step(node); n !== null; from = n, n = step(n)) {
    if (test(n, from)) {
      found = true;
      break;
    }
    if (stops(n)) break;
    const beyond = memo.get(n.id); // what a look from n found, beyond it
    if (beyond !== undefined) {
      found = beyond;
      break;
    }
    path.push(n);
  }
  for (const n of path) memo.set(n.id, found); // every node on the way looks at the same nodes beyond
  return found;
}

/** `has`, answered once per node: a descendant holds, looking no further below one that stops the look. */
function holdsBelow(node: Node, rel: Relation): boolean {
  const { test, stops, memo } = rel;
  const known = memo.get(node.id);
  if (known !== undefined) return known;
  const stack: { n: Node; kids: Node[]; at: number }[] = [{ n: node, kids: childrenOf(node), at: 0 }];
  while (stack.length > 0) {
    const top = stack.at(-1)!;
    if (top.at === top.kids.length) {
      memo.set(top.n.id, false);
      stack.pop();
      continue;
    }
    const kid = top.kids[top.at++]!;
    let holds = test(kid, top.n);
    if (!holds && !stops(kid)) {
      const below = memo.get(kid.id);
      if (below === undefined) {
        stack.push({ n: kid, kids: childrenOf(kid), at: 0 });
        continue;
      }
      holds = below;
    }
    if (holds) {
      for (const frame of stack) memo.set(frame.n.id, true); // each frame holds the one that holds
      return true;
    }
  }
  return memo.get(node.id)!;
}

/**
 * `precedes` (forward: a later sibling) or `follows` (an earlier one, nearest first): a sibling holds the rule,
 * as far as stopBy lets it look ("neighbor": the next or previous sibling only).
 */
function sibling(
  node: Node,
  rel: RelationRule,
  ctx: { text: string; env: Bindings; forward: boolean },
): boolean {
  const step = (n: Node) => ctx.forward ? n.nextSibling : n.previousSibling;
  const stops = (n: Node) =>
    rel.stopBy !== "end" && (rel.stopBy === "neighbor" || holds(rel.stopBy, n, { text: ctx.text, env: {} }));
  if (bindsNothing(rel.rule)) {
    let memo = looks.memo.get(rel);
    if (memo === undefined) looks.memo.set(rel, memo = new Map());
    return holdsAlong(node, { test: (n) => (look(n), holdsInto(rel.rule, n, ctx)), stops, memo }, step);
  }
  for (let n = step(node); n !== null; n = step(n)) {
    look(n);
    if (holdsInto(rel.rule, n, ctx)) return true;
    if (stops(n)) return false;
  }
  return false;
}

/**
 * The first sibling after (`forward`) or before `node` that holds a relation's rule, as far as its stopBy lets
 * the look go — the node ast-grep's `expandEnd` / `expandStart` of a fix widens the replaced range to — or null.
 * Bound to the file's text by {@linkcode ruleMatcherFor}'s state: call it after one.
 *
 * @param node The matched node.
 * @param rel The relation (a rule, and stopBy).
 * @param on The tree's source and the direction.
 * @returns The sibling, or null.
 */
export function siblingHolding(
  node: Node,
  rel: RelationRule,
  on: { text: string; forward: boolean },
): Node | null {
  const step = (n: Node) => on.forward ? n.nextSibling : n.previousSibling;
  const stops = (n: Node) =>
    rel.stopBy !== "end" && (rel.stopBy === "neighbor" || holds(rel.stopBy, n, { text: on.text, env: {} }));
  for (let n = step(node); n !== null; n = step(n)) {
    if (holds(rel.rule, n, { text: on.text, env: {} })) return n;
    if (stops(n)) return null;
  }
  return null;
}

/** Whether every constrained metavariable the match bound to one node matches its rule. */
function constraintsHold(rule: CompiledRule, env: Bindings, text: string): boolean {
  for (const [name, constraint] of rule.constraints ?? []) {
    const bound = env[name];
    if (!bound || bound.nodes.length !== 1 || rule.lists?.has(name)) continue;
    if (!holds(constraint, bound.nodes[0]!, { text, env: {} })) return false;
  }
  return true;
}

/**
 * The named nodes of a kind under `root` (and `root`), or every named node when no kind is given, in document
 * order (remembered per tree: `syntax/node_index.ts`).
 */
function nodesOf(root: Node, kind: string | undefined, text: string): readonly Node[] {
  return nodesOfKind(root, { text, type: kind ?? null, named: true });
}

/**
 * Every node under `root` that matches the rule, in document order, with what its patterns bound. The
 * candidates come from the rule's own pattern when it has one (from the occurrences of its rarest required
 * text when it has one), else from its kind, else every named node.
 *
 * @param rule The compiled rule.
 * @param root The node to search.
 * @param options `text`: the tree's source; `literalOf`: a pattern's required texts, if any;
 *   `limit`: most matches.
 * @returns The matches.
 */
export function matchRule(
  rule: CompiledRule,
  root: Node,
  options: {
    text: string;
    literalOf: (p: CompiledPattern) => string | readonly string[] | undefined;
    limit: number;
  },
): PatternMatch[] {
  const { text, limit } = options;
  const out: PatternMatch[] = [];
  looks = { visits: 0, memo: new Map() }; // node ids are one tree's
  siblings = new SiblingIndex();
  utilityAnswers = new Map();
  let candidates: readonly Node[];
  if (rule.pattern) {
    const literal = options.literalOf(rule.pattern);
    candidates = (literal === undefined
      ? matchPattern(rule.pattern, root, { text, limit: Infinity })
      : matchPatternAround(rule.pattern, root, { text, literal, limit: Infinity })).map((m) =>
        m.node
      );
  } else candidates = nodesOf(root, rule.kind, text);
  for (const node of candidates) {
    const env: Bindings = {};
    if (holdsAtTop(rule, node, { text, env }) && constraintsHold(rule, env, text)) {
      out.push({ node, bindings: env, ...passedOver(rule, node, text) });
    }
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * A matcher of rules at single nodes of one tree (a rewriter's rule at each node under a binding): what the rule
 * binds at a node, constraints checked, or null where it does not hold. Its relations' memory starts afresh, as
 * {@linkcode matchRule}'s does: node ids are one tree's.
 *
 * @param text The tree's source.
 * @returns The matcher.
 */
export function ruleMatcherFor(text: string): (rule: CompiledRule, node: Node) => Bindings | null {
  looks = { visits: 0, memo: new Map() };
  siblings = new SiblingIndex();
  utilityAnswers = new Map();
  return (rule, node) => {
    const env: Bindings = {};
    return holdsAtTop(rule, node, { text, env }) && constraintsHold(rule, env, text) ? env : null;
  };
}

/**
 * What the patterns that match a rule's node itself (its `pattern`, those of its `all`, the `any` that holds)
 * passed over there: the words and the code a rewrite of the node would take away, as a pattern's match says.
 */
function passedOver(rule: CompiledRule, node: Node, text: string): Pick<PatternMatch, "skipped" | "tail"> {
  const skipped: string[] = [];
  const tail: NonNullable<PatternMatch["tail"]> = [];
  const seen = new Set<CompiledRule>(); // a utility rule named many times is one rule
  const visit = (r: CompiledRule) => {
    if (seen.has(r)) return;
    seen.add(r);
    const m = r.pattern ? matchPatternAtWhole(r.pattern, node, text) : null;
    if (m?.skipped) skipped.push(...m.skipped);
    if (m?.tail) tail.push(...m.tail);
    for (const a of r.all ?? []) visit(a);
    if (r.matches) visit(r.matches);
    const held = r.any?.find((a) => holds(a, node, { text, env: {} }));
    if (held) visit(held);
  };
  visit(rule);
  return { ...(skipped.length > 0 ? { skipped } : {}), ...(tail.length > 0 ? { tail } : {}) };
}
