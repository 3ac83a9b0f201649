/**
 * Where the nodes of a kind are in a tree, found once per tree and remembered: a search that asks a tree
 * again (a warm session: the parse cache hands back the same tree for the same version) gets the same node
 * objects back without walking the tree or crossing into wasm for each node. Two lists are kept:
 *
 * - the nodes of a kind (`nodesOfKind`): every `return_statement`, found by tree-sitter's own walk (one call
 *   into wasm for the whole tree, not one per node as a cursor walk from JavaScript takes);
 * - the nodes of a kind around a token (`nodesAroundToken`): the nodes of that kind that enclose an
 *   occurrence of a text as a whole leaf (`header` in `c.req.header(x)`, not in `headers` or a string), found
 *   from the text's occurrences instead of from a walk.
 *
 * Both are bounded: at most {@linkcode MAX_LISTS_PER_TREE} lists and {@linkcode MAX_NODES_PER_TREE} nodes in
 * all per tree (the oldest lists dropped first; a longer list is found again at each ask, not remembered);
 * they go with the tree (a tree the parse cache replaces or lets go is no longer asked for, and its lists are
 * collected with it).
 *
 * @module
 */
import type { Node, Tree } from "web-tree-sitter";

/** Most lists remembered per tree; past it, the oldest is dropped. */
export const MAX_LISTS_PER_TREE = 16;

/**
 * Most nodes remembered per tree, all its lists together. A node object is some 100 bytes of heap, but what
 * the matcher caches under it while it matches (its children, their facts) lives as long as it does: 50,000
 * `console.log(…)` calls listed in one 1 MB file held 170 MB after the search at the earlier bound of 65,536,
 * 37 MB past this one (`Deno.memoryUsage()` after a collection). A longer list is found again at each search
 * (one call into wasm for the whole tree).
 */
export const MAX_NODES_PER_TREE = 8_192;

/** A tree's remembered lists, the text they were found in, and how many nodes they hold. */
interface TreeLists {
  text: string;
  lists: Map<string, Node[]>;
  nodes: number;
}

const BY_TREE = new WeakMap<Tree, TreeLists>();

/** Each tree's root node object, asked of wasm once per tree (a tree is not edited while it is held). */
const ROOTS = new WeakMap<Tree, Node>();

/**
 * A tree's root node, the same object for the same tree: a warm search asks each held tree for its root once
 * per file and query, and `tree.rootNode` is a call into wasm and a new object each time.
 *
 * @param tree The tree.
 * @returns Its root node.
 */
export function rootOf(tree: Tree): Node {
  let root = ROOTS.get(tree);
  if (root === undefined) ROOTS.set(tree, root = tree.rootNode);
  return root;
}

/** The remembered list under `key` for the tree of `root`, or the one `find` gives (remembered when `root` is the tree's root). */
function remembered(root: Node, text: string, key: string, find: () => Node[]): Node[] {
  const tree = root.tree;
  const treeRoot = rootOf(tree);
  if (root !== treeRoot && root.id !== treeRoot.id) return find();
  let held = BY_TREE.get(tree);
  if (held === undefined || held.text !== text) {
    BY_TREE.set(tree, held = { text, lists: new Map(), nodes: 0 });
  }
  let list = held.lists.get(key);
  if (list === undefined) {
    list = find();
    if (list.length <= MAX_NODES_PER_TREE) keepList(held, key, list);
  }
  return list;
}

/** Remember a list for a tree, the oldest lists dropped while over either bound. */
function keepList(held: TreeLists, key: string, list: Node[]): void {
  for (const [old, oldList] of held.lists) {
    if (held.lists.size < MAX_LISTS_PER_TREE && held.nodes + list.length <= MAX_NODES_PER_TREE) break;
    held.lists.delete(old);
    held.nodes -= oldList.length;
  }
  held.lists.set(key, list);
  held.nodes += list.length;
}

/**
 * The nodes of one kind under `root` (itself included), in document order: what a walk of the tree visiting
 * every node would find, remembered for the tree.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { Grammars } from "./grammars.ts";
 * import { createWasmLoader } from "../adapters/deno/mod.ts";
 * import { nodesOfKind } from "./node_index.ts";
 *
 * const parser = await new Grammars(createWasmLoader()).parser("javascript");
 * const text = "function f() { return 1; }\nfunction g() { return f() + 2; }\n";
 * const root = parser.parse(text)!.rootNode;
 * const returns = nodesOfKind(root, { text, type: "return_statement", named: true });
 * assert.deepEqual(returns.map((n) => n.text), ["return 1;", "return f() + 2;"]);
 * assert.equal(nodesOfKind(root, { text, type: "return_statement", named: true })[0], returns[0]); // the same nodes
 * ```
 *
 * @param root The node to search (a tree's root for the list to be remembered).
 * @param kind `text`: the tree's source; `type` and `named`: the kind (a node type is named or not; `type`
 *   null: every named node).
 * @returns The nodes (the caller must not change the array).
 */
