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
import type { Language, Parser } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import { type Grammars, HEAD_CHARS } from "../../syntax/grammars.ts";
import type { ParsedFile, TreeCache } from "../../syntax/trees.ts";
import { RememberedSites } from "./remembered_sites.ts";
import type { Parsing, SymbolInfo } from "../../syntax/types.ts";
import { type CompiledPattern, compilePattern } from "../edit/pattern.ts";
import { patternSexp } from "../edit/pattern_tree.ts";
import {
  compilePatternIn,
  loneMetavariable,
  onlyAMetavariable,
  type PatternInContext,
} from "../edit/pattern_compile.ts";
import { compileRule, grammarKinds, multiNames } from "./rule.ts";
import type { RegexCompiler, RelationRule } from "./rule_compile.ts";
import { compileRewriters, rewriteOf } from "./rewriters.ts";
import { type MatchPool, type MatchQuery, PoolUnavailable } from "./match_pool.ts";
import { type Finder, matchesIn, MAX_MATCHES_PER_FILE, patternFinder, ruleFinder } from "./finders.ts";
import { type RunLexicon, runLexiconOf } from "./token_runs.ts";
import { rootOf } from "../../syntax/node_index.ts";
import { boundNames, type CompiledTransform, compileTransform } from "./transform.ts";

export { multiNames } from "./rule.ts";
export { type PatternSite, type SiteBinding, siteReplacement } from "./match_sites.ts";
import { type PatternSite, sitesOf } from "./match_sites.ts";
export { MAX_MATCHES_PER_FILE, requiredTexts, requiredWords } from "./finders.ts";

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
  /** Most matches taken from one file ({@linkcode MAX_MATCHES_PER_FILE}): a file with that many may hold more. */
  maxHitsPerFile?: number;
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
  compile(language: string, query: MatchQuery): Promise<LanguageProgram>;
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
  if (typeof source === "string") {
    return loneMetavariable(source, language) ?? compileOrRefuse(parser, language, source);
  }
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
  const startChars = pool.ready === pool.size ? 0 : pool.startChars ?? POOL_START_CHARS;
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
    regex: RegexCompiler | undefined;
  },
): Finder {
  if (query.rule === undefined) {
    // A pattern that is one metavariable alone would list every node: refused, as compilePattern refuses it.
    if (loneMetavariable(query.pattern ?? "", on.language) !== null) {
      throw onlyAMetavariable(query.pattern!.trim());
    }
    return patternFinder(on.compile(query.pattern ?? ""), on.lexicon);
  }
  const kinds = on.grammar ? grammarKinds(on.language, on.grammar) : undefined;
  return ruleFinder(compileRule(query.rule, on.compile, { kinds, regex: on.regex }), on.lexicon);
}

/** A query's `transform`, compiled with its `rewriters` (each rule in the language at hand) when it has them. */
function transformsOf(
  query: {
    pattern?: string;
    rule?: Record<string, unknown>;
    transform?: Record<string, unknown>;
    rewriters?: unknown;
  },
  on: {
    compile: (source: string | PatternInContext) => CompiledPattern;
    language: string;
    grammar: Language | null;
    regex: RegexCompiler | undefined;
  },
): CompiledTransform[] {
  const enclosing = boundNames(query);
  // Rewriters are checked even where no transformation names them (as ast-grep checks a config's).
  const kinds = on.grammar ? grammarKinds(on.language, on.grammar) : undefined;
  const rewriters = query.rewriters === undefined
    ? undefined
    : compileRewriters(query.rewriters, { pattern: on.compile, kinds, enclosing, regex: on.regex });
  if (query.transform === undefined) return [];
  return compileTransform(query.transform, enclosing, {
    rewrite: rewriters && rewriteOf(rewriters),
    regex: on.regex,
  });
}

/**
 * A fix's `expandStart` / `expandEnd` (ast-grep's FixConfig), each compiled as the relation it is: a rule the
 * sibling before / after the match must hold, with its stopBy (`follows` / `precedes` looked at from the match).
 */
function expansionOf(
  query: { expandStart?: Record<string, unknown>; expandEnd?: Record<string, unknown> },
  on: {
    compile: (source: string | PatternInContext) => CompiledPattern;
    language: string;
    grammar: Language | null;
    regex: RegexCompiler | undefined;
  },
): { start?: RelationRule; end?: RelationRule } | undefined {
  if (query.expandStart === undefined && query.expandEnd === undefined) return undefined;
  const kinds = on.grammar ? grammarKinds(on.language, on.grammar) : undefined;
  const relation = (key: "follows" | "precedes", raw: Record<string, unknown>) =>
    compileRule({ [key]: raw }, on.compile, { kinds, regex: on.regex })[key]!;
  return {
    ...(query.expandStart ? { start: relation("follows", query.expandStart) } : {}),
    ...(query.expandEnd ? { end: relation("precedes", query.expandEnd) } : {}),
  };
}

/**
 * The RE2 compiler, loaded only for a query that may hold a regular expression (a rule's `regex`, a
 * transformation's `replace`, at any depth of its rule, transform, rewriters or expansions): a pattern search
 * never evaluates the RE2 engine (re2js: ~14 ms of a one-shot `graver sg`).
 */
async function regexCompilerFor(query: MatchQuery): Promise<RegexCompiler | undefined> {
  const { pattern: _pattern, rewrite: _rewrite, ...rest } = query;
  // Any mention, not only as a key: a transformation may be written as a string (`replace($A, replace=…)`).
  if (!/regex|replace/.test(JSON.stringify(rest))) return undefined;
  return (await import("../../syntax/linear_regex.ts")).compileRe2;
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
      const regex = await regexCompilerFor(query);
      const find = finderOf(query, { compile, lexicon, language, grammar: parser.language, regex });
      const multi = multiNames(query);
      const transforms = transformsOf(query, { compile, language, grammar: parser.language, regex });
      const expand = expansionOf(query, { compile, language, grammar: parser.language, regex });
      const key = JSON.stringify([
        query.pattern ?? null,
        query.rule ?? null,
        query.rewrite ?? null,
        query.transform ?? null,
        query.rewriters ?? null,
        query.expandStart ?? null,
        query.expandEnd ?? null,
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
              ...(expand ? { expand } : {}),
            }),
        );
      const local: LanguageProgram = {
        literals: find.literals,
        words: find.words,
        maxHitsPerFile: MAX_MATCHES_PER_FILE,
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
