/**
 * The shapes text search shares between its modules: the narrow source of files it searches
 * ({@linkcode SearchFiles}, which the project walk or a test's tree provides), the normalized query, and
 * the result.
 *
 * @module
 */

/** Which files a search asks its source for. */
export interface FileScope {
  /** A folder or a file, relative to the root ("" for the root). */
  path: string;
  /** Search hidden files and folders (names starting with "."). */
  hidden: boolean;
  /** Search what `.gitignore` (and `node_modules`) would leave out. */
  noIgnore: boolean;
}

/** One file a source offers, in a stable order (the walk's). */
export interface SearchFile {
  /** Path relative to the root. */
  path: string;
  /** Its size in bytes when the source knows it without reading (lets a search skip a too-large file). */
  size?: number;
}

/** What a source left out while listing, by cause. */
export interface SourceSkipped {
  /** Entries left out by the ignore rules or as hidden (their contents not counted). */
  ignored: number;
  /** Folders or files that could not be read. */
  unreadable: number;
}

/**
 * The narrow interface the text search engine reads through: a list of files and their bytes. The project
 * walk plugs in here; so does a test's tree.
 */
export interface SearchFiles {
  /** The files in scope, in a stable order. */
  files(scope: FileScope): AsyncIterable<SearchFile>;
  /**
   * The files in scope as one list (optional): what `files` yields, in the same order, for a source that has
   * them all at once (the project walk), so that a search does not take them one `await` at a time.
   */
  list?(scope: FileScope): Promise<SearchFile[]>;
  /**
   * The files in scope in runs as the source finds them (optional): what `files` yields, in the same order,
   * handed on while the source lists the rest, so that a search reads and matches its first files meanwhile
   * (the project walk's). A search prefers it to `list`.
   */
  listRuns?(scope: FileScope): AsyncIterable<SearchFile[]>;
  /** A file's exact bytes (throws when it cannot be read). */
  read(path: string): Promise<Uint8Array>;
  /**
   * A file's bytes when the source holds them already and knows them unchanged (optional): exactly what
   * `read` would give, without a promise; undefined sends the search to `read`. Asked once per file, right
   * after `files` or `list` listed it.
   */
  readHeld?(path: string): Uint8Array | undefined;
  /**
   * Many files' exact bytes in one call (optional): one answer per path, in order, null for a file that
   * cannot be read (where `read` throws). A source whose backend reads many files at once (the disk) has it,
   * and a search then reads its files in batches through it instead of one `read` each.
   */
  readMany?(paths: readonly string[]): Promise<(Uint8Array | null)[]>;
  /**
   * A file's version when the source already knows it (a stage hashes what it reads), so that the search
   * does not hash the bytes again; without it the search hashes them (`versionOf` of `fs/`).
   */
  version?(path: string, bytes: Uint8Array): Promise<string> | string | undefined;
  /**
   * What the last listing left out, once it has been iterated to the end, or once `finished` has settled (a
   * search that stopped early).
   */
  skipped?(): SourceSkipped;
  /**
   * The search is over (optional): its reads are done, and the source may do what it puts off until between
   * searches (a session's read cache sets up its watch of the tree then). A source still listing (`listRuns`)
   * settles once its listing has ended.
   */
  finished?(): Promise<void> | void;
}

/** What a result lists. */
export type OutputMode = "content" | "files_with_matches" | "count";

/** A text search query after argument normalization (aliases folded, defaults applied). */
export interface SearchTextQuery {
  /** The regular expression (RE2 syntax), or the text itself when `literal`. */
  pattern: string;
  /** Take `pattern` as a fixed string. */
  literal: boolean;
  /** Match regardless of case. */
  ignoreCase: boolean;
  /** Ignore case unless the pattern holds an upper-case letter (ripgrep's rule). */
  smartCase: boolean;
  /** Only whole-word matches. */
  word: boolean;
  /** Let a match span lines (`.` still stops at a line end). */
  multiline: boolean;
  /** Which files to ask the source for. */
  scope: FileScope;
  /** ripgrep `-g` globs, in order (`!` excludes; the later glob wins). */
  globs: string[];
  /** File types (ts, py, go, rust …): a file must be of one of them. */
  types: string[];
  /** What the result lists. */
  outputMode: OutputMode;
  /** Lines shown before each matched line. */
  contextBefore: number;
  /** Lines shown after each matched line. */
  contextAfter: number;
  /** Most entries in one page (lines, files or counts, by `outputMode`). */
  maxResults: number;
  /** Entries to skip before the page starts. */
  offset: number;
  /** Most characters of entries in one result before they are shortened. */
  maxChars: number;
  /** Files larger than this many bytes are skipped (`too_large`). */
  maxFileBytes: number;
  /** Name each match's enclosing symbol (default true; false spares parsing the matched files). */
  symbols?: boolean;
}

