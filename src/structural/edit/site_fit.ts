/**
 * Whether each replaced node's new text fits where the node was: the node that held it keeps its kind and its
 * extent, and reads the new text as whole children of its own. A parse with no error can still have moved
 * code: two statements written in place of the body of an `if` without braces leave the second after the
 * `if` (it runs whatever the condition), `x + 1` in place of `f(x)` in `f(x) * 2` reads as `x + (1 * 2)`, and
 * removing the only statement of such a body makes the next statement the body. Edits that replace nodes
 * (`edit_apply_node`, `edit_rewrite_structural`) are checked with {@linkcode misfitEdits}, and refused where
 * a site does not fit: the syntax guard sees no new error in any of these.
 *
 * The rule: an edit's site is the node its old text spans (the outermost of equal extent), taken up through
 * parents that hold nothing else but punctuation and keywords (a statement's `;`, a block's braces, `else`);
 * the parent above that, the holder, must be found in the new tree with its kind and its extent (shifted by
 * the edits before it), and no child of it may straddle either end of the new text.
 *
 * @module
 */
import type { Node, Tree } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import type { Grammars } from "../../syntax/grammars.ts";
import { editsBetween } from "../../syntax/text_points.ts";
import type { ParsedFile } from "../../syntax/trees.ts";
import type { Parsing } from "../../syntax/types.ts";
import type { TextEdit } from "./source.ts";

/** A site whose new text does not fit where the old node was. */
export interface SiteMisfit {
  /** Index of the edit in the list checked. */
  index: number;
  /** 1-based line and column of the old text's start. */
  line: number;
  column: number;
  /** The kind of the node that held the site. */
  holder: string;
  /** Its 1-based first line in the old text. */
  holder_line: number;
  /**
   * `reshaped`: the holder is not there any more with its extent (part of the new text falls outside it, or it
   * was read with the code around it); `split`: the holder's parts now cut through the new text (precedence).
   */
  reason: "reshaped" | "split";
  /** Set when the edit removes the node (its new text is blank). */
  removed?: true;
}

/** What an edit's site looks like in the old tree, as plain data (the old tree may be gone by the check). */
export interface SiteFrame {
  index: number;
  holder: { type: string; start: number; end: number; row: number };
  /** The extent of the site as widened, and of its edit where that reaches further (old offsets). */
  site: { start: number; end: number };
  /** Where its old text starts, past leading whitespace: offset, 0-based row and column. */
  at: { offset: number; row: number; column: number };
}

/** Whether `c` is whitespace. */
const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);

/** The range without the whitespace at either end (empty: both at the first non-space, or at `end`). */
function trimmed(text: string, range: { start: number; end: number }): { start: number; end: number } {
  let { start, end } = range;
  while (start < end && isSpace(text[start])) start++;
  while (end > start && isSpace(text[end - 1])) end--;
  return { start, end };
}

/** The first offset from `at` on (`way` 1), or the last end back from it (-1), that is not past whitespace. */
function past(text: string, at: number, way: 1 | -1): number {
  if (way === 1) {
    while (at < text.length && isSpace(text[at])) at++;
  } else {
    while (at > 0 && isSpace(text[at - 1])) at--;
  }
  return at;
}

/** A node's range without whitespace at either end (some grammars' nodes take the whitespace after them). */
function solidOf(text: string, node: Node): { start: number; end: number } {
  return trimmed(text, { start: node.startIndex, end: node.endIndex });
}

/** Whether a node spans `range`, whitespace at either end aside. */
function sameSolid(text: string, node: Node, range: { start: number; end: number }): boolean {
  const solid = solidOf(text, node);
  return solid.start === range.start && solid.end === range.end;
}

/**
 * The deepest node that holds the whole range, with every node on the way down from `root` (each step one
 * look-up of the child at an offset, so a node of many children costs no more than one of few).
 */
function pathTo(root: Node, range: { start: number; end: number }): Node[] {
  const path = [root];
  for (let node = root;;) {
    const next = node.firstChildForIndex(range.start);
    if (next === null || next.startIndex > range.start || next.endIndex < range.end) return path;
    if (next.endIndex === next.startIndex) return path;
    path.push(next);
    node = next;
  }
}

/** Whether a child of `node` starts before `at` and ends after it. */
function straddles(node: Node, at: number, text: string): boolean {
  // Code on both sides of `at` inside one child (some grammars' nodes take the whitespace after them).
  const before = past(text, at, -1);
  const after = past(text, at, 1);
  if (before === 0) return false;
  const c = node.firstChildForIndex(before - 1); // the one child that may hold the last character before
  return c !== null && c.startIndex < before && c.endIndex > after;
}

/** Whether every child of `parent` beside `site` is unnamed (punctuation and keywords). */
function holdsNothingElse(parent: Node, site: Node): boolean {
  return parent.namedChildCount === (site.isNamed ? 1 : 0);
}

