/**
 * The code-pattern engine (`edit/pattern.ts`) grown to a project: a matcher that a project-wide structural
 * search (`search/structural_search.ts`) drives file by file. Per language it compiles the pattern once,
 * names the texts every match must hold verbatim (so that a file lacking one is never parsed), matches
 * through the workspace's parse cache (a warm search reuses each file's tree by version), and, for a
 * rewrite, gives each site its new code: metavariables filled in, a multi-line template re-indented to the
 * site's line. A pattern that does not parse in a language is refused with what the grammar saw.
 *
 * The result is shaped as `search/`'s `StructuralMatcher` (the two areas are peers and do not import each
 * other; the tool layer hands this to the search).
 *
 * @module
 */
import type { Language, Node, Parser } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import { indentOfLine } from "../../fs/lines.ts";
import { dominantEol } from "../../fs/text.ts";
import { type Grammars, HEAD_CHARS } from "../../syntax/grammars.ts";
import type { ParsedFile, TreeCache } from "../../syntax/trees.ts";
import { RememberedSites } from "./remembered_sites.ts";
import type { Parsing, SymbolInfo } from "../../syntax/types.ts";
import { type Binding, type CompiledPattern, compilePattern, type PatternNode } from "../edit/pattern.ts";
import { patternSexp } from "../edit/pattern_tree.ts";
import { compilePatternIn, type PatternInContext } from "../edit/pattern_compile.ts";
import { substituteMetavariables } from "../edit/metavariable_fill.ts";
import { detectIndentUnit, reindent } from "../edit/reindent.ts";
import { compileRule, grammarKinds, multiNames } from "./rule.ts";
import { type MatchPool, type MatchQuery, PoolUnavailable } from "./match_pool.ts";
import { type Finder, matchesIn, patternFinder, ruleFinder } from "./finders.ts";
import { type RunLexicon, runLexiconOf } from "./token_runs.ts";
import { unwrittenTerminator } from "./unwritten_terminator.ts";
import { lostComments } from "../edit/lost_comments.ts";
import { nodeFacts } from "../edit/node_facts.ts";
import { rootOf } from "../../syntax/node_index.ts";
import { boundNames, type CompiledTransform, compileTransform, withTransformed } from "./transform.ts";

export { multiNames } from "./rule.ts";
export { MAX_MATCHES_PER_FILE, requiredTexts, requiredWords } from "./finders.ts";

/** What one metavariable bound, as offsets. */
export interface SiteBinding {
  /** Start offset (UTF-16); -1 for a `$$$X` that bound nothing. */
  start: number;
  /** End offset. */
  end: number;
  /** The bound text. */
  text: string;
  /** For a `$$$X`: each node it bound (separators such as `,` included), as ast-grep lists them. */
  parts?: { start: number; end: number }[];
}

/** One match in one file, as offsets, with the rewrite's code for it when one was asked for. */
export interface PatternSite {
  /** Start offset (UTF-16) of the matched node. */
  start: number;
  /** End offset. */
  end: number;
  /** Metavariable name -> what it bound. */
  metavariables: Record<string, SiteBinding>;
  /** The new code for the site (only with a rewrite). */
  replacement?: string;
  /** Words of the code the match passed over that the rewrite does not write: it would take them away. */
  drops?: string[];
  /** Code the match passed over after the pattern's end (`PatternMatch.tail`): the rewrite would take it away. */
  tail?: { kind: string; text: string }[];
  /** Comments inside the match that neither a metavariable nor the rewrite holds: it would take them away. */
  comments?: string[];
}

/** A pattern compiled for one language. */
export interface LanguageProgram {
  /** Texts every match holds verbatim. */
  literals: readonly string[];
  /** Of those, the identifiers: held as whole words (`search/`'s `StructuralProgram.words`). */
  words: readonly string[];
  /** Whether a text holding the literals may hold a match: its token runs (`token_runs.ts`); absent, it may. */
  mayHold?: (text: string) => boolean;
  /**
   * Every match in one file (parsed through the cache), in document order: at once (an array, not a promise)
   * when no parse is needed — the file's tree is held at this version, as in a warm search, or the pool
   * answered it before — so that a search over a warm tree takes no `await` per file. The array may be the
   * one a later call for the same query and version answers: read it, never change it.
   */
  match(file: { path: string; text: string; version: string }): PatternSite[] | Promise<PatternSite[]>;
  /** How many files' matches a search may usefully keep in flight (a pool's workers; absent: one at a time). */
  inFlight?: number;
  /** What the grammar saw, where it read the pattern (or a rule's) only as one ERROR node (`anyKind`). */
  readAsError?: string;
  /** A code pattern's reading, as `patternSexp` prints it (none for a rule). */
  reading?: string;
}

