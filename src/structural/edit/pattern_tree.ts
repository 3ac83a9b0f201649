/**
 * A compiled pattern's tree: a pattern's parse as plain data ({@linkcode PatternNode}), its metavariables
 * recognised, and the bound on how deep a pattern may nest (a pattern is untrusted input, and the matcher
 * walks it by recursion).
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import type { MetaVariable } from "./pattern_encodings.ts";

/** One node of a compiled pattern (plain data: the pattern's parse is freed). */
export interface PatternNode {
  /** Node type. */
  type: string;
  /** Whether the node is named. */
  named: boolean;
  /** The text of a leaf (empty for inner nodes). */
  text: string;
  /** Children, comments excluded. */
  children: PatternNode[];
  /** Set when this node is a metavariable. */
  meta?: MetaVariable;
  /**
   * A root the grammar read as one ERROR node (`import {$$$A} from $B`): it matches a named node of any type
   * whose children match its children, as ast-grep's patterns do.
   */
  anyKind?: boolean;
  /**
   * For a leaf: the pattern's text between the leaf before it (in document order) and this one, as parsed
   * (whitespace between two tokens; a comment, or text the grammar covers with no node, otherwise).
   */
  lead?: string;
}

/**
 * How deep a pattern's tree may nest. Code nests far less (a call in a call in a call …: two levels each); a
 * pattern past it is refused rather than overflowing the stack of the compiler or the matcher.
 */
export const MAX_PATTERN_DEPTH = 512;

/** The refusal of a pattern nested past {@linkcode MAX_PATTERN_DEPTH}. */
function tooDeep(source: string): RecoverableError {
  return new RecoverableError(
    "limit_exceeded",
    `Cannot use the pattern: its syntax tree nests more than ${MAX_PATTERN_DEPTH} levels deep`,
    {
      hint: 'Match the outer construct and let a metavariable stand for what it holds, e.g. "f($A)" for ' +
        "a call whatever its arguments",
      details: { pattern_chars: source.length, max_depth: MAX_PATTERN_DEPTH },
    },
  );
}

/**
 * A pattern as the grammar read it, as an S-expression of its nodes: each named node's type (`_` for one the
 * grammar read as an ERROR and that matches a node of any kind), a leaf's text quoted, a metavariable as it is
 * written (`$A`, `$$$ARGS`) — what `graver sg --debug-query` prints, as ast-grep's `--debug-query` does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { patternSexp } from "./pattern_tree.ts";
 *
 * const call = { type: "call_expression", named: true, text: "", children: [
 *   { type: "identifier", named: true, text: "f", children: [] },
 *   { type: "arguments", named: true, text: "", children: [
 *     { type: "(", named: false, text: "(", children: [] },
 *     { type: "identifier", named: true, text: "µA", children: [], meta: { name: "A", multi: false } },
 *     { type: ")", named: false, text: ")", children: [] },
 *   ] },
 * ] };
 * assert.equal(patternSexp(call as never), '(call_expression (identifier "f") (arguments "(" $A ")"))');
 * ```
 *
 * @param p The pattern's root (or any of its nodes).
 * @returns The S-expression.
 */
export function patternSexp(p: PatternNode): string {
  if (p.meta) return `${p.meta.multi ? "$$$" : p.meta.unnamed ? "$$" : "$"}${p.meta.name ?? ""}`; // as written, whatever its spelling
  if (p.children.length === 0) {
    return p.named ? `(${p.type} ${JSON.stringify(p.text)})` : JSON.stringify(p.text);
  }
  const kind = p.anyKind ? "_" : p.named ? p.type : JSON.stringify(p.type);
  return `(${kind} ${p.children.map(patternSexp).join(" ")})`;
}

/** What a conversion carries along: the metavariables' spellings, their uses, the parsed text and the last leaf's end. */
export interface Conversion {
  metas: Map<string, MetaVariable>;
  seen: Map<string, number>;
  source: string;
  at: number;
}

/** The text since the last leaf, for the leaf `n`; moves past it. */
function leadOf(n: Node, c: Conversion): string {
  const lead = c.source.slice(c.at, n.startIndex);
  c.at = n.endIndex;
  return lead;
}

/**
 * A parsed pattern's node as plain data: its metavariables recognised by their spellings, comments left out,
 * each leaf with the text before it. Refused past {@linkcode MAX_PATTERN_DEPTH} levels.
 *
 * @param n The node (of the pattern's parse).
 * @param c The conversion's state.
 * @param depth How deep `n` is in the pattern.
 * @returns The pattern node.
 */
export function convert(n: Node, c: Conversion, depth = 0): PatternNode {
  if (depth > MAX_PATTERN_DEPTH) throw tooDeep(c.source);
  const meta = c.metas.get(n.text);
  if (meta) {
    c.seen.set(n.text, (c.seen.get(n.text) ?? 0) + 1);
    return { type: n.type, named: n.isNamed, text: n.text, children: [], meta, lead: leadOf(n, c) };
  }
  // Comments are left out; an ERROR node that holds a metavariable alone (tree-sitter marks it extra) is it.
  const kids = n.children.filter((k): k is Node => k !== null && (!k.isExtra || c.metas.has(k.text)));
  if (kids.length === 0) {
    return { type: n.type, named: n.isNamed, text: n.text, children: [], lead: leadOf(n, c) };
  }
  return { type: n.type, named: n.isNamed, text: "", children: kids.map((k) => convert(k, c, depth + 1)) };
}