/**
 * Where an edit sits in the old tree, or null where the rule says nothing: an insertion, an edit inside one
 * token or across parts of nodes, an edit of the whole file, or one in code the parser already read as an error.
 */
function frameOf(root: Node, text: string, edit: TextEdit & { index: number }): SiteFrame | null {
  const range = trimmed(text, edit);
  if (range.start === range.end) return null;
  const path = pathTo(root, range);
  let site: Node | null = path[path.length - 1]!;
  let holder: Node | null;
  if (sameSolid(text, site, range)) {
    while (
      site.parent &&
      (sameSolid(text, site.parent, solidOf(text, site)) || holdsNothingElse(site.parent, site))
    ) {
      site = site.parent;
    }
    holder = site.parent;
  } else {
    // Several whole children of one node (a definition with its doc comment), or a part of one token.
    if (straddles(site, range.start, text) || straddles(site, range.end, text) || site.childCount === 0) {
      return null;
    }
    holder = site;
    site = null;
  }
  if (holder === null || holder.hasError) return null;
  // The node, or the edit where it reaches further (a removal takes the node's line with it).
  const span = site === null
    ? { start: edit.start, end: edit.end }
    : { start: Math.min(site.startIndex, edit.start), end: Math.max(site.endIndex, edit.end) };
  const start = holder.startPosition;
  return {
    index: edit.index,
    holder: { type: holder.type, start: holder.startIndex, end: holder.endIndex, row: start.row },
    site: span,
    at: { offset: range.start, row: 0, column: 0 },
  };
}

/** Set each frame's row and column (one pass over the text). */
function placeFrames(frames: SiteFrame[], text: string): void {
  let row = 0;
  let lineStart = 0;
  let i = 0;
  for (const f of [...frames].sort((a, b) => a.at.offset - b.at.offset)) {
    for (; i < f.at.offset; i++) {
      if (text.charCodeAt(i) === 10) [row, lineStart] = [row + 1, i + 1];
    }
    f.at.row = row;
    f.at.column = f.at.offset - lineStart;
  }
}

/** Offsets of the old text in the new one, the edits sorted by start and not overlapping. */
function shifter(edits: readonly TextEdit[]): { start(o: number): number; end(o: number): number } {
  // The shift after the first k edits, and how many edits lie wholly before an offset (a binary search).
  const after = [0];
  for (const e of edits) after.push(after.at(-1)! + e.text.length - (e.end - e.start));
  const before = (e: TextEdit, o: number, inclusive: boolean) =>
    e.end > e.start ? e.end <= o : inclusive ? e.start <= o : e.start < o;
  const shift = (o: number, inclusive: boolean) => {
    let [lo, hi] = [0, edits.length];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(edits[mid]!, o, inclusive)) lo = mid + 1;
      else hi = mid;
    }
    return o + after[lo]!;
  };
  return { start: (o) => shift(o, true), end: (o) => shift(o, false) };
}

/** Whether the new tree has a node of the holder's kind at exactly that extent. */
function holderIn(
  root: Node,
  kind: string,
  range: { start: number; end: number },
  text: string,
): Node | null {
  const path = pathTo(root, range);
  for (let i = path.length - 1; i >= 0; i--) {
    const n = path[i]!;
    if (!sameSolid(text, n, range)) break; // wider: so is every ancestor
    if (n.type === kind) return n;
  }
  return null;
}

/**
 * Where the edits' sites are in the old tree: call before the new text is parsed (a parse of the same path in
 * the workspace's cache may reuse and free the old tree).
 *
 * @param root The old tree's root.
 * @param text The old text.
 * @param edits The edits (any order, not overlapping).
 * @returns What {@linkcode misfitsAfter} checks, as plain data.
 */
export function siteFrames(root: Node, text: string, edits: readonly TextEdit[]): SiteFrame[] {
  const frames = edits.map((e, index) => frameOf(root, text, { ...e, index })).filter((f) => f !== null);
  placeFrames(frames, text);
  return frames;
}

/**
 * The sites of {@linkcode siteFrames} whose new text does not fit, in the new tree.
 *
 * @param root The new tree's root.
 * @param text The new text.
 * @param change The frames and the edits they were made of.
 * @returns The misfits, in the edits' order.
 */
export function misfitsAfter(
  root: Node,
  text: string,
  change: { frames: readonly SiteFrame[]; edits: readonly TextEdit[] },
): SiteMisfit[] {
  const sorted = [...change.edits].sort((a, b) => a.start - b.start);
  const map = shifter(sorted);
  const out: SiteMisfit[] = [];
  for (const f of change.frames) {
    const raw = { start: map.start(f.site.start), end: map.end(f.site.end) };
    const site = trimmed(text, raw);
    const { holder } = f;
    // Where the holder began or ended inside the site, it now begins or ends with the code next to it.
    const range = {
      start: past(text, holder.start >= f.site.start ? raw.start : map.start(holder.start), 1),
      end: past(text, holder.end <= f.site.end ? raw.end : map.end(holder.end), -1),
    };
    const found = holderIn(root, holder.type, range, text);
    // New parse errors around the site are the syntax guard's to report, with their lines.
    if (found === null && pathTo(root, site).at(-1)!.hasError) continue;
    const split = found !== null && (straddles(found, site.start, text) || straddles(found, site.end, text));
    if (found !== null && !split) continue;
    out.push({
      index: f.index,
      line: f.at.row + 1,
      column: f.at.column + 1,
      holder: holder.type,
      holder_line: holder.row + 1,
      reason: found === null ? "reshaped" : "split",
      ...(site.start === site.end ? { removed: true as const } : {}),
    });
  }
  return out;
}