/** A project-wide pattern matcher. */
export interface PatternMatcher {
  /** The language of a file by its name, or null. */
  languageOf(path: string): string | null;
  /** The pattern (and rewrite) compiled for a language. */
  compile(
    language: string,
    query: {
      pattern?: string;
      rule?: Record<string, unknown>;
      rewrite?: string;
      transform?: Record<string, unknown>;
    },
  ): Promise<LanguageProgram>;
}

/** The metavariables of a match as offsets (bound nodes are not kept past the match). */
function siteBindings(
  bindings: Record<string, Binding>,
  multi: ReadonlySet<string>,
): Record<string, SiteBinding> {
  const out: Record<string, SiteBinding> = {};
  for (const [name, b] of Object.entries(bindings)) {
    const site: SiteBinding = { start: b.start, end: b.end, text: b.text };
    if (multi.has(name)) site.parts = b.nodes.map((n) => ({ start: n.startIndex, end: nodeFacts(n).end }));
    out[name] = site;
  }
  return out;
}

/**
 * The rewrite's code for one site. A single-line template takes bound text as it is in the file (its lines
 * stay where they were); a multi-line template is put into the file's indent unit, filled in, and
 * re-indented to the line the matched node starts on, so the code lands at the depth of the block it is in.
 *
 * @param file The file's text and indent unit.
 * @param site The matched node's start and its bindings.
 * @param rewrite The template.
 * @returns The code that replaces the node.
 */
export function siteReplacement(
  file: { text: string; unit: string },
  site: { start: number; bindings: Record<string, Binding> },
  rewrite: string,
): string {
  const { text, unit } = file;
  if (!rewrite.includes("\n")) {
    return substituteMetavariables(rewrite, site.bindings, {
      sourceText: text,
      matchStart: site.start,
      asIs: true,
    });
  }
  const eol = dominantEol(text);
  const template = reindent(rewrite.replace(/^\s*\n/, "").trimEnd(), {
    indent: "",
    eol: "\n",
    unit,
    indentFirstLine: false,
  });
  // Each bound text keeps its lines' indentation relative to its own first line (a body bound from a deeper
  // block is re-based from there), put at the depth of the line its metavariable stands on.
  const code = substituteMetavariables(template, site.bindings, { sourceText: text });
  return reindent(code, {
    indent: indentOfLine(text, site.start),
    eol,
    unit,
    indentFirstLine: false,
    firstColumn: 0,
    codeUnit: unit,
  });
}

/** How a pattern reads in a grammar: the S-expression of its parse as written, errors included. */
function grammarView(parser: Parser, pattern: string): string {
  const tree = parser.parse(pattern);
  if (!tree) return "(no tree)";
  try {
    const sexp = tree.rootNode.toString();
    return sexp.length > 600 ? `${sexp.slice(0, 600)}…` : sexp;
  } finally {
    tree.delete();
  }
}

/** Compile, or refuse naming what the grammar saw. */
function compileOrRefuse(parser: Parser, language: string, pattern: string): CompiledPattern {
  try {
    return compilePattern(parser, language, pattern);
  } catch (err) {
    if (!(err instanceof RecoverableError) || err.code !== "invalid_query") throw err;
    const saw = grammarView(parser, pattern.trim());
    throw new RecoverableError(
      "invalid_query",
      `${err.message}; the ${language} grammar reads it as ${saw}`,
      {
        hint:
          `Write one complete ${language} construct (an expression, a statement or a definition) with $X / $$$ARGS for the parts that vary; where the grammar shows ERROR, the pattern is not ${language} as written (a missing bracket or keyword, or code of another language: pass "language")`,
        details: { ...(err.details ?? {}), language, grammar_saw: saw },
        cause: err,
      },
    );
  }
}

/** A code pattern, or ast-grep's pattern object (`{context, selector}`; without a selector, its context). */
function compiledSource(
  parser: Parser,
  language: string,
  source: string | PatternInContext,
): CompiledPattern {
  if (typeof source === "string") return compileOrRefuse(parser, language, source);
  if (source.selector === "") return compileOrRefuse(parser, language, source.context);
  return compilePatternIn(parser, language, source);
}

/** The refusal of a pattern search in a workspace without grammars. */
function noGrammars(): RecoverableError {
  return new RecoverableError("unsupported_language", "Cannot search by pattern: no grammars are loaded", {
    hint: "Open the workspace with a wasm loader, or use search_text",
  });
}

