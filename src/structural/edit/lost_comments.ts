/**
 * The comments a rewrite of a match would take away: a rewrite replaces the matched node whole with its
 * template, where only what the metavariables bound is carried over, so a comment inside the node but
 * outside every binding (`foo(a, /* keep *\/ b)` for `foo($A, $B)` → `bar($B, $A)`) is gone unless the
 * template writes it. ast-grep drops such comments; a structural rewrite refuses those sites instead.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { symbolRules } from "../../syntax/queries.ts";

/**
 * The comments inside a matched node that neither a binding nor the replacement holds, in document order.
 *
 * @param node The matched node.
 * @param site The file's text and language, the bindings' ranges, and the replacement.
 * @returns Each lost comment's text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryBackend, createWorkspace } from "../../mod.ts";
 * import { createWasmLoader } from "../../adapters/deno/mod.ts";
 * import { lostComments } from "./lost_comments.ts";
 *
 * const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
 * const text = "foo(a, /* keep *\/ b);\n";
 * const { tree } = await ws.trees!.parse("a.js", "javascript", "v1", text);
 * const call = tree.rootNode.firstChild!.firstChild!;
 * const bindings = [{ start: 4, end: 5 }, { start: 18, end: 19 }];
 * const lost = lostComments(call, { text, language: "javascript", bindings, replacement: "bar(b, a)" });
 * assert.deepEqual(lost, ["/* keep *\/"]);
 * ```
 */
export function lostComments(
  node: Node,
  site: {
    text: string;
    language: string;
    bindings: readonly { start: number; end: number }[];
    replacement: string;
  },
): string[] {
  const kinds = new Set(symbolRules(site.language).comments);
  const bound = (start: number, end: number) => site.bindings.some((b) => b.start <= start && end <= b.end);
  const out: string[] = [];
  const cursor = node.walk();
  try {
    for (;;) {
      const { startIndex: start, endIndex: end } = cursor;
      const inside = bound(start, end);
      if (!inside && kinds.has(cursor.nodeType)) {
        const comment = site.text.slice(start, end);
        if (!site.replacement.includes(comment)) out.push(comment);
      }
      if (!inside && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return out;
      }
    }
  } finally {
    cursor.delete();
  }
}
