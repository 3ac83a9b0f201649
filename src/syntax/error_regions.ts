/**
 * The regions of a file its grammar could not parse: where the ERROR and
 * MISSING nodes of a tree are, narrowed to the tokens the parser skipped
 * (complete definitions that tree-sitter recovered inside an ERROR node are
 * not part of a region), merged and in line order.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";

/** Lines of a file the grammar could not parse (1-based, inclusive). */
export interface ErrorRegion {
  /** First line. */
  start_line: number;
  /** Last line. */
  end_line: number;
}

/**
 * The unparsed regions of a tree, merged when they touch, at most `limit`.
 *
 * @param root The root node of a parse.
 * @param limit Most regions returned.
 * @returns Regions in line order (empty when the parse has no error).
 */
export function errorRegions(root: Node, limit = 20): ErrorRegion[] {
  if (!root.hasError) return [];
  const spans: [number, number][] = [];
  const visit = (n: Node): void => {
    if (spans.length > 5000) return;
    if (n.isMissing) {
      spans.push([n.startPosition.row, n.startPosition.row]);
      return;
    }
    if (!n.isError) {
      if (!n.hasError) return;
      for (const c of n.children) if (c) visit(c);
      return;
    }
    // Inside an ERROR: the loose tokens are what the parser skipped; complete named pieces were parsed.
    let first = -1;
    let last = -1;
    const before = spans.length;
    for (const c of n.children) {
      if (!c) continue;
      if (c.isNamed && !c.isMissing) {
        if (c.isError || c.hasError) visit(c);
        continue;
      }
      if (first === -1) first = c.startPosition.row;
      last = c.endPosition.row;
    }
    if (first !== -1) spans.push([first, last]);
    else if (spans.length === before) spans.push([n.startPosition.row, n.endPosition.row]);
  };
  visit(root);
  spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: ErrorRegion[] = [];
  for (const [s, e] of spans) {
    const prev = out[out.length - 1];
    if (prev && s + 1 <= prev.end_line + 1) {
      prev.end_line = Math.max(prev.end_line, e + 1);
      continue;
    }
    if (out.length >= limit) break;
    out.push({ start_line: s + 1, end_line: e + 1 });
  }
  return out;
}

/**
 * "lines 110–130" or "line 7", joined for a message.
 *
 * @param regions Regions.
 * @param max Most regions named (the rest are counted).
 * @returns The phrase.
 */
export function describeRegions(regions: ErrorRegion[], max = 3): string {
  const named = regions.slice(0, max).map((r) =>
    r.start_line === r.end_line ? `line ${r.start_line}` : `lines ${r.start_line}–${r.end_line}`
  );
  const rest = regions.length - named.length;
  return named.join(", ") + (rest > 0 ? ` and ${rest} more region${rest === 1 ? "" : "s"}` : "");
}

/**
 * The warning an outline or a symbol search gives for a file with unparsed regions.
 *
 * @param rel Relative path.
 * @param regions Its regions (non-empty).
 * @returns The warning text.
 */
export function unparsedWarning(rel: string, regions: ErrorRegion[]): string {
  return `"${rel}" ${
    describeRegions(regions)
  } could not be parsed (the grammar may not support some syntax ` +
    `there); symbols there may be missing: read_file those lines to see them`;
}