/**
 * Parsers that read patterns, one per language and grammar registry: a parser lives in wasm memory, so
 * searches share one rather than making one per call.
 */
const PATTERN_PARSERS = new WeakMap<Grammars, Map<string, Promise<Parser>>>();

/** The pattern parser of a language. */
function patternParser(grammars: Grammars, language: string): Promise<Parser> {
  let byLanguage = PATTERN_PARSERS.get(grammars);
  if (byLanguage === undefined) PATTERN_PARSERS.set(grammars, byLanguage = new Map());
  let parser = byLanguage.get(language);
  if (parser === undefined) {
    byLanguage.set(language, parser = grammars.parser(language));
    parser.catch(() => byLanguage.delete(language));
  }
  return parser;
}

/** Each match's site (and replacement), from the matches of one parsed file. */
function sitesOf(
  found: {
    node: Node;
    bindings: Record<string, Binding>;
    skipped?: string[];
    tail?: { kind: string; start: number; end: number }[];
  }[],
  file: { text: string },
  query: {
    rewrite: string | undefined;
    multi: ReadonlySet<string>;
    pattern: PatternNode | null;
    language: string;
    /** ast-grep's `transform`: new metavariables the rewrite may use (`transform.ts`). */
    transforms: readonly CompiledTransform[];
  },
): PatternSite[] {
  const rewrite = query.rewrite;
  const unit = rewrite?.includes("\n") ? detectIndentUnit(file.text) : "";
  return found.map((m) => {
    const site: PatternSite = {
      start: m.node.startIndex,
      end: nodeFacts(m.node).end,
      metavariables: siteBindings(m.bindings, query.multi),
    };
    if (rewrite !== undefined) {
      site.replacement = siteReplacement(
        { text: file.text, unit },
        { start: site.start, bindings: withTransformed(query.transforms, m.bindings) },
        rewrite,
      ) + unwrittenTerminator(m.node, query.pattern, rewrite);
      const drops = droppedWords(m.skipped, rewrite);
      if (drops.length > 0) site.drops = drops;
      // What the refusal shows of the code passed over: its start (a long `else` chain is not copied whole).
      if (m.tail) {
        site.tail = m.tail.map((t) => ({
          kind: t.kind,
          text: file.text.slice(t.start, Math.min(t.end, t.start + 200)),
        }));
      }
      const comments = lostComments(m.node, {
        text: file.text,
        language: query.language,
        // Code passed over after the pattern's end is refused whole (`tail`): its comments are not looked for.
        bindings: [...Object.values(m.bindings), ...(m.tail ?? [])],
        replacement: site.replacement,
      });
      if (comments.length > 0) site.comments = comments;
    }
    return site;
  });
}

/**
 * The sites of recent queries in held files' versions, per parse cache (one workspace's searches: a session
 * pages on through a search, or repeats it): a file is matched once per query and version. Bounded by sites
 * held; a fresh workspace starts with none, as its parse cache does.
 */
const REMEMBERED = new WeakMap<TreeCache, RememberedSites<PatternSite>>();

/** The remembered sites of a parse cache's searches. */
function rememberedOf(trees: TreeCache): RememberedSites<PatternSite> {
  let store = REMEMBERED.get(trees);
  if (store === undefined) REMEMBERED.set(trees, store = new RememberedSites());
  return store;
}

/** The sites of a query (by its key) in a parse: the remembered ones, else found now and remembered. */
function sitesRemembered(
  parsed: ParsedFile,
  at: { store: RememberedSites<PatternSite>; path: string; query: string },
  find: () => PatternSite[],
): PatternSite[] {
  const key = { path: at.path, language: parsed.language, version: parsed.version, query: at.query };
  const known = at.store.answer(key);
  if (known !== undefined) return known as PatternSite[];
  const sites = find();
  at.store.remember(key, sites);
  return sites;
}

/**
 * The words a match passed over (its pattern does not write them) that the rewrite does not write either: the
 * rewrite would take them away (`async` of `async function f` for `function $F(…)`).
 */
function droppedWords(skipped: readonly string[] | undefined, rewrite: string): string[] {
  if (skipped === undefined) return [];
  const written = new Set(rewrite.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []);
  return skipped.filter((w) => !written.has(w));
}

/** Files in flight per worker of a pool: enough to fill each worker's batches while the search reads on. */
const IN_FLIGHT_PER_WORKER = 16;

