/**
 * Token runs: a sharper test than "the file holds each of the pattern's texts somewhere" for whether a file
 * can hold a match before it is parsed. A run is a sequence of the pattern's leaves that the matcher
 * (`edit/pattern.ts`, with ast-grep's smart strictness) can only find in a file with nothing between two of
 * them but what it passes over: whitespace, comments (and the grammar's other extras), and tokens of the
 * code the pattern does not write (the grammar's unnamed tokens: punctuation and keywords). So a file that
 * holds `c`, `req` and `header` but never `c.req.header(` is not parsed for `c.req.header($A)`.
 *
 * Two leaves next to each other in the pattern are in one run when:
 *
 * - neither is a metavariable, an empty token, a `,`/`;` next to a `$$$X` (which the matcher may leave out), or
 *   inside a node whose children do not cover its text (the profile's `textNodes`: Python's `string_content`
 *   holds text between its escape sequences that the matcher does not compare);
 * - the first has a next sibling, of whose subtree the second is the first leaf: when the first ends its
 *   parent, the code's node of that type may go on past the pattern's last child (`new Foo` matches
 *   `new Foo(x)`), so anything may lie between — unless the parent is closed after it (the profile's
 *   `closedNodes`: a member expression ends at its property), and so on up to the first ancestor that has a
 *   next sibling;
 * - the pattern's own text between them is whitespace (text a grammar reads with no node of its own, such as
 *   CSS's digits before a unit, is not compared by the matcher).
 *
 * In a file, between two tokens of a run the test lets stand any character other than an ASCII letter, digit
 * or `_`, any word of one of the grammar's unnamed tokens (`async` in `export async function`), and the
 * comments the profile says it may skip (`skippableComments`: `//` to the line's end, `/* … *\/` to its
 * close); it gives up (the file may match) where another comment may open (the profile's `commentStarts`:
 * Rust's nesting block comments, JavaScript's `<!--`) or after {@linkcode MAX_GAP} characters. A token that
 * starts with a letter or `_` is not glued to word characters around it (`new` in `newResponse`). A language
 * whose profile states no comment starts gets no runs: its files are tested on the pattern's texts alone.
 *
 * What it turns away that the matcher would match: only a match across a syntax error. tree-sitter makes
 * text it cannot read an extra `ERROR` node, which the matcher passes over as it does a comment (ast-grep does
 * too: `c.req foo .header(a)` matches `c.req.header($A)`); allowing any text where an error might stand would
 * allow any text at all, and the runs would narrow nothing.
 *
 * @module
 */
import type { Language } from "web-tree-sitter";
import { profileOf } from "../../languages/profiles.ts";
import type { PatternNode } from "../edit/pattern.ts";

/** Characters between two tokens of a run past which the test gives up (the file may match). */
export const MAX_GAP = 128;

/** What the test knows of a language: the words of its unnamed tokens, where a comment may open, its text nodes. */
export interface RunLexicon {
  /** Every run of ASCII letters, digits and `_` in the grammar's unnamed node types (`async`, `static`, `get`). */
  keywords: ReadonlySet<string>;
  /** Texts that open a comment or another extra (the profile's `commentStarts`). */
  commentStarts: readonly string[];
  /** Of those, the comments skipped to their end rather than stopped at (the profile's `skippableComments`). */
  skippable?: { line: readonly string[]; block: readonly { open: string; close: string }[] };
  /** Node types whose children do not cover their text (the profile's `textNodes`): no run goes inside one. */
  textNodes?: ReadonlySet<string>;
  /** Node type -> child types that stand only last in it (the profile's `closedNodes`): a run goes on past one. */
  closedNodes?: Readonly<Record<string, readonly string[]>>;
}

/** What a pattern's leaves are read with: the lexicon's text nodes and closed nodes. */
export type RunStructure = Pick<RunLexicon, "textNodes" | "closedNodes">;

/**
 * What the test knows of a language, from its profile and its grammar; null where the profile states no
 * comment starts (the test is then not run) or there is no grammar.
 *
 * @param language The language's name.
 * @param grammar Its tree-sitter language.
 * @returns The lexicon, or null.
 */
export function runLexiconOf(language: string, grammar: Language | null): RunLexicon | null {
  const { commentStarts, skippableComments, textNodes, closedNodes } = profileOf(language);
  return commentStarts === null || grammar === null ? null : {
    keywords: unnamedTokenWords(grammar),
    commentStarts,
    skippable: skippableComments,
    textNodes: new Set(textNodes),
    closedNodes,
  };
}

/** Separators the matcher may leave out next to a `$$$X`. */
const OPTIONAL_SEPARATORS = new Set([",", ";"]);