/** One match inside a matched line. */
export interface Submatch {
  /** 1-based column (UTF-16 code units, as editors count) where the match starts. */
  column: number;
  /** 1-based line where it ends (the entry's line unless `multiline`). */
  end_line: number;
  /** 1-based column just past its last character. */
  end_column: number;
  /** The matched text. */
  text: string;
  /** The occurrence id an edit can name: path, line, column and the file's version. */
  id: string;
}

/** A matched line (`output_mode: "content"`). */
export interface LineMatch {
  /** File path relative to the root. */
  path: string;
  /** 1-based line number. */
  line: number;
  /** 1-based column of the first match on the line. */
  column: number;
  /** The line's text (without its line end; shortened when the budget asked for it). */
  text: string;
  /** The matches on the line, in order: every one, up to `MAX_SUBMATCHES_PER_LINE` (the first ones). */
  submatches: Submatch[];
  /**
   * Matches on the line past those listed (a line of a minified file can hold hundreds of thousands: each
   * listed would take the process's memory); absent when every one is listed.
   */
  submatches_omitted?: number;
  /** The file's version (SHA-256 of its bytes), to pass as `expected_version`. */
  version: string;
  /** The name path of the innermost definition holding the line (files with a grammar only). */
  symbol?: string;
  /** Lines before, nearest last (only when context was asked for). */
  context_before?: string[];
  /** Lines after, nearest first (only when context was asked for). */
  context_after?: string[];
}

/** A file with matches (`output_mode: "files_with_matches"`). */
export interface FileMatch {
  /** File path relative to the root. */
  path: string;
  /** The file's version. */
  version: string;
}

/** How many lines of a file matched (`output_mode: "count"`, or a shortened content page). */
export interface FileCount {
  /** File path relative to the root. */
  path: string;
  /** Matched lines. */
  count: number;
  /** The file's version. */
  version: string;
}

/** Files a search did not look into, by cause. */
export interface SearchSkipped {
  /** Left out by ignore rules, as hidden, or by `glob`/`type`. */
  ignored: number;
  /** Held a NUL byte (anywhere, as ripgrep tests a file it walks into): not decoded. */
  binary: number;
  /** Over `max_file_bytes`. */
  too_large: number;
  /** Could not be read. */
  unreadable: number;
}

/** What a search looked at and how the page was bounded. */
export interface SearchSummary {
  /** Files read and searched (binary ones included: they were read to be recognised). */
  files_scanned: number;
  /** Files with at least one match (among those scanned). */
  files_matched: number;
  /** Files left out, by cause. */
  skipped: SearchSkipped;
  /** True when there are more entries than this page holds (one past the page was found). */
  truncated: boolean;
  /** How the page was shortened to fit the character budget. */
  shortened: "none" | "truncated_lines" | "counts";
  /** Wall time of the search. */
  elapsed_ms: number;
}

/** The result of a text search. */
export interface SearchTextResult {
  /** What the entries are. */
  output_mode: OutputMode;
  /** `content`: matched lines. */
  matches?: LineMatch[];
  /** `files_with_matches`: the files. */
  files?: FileMatch[];
  /** `count` (or content shortened to counts): lines matched per file. */
  counts?: FileCount[];
  /** Pass as `cursor` to get the next page (only when `summary.truncated`). */
  next_cursor?: string;
  /** What was searched and how the page was bounded. */
  summary: SearchSummary;
}

