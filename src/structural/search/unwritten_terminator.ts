/**
 * A rewrite keeps the statement terminator its pattern did not write. Under ast-grep's "smart" strictness
 * the pattern `throw new E($M)` matches the statement `throw new E(x);` — its `;` included, since the `;`
 * belongs to the statement node — and a rewrite replaces the whole node. A template written like the
 * pattern, without a `;`, would then take the `;` away at every site: legal but unwanted in JavaScript
 * and TypeScript (automatic semicolon insertion), a syntax error in Java or C. The `;` is
 * kept when the pattern did not write one and the template does not end with one; a pattern or template that
 * writes it is taken at its word.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import type { PatternNode } from "../edit/pattern.ts";

/** The one terminator kept: the statement-ending `;` of the C family (JS, TS, Rust, Java, C, Go's explicit one). */
const TERMINATOR = ";";

/**
 * What to append to a site's replacement so that the matched node's own terminator survives: `";"` when the
 * node ends with a real (not missing) `;` token that the pattern did not write and the template does not end
 * with, else `""`.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { unwrittenTerminator } from "./unwritten_terminator.ts";
 *
 * const pattern = { type: "throw_statement", named: true, text: "", children: [] };
 * const semi = { type: ";", isNamed: false, isMissing: false };
 * const matched = { lastChild: semi } as unknown as Parameters<typeof unwrittenTerminator>[0];
 * assert.equal(unwrittenTerminator(matched, pattern, "throw fail($M)"), ";");
 * assert.equal(unwrittenTerminator(matched, pattern, "throw fail($M);"), "");
 * ```
 *
 * @param matched The node a pattern matched.
 * @param pattern The pattern's root, or null when the match came from a rule (no one pattern to read).
 * @param template The rewrite template.
 * @returns The text to append to the replacement.
 */
export function unwrittenTerminator(matched: Node, pattern: PatternNode | null, template: string): string {
  if (pattern === null) return "";
  const last = matched.lastChild;
  if (last === null || last.isNamed || last.isMissing || last.type !== TERMINATOR) return "";
  if (wroteTerminator(pattern)) return "";
  return template.trimEnd().endsWith(TERMINATOR) ? "" : TERMINATOR;
}

/** Whether a pattern's root ends with a `;` it wrote (a missing one a parser put in has no text). */
function wroteTerminator(pattern: PatternNode): boolean {
  const last = pattern.children.at(-1);
  return last !== undefined && last.type === TERMINATOR && last.text === TERMINATOR;
}