/** The words of each grammar's unnamed tokens, per grammar. */
const KEYWORDS = new WeakMap<Language, ReadonlySet<string>>();

/**
 * The words of a grammar's unnamed node types: what a token the matcher passes over may spell with letters.
 *
 * @param language A tree-sitter language.
 * @returns Every maximal run of ASCII letters, digits and `_` in an unnamed node type's name.
 */
export function unnamedTokenWords(language: Language): ReadonlySet<string> {
  let words = KEYWORDS.get(language);
  if (words === undefined) {
    const found = new Set<string>();
    for (let id = 0; id < language.nodeTypeCount; id++) {
      if (language.nodeTypeIsNamed(id)) continue;
      for (const w of language.nodeTypeForId(id)?.match(/[A-Za-z0-9_]+/g) ?? []) found.add(w);
    }
    KEYWORDS.set(language, words = found);
  }
  return words;
}

/** A leaf of the pattern, in document order, and whether a run may go on past it. */
interface Leaf {
  node: PatternNode;
  /** The next leaf is the first of its next sibling's subtree, or of a closed ancestor's. */
  continues: boolean;
  /** It may not stand in a run: a `,`/`;` next to a `$$$X` among its siblings, or inside a text node. */
  aside: boolean;
}

/** Where a node stands: its siblings (its parent's children), its place, and the nodes above it, nearest first. */
interface Place {
  siblings: readonly PatternNode[];
  i: number;
  /** Each ancestor with its own siblings and place, nearest first. */
  up: readonly { node: PatternNode; siblings: readonly PatternNode[]; i: number }[];
}

/**
 * Whether the leaf at `place` has a next sibling, or ends only parents that end where it does in any code that
 * matches (closed nodes ending in a child of its type), up to one that has a next sibling.
 */
function continuesAt(leaf: PatternNode, place: Place, closed: RunStructure["closedNodes"]): boolean {
  let node = leaf;
  let { siblings, i } = place;
  for (const above of place.up) {
    if (i < siblings.length - 1) return true;
    if (!(closed?.[above.node.type]?.includes(node.type) ?? false)) return false;
    ({ node, siblings, i } = above);
  }
  return i < siblings.length - 1;
}

/** The pattern's leaves in document order. */
function leavesOf(root: PatternNode, structure: RunStructure): Leaf[] {
  const out: Leaf[] = [];
  const textNodes = structure.textNodes ?? new Set<string>();
  const visit = (p: PatternNode, at: Place & { inText: boolean }) => {
    const inText = at.inText || textNodes.has(p.type);
    if (p.children.length > 0) {
      const up = [{ node: p, siblings: at.siblings, i: at.i }, ...at.up];
      return p.children.forEach((c, k, all) => visit(c, { siblings: all, i: k, up, inText }));
    }
    const { siblings, i } = at;
    const optional = !p.named && OPTIONAL_SEPARATORS.has(p.type) &&
      (siblings[i - 1]?.meta?.multi === true || siblings[i + 1]?.meta?.multi === true);
    out.push({ node: p, continues: continuesAt(p, at, structure.closedNodes), aside: optional || inText });
  };
  visit(root, { siblings: [root], i: 0, up: [], inText: false });
  return out;
}

/** Whether a leaf may stand in a run at all. */
function runnable(leaf: Leaf): boolean {
  return leaf.node.meta === undefined && leaf.node.text !== "" && !leaf.aside;
}

/**
 * The pattern's token runs of two tokens or more (see the module's doc), each as its tokens' texts.
 *
 * @param root A compiled pattern's root (its leaves carry their `lead`).
 * @param structure The language's text nodes (no run goes inside one) and closed nodes (a run goes on past
 *   one's last child).
 * @returns The runs, in the pattern's order.
 */
export function tokenRuns(root: PatternNode, structure: RunStructure = {}): string[][] {
  const runs: string[][] = [];
  let run: string[] = [];
  const leaves = leavesOf(root, structure);
  leaves.forEach((leaf, i) => {
    if (!runnable(leaf)) {
      if (run.length > 1) runs.push(run);
      run = [];
      return;
    }
    run.push(leaf.node.text);
    const next = leaves[i + 1];
    const joined = next !== undefined && leaf.continues && runnable(next) &&
      /^\s*$/.test(next.node.lead ?? "x");
    if (!joined) {
      if (run.length > 1) runs.push(run);
      run = [];
    }
  });
  return runs;
}