/** What a metavariable bound in one structural match, as offsets into the file's text. */
export interface StructuralBinding {
  /** Start offset (UTF-16); -1 for a `$$$X` that bound nothing. */
  start: number;
  /** End offset (UTF-16). */
  end: number;
  /** The bound text as it is in the file. */
  text: string;
  /** For a `$$$X`: each node it bound (separators such as `,` included), as offsets. */
  parts?: { start: number; end: number }[];
}

/** One match of a structural pattern in one file, as offsets. */
export interface StructuralHit {
  /** Start offset (UTF-16) of the matched node. */
  start: number;
  /** End offset (UTF-16). */
  end: number;
  /** Metavariable name -> what it bound. */
  metavariables: Record<string, StructuralBinding>;
  /** The rewrite's text for this site (metavariables filled in, re-indented to the site), when one was asked for. */
  replacement?: string;
  /** The span the replacement replaces where a fix's expansion widened it past the match; absent: the match's. */
  replaced?: { start: number; end: number };
  /** Words of the code the match passed over (the pattern does not write them) that the rewrite would drop. */
  drops?: string[];
  /**
   * Code the match passed over after the pattern's end, inside the matched node (an `else` clause for
   * `if ($C) return $X;`), with the kind of its first named node: a rewrite of the node would drop it.
   */
  tail?: { kind: string; text: string; widened?: true }[];
  /** Comments inside the match that neither a metavariable nor the rewrite holds: a rewrite would drop them. */
  comments?: string[];
}

/** A structural pattern compiled for one language. */
export interface StructuralProgram {
  /**
   * Texts every match holds verbatim (the pattern's identifiers, keywords and strings that are not
   * metavariables): a file that lacks one cannot match, so it is not parsed.
   */
  literals: readonly string[];
  /**
   * Texts every match holds as a whole word: no ASCII letter, digit or `_` next to either end that is one
   * of those itself (the pattern's identifiers: a lexer never splits a run of such characters around one).
   * A file where one of them occurs only inside longer words (`header` in `headers`) is not parsed.
   */
  words?: readonly string[];
  /**
   * Where the grammar read the pattern (or a rule's) only as one ERROR node, what it saw: such a pattern
   * matches a node of any kind whose children match (ast-grep's reading), which the caller is warned of.
   */
  readAsError?: string;
  /** A code pattern's reading in this language, as an S-expression of its nodes (none for a rule). */
  reading?: string;
  /**
   * Whether a text that holds the literals and words may hold a match (the pattern's adjacent tokens found
   * together, with only what the matcher passes over between them); absent, it may.
   */
  mayHold?: (text: string) => boolean;
  /**
   * Every match in one file, in document order (nested matches included): an array at once when it needs no
   * parse (the file's tree is held at this version, as in a warm search), else a promise. A scan takes the
   * files it can match at once without an `await` each.
   *
   * @param file The file: path, text (a BOM dropped) and version (the parse cache's key).
   */
  match(file: { path: string; text: string; version: string }): StructuralHit[] | Promise<StructuralHit[]>;
  /**
   * How many files' matches the search may keep in flight at once, in the source's order (a program that
   * parses in a pool of workers); absent, each file is matched when the search reaches it.
   */
  inFlight?: number;
  /**
   * Most matches the program gives for one file (the list stops there, so a file with that many may hold
   * more: a rewrite refuses it rather than change only those); absent, no bound.
   */
  maxHitsPerFile?: number;
}

/**
 * What a structural search needs of the structural engine: each file's language, and the pattern compiled
 * per language. The search area does not import the structural one (they are peers): the tool layer hands
 * one in, as it hands text search its enclosing-symbol lookup.
 */
export interface StructuralMatcher {
  /**
   * The language of a file by its name, or null when no grammar applies. A scan asks it twice of each file in
   * scope (the scope's filter, then the file's program), and the next search again: an answer worth
   * remembering (`patternMatcherOf` remembers it per grammar registry).
   */
  languageOf(path: string): string | null;
  /**
   * The pattern compiled for a language.
   *
   * @throws RecoverableError `invalid_query` naming what the grammar saw when it does not parse there.
   */
  compile(language: string, query: CompiledQuery): Promise<StructuralProgram>;
}