/**
 * What a misfit means, in words a model can act on.
 *
 * @param m The misfit.
 * @returns One sentence, without the place.
 */
export function misfitText(m: SiteMisfit): string {
  if (m.removed) {
    return `the ${m.holder} that held it (line ${m.holder_line}) would take the code after it in its place ` +
      `(remove the whole ${m.holder}, or leave an empty body there)`;
  }
  return m.reason === "split"
    ? `the ${m.holder} around it (line ${m.holder_line}) would read the new code across its ` +
      `own parts (an operator binding tighter than the new text's own)`
    : `the ${m.holder} that held it (line ${m.holder_line}) would not hold the new code as ` +
      `it held the old (more than one statement where one fits, as in the body of an if or else without ` +
      `braces, or code read together with what is around it)`;
}

/**
 * The new text's tree, parsed from a copy of the old one (the old tree and the workspace's cache untouched).
 *
 * @returns The tree (the caller deletes it), or null where the parser fails.
 */
async function reparsed(
  grammars: Grammars,
  old: { tree: Tree; text: string; language: string },
  text: string,
): Promise<Tree | null> {
  const copy = old.tree.copy();
  const parser = await grammars.parser(old.language);
  try {
    for (const edit of editsBetween(copy, old.text, text)) copy.edit(edit);
    return parser.parse(text, copy);
  } catch {
    return null; // the parse itself failed: the syntax guard, which parses again, says so
  } finally {
    copy.delete();
    parser.delete();
  }
}

/**
 * The edits of one file whose new text does not fit where the old node was ({@linkcode misfitsAfter}): the
 * old tree is the file's (or the workspace cache's, at its version), the new text parsed apart from the cache.
 *
 * @param parsing The workspace's grammars and parse cache.
 * @param file The file before: path, language, text (BOM dropped), version, and its tree if the caller holds it.
 * @param change The new text and the edits that make it (old offsets, not overlapping).
 * @returns The misfits; none without grammars or where no edit replaces whole nodes.
 */
export async function misfitEdits(
  parsing: Parsing,
  file: { path: string; language: string; text: string; version: string; tree?: Tree },
  change: { text: string; edits: readonly TextEdit[] },
): Promise<SiteMisfit[]> {
  const { grammars, trees } = parsing;
  if (grammars === null || trees === null) return [];
  let parsed: ParsedFile | null = null;
  const tree = file.tree ??
    (parsed = await trees.parse(file.path, file.language, file.version, file.text)).tree;
  try {
    const frames = siteFrames(tree.rootNode, file.text, change.edits);
    if (frames.length === 0) return [];
    const after = await reparsed(grammars, { tree, text: file.text, language: file.language }, change.text);
    if (after === null) return [];
    try {
      return misfitsAfter(after.rootNode, change.text, { frames, edits: change.edits });
    } finally {
      after.delete();
    }
  } finally {
    if (parsed !== null) trees.done(parsed);
  }
}

/**
 * The refusal of an edit with sites whose new text does not fit: nothing is written.
 *
 * @param found Each misfit with its file's path and the site's occurrence id, if it has one.
 * @param leaveOut How the caller leaves those sites out (the tool's own words).
 * @returns The error (`syntax_error`), every site in its details.
 */
export function misfitRefusal(
  found: readonly { path: string; misfit: SiteMisfit; id?: string }[],
  leaveOut: string,
): RecoverableError {
  const shown = found.slice(0, 5).map(({ path, misfit: m }) =>
    `${path}:${m.line}:${m.column}: ${misfitText(m)}`
  );
  const more = found.length > shown.length ? `; and ${found.length - shown.length} more (details.sites)` : "";
  return new RecoverableError(
    "syntax_error",
    `The new code does not fit where ${found.length} of the matches ${
      found.length === 1 ? "is" : "are"
    }, though it parses: ${shown.join("; ")}${more}. Nothing was written`,
    {
      hint: "Write new code that is one node there — several statements inside braces { … } where a body " +
        `without braces held one, an expression inside parentheses where an operator binds it — or ${leaveOut}`,
      details: {
        sites: found.map(({ path, misfit: { index: _index, ...misfit }, id }) => ({
          path,
          ...misfit,
          ...(id ? { id } : {}),
        })),
      },
    },
  );
}
