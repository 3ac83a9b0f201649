/**
 * Code patterns with metavariables, in the spirit of ast-grep: write the code
 * you are looking for, with `$X` for any one named node, `$$$ARGS` for zero or
 * more nodes and `$_` for a node you do not need to name. The pattern is
 * parsed with the file's own grammar (as written, then inside the contexts
 * where such code usually lives) and matched structurally against the file's
 * tree: same node types, same leaf text, metavariables bind nodes, and a
 * metavariable used twice must bind the same text. Compiling a pattern is
 * `pattern_compile.ts`'s; this module matches one.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { nodesAroundToken, rarestText } from "../../syntax/node_index.ts";
import type { MetaVariable } from "./pattern_encodings.ts";
import { countMatchStep, nextMatchCandidate, resetMatchSteps } from "./match_steps.ts";
import type { PatternNode } from "./pattern_tree.ts";
import { nodeFacts } from "./node_facts.ts";
import type { CompiledPattern } from "./pattern_compile.ts";

export { type CompiledPattern, compilePattern } from "./pattern_compile.ts";

/** What a metavariable bound in one match. */
export interface Binding {
  /** The nodes (one for `$X`, zero or more for `$$$X`). */
  nodes: Node[];
  /** Start offset (UTF-16) of the bound text. */
  start: number;
  /** End offset (UTF-16). */
  end: number;
  /** The bound text as it is in the file. */
  text: string;
  /**
   * For `$$$X`: the tokens around the bound nodes (e.g. `(` and `)`) and the offsets of everything between
   * them, layout and a trailing comma included, so a replacement that keeps those tokens keeps the layout.
   */
  gap?: { before: string; after: string; start: number; end: number };
}

/** One match of a pattern. */
export interface PatternMatch {
  /** The matched node. */
  node: Node;
  /** Metavariable name -> what it bound. */
  bindings: Record<string, Binding>;
  /**
   * Words of the code the smart strictness passed over because the pattern does not write them (`async` in
   * `async function f` for `function $F`, `await` in `for await` for `for (…)`): a rewrite that does not
   * write them either would take them away. Absent when there are none.
   */
  skipped?: string[];
  /**
   * Code the smart strictness passed over after the last thing the pattern writes, inside the matched node
   * (the `else` clause of an `if` for `if ($C) return $X;`), each run with the kind of its first named node
   * and its offsets: a rewrite of the node would take it away. Absent when there is none (a `;` alone is not
   * code).
   */
  tail?: { kind: string; start: number; end: number }[];
}

export { type MetaVariable, TOKEN } from "./pattern_encodings.ts";
export type { PatternNode } from "./pattern_tree.ts";

/**
 * Whether a node of the code is of a pattern node's kind: its type and namedness, or, for a root the grammar
 * read as ERROR (`anyKind`), any named node with children; for a root that is a metavariable, any named node.
 */
function ofKind(p: PatternNode, n: Node): boolean {
  const f = nodeFacts(n);
  if (p.meta) return f.named || p.meta.unnamed === true; // a rule's pattern that is one metavariable alone
  return p.anyKind ? f.named && n.childCount > 0 : f.type === p.type && f.named === p.named;
}

/**
 * The kind a pattern's candidates are found by (`type` null: any named node, for an `anyKind` root; any node
 * at all for a lone `$$X`).
 */
function kindOf(p: PatternNode): { type: string | null; named: boolean } {
  if (p.anyKind) return { type: null, named: p.meta?.unnamed !== true };
  return { type: p.type, named: p.named };
}