/** What of a structural query its program is compiled from (the rest selects and pages files). */
export type CompiledQuery =
  & { pattern?: string }
  & Pick<StructuralQuery, "rule" | "rewrite" | "transform" | "rewriters" | "expandStart" | "expandEnd">;

/** A structural search query after argument normalization. */
export interface StructuralQuery {
  /** The pattern, with `$X`, `$$$X`, `$_` metavariables (empty when a `rule` is given). */
  pattern: string;
  /** An ast-grep rule object (`pattern`, `kind`, `regex`, `inside`, `has`, `all`, `any`, `not`), instead of a pattern. */
  rule?: Record<string, unknown>;
  /** The rewrite template (edit_rewrite_structural; a search shows each match's replacement), or undefined. */
  rewrite?: string;
  /** ast-grep's `transform`: new metavariables the rewrite may use, made from the bound ones. */
  transform?: Record<string, unknown>;
  /** ast-grep's `rewriters`: sub-rules with their own fix, which a `rewrite` transformation applies. */
  rewriters?: unknown[];
  /** A fix's `expandStart` / `expandEnd` (ast-grep's FixConfig): relations to the sibling the span widens to. */
  expandStart?: Record<string, unknown>;
  expandEnd?: Record<string, unknown>;
  /** Report how each language read the pattern (`summary.pattern_readings`, ast-grep's `--debug-query`). */
  debugQuery?: boolean;
  /** How matches are shaped: graver's (default) or ast-grep's JSON (`ast-grep run --json`). */
  outputFormat?: "graver" | "ast-grep";
  /**
   * What a page lists, as search_text's `output_mode`: each match (`content`, the default), each file with
   * matches and its version (`files_with_matches`), or each file's count of matches (`count`). The last two
   * page by file.
   */
  outputMode?: Exclude<OutputMode, "content">;
  /** Languages to search (empty: every file with a grammar the pattern parses in). */
  languages: string[];
  /** Which files to ask the source for. */
  scope: FileScope;
  /** ripgrep `-g` globs, in order. */
  globs: string[];
  /** File types (ts, py …). */
  types: string[];
  /** Most matches in one page. */
  maxResults: number;
  /** Matches to skip before the page starts. */
  offset: number;
  /** Most characters of matches in one result before they are shortened. */
  maxChars: number;
  /** Files larger than this many bytes are skipped (`too_large`). */
  maxFileBytes: number;
  /** Name each match's enclosing symbol (default true; false spares outlining the matched files). */
  symbols?: boolean;
  /** Lines to give before and after each match (`context_before` / `context_after`; none by default). */
  context?: { before: number; after: number };
}

/** Where a metavariable's text is in the file (1-based lines and columns, end column just past the end). */
export interface StructuralMetavariable {
  /** The bound text. */
  text: string;
  /** Line where it starts (absent for a `$$$X` that bound nothing). */
  line?: number;
  /** Column where it starts. */
  column?: number;
  /** Line where it ends. */
  end_line?: number;
  /** Column just past its end. */
  end_column?: number;
}

/** One match of a structural search. */
export interface StructuralMatch {
  /** File path relative to the root. */
  path: string;
  /** The file's language. */
  language: string;
  /** 1-based line where the matched node starts. */
  line: number;
  /** 1-based column (UTF-16 code units) where it starts. */
  column: number;
  /** Line where it ends. */
  end_line: number;
  /** Column just past its end. */
  end_column: number;
  /** The matched code (shortened when the budget asked for it). */
  text: string;
  /** Metavariable name -> its text and place. */
  metavariables: Record<string, StructuralMetavariable>;
  /** The name path of the innermost definition holding the match. */
  symbol?: string;
  /** The file's version (SHA-256 of its bytes). */
  version: string;
  /** The occurrence id an edit can name. */
  id: string;
  /** The rewrite's code for this match, when a search was given a rewrite to preview (nothing is written). */
  replacement?: string;
  /**
   * What the replacement would take away of the match — a word the pattern passed over, the code after the
   * pattern's end, a comment no metavariable binds — for which `edit_rewrite_structural` refuses this site.
   */
  replacement_loses?: string[];
  /**
   * Why the replacement would not fit where the match is, though it parses (two statements where a body
   * without braces holds one, an operator binding across it): `edit_rewrite_structural` refuses this site.
   */
  replacement_does_not_fit?: string;
  /** Lines before the match's first line, nearest last (only when context was asked for). */
  context_before?: string[];
  /** Lines after its last line, nearest first (only when context was asked for). */
  context_after?: string[];
}

