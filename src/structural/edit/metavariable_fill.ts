/**
 * Filling a template with what a pattern match bound: `$NAME` and `$$$NAME` replaced by the bound text, a
 * `$$$NAME` written between the same tokens it was found between taking the source's whole gap (its layout and
 * trailing comma), and the lines of a multi-line binding re-based onto the template's indentation (a string
 * literal's own lines left as they are).
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { rowOf } from "../../fs/lines.ts";
import { type Binding, TOKEN } from "./pattern.ts";

/**
 * Put what a match bound into replacement code: `$$$NAME` and `$NAME` of
 * metavariables the pattern bound are replaced by their text. A `$$$NAME`
 * written between the same tokens it was found between (`f($$$ARGS)` for
 * `f(\n  a,\n  b,\n)`) takes everything between them, layout and trailing
 * comma included. Lines after the first of a multi-line binding keep their
 * indentation relative to the matched node's line, re-based onto the line the
 * metavariable sits on.
 *
 * @param code Replacement code that may use the pattern's metavariables.
 * @param bindings What one match bound.
 * @param sourceText The file's text (to re-base bound lines).
 * @param matchStart Offset of the matched node (default: each binding's own start line).
 * @param asIs Put bound text in exactly as it is in the file (no re-basing of its lines).
 * @returns The code with metavariables substituted.
 */
export function substituteMetavariables(
  code: string,
  bindings: Record<string, Binding>,
  { sourceText, matchStart, asIs = false }: { sourceText: string; matchStart?: number; asIs?: boolean },
): string {
  let out = "";
  let at = 0;
  for (const m of code.matchAll(TOKEN)) {
    const token = m[0];
    const multiName = m[1];
    const name = multiName ?? m[2];
    const b = name === undefined ? undefined : bindings[name];
    const tokenStart = m.index!;
    if (!b) continue;
    let from = tokenStart;
    let to = tokenStart + token.length;
    let bound = b.text;
    let boundFrom = b.start;
    const gap = b.gap;
    if (gap) {
      // `f($$$A)` written around the same tokens: the source's whole gap (its line breaks, spaces and trailing
      // comma), in place of the token and the spaces around it.
      let l = from;
      while (l > at && (code[l - 1] === " " || code[l - 1] === "\t")) l--;
      let r = to;
      while (r < code.length && (code[r] === " " || code[r] === "\t")) r++;
      if (code.slice(0, l).endsWith(gap.before) && code.slice(r).startsWith(gap.after)) {
        from = l;
        to = r;
        bound = sourceText.slice(gap.start, gap.end);
        boundFrom = gap.start;
      }
    }
    // Which bound lines continue a string literal: found only for a binding of several lines (a file of
    // 20,000 one-line sites counted its lines from the top for each: 2.3 s of a 5 s rewrite).
    let rows: { first: number; keep: Set<number> } | undefined;
    const isStringText = (i: number) => {
      rows ??= { first: rowAt(sourceText, boundFrom, b.nodes[0]), keep: stringRows(b.nodes) };
      return rows.keep.has(rows.first + i);
    };
    out += code.slice(at, from) +
      (asIs ? bound : rebase(bound, code, from, sourceText, matchStart ?? boundFrom, isStringText));
    at = to;
  }
  return out + code.slice(at);
}

/** The 0-based row of `offset`, counted from a node at or after it whose row the tree knows, else from the top. */
function rowAt(text: string, offset: number, node: Node | undefined): number {
  if (node !== undefined && offset <= node.startIndex) {
    return node.startPosition.row - rowOf(text, node.startIndex, offset);
  }
  return rowOf(text, offset);
}

/** Rows (0-based) that continue a multi-line string literal inside the given nodes. */
function stringRows(nodes: Node[]): Set<number> {
  const rows = new Set<number>();
  const visit = (n: Node) => {
    const first = n.startPosition.row;
    const last = n.endPosition.row;
    if (first === last) return;
    if (/string|heredoc|text_block/.test(n.type) && !n.type.includes("concatenated")) {
      for (let r = first + 1; r <= last; r++) rows.add(r);
      return;
    }
    for (const c of n.children) if (c) visit(c);
  };
  for (const n of nodes) visit(n);
  return rows;
}

/**
 * Bound text for the replacement: lines after the first keep their indentation relative to the line of
 * `anchor` in the source, put onto the indentation of the replacement line at `at`.
 */
function rebase(
  bound: string,
  code: string,
  at: number,
  sourceText: string,
  anchor: number,
  isStringText: (line: number) => boolean,
): string {
  if (!bound.includes("\n")) return bound;
  const lineStart = code.lastIndexOf("\n", at - 1) + 1;
  const targetIndent = /^[ \t]*/.exec(code.slice(lineStart, at))![0];
  const srcLineStart = sourceText.lastIndexOf("\n", anchor - 1) + 1;
  const srcIndent = /^[ \t]*/.exec(sourceText.slice(srcLineStart, anchor))![0];
  return bound.split("\n").map((line, i) => {
    if (i === 0 || isStringText(i)) return line; // a multi-line string's text is data: as it is
    const stripped = line.startsWith(srcIndent) ? line.slice(srcIndent.length) : line.trimStart();
    return stripped.trim() === "" ? "" : targetIndent + stripped;
  }).join("\n");
}