/**
 * Characters of candidate text a search matches on its own thread before it turns to the pool's workers when
 * they are not all ready (about 25 ms of parsing; they are started then): a search that is over by then (a
 * small tree, a page that fills early) neither waits on a worker being started nor parses ahead of what it
 * needs. With every worker ready when the pattern is compiled (a server's pool, started beforehand), the
 * search turns to them from its first file: a cold search's whole parse is spread over them.
 */
export const POOL_START_CHARS = 100_000;

/**
 * A program that parses and matches its first {@linkcode POOL_START_CHARS} characters of files on this thread
 * (none when every worker is ready) and the rest in a pool's workers where one is ready. A file the pool answered before at this version and
 * query takes that answer; a file whose tree this thread's cache holds at its version (a warm search), a file
 * over the parse limit (refused here, as without a pool), and every file the pool answers unavailable (a
 * worker not started, crashed or hung) are matched here, so a pool never changes a result.
 */
function pooled(
  local: LanguageProgram,
  on: { pool: MatchPool; trees: TreeCache; language: string; query: MatchQuery; outlines: boolean },
): LanguageProgram {
  const { pool, trees, language, query } = on;
  const startChars = pool.ready === pool.size ? 0 : POOL_START_CHARS;
  let localChars = 0;
  const matchHere = (file: { path: string; text: string; version: string }) => {
    if (localChars < startChars && (localChars += file.text.length) >= startChars) void pool.warm();
    return local.match(file);
  };
  const matchInPool = async (file: { path: string; text: string; version: string }) => {
    try {
      // Its worker outlines it in the same answer when it has sites: the page asks for its symbols from memory.
      const sites = await pool.match(language, query, file, { outline: on.outlines }) as PatternSite[];
      return sites;
    } catch (err) {
      if (!(err instanceof PoolUnavailable)) throw err;
      return await matchHere(file);
    }
  };
  return {
    ...local,
    // Until then, or with no worker ready: one file at a time, as without a pool.
    get inFlight() {
      return localChars < startChars ? 0 : pool.ready * IN_FLIGHT_PER_WORKER;
    },
    match(file) {
      trees.checkParseSize(file.path, file.text);
      const known = pool.answered(language, query, file);
      if (known !== undefined) return known as PatternSite[];
      if (localChars < startChars || !pool.accepts(file.path)) return matchHere(file);
      if (trees.peek(file.path, language, file.version)) return local.match(file);
      return matchInPool(file);
    },
  };
}

/**
 * Where a search's enclosing symbols come from with a match pool: the worker that parsed the file (it holds
 * the tree), so that this thread does not parse the matched files again to outline them. Undefined (the
 * lookup parses here) without a pool, for a file whose tree this thread holds, and when no worker answers.
 *
 * @param parsing The workspace's grammars and parse cache, and its match pool if any.
 * @returns The lookup of a file's symbols, depth first, or undefined without a pool.
 */
export function poolSymbolsOf(
  parsing: Parsing & { readonly matchPool?: MatchPool | null },
):
  | ((file: { path: string; text: string; version: string }) => Promise<SymbolInfo[] | undefined>)
  | undefined {
  const { grammars, trees, matchPool: pool } = parsing;
  if (!pool || grammars === null || trees === null) return undefined;
  return async (file) => {
    const language = grammars.languageOf(file.path, file.text.slice(0, HEAD_CHARS));
    if (language === null || trees.peek(file.path, language, file.version) || !pool.accepts(file.path)) {
      return undefined;
    }
    try {
      return await pool.outline(language, file) as SymbolInfo[];
    } catch (err) {
      if (err instanceof PoolUnavailable) return undefined;
      throw err;
    }
  };
}

/** Paths whose language by name a registry remembers at most (past it, the memory starts over). */
const LANGUAGES_REMEMBERED = 200_000;

/**
 * Each path's language by its name, per grammar registry: a search asks it of every listed file, and the
 * next search of a session asks it again of the same paths.
 */
const LANGUAGES_BY_NAME = new WeakMap<Grammars, Map<string, string | null>>();

/** The language of a path by its name (a registry's answer never changes: its manifest is fixed). */
function languageByName(grammars: Grammars, path: string): string | null {
  let known = LANGUAGES_BY_NAME.get(grammars);
  if (known === undefined) LANGUAGES_BY_NAME.set(grammars, known = new Map());
  let language = known.get(path);
  if (language === undefined) {
    if (known.size >= LANGUAGES_REMEMBERED) known.clear();
    known.set(path, language = grammars.languageOf(path));
  }
  return language;
}