/** What a structural search looked at. */
export interface StructuralSummary extends Omit<SearchSummary, "shortened"> {
  /** Files parsed: those of a searched language that hold every literal of the pattern. */
  files_parsed: number;
  /** How the page was shortened to fit the character budget. */
  shortened: "none" | "truncated_text" | "counts";
  /** Languages with files in scope where the pattern does not parse, with what the grammar said. */
  languages_refused?: Record<string, string>;
  /**
   * Languages whose grammar read the pattern only as one ERROR node, with what it saw: the pattern matches
   * nodes of any kind whose children match its own (as ast-grep's does), which may be wider than meant.
   */
  pattern_read_as_error?: Record<string, string>;
  /** With `debug_query`: each language's reading of the pattern, as an S-expression of its nodes. */
  pattern_readings?: Record<string, string>;
  /** Files left out as over the parse limit (of `skipped.too_large`; the workspace's `maxParseBytes`). */
  files_over_parse_limit?: number;
  /**
   * Files (the first 20) whose matches stopped at the matcher's bound per file (100,000): each may hold more
   * than the search lists or counts, and a rewrite of it is refused.
   */
  files_capped?: string[];
  /**
   * With a `rewrite`: how many of the page's matches would lose code to it (`replacement_loses`) and how many
   * would get code that does not fit there (`replacement_does_not_fit`) — counted before the budget, so a
   * page shortened to counts says it too.
   */
  rewrite_refuses?: { loses_code: number; does_not_fit: number };
}

/** The result of a structural search. */
export interface StructuralSearchResult {
  /** The matches of the page (absent when shortened to counts, or shaped as ast-grep's). */
  matches?: StructuralMatch[];
  /** The matches of the page as `ast-grep run --json` prints them (with `output_format: "ast-grep"`). */
  ast_grep?: AstGrepMatch[];
  /** Matches per file: with `output_mode: "count"`, or when the page was shortened to counts. */
  counts?: FileCount[];
  /** The files with matches, with `output_mode: "files_with_matches"`. */
  files?: FileMatch[];
  /** Pass as `cursor` to get the next page (only when `summary.truncated`). */
  next_cursor?: string;
  /** What was searched and how the page was bounded. */
  summary: StructuralSummary;
}

/** A place in ast-grep's terms: 0-based line, column in characters. */
export interface AstGrepPosition {
  /** 0-based line. */
  line: number;
  /** 0-based column, in characters (Unicode code points). */
  column: number;
}

/** A range in ast-grep's terms. */
export interface AstGrepRange {
  /** UTF-8 byte offsets of its start and end. */
  byteOffset: { start: number; end: number };
  /** Where it starts. */
  start: AstGrepPosition;
  /** Where it ends. */
  end: AstGrepPosition;
}

/** One bound node in ast-grep's terms. */
export interface AstGrepNode {
  /** Its text. */
  text: string;
  /** Where it is. */
  range: AstGrepRange;
}

/** One match as `ast-grep run --json` prints it. */
export interface AstGrepMatch extends AstGrepNode {
  /** The path, relative to the root. */
  file: string;
  /** The whole lines the match spans, without the last line's end. */
  lines: string;
  /** Characters before the match on its first line, and after it on its last. */
  charCount: { leading: number; trailing: number };
  /** The rewrite's code for the match (with a rewrite). */
  replacement?: string;
  /** The byte range the replacement takes the place of (with a rewrite). */
  replacementOffsets?: { start: number; end: number };
  /** ast-grep's name of the language (`TypeScript`, `Tsx`, `Python`, `Cpp` …). */
  language: string;
  /** What the metavariables bound (left out when the pattern binds none). */
  metaVariables?: {
    single: Record<string, AstGrepNode>;
    multi: Record<string, AstGrepNode[]>;
    transformed: Record<string, string>;
  };
}
