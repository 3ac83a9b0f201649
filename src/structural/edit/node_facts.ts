/**
 * What the pattern matcher asks of a node again and again — its type, whether it is named, where it ends —
 * read from the tree once per node object and kept with it. Each of these is a call into wasm in
 * web-tree-sitter (its node carries only its start), and a warm search matches the same node objects again
 * (`syntax/node_index.ts` hands back the candidates it found, `kidsOf` their children): a second query of a
 * session's trees then reads them from memory (`return $X` over hono's 268 files: 13,000 calls into wasm a
 * search before, none after).
 *
 * @module
 */
import type { Node } from "web-tree-sitter";

/** A node's type, namedness and end offset (UTF-16 code units, as its `startIndex`). */
export interface NodeFacts {
  readonly type: string;
  readonly named: boolean;
  readonly end: number;
}

/** The facts of each node object, for as long as the object lives (a tree's nodes go with the tree). */
const FACTS = new WeakMap<Node, NodeFacts>();

/**
 * A node's type, namedness and end, read once per node object.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { Grammars } from "../../syntax/grammars.ts";
 * import { createWasmLoader } from "../../adapters/deno/mod.ts";
 * import { nodeFacts } from "./node_facts.ts";
 *
 * const parser = await new Grammars(createWasmLoader()).parser("javascript");
 * const call = parser.parse("f(x);")!.rootNode.child(0)!.child(0)!;
 * assert.deepEqual(nodeFacts(call), { type: "call_expression", named: true, end: 4 });
 * assert.equal(nodeFacts(call), nodeFacts(call)); // read once
 * ```
 *
 * @param n The node.
 * @returns Its facts (the same object for the same node object).
 */
export function nodeFacts(n: Node): NodeFacts {
  let facts = FACTS.get(n);
  if (facts === undefined) FACTS.set(n, facts = { type: n.type, named: n.isNamed, end: n.endIndex });
  return facts;
}
