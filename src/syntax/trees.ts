/**
 * Tree: a parse cache keyed by (path, version). When a file's text changes
 * (a staged edit), the previous tree is edited over the changed span and
 * re-parsed incrementally.
 *
 * @module
 */
import type { Edit, Node, Parser, Point, Tree } from "web-tree-sitter";
import type { Version } from "../fs/version.ts";
import type { Grammars } from "./grammars.ts";

/** A cached parse. */
export interface ParsedFile {
  /** Language id. */
  language: string;
  /** Version of the bytes parsed. */
  version: Version;
  /** The text parsed (BOM stripped). */
  text: string;
  /** The tree. */
  tree: Tree;
}

/** A syntax problem: an ERROR or MISSING node. */
export interface SyntaxProblem {
  /** "error" or "missing" (nodes tree-sitter reports), or "empty" (a body the language refuses empty, e.g. Python's). */
  kind: "error" | "missing" | "empty";
  /** 1-based first line. */
  line: number;
  /** 1-based column (UTF-16 code units). */
  column: number;
  /** 1-based last line. */
  end_line: number;
  /** The node's text (truncated) or the missing token's type. */
  text: string;
}

/** The Point (row, UTF-16 column) of a UTF-16 offset in `text`. */
export function pointAt(text: string, offset: number): Point {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: offset - lineStart };
}

/** Advance a point from (`from`, `point`) to `to` in `text` by counting newlines in between. */
export function advancePoint(text: string, from: number, point: Point, to: number): Point {
  let { row, column } = point;
  let lineStart = from - column;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: to - lineStart };
}

const CHUNK = 4096;