/** Whether `c` (a UTF-16 unit) is an ASCII letter, digit or `_`. */
function isWordUnit(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** Whether `c` (a UTF-16 unit) is an ASCII letter or `_`: what an identifier or a keyword starts with. */
function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/**
 * Whether `token` at `at` is not glued to the word characters around it: a lexer reads the longest run of
 * word characters that starts with a letter or `_` as one identifier or keyword, so such a token has no word
 * character right after it, and no token starting with a word character comes right after such a run. A
 * number may be (Python reads `1if` as `1` and `if`), so only runs that start with a letter or `_` count.
 */
function standsAlone(text: string, at: number, token: string): boolean {
  const end = at + token.length;
  if (
    isNameStart(token.charCodeAt(0)) && isWordUnit(token.charCodeAt(token.length - 1)) && end < text.length &&
    isWordUnit(text.charCodeAt(end))
  ) {
    return false;
  }
  if (!isWordUnit(token.charCodeAt(0))) return true;
  let start = at;
  while (start > 0 && isWordUnit(text.charCodeAt(start - 1))) start--;
  return start === at || !isNameStart(text.charCodeAt(start));
}

/** The test gave up between two tokens: the file may hold the run. */
const GAVE_UP = -2;

/**
 * Past the comment or other extra at `at`: where it ends (a line comment at its line's end, a block comment
 * after its close), {@linkcode GAVE_UP} for one the test does not skip (or a block never closed), or -1 when
 * none opens there.
 */
function pastComment(text: string, at: number, lexicon: RunLexicon): number {
  const { line = [], block = [] } = lexicon.skippable ?? {};
  if (line.some((l) => text.startsWith(l, at))) {
    const end = text.indexOf("\n", at);
    return end === -1 ? text.length : end;
  }
  const opened = block.find((b) => text.startsWith(b.open, at));
  if (opened !== undefined) {
    const close = text.indexOf(opened.close, at + opened.open.length);
    return close === -1 ? GAVE_UP : close + opened.close.length;
  }
  return lexicon.commentStarts.some((c) => text.startsWith(c, at)) ? GAVE_UP : -1;
}

/**
 * Where `token` starts after `from` with only what may stand between two tokens of a run before it: its
 * offset, -1 when something else comes first, or {@linkcode GAVE_UP}.
 */
function nextToken(text: string, from: number, token: string, lexicon: RunLexicon): number {
  let at = from;
  for (;;) {
    if (text.startsWith(token, at) && standsAlone(text, at, token)) return at;
    if (at >= text.length) return -1;
    if (at - from > MAX_GAP) return GAVE_UP;
    if (!isWordUnit(text.charCodeAt(at))) {
      const past = pastComment(text, at, lexicon);
      if (past === GAVE_UP) return GAVE_UP;
      at = past === -1 ? at + 1 : past;
      continue;
    }
    let end = at + 1;
    while (end < text.length && isWordUnit(text.charCodeAt(end))) end++;
    if (!lexicon.keywords.has(text.slice(at, end))) return -1;
    at = end;
  }
}

/**
 * Whether a text may hold a run: some occurrence of its first token is followed by the others, each after
 * only what may stand between two tokens of a run (see the module's doc), and none glued to a name around it
 * (`new` in `newResponse`).
 *
 * @param text The file's text.
 * @param run The run's tokens.
 * @param lexicon The language's unnamed-token words and comment starts.
 * @returns False only when no match of a pattern with this run can be in the text.
 */
export function mayHoldRun(text: string, run: readonly string[], lexicon: RunLexicon): boolean {
  const first = run[0]!;
  for (let at = text.indexOf(first); at !== -1; at = text.indexOf(first, at + 1)) {
    if (!standsAlone(text, at, first)) continue;
    let end = at + first.length;
    let k = 1;
    for (; k < run.length; k++) {
      const next = nextToken(text, end, run[k]!, lexicon);
      if (next === GAVE_UP) return true;
      if (next < 0) break;
      end = next + run[k]!.length;
    }
    if (k === run.length) return true;
  }
  return false;
}

/**
 * The test of a compiled pattern's runs on a file's text, or null when it has none (or the language states no
 * comment syntax): the file is then tested on the pattern's texts alone.
 *
 * @param root A compiled pattern's root.
 * @param lexicon The language's unnamed-token words and comment starts (null: not stated).
 * @returns Whether a text may hold every run.
 */
export function runFilter(
  root: PatternNode,
  lexicon: RunLexicon | null,
): ((text: string) => boolean) | null {
  if (lexicon === null) return null;
  const runs = tokenRuns(root, lexicon);
  if (runs.length === 0) return null;
  return (text) => runs.every((run) => mayHoldRun(text, run, lexicon));
}
