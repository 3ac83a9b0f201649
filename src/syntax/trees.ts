/**
 * Tree: a parse cache keyed by (path, version). When a file's text changes
 * (a staged edit), the previous tree is edited at each changed run of lines and
 * re-parsed incrementally.
 *
 * Two bounds keep one file from breaking the parser for every later call. A
 * text over {@linkcode TreeCacheOptions.maxParseBytes} is refused before
 * tree-sitter sees it (a parse holds about 30 bytes of wasm memory per byte of
 * source, and wasm memory never shrinks). And a trap inside the runtime (an
 * `Aborted()` when wasm memory runs out) deletes the parser that trapped:
 * its half-built parse held the memory, and a parser kept after an abort
 * makes every later parse of any language fail (`table index is out of
 * bounds`). The call that trapped is answered with an error; the next one
 * gets a fresh parser.
 *
 * What it holds is bounded too: trees of at most
 * {@linkcode TreeCacheOptions.maxTreeChars} characters of source in all
 * (least recently used out first), so that a search that parses thousands of
 * files does not keep every tree in wasm memory. A tree that goes is not
 * deleted there and then (a caller may still be walking it): it is freed when
 * the garbage collector finds it unused (web-tree-sitter's finalizer). A
 * search takes a pass ({@linkcode TreeCache.newPass}): the trees it or the
 * pass before it parsed or used are not pushed out by its own parses, so a
 * search over more than the bound keeps what it parsed first, and the next
 * search reuses it, instead of cycling every tree through the cache.
 *
 * @module
 */
import type { Node, Parser, Tree } from "web-tree-sitter";
import { RecoverableError } from "../errors.ts";
import type { Version } from "../fs/version.ts";
import { sizeText } from "../fs/size_text.ts";
import { type Grammars, HEAD_CHARS } from "./grammars.ts";
import { editsBetween } from "./text_points.ts";

export { advancePoint, pointAt, pointIn } from "./text_points.ts";

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

/** The default {@linkcode TreeCacheOptions.maxParseBytes}: 8 MiB (a parse of that peaks near 256 MB of wasm memory). */
export const DEFAULT_MAX_PARSE_BYTES = 8 * 1024 * 1024;

/**
 * The default {@linkcode TreeCacheOptions.maxTreeChars}: 8 Mi characters of source. A tree holds about 20
 * bytes of wasm memory per character of JavaScript source (measured in `bench/search_100k.ts`), so the trees
 * of a full cache hold about 160 MiB.
 */
export const DEFAULT_MAX_TREE_CHARS = 8 * 1024 * 1024;

/** Options of {@linkcode TreeCache}. */
export interface TreeCacheOptions {
  /**
   * Most characters of source whose trees are held at once (default {@linkcode DEFAULT_MAX_TREE_CHARS}); past
   * it the least recently used trees go first (see the module). A tree of a larger text is not held.
   */
  maxTreeChars?: number;
  /**
   * The largest text parsed, in UTF-8 bytes (default {@linkcode DEFAULT_MAX_PARSE_BYTES}): a larger one is
   * refused with `limit_exceeded` before tree-sitter sees it.
   */
  maxParseBytes?: number;
}

/**
 * The UTF-8 length of `text`, counted no further than needed to tell it is over `limit`.
 *
 * @param text Any text.
 * @param limit A byte count.
 * @returns The exact length when at most `limit`; otherwise a number over `limit` (at least `text.length`).
 */