/** The single changed span between two texts (common prefix and suffix), compared in chunks first. */
export function changedSpan(
  before: string,
  after: string,
): { start: number; oldEnd: number; newEnd: number } | null {
  if (before === after) return null;
  const min = Math.min(before.length, after.length);
  let start = 0;
  while (start + CHUNK <= min && before.slice(start, start + CHUNK) === after.slice(start, start + CHUNK)) {
    start += CHUNK;
  }
  while (start < min && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let oldEnd = before.length;
  let newEnd = after.length;
  while (
    oldEnd - CHUNK >= start && newEnd - CHUNK >= start &&
    before.slice(oldEnd - CHUNK, oldEnd) === after.slice(newEnd - CHUNK, newEnd)
  ) {
    oldEnd -= CHUNK;
    newEnd -= CHUNK;
  }
  while (oldEnd > start && newEnd > start && before.charCodeAt(oldEnd - 1) === after.charCodeAt(newEnd - 1)) {
    oldEnd--;
    newEnd--;
  }
  return { start, oldEnd, newEnd };
}

/** What a cache holds in wasm memory, freed with it. */
interface Held {
  parsers: Map<string, Parser>;
  files: Map<string, ParsedFile>;
}

function free(held: Held): void {
  for (const f of held.files.values()) f.tree.delete();
  for (const p of held.parsers.values()) p.delete();
  held.files.clear();
  held.parsers.clear();
}

/** Trees and parsers live in wasm memory, which the garbage collector does not free: a dropped cache frees them. */
const DROPPED = typeof FinalizationRegistry === "function" ? new FinalizationRegistry<Held>(free) : null;

/**
 * Parse cache: one current tree per path, reused when the version matches and
 * re-parsed incrementally from the previous tree when it does not. Its trees
 * are freed by {@linkcode TreeCache.clear}, or when the cache is garbage
 * collected.
 */
export class TreeCache {
  readonly #grammars: Grammars;
  readonly #parsers = new Map<string, Parser>();
  readonly #files = new Map<string, ParsedFile>();
  /** How many parses were incremental (for tests and benchmarks). */
  incrementalParses = 0;
  /** How many parses were from scratch. */
  fullParses = 0;

  /** @param grammars The language registry. */
  constructor(grammars: Grammars) {
    this.#grammars = grammars;
    DROPPED?.register(this, { parsers: this.#parsers, files: this.#files }, this);
  }

  /** Free every cached tree and parser now (the cache stays usable: later calls parse again). */
  clear(): void {
    free({ parsers: this.#parsers, files: this.#files });
  }

  async #parser(language: string): Promise<Parser> {
    let p = this.#parsers.get(language);
    if (!p) {
      p = await this.#grammars.parser(language);
      this.#parsers.set(language, p);
    }
    return p;
  }

  /**
   * The tree of `text` at `version` for `path`.
   *
   * @param path Relative path (the cache key).
   * @param language Language id.
   * @param version Version of the bytes.
   * @param text Decoded text (without BOM).
   * @returns The cached or freshly (incrementally) parsed file.
   */
  async parse(path: string, language: string, version: Version, text: string): Promise<ParsedFile> {
    const cached = this.#files.get(path);
    if (cached && cached.version === version && cached.language === language) return cached;
    const parser = await this.#parser(language);
    let old: Tree | null = null;
    if (cached && cached.language === language) {
      const span = changedSpan(cached.text, text);
      if (span) {
        // Start from the nearest node's known position instead of scanning from the top.
        const anchor = cached.tree.rootNode.descendantForIndex(span.start);
        const startPosition = anchor && anchor.startIndex <= span.start
          ? advancePoint(cached.text, anchor.startIndex, anchor.startPosition, span.start)
          : pointAt(cached.text, span.start);
        const edit: Edit = {
          startIndex: span.start,
          oldEndIndex: span.oldEnd,
          newEndIndex: span.newEnd,
          startPosition,
          oldEndPosition: advancePoint(cached.text, span.start, startPosition, span.oldEnd),
          newEndPosition: advancePoint(text, span.start, startPosition, span.newEnd),
        } as Edit;
        cached.tree.edit(edit);
        old = cached.tree;
      }
    }
    const tree = parser.parse(text, old);
    if (!tree) throw new Error(`Cannot parse "${path}" as ${language}: the parser returned no tree`);
    if (old) {
      this.incrementalParses++;
      old.delete();
    } else {
      this.fullParses++;
      cached?.tree.delete();
    }
    const parsed = { language, version, text, tree };
    this.#files.set(path, parsed);
    return parsed;
  }

  /**
   * Parse text without caching (e.g. a staged state that may be dropped).
   * The caller must `delete()` the tree.
   */
  async parseDetached(language: string, text: string): Promise<Tree> {
    const tree = (await this.#parser(language)).parse(text);
    if (!tree) throw new Error(`Cannot parse text as ${language}: the parser returned no tree`);
    return tree;
  }

  /** Forget a path (e.g. deleted). */
  forget(path: string): void {
    this.#files.get(path)?.tree.delete();
    this.#files.delete(path);
  }

  /** Number of cached trees. */
  get size(): number {
    return this.#files.size;
  }
}

/**
 * Every ERROR and MISSING node under `node`, in document order.
 *
 * @param node A tree's root node.
 * @param limit Stop after this many.
 * @returns The problems with 1-based lines.
 */
export function syntaxProblems(node: Node, limit = 50): SyntaxProblem[] {
  const out: SyntaxProblem[] = [];
  if (!node.hasError) return out;
  const cursor = node.walk();
  let done = false;
  while (!done && out.length < limit) {
    const n = cursor.currentNode;
    const isErr = n.isError;
    const isMissing = n.isMissing;
    if (isErr || isMissing) {
      out.push({
        kind: isErr ? "error" : "missing",
        line: n.startPosition.row + 1,
        column: n.startPosition.column + 1,
        end_line: n.endPosition.row + 1,
        text: isMissing ? n.type : n.text.slice(0, 80),
      });
    }
    if (!isErr && n.hasError && cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) {
        done = true;
        break;
      }
    }
  }
  cursor.delete();
  return out;
}