/** A query's finder: its rule's (kinds checked against the grammar), or its pattern's. */
function finderOf(
  query: { pattern?: string; rule?: Record<string, unknown> },
  on: {
    compile: (source: string | PatternInContext) => CompiledPattern;
    lexicon: RunLexicon | null;
    language: string;
    grammar: Language | null;
  },
): Finder {
  if (query.rule === undefined) return patternFinder(on.compile(query.pattern ?? ""), on.lexicon);
  const kinds = on.grammar ? grammarKinds(on.language, on.grammar) : undefined;
  return ruleFinder(compileRule(query.rule, on.compile, kinds), on.lexicon);
}

/**
 * A project-wide pattern matcher over a workspace's grammars and parse cache, and its pool of
 * parse-and-match workers when it has one (`match_pool.ts`).
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryBackend, createWorkspace } from "../../mod.ts";
 * import { createWasmLoader } from "../../adapters/deno/mod.ts";
 * import { patternMatcherOf } from "./pattern_matcher.ts";
 *
 * const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
 * const matcher = patternMatcherOf(ws);
 * const program = await matcher.compile("typescript", { pattern: "log($A)", rewrite: "info($A)" });
 * assert.deepEqual(program.literals, ["log"]);
 * assert.deepEqual(program.words, ["log"]); // an identifier: a file holds it as a whole word
 * const [site] = await program.match({ path: "a.ts", text: "log(x + 1);\n", version: "v1" });
 * assert.equal(site!.metavariables["A"]!.text, "x + 1");
 * assert.equal(site!.replacement, "info(x + 1)");
 * ```
 *
 * @param parsing The workspace's grammars and parse cache, and its match pool if any.
 * @param options `outlines`: the caller will name the enclosing symbols of the matches (`poolSymbolsOf`), so a
 *   pool's workers outline each file with matches as soon as they have matched it.
 * @returns The matcher.
 */
export function patternMatcherOf(
  parsing: Parsing & { readonly matchPool?: MatchPool | null },
  options: { outlines?: boolean } = {},
): PatternMatcher {
  // One pass of the parse cache per matcher (a tool call makes one per search): the trees this search parses
  // are not pushed out by its own later parses (`TreeCache.newPass`).
  let pass: number | undefined;
  return {
    languageOf: (path) => parsing.grammars === null ? null : languageByName(parsing.grammars, path),
    async compile(language, query) {
      const grammars = parsing.grammars;
      const trees = parsing.trees;
      if (grammars === null || trees === null) throw noGrammars();
      const parser = await patternParser(grammars, language);
      // ast-grep's strictness, so a search finds what `ast-grep run -p` finds.
      let readAsError: string | undefined;
      const compile = (source: string | PatternInContext) => {
        const compiled = { ...compiledSource(parser, language, source), smart: true };
        if (compiled.root.anyKind) {
          readAsError ??= `"${compiled.source}" as ${grammarView(parser, compiled.source)}`;
        }
        return compiled;
      };
      const lexicon = runLexiconOf(language, parser.language);
      const find = finderOf(query, { compile, lexicon, language, grammar: parser.language });
      const multi = multiNames(query);
      const transforms = query.transform === undefined
        ? []
        : compileTransform(query.transform, boundNames(query));
      const key = JSON.stringify([
        query.pattern ?? null,
        query.rule ?? null,
        query.rewrite ?? null,
        query.transform ?? null,
      ]);
      pass ??= trees.newPass();
      const sitesIn = (parsed: ParsedFile, file: { path: string; text: string }) =>
        sitesRemembered(
          parsed,
          { store: rememberedOf(trees), path: file.path, query: key },
          () =>
            sitesOf(matchesIn(find, rootOf(parsed.tree), file), file, {
              language,
              rewrite: query.rewrite,
              multi,
              pattern: find.pattern,
              transforms,
            }),
        );
      const local: LanguageProgram = {
        literals: find.literals,
        words: find.words,
        ...(find.mayHold ? { mayHold: find.mayHold } : {}),
        ...(readAsError ? { readAsError } : {}),
        ...(find.pattern && query.rule === undefined ? { reading: patternSexp(find.pattern) } : {}),
        match(file) {
          // A tree held at this version is matched now, without a promise (a warm search: no hop per file).
          const held = trees.peek(file.path, language, file.version, pass);
          if (held !== null) return sitesIn(held, file);
          return trees.parse(file.path, language, file.version, file.text, pass).then((parsed) => {
            try {
              return sitesIn(parsed, file);
            } finally {
              trees.done(parsed); // sites are plain data: a tree the cache does not keep is freed now
            }
          });
        },
      };
      const pool = parsing.matchPool;
      if (!pool) return local;
      return pooled(local, { pool, trees, language, query, outlines: options.outlines === true });
    },
  };
}