export function utf8LengthUpTo(text: string, limit: number): number {
  if (text.length > limit) return text.length;
  if (text.length * 3 <= limit) return new TextEncoder().encode(text).length;
  let bytes = 0;
  for (let i = 0; i < text.length && bytes <= limit; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The refusal for a text over the parse limit: its size, the limit, and the calls that work without a parse.
 *
 * @param path The file (relative path).
 * @param bytes Its size (UTF-8 bytes; at least this much).
 * @param limit The parse limit.
 * @returns A `limit_exceeded` error.
 */
export function parseLimitError(path: string, bytes: number, limit: number): RecoverableError {
  return new RecoverableError(
    "limit_exceeded",
    `Cannot parse "${path}": it is ${sizeText(bytes)} (${bytes} bytes or more), over the parse limit of ${
      sizeText(limit)
    }`,
    {
      hint:
        'Read it in ranges with read_file (start_line, end_line) and change it with text edits (edit_file, edit_safe_text_patch, apply_edits) passing syntax_guard: "off"; outline, symbol and refactor tools need a parse (the limit is the workspace option maxParseBytes)',
      suggestedCall: { tool: "read_file", args: { path, start_line: 1, end_line: 200 } },
      details: { path, bytes, limit_bytes: limit },
    },
  );
}

/** The answer to a parse the runtime trapped in (the parser was deleted; the next parse gets a new one). */
function parseTrapError(path: string, language: string, bytes: number, cause: unknown): RecoverableError {
  const what = cause instanceof Error ? cause.message.replace(/\. Build with .*$/, "") : String(cause);
  const aborted = what.startsWith("Aborted(");
  return new RecoverableError(
    aborted ? "limit_exceeded" : "internal",
    `Cannot parse "${path}" as ${language}: the tree-sitter runtime trapped (${what})${
      aborted ? `, most likely out of wasm memory on ${sizeText(bytes)} of text` : ""
    }; the parser was reset, and other files parse as before`,
    {
      hint: aborted
        ? 'Read the file in ranges with read_file and change it with text edits passing syntax_guard: "off"; lower the workspace option maxParseBytes to refuse such files up front'
        : 'Report the file that triggers it; meanwhile read it with read_file and change it with text edits passing syntax_guard: "off"',
      suggestedCall: { tool: "read_file", args: { path, start_line: 1, end_line: 200 } },
      details: { path, language, trap: what },
      cause,
    },
  );
}

/** One held parse, and the pass that last parsed or used it (0: none). */
interface HeldFile {
  parsed: ParsedFile;
  pass: number;
}

/** What a cache holds in wasm memory, freed with it. */
interface Held {
  parsers: Map<string, Parser>;
  files: Map<string, HeldFile>;
}

function free(held: Held): void {
  for (const f of held.files.values()) f.parsed.tree.delete();
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
  /** Held parses by path, least recently used first. */
  readonly #files = new Map<string, HeldFile>();
  readonly #maxTreeChars: number;
  #heldChars = 0;
  #pass = 0;
  /** The pass in which a new tree last found no room: it keeps no more new trees. */
  #fullPass = -1;
  /** Parses this cache made but does not hold, and has handed to no one but their caller. */
  readonly #unheld = new WeakSet<ParsedFile>();
  /** Prefetches not run yet, by path. */
  readonly #pending = new Map<
    string,
    { timer: ReturnType<typeof setTimeout> | undefined; run: () => Promise<void> }
  >();
  /** How many parses were incremental (for tests and benchmarks). */
  incrementalParses = 0;
  /** How many parses were from scratch. */
  fullParses = 0;
  /** How many parses trapped in the runtime (each deleted its parser). */
  traps = 0;
  /** The largest text parsed, in UTF-8 bytes. */
  readonly maxParseBytes: number;

  /**
   * Make an empty parse cache.
   *
   * @param grammars The language registry.
   * @param options The parse limit.
   */
  constructor(grammars: Grammars, options: TreeCacheOptions = {}) {
    this.#grammars = grammars;
    this.maxParseBytes = options.maxParseBytes ?? DEFAULT_MAX_PARSE_BYTES;
    this.#maxTreeChars = options.maxTreeChars ?? DEFAULT_MAX_TREE_CHARS;
    DROPPED?.register(this, { parsers: this.#parsers, files: this.#files }, this);
  }

  /** Free every cached tree and parser now (the cache stays usable: later calls parse again). */
  clear(): void {
    this.#cancelPrefetch();
    free({ parsers: this.#parsers, files: this.#files });
    this.#heldChars = 0;
  }

  /**
   * Start a pass (a search): the trees parsed or used with the pass it returns are not pushed out by the
   * pass's own later parses (a new pass ends the one before).
   *
   * @returns The pass, for {@linkcode TreeCache.parse}.
   */
  newPass(): number {
    return ++this.#pass;
  }

  /** Characters of source whose trees are held now. */
  get heldChars(): number {
    return this.#heldChars;
  }

  /**
   * Refuse a text over the parse limit (what every parse of this cache checks first); callers that would
   * do work before parsing check it up front.
   *
   * @param path The file, for the message.
   * @param text The text to parse.
   * @throws RecoverableError `limit_exceeded` (see {@linkcode parseLimitError}).
   */
  checkParseSize(path: string, text: string): void {
    // A UTF-16 unit is at most 3 bytes of UTF-8: a text this short is under the limit without counting.
    if (text.length * 3 <= this.maxParseBytes) return;
    const bytes = utf8LengthUpTo(text, this.maxParseBytes);
    if (bytes > this.maxParseBytes) throw parseLimitError(path, bytes, this.maxParseBytes);
  }

  /**
   * Parse with the language's parser; when the runtime traps, delete that parser (what its aborted parse
   * holds is freed with it) so the next parse gets a new one, and answer this one with an error.
   */
  #parseWith(parser: Parser, language: string, path: string, text: string, old: Tree | null): Tree {
    try {
      const tree = parser.parse(text, old);
      if (!tree) throw new Error(`Cannot parse "${path}" as ${language}: the parser returned no tree`);
      return tree;
    } catch (err) {
      if (!(err instanceof WebAssembly.RuntimeError)) throw err;
      this.traps++;
      if (this.#parsers.get(language) === parser) this.#parsers.delete(language);
      try {
        parser.delete();
      } catch {
        // Nothing more to free.
      }
      throw parseTrapError(path, language, utf8LengthUpTo(text, this.maxParseBytes), err);
    }
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
   * @param pass The search's pass ({@linkcode TreeCache.newPass}), if it is part of one.
   * @returns The cached or freshly (incrementally) parsed file.
   */
  async parse(
    path: string,
    language: string,
    version: Version,
    text: string,
    pass?: number,
  ): Promise<ParsedFile> {
    this.#cancelPrefetch(path);
    const hit = this.#use(path, { language, version }, pass);
    if (hit) return hit;
    this.checkParseSize(path, text);
    const parser = await this.#parser(language);
    // Read again after the await: a prefetch may have filled the slot meanwhile.
    const cached = this.#files.get(path)?.parsed;
    if (cached && cached.version === version && cached.language === language) return cached;
    let old: Tree | null = null;
    if (cached && cached.language === language) {
      const edits = editsBetween(cached.tree, cached.text, text);
      if (edits.length > 0) {
        for (const edit of edits) cached.tree.edit(edit);
        old = cached.tree;
      }
    }
    let tree: Tree;
    try {
      tree = this.#parseWith(parser, language, path, text, old);
    } catch (err) {
      // The cached tree was edited for a parse that did not happen: it no longer matches its text.
      if (old) this.forget(path);
      throw err;
    }
    if (old) {
      this.incrementalParses++;
      old.delete();
    } else {
      this.fullParses++;
      cached?.tree.delete();
    }
    const parsed = { language, version, text, tree };
    this.#drop(path);
    if (!this.#admit(path, parsed, pass ?? 0)) this.#unheld.add(parsed);
    return parsed;
  }

  /**
   * Say that the caller of {@linkcode TreeCache.parse} is done with what it returned: a tree the cache did not
   * hold (over its bound) is deleted now instead of waiting for the garbage collector; a held one stays.
   *
   * @param parsed What `parse` returned.
   */
  done(parsed: ParsedFile): void {
    if (!this.#unheld.delete(parsed)) return;
    parsed.tree.delete();
  }

  /** The held parse of `path` at exactly this language and version, moved to the most recently used end. */
  #use(path: string, at: { language: string; version: Version }, pass = 0): ParsedFile | null {
    const held = this.#files.get(path);
    if (!held || held.parsed.version !== at.version || held.parsed.language !== at.language) return null;
    this.#files.delete(path);
    this.#files.set(path, held);
    if (pass !== 0) held.pass = pass;
    return held.parsed;
  }

  /**
   * Hold a new parse, letting the least recently used trees go while over the bound — but, within a pass, not
   * those this pass or the one before it parsed or used (a pass over more than the bound would otherwise push
   * out, one by one, the trees it is about to reuse): when only they are left, the new tree is not held
   * (false), nor is any later one of the pass (a smaller tree further on would push out, for nothing, one the
   * next pass would reuse).
   */
  #admit(path: string, parsed: ParsedFile, pass: number): boolean {
    const chars = parsed.text.length;
    const current = pass !== 0 && pass === this.#pass;
    if (chars > this.#maxTreeChars || (current && this.#fullPass === pass)) return false;
    for (const [old, held] of this.#files) {
      if (this.#heldChars + chars <= this.#maxTreeChars) break;
      if (current && held.pass >= pass - 1) { // the order is by last use: every later one is as recent
        this.#fullPass = pass;
        return false;
      }
      this.#drop(old);
    }
    if (this.#heldChars + chars > this.#maxTreeChars) return false;
    this.#files.set(path, { parsed, pass });
    this.#heldChars += chars;
    return true;
  }

  /**
   * Stop holding the tree of `path` without deleting it: a caller may still walk it, and web-tree-sitter's
   * finalizer frees it once nothing does.
   */
  #drop(path: string): void {
    const held = this.#files.get(path);
    if (!held) return;
    this.#files.delete(path);
    this.#heldChars -= held.parsed.text.length;
  }

  /**
   * The cached tree of `path` at exactly `version`, without parsing (null when there is none).
   *
   * @param path Relative path.
   * @param language Language id.
   * @param version Version of the bytes.
   * @param pass The search's pass ({@linkcode TreeCache.newPass}) that uses the tree, if any: as with
   *   {@linkcode TreeCache.parse}, its own later parses do not push the tree out.
   * @returns The cached file, or null.
   */
  peek(path: string, language: string, version: Version, pass?: number): ParsedFile | null {
    return this.#use(path, { language, version }, pass);
  }

  /**
   * Parse `text` incrementally from another state's tree, without caching and without touching that tree (it
   * is copied): e.g. the state before an edit from the tree after it. The caller must `delete()` the result.
   *
   * @param language Language id of both.
   * @param from The tree of `fromText`.
   * @param fromText The text `from` was parsed from.
   * @param text The text to parse.
   * @returns The new tree.
   */
  async reparseDetached(language: string, from: Tree, fromText: string, text: string): Promise<Tree> {
    this.checkParseSize("(a staged state)", text);
    const parser = await this.#parser(language);
    const edits = editsBetween(from, fromText, text);
    if (edits.length === 0) return from.copy();
    const old = from.copy();
    try {
      for (const edit of edits) old.edit(edit);
      const tree = this.#parseWith(parser, language, "(a staged state)", text, old);
      this.incrementalParses++;
      return tree;
    } finally {
      old.delete();
    }
  }

  /**
   * Parse `path` later, when the host is idle (a timer), so that a later call finds its tree cached: what a
   * read does for the edit that usually follows it. It fills an empty slot only, never replacing or editing a
   * tree a call may hold; a {@linkcode TreeCache.parse} of the path first, {@linkcode TreeCache.forget} or
   * {@linkcode TreeCache.clear} cancel it, and a failure is dropped (nothing depends on it).
   *
   * @param path Relative path.
   * @param language Language id.
   * @param version Version of the bytes.
   * @param text Decoded text (without BOM).
   */
  prefetch(path: string, language: string, version: Version, text: string): void {
    if (this.#files.has(path) || this.#pending.has(path) || text.length > this.maxParseBytes) return;
    const entry = {
      timer: undefined as ReturnType<typeof setTimeout> | undefined,
      run: async (): Promise<void> => {
        if (this.#pending.get(path) !== entry) return;
        clearTimeout(entry.timer);
        try {
          const parser = await this.#parser(language);
          if (this.#pending.get(path) !== entry || this.#files.has(path)) return;
          if (utf8LengthUpTo(text, this.maxParseBytes) > this.maxParseBytes) return;
          const tree = this.#parseWith(parser, language, path, text, null);
          this.fullParses++;
          if (!this.#admit(path, { language, version, text, tree }, 0)) tree.delete(); // no one has it
        } catch {
          // A warm-up only: the call that needs the tree parses it and reports what fails.
        } finally {
          if (this.#pending.get(path) === entry) this.#pending.delete(path);
        }
      },
    };
    entry.timer = setTimeout(entry.run, 0);
    // Where the runtime allows it (Deno, Node, Bun), a pending warm-up does not keep the process alive.
    (entry.timer as unknown as { unref?: () => void }).unref?.();
    this.#pending.set(path, entry);
  }

  /** Run every prefetch still waiting for the host to be idle, now (tests, or a host that knows it is idle). */
  async settled(): Promise<void> {
    await Promise.all([...this.#pending.values()].map((e) => e.run()));
  }

  #cancelPrefetch(path?: string): void {
    for (const [p, { timer }] of this.#pending) {
      if (path !== undefined && p !== path) continue;
      clearTimeout(timer);
      this.#pending.delete(p);
    }
  }

  /**
   * Parse text without caching (e.g. a staged state that may be dropped).
   * The caller must `delete()` the tree.
   */
  async parseDetached(language: string, text: string): Promise<Tree> {
    this.checkParseSize("(a staged state)", text);
    return this.#parseWith(await this.#parser(language), language, "(a staged state)", text, null);
  }

  /** Forget a path (e.g. deleted). */
  forget(path: string): void {
    this.#cancelPrefetch(path);
    this.#files.get(path)?.parsed.tree.delete();
    this.#drop(path);
  }

  /** Number of cached trees. */
  get size(): number {
    return this.#files.size;
  }
}

/** Files larger than this are not parsed ahead of need: a large parse would hold up the next call. */
export const MAX_PREFETCH_CHARS = 2 * 1024 * 1024;

/**
 * Warm the parse cache for a file a read has just seen, so that the edit that usually follows finds its
 * tree (see {@linkcode TreeCache.prefetch}): nothing when no grammar applies or the file is over
 * {@linkcode MAX_PREFETCH_CHARS}. It costs the read nothing: the parse runs when the host is idle.
 *
 * @param ws The grammars and the parse cache (a workspace).
 * @param rel Relative path.
 * @param file Its decoded text (BOM excluded) and the version of its bytes.
 */
export function prefetchParse(
  ws: { readonly grammars: Grammars | null; readonly trees: TreeCache | null },
  rel: string,
  file: { text: string; version: Version },
): void {
  const { text, version } = file;
  if (!ws.grammars || !ws.trees || text.length > MAX_PREFETCH_CHARS) return;
  const language = ws.grammars.languageOf(rel, text.slice(0, HEAD_CHARS));
  if (language) ws.trees.prefetch(rel, language, version, text);
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