function normalise(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

type Env = Map<string, Binding>;

/** Keys of an env that note a word the smart strictness passed over (never a metavariable's name). */
const SKIPPED_KEY = "#skipped:";
/** Keys of an env that note code passed over after the pattern's end ({@linkcode PatternMatch.tail}). */
const TAIL_KEY = "#tail:";

/** A word of the code (a keyword such as `default` or `type`), as opposed to punctuation (`;`, `,`). */
const WORD = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** An env as a match: the metavariables' bindings, and the words passed over. */
function matchOf(node: Node, env: Env): PatternMatch {
  const bindings: Record<string, Binding> = {};
  const skipped: string[] = [];
  const tail: { kind: string; start: number; end: number }[] = [];
  for (const [key, b] of env) {
    if (key.startsWith(SKIPPED_KEY)) skipped.push(b.text);
    else if (key.startsWith(TAIL_KEY)) {
      const named = b.nodes.find((n) => nodeFacts(n).named);
      tail.push({ kind: named ? nodeFacts(named).type : "", start: b.start, end: b.end });
    } else bindings[key] = b;
  }
  return { node, bindings, ...(skipped.length > 0 ? { skipped } : {}), ...(tail.length > 0 ? { tail } : {}) };
}

function bind(
  env: Env,
  meta: MetaVariable,
  nodes: Node[],
  text: string,
  gap?: () => Binding["gap"],
): boolean {
  if (meta.name === null || meta.name.startsWith("_")) return true;
  const start = nodes.length > 0 ? nodes[0]!.startIndex : -1;
  const end = nodes.length > 0 ? nodeFacts(nodes[nodes.length - 1]!).end : -1;
  const bound = start === -1 ? "" : text.slice(start, end);
  const prior = env.get(meta.name);
  if (prior) return normalise(prior.text) === normalise(bound);
  const around = gap?.();
  env.set(
    meta.name,
    around ? { nodes, start, end, text: bound, gap: around } : { nodes, start, end, text: bound },
  );
  return true;
}

/**
 * Bind `$$$X` to the run `ns[j..k)` as {@linkcode bind} binds a list of nodes, without copying the run out
 * unless the binding is kept and its nodes asked for: a `$$$X` before a fixed tail (`[$$$A]`) is tried at
 * every length of a long list, and a copy each time made that the square of the list's length (an array
 * literal of 300,000 items never answered).
 */
function bindRun(
  env: Env,
  meta: MetaVariable,
  run: { ns: Node[]; j: number; k: number },
  text: string,
): boolean {
  if (meta.name === null || meta.name.startsWith("_")) return true;
  const { ns, j, k } = run;
  const start = k > j ? ns[j]!.startIndex : -1;
  const end = k > j ? nodeFacts(ns[k - 1]!).end : -1;
  const bound = start === -1 ? "" : text.slice(start, end);
  const prior = env.get(meta.name);
  if (prior) return normalise(prior.text) === normalise(bound);
  let nodes: Node[] | undefined;
  const binding: Binding = {
    get nodes(): Node[] {
      return nodes ??= ns.slice(j, k);
    },
    start,
    end,
    text: bound,
  };
  const around = gapAround(ns, j, k, text);
  if (around) binding.gap = around;
  env.set(meta.name, binding);
  return true;
}

/** The tokens around ns[j..k) and the offsets between them, when there are tokens on both sides. */
function gapAround(ns: Node[], j: number, k: number, text: string): Binding["gap"] {
  const before = ns[j - 1];
  const after = ns[k];
  if (!before || !after) return undefined;
  const [b, a] = [nodeFacts(before), nodeFacts(after)];
  if (b.named || a.named) return undefined;
  return {
    before: text.slice(before.startIndex, b.end),
    after: text.slice(after.startIndex, a.end),
    start: b.end,
    end: after.startIndex,
  };
}

/**
 * A node's children without extras (comments), kept per node object: a warm search matches the same node
 * objects again (`syntax/node_index.ts`), and each child's "is it extra" is a call into wasm.
 */
const KIDS = new WeakMap<Node, Node[]>();

/**
 * A node's children without the extras (comments), the same array for the same node object.
 *
 * @param n The node.
 * @returns Its children but the extras.
 */
export function kidsOf(n: Node): Node[] {
  let kids = KIDS.get(n);
  if (kids === undefined) {
    kids = n.children.filter((c): c is Node => c !== null && !c.isExtra);
    KIDS.set(n, kids);
  }
  return kids;
}

/**
 * Undo the bindings made since `size` of them were held: a match only adds bindings (a name bound before
 * is compared, never rebound), so the ones past `size` in insertion order are the new ones.
 */
function restore(env: Env, size: number): void {
  if (env.size === size) return;
  let i = 0;
  for (const key of [...env.keys()]) if (i++ >= size) env.delete(key);
}

/** Whether a leaf of the code has the pattern leaf's text (compared in the file's text, not copied out). */
function sameLeafText(n: Node, leaf: string, text: string): boolean {
  const start = n.startIndex;
  return nodeFacts(n).end - start === leaf.length && text.startsWith(leaf, start);
}

function matchNode(p: PatternNode, n: Node, env: Env, text: string, smart = false): boolean {
  if (p.meta) return (p.meta.unnamed === true || nodeFacts(n).named) && bind(env, p.meta, [n], text);
  if (!ofKind(p, n)) return false;
  if (p.children.length === 0) return sameLeafText(n, p.text, text);
  return matchList(p.children, 0, kidsOf(n), 0, env, text, smart);
}

function matchList(
  ps: PatternNode[],
  i: number,
  ns: Node[],
  j: number,
  env: Env,
  text: string,
  smart = false,
): boolean {
  countMatchStep(ns, j);
  // Smart strictness, as ast-grep's: once the pattern's children are all matched, the code's may go on
  // (`if ($C) { $$$B }` matches an `if` with an `else`).
  if (i === ps.length) {
    if (j === ns.length) return true;
    if (smart) noteTail(env, ns.slice(j), text);
    return smart;
  }
  const p = ps[i]!;
  const snapshot = env.size;
  if (p.meta?.multi) {
    // Last in its list under smart strictness, `$$$X` takes all that is left: the code may go on past the
    // pattern's end there, so the shortest binding (nothing) would always do.
    const greedy = smart && i === ps.length - 1;
    for (let n = 0; n <= ns.length - j; n++) {
      const k = greedy ? ns.length - n : j + n;
      if (bindRun(env, p.meta, { ns, j, k }, text) && matchList(ps, i + 1, ns, k, env, text, smart)) {
        return true;
      }
      restore(env, snapshot);
    }
    return false;
  }
  const matched = j < ns.length &&
    (p.meta
      ? (p.meta.unnamed === true || nodeFacts(ns[j]!).named) &&
        bind(env, p.meta, [ns[j]!], text, () => gapAround(ns, j, j + 1, text))
      : matchNode(p, ns[j]!, env, text, smart));
  if (matched && matchList(ps, i + 1, ns, j + 1, env, text, smart)) return true;
  restore(env, snapshot);
  // A separator next to `$$$X` is optional: `f(self, $$$P)` also matches `f(self)`.
  if (!p.named && (p.type === "," || p.type === ";") && (ps[i + 1]?.meta?.multi || ps[i - 1]?.meta?.multi)) {
    if (matchList(ps, i + 1, ns, j, env, text, smart)) return true;
    restore(env, snapshot);
  }
  // Smart strictness: a token of the code the pattern does not have is passed over where the pattern's next
  // is a token too, as ast-grep does (`async` before `function`, `await` after `for`); not where it is a node
  // or a metavariable (`default` in `export default function`, `type` in `import type`, `readonly`).
  if (smart && j < ns.length && !p.named && !nodeFacts(ns[j]!).named) {
    noteSkipped(env, ns[j]!, text);
    if (matchList(ps, i, ns, j + 1, env, text, smart)) return true;
    restore(env, snapshot);
  }
  return false;
}

/** Note code the smart strictness passes over at the end of a node's children (punctuation alone is not code). */
function noteTail(env: Env, rest: Node[], text: string): void {
  if (!rest.some((n) => nodeFacts(n).named || WORD.test(text.slice(n.startIndex, nodeFacts(n).end)))) return;
  const [start, end] = [rest[0]!.startIndex, nodeFacts(rest[rest.length - 1]!).end];
  env.set(`${TAIL_KEY}${start}`, { nodes: rest, start, end, text: "" }); // offsets: a rewrite cuts what it shows
}

/** Note a word the smart strictness passes over (punctuation is not noted: no rewrite loses meaning by it). */
function noteSkipped(env: Env, n: Node, text: string): void {
  const end = nodeFacts(n).end;
  const word = text.slice(n.startIndex, end);
  if (!WORD.test(word)) return;
  env.set(`${SKIPPED_KEY}${n.startIndex}`, { nodes: [n], start: n.startIndex, end, text: word });
}

function walkKind(
  root: Node,
  kind: { type: string | null; named: boolean },
  visit: (n: Node) => boolean,
): void {
  const { type, named } = kind;
  const cursor = root.walk();
  try {
    for (;;) {
      const ofIt = type === null
        ? cursor.nodeIsNamed || !named
        : cursor.nodeType === type && cursor.nodeIsNamed === named;
      if (ofIt && !visit(cursor.currentNode)) return;
      if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return;
    }
  } finally {
    cursor.delete();
  }
}

/**
 * Every node under `root` the pattern matches, in document order (nested
 * matches included).
 *
 * @param pattern A compiled pattern.
 * @param root The node to search (usually the tree's root).
 * @param text The file's text (the tree's source), for bound text.
 * @param limit Stop after this many matches.
 * @returns The matches with their bindings.
 *
 * @example Find comparisons of a value with itself
 * ```ts
 * import { Grammars } from "@graver/core";
 * import { compilePattern, matchPattern } from "@graver/core/structural";
 * import { createWasmLoader } from "@graver/core/adapters/deno";
 * import assert from "node:assert/strict";
 *
 * const parser = await new Grammars(createWasmLoader()).parser("javascript");
 * const text = "if (x !== x) f(a, b); g(y !== z);";
 * const found = matchPattern(compilePattern(parser, "javascript", "$A !== $A"), parser.parse(text)!.rootNode, {
 *   text,
 * });
 * assert.deepEqual(found.map((m) => m.bindings["A"]!.text), ["x"]);
 * ```
 */
export function matchPattern(
  pattern: CompiledPattern,
  root: Node,
  { text, limit = 10_000 }: { text: string; limit?: number },
): PatternMatch[] {
  resetMatchSteps();
  // A root of any kind: its candidates are the nodes around one of its tokens, not every named node.
  const token = pattern.root.anyKind ? firstTokenText(pattern.root) : "";
  return matchCandidates(pattern, nodesAroundToken(root, { text, token, ...kindOf(pattern.root) }), {
    text,
    limit,
  });
}

/** The text of the pattern's first leaf that is not a metavariable ("" when every leaf is one). */
function firstTokenText(p: PatternNode): string {
  if (p.meta || p.children.length === 0) return p.meta ? "" : p.text;
  return p.children.map(firstTokenText).find((t) => t !== "") ?? "";
}

/** The matches among candidate nodes of the pattern's kind, in their order, up to `limit`. */
function matchCandidates(
  pattern: CompiledPattern,
  candidates: readonly Node[],
  { text, limit }: { text: string; limit: number },
): PatternMatch[] {
  const out: PatternMatch[] = [];
  for (const n of candidates) {
    const env: Env = new Map();
    nextMatchCandidate();
    if (matchNode(pattern.root, n, env, text, pattern.smart === true)) {
      out.push(matchOf(n, env));
      if (out.length >= limit) break;
    }
  }
  return out;
}

/**
 * Whether the pattern matches one node, and what it bound there.
 *
 * @param pattern A compiled pattern.
 * @param node The node.
 * @param text The tree's source.
 * @returns The bindings, or null when it does not match.
 */
export function matchPatternAt(
  pattern: CompiledPattern,
  node: Node,
  text: string,
): Record<string, Binding> | null {
  return matchPatternAtWhole(pattern, node, text)?.bindings ?? null;
}

/**
 * {@linkcode matchPatternAt}'s match whole: with what the smart strictness passed over (`skipped`, `tail`).
 *
 * @param pattern A compiled pattern.
 * @param node The node to match.
 * @param text The tree's source.
 * @returns The match, or null when the node does not match.
 */
export function matchPatternAtWhole(pattern: CompiledPattern, node: Node, text: string): PatternMatch | null {
  if (!ofKind(pattern.root, node)) return null;
  resetMatchSteps();
  const env: Env = new Map();
  return matchNode(pattern.root, node, env, text, pattern.smart === true) ? matchOf(node, env) : null;
}

/**
 * Every node the pattern matches, found from the places a text every match holds (one of the pattern's
 * leaf texts) occurs as a whole leaf, instead of from a walk of the whole tree: each such leaf's enclosing
 * nodes of the pattern's type are the candidates (`syntax/node_index.ts`, remembered per tree). The answer
 * is {@linkcode matchPattern}'s (a match's leaf of that text is one of those leaves), at the cost of the
 * occurrences rather than the tree's size.
 *
 * @param pattern A compiled pattern.
 * @param root The node to search (usually the tree's root).
 * @param options `text`: the tree's source; `literal`: a leaf text of the pattern (not a metavariable's), or
 *   several, of which the one with the fewest occurrences in `text` is used; `limit`: stop after this many
 *   matches (default 10,000).
 * @returns The matches with their bindings, in document order (outer before inner).
 */
export function matchPatternAround(
  pattern: CompiledPattern,
  root: Node,
  options: { text: string; literal: string | readonly string[]; limit?: number },
): PatternMatch[] {
  const { text, literal } = options;
  const token = typeof literal === "string" ? literal : rarestText(text, literal);
  const candidates = nodesAroundToken(root, { text, token, ...kindOf(pattern.root) });
  resetMatchSteps();
  return matchCandidates(pattern, candidates, { text, limit: options.limit ?? 10_000 });
}

function leafTexts(p: PatternNode, out: string[]): string[] {
  if (p.meta) return out;
  if (p.children.length === 0 && p.named) out.push(p.text);
  for (const c of p.children) leafTexts(c, out);
  return out;
}

/**
 * The nodes of the pattern's type that come closest to matching (most of the
 * pattern's named leaves present), for a `no_match` answer.
 *
 * @param pattern A compiled pattern.
 * @param root The node searched.
 * @param limit How many to return.
 * @returns Up to `limit` nodes, best first.
 */
export function nearestPatternCandidates(pattern: CompiledPattern, root: Node, limit = 5): Node[] {
  const leaves = leafTexts(pattern.root, []);
  const scored: { node: Node; score: number }[] = [];
  let seen = 0;
  walkKind(root, kindOf(pattern.root), (n) => {
    const t = n.text;
    const score = leaves.length === 0 ? 1 : leaves.filter((l) => t.includes(l)).length / leaves.length;
    scored.push({ node: n, score });
    return ++seen < 5000;
  });
  scored.sort((a, b) => b.score - a.score || a.node.startIndex - b.node.startIndex);
  return scored.filter((s) => s.score > 0).slice(0, limit).map((s) => s.node);
}