export function nodesOfKind(
  root: Node,
  kind: { text: string; type: string | null; named: boolean },
): readonly Node[] {
  const { type, named } = kind;
  return remembered(
    root,
    kind.text,
    type === null ? (named ? "*" : "**") : `${named ? "n" : "a"}:${type}`,
    () =>
      type === null
        ? namedNodes(root, named)
        : root.descendantsOfType(type).filter((n) => n.isNamed === named),
  );
}

/** Every named node under `root` (itself included), in document order; every node at all with `named` false. */
function namedNodes(root: Node, named = true): Node[] {
  const out: Node[] = [];
  const cursor = root.walk();
  try {
    for (;;) {
      if (cursor.nodeIsNamed || !named) out.push(cursor.currentNode);
      if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return out;
    }
  } finally {
    cursor.delete();
  }
}

/** Whether `n` is of the kind (`type` null: any named node). */
function isOfKind(n: Node, kind: { type: string | null; named: boolean }): boolean {
  return kind.type === null ? n.isNamed || !kind.named : n.type === kind.type && n.isNamed === kind.named;
}

/** Whether `n` holds the whole of `[at, at + length)`. */
function spans(n: Node, at: number, length: number): boolean {
  return n.startIndex <= at && at + length <= n.endIndex;
}

/**
 * The nodes of the kind that enclose an exact leaf `token`, found from its occurrences in `text`, in document
 * order (outer before inner). The nodes from the root to the last leaf found are kept: the next occurrence is
 * looked for from the lowest of them that holds it, and its leaf's ancestors below that one are found going
 * down. A node's `parent` starts from the root in tree-sitter, so a walk up from each leaf cost the depth at
 * every step (a 20,000-link call chain: 38 s for `$A.b()`).
 */
function findAroundToken(
  root: Node,
  query: { text: string; token: string; type: string | null; named: boolean },
): Node[] {
  const { text, token } = query;
  const found: Node[] = [];
  // The nodes from `root` down to the last leaf found, and how many of them (from the root) were looked at.
  const path: Node[] = [root];
  let looked = 0;
  for (let at = text.indexOf(token); at !== -1; at = text.indexOf(token, at + 1)) {
    if (!spans(root, at, token.length)) continue;
    while (path.length > 1 && !spans(path.at(-1)!, at, token.length)) path.pop();
    looked = Math.min(looked, path.length);
    const leaf = path.at(-1)!.descendantForIndex(at, at + token.length);
    if (leaf === null || leaf.startIndex !== at || leaf.endIndex !== at + token.length) continue; // a longer token
    for (let n = path.at(-1)!; n.id !== leaf.id;) path.push(n = n.childWithDescendant(leaf)!);
    for (let i = looked; i < path.length; i++) if (isOfKind(path[i]!, query)) found.push(path[i]!);
    looked = path.length;
  }
  return found.sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex);
}

/**
 * The nodes of one kind under `root` that enclose an occurrence of `token` that is a whole leaf of the tree,
 * in document order (outer before inner), remembered for the tree: the candidates of a code pattern that has
 * `token` as a leaf, at the cost of the token's occurrences rather than the tree's size.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { Grammars } from "./grammars.ts";
 * import { createWasmLoader } from "../adapters/deno/mod.ts";
 * import { nodesAroundToken } from "./node_index.ts";
 *
 * const parser = await new Grammars(createWasmLoader()).parser("javascript");
 * const text = 'c.req.header("a");\nc.req.headers;\nlog("x-header");\n';
 * const root = parser.parse(text)!.rootNode;
 * const calls = nodesAroundToken(root, { text, token: "header", type: "call_expression", named: true });
 * assert.deepEqual(calls.map((n) => n.text), ['c.req.header("a")']); // not `headers`, not the string
 * ```
 *
 * @param root The node to search (a tree's root for the list to be remembered).
 * @param query `text`: the tree's source; `token`: a leaf's text; `type` and `named`: the kind (`type` null: any named node).
 * @returns The nodes (the caller must not change the array).
 */
export function nodesAroundToken(
  root: Node,
  query: { text: string; token: string; type: string | null; named: boolean },
): readonly Node[] {
  const { token, type, named } = query;
  if (token === "") return nodesOfKind(root, query);
  return remembered(
    root,
    query.text,
    `${type === null ? "*" : `${named ? "n" : "a"}:${type}`}\0${token}`,
    () => findAroundToken(root, query),
  );
}

/**
 * Of texts that all occur in `text`, the one with the fewest occurrences (counting stops once a text has
 * more than the fewest so far): the cheapest to find candidates from.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { rarestText } from "./node_index.ts";
 *
 * assert.equal(rarestText("c.req.header(c.req.url)", ["req", "header", "c"]), "header");
 * ```
 *
 * @param text The text searched.
 * @param texts The texts to choose from (at least one).
 * @returns The rarest one (the first of equals).
 */
export function rarestText(text: string, texts: readonly string[]): string {
  let best = texts[0]!;
  if (texts.length === 1) return best;
  let fewest = Infinity;
  for (const t of texts) {
    if (t === "") continue; // found everywhere: tells nothing
    let count = 0;
    for (let at = text.indexOf(t); at !== -1 && count < fewest; at = text.indexOf(t, at + 1)) count++;
    if (count < fewest) [best, fewest] = [t, count];
  }
  return best;
}
