/**
 * search_structural: ast-grep's `run -p` inside the sandbox. A code pattern with metavariables (`$X`,
 * `$$$ARGS`, `$_`) matched on each file's syntax tree, over the files `search_text` would search; every
 * match carries its metavariables, its file's version and an occurrence id, so the next call can be a
 * guarded `edit_rewrite_structural` of exactly those matches. The engines are `src/search/` (the loop over
 * files) and `src/structural/search/` (the pattern engine); docs/search.md.
 *
 * @module
 */
import { lazyEngine } from "./_lazy.ts";
import { objectSchema } from "./_schema.ts";
import { BOOLEAN, FILE_PATH, INTEGER, shape, STRING, VERSION } from "./_result_schema.ts";
import { searchTextTool } from "./search_text.ts";
import { SEARCH_TEXT_ALIASES } from "../search/text_aliases.ts";
import type { ShownLines } from "../errors.ts";
import type { StructuralMatch, StructuralSearchResult } from "../search/types.ts";
import type { RewriteFit } from "../search/rewrite_fit.ts";
import type { Parsing } from "../syntax/types.ts";
import type { ToolDefinition } from "./types.ts";

const searchEngine = lazyEngine("the text search", async () => (await import("./_engines_search.ts")).search);
const patternEngine = lazyEngine(
  "the structural engine (pattern search)",
  async () => (await import("./_engines_pattern.ts")).patternSearch,
);
const siteFitEngine = lazyEngine(
  "the structural engine (site fit)",
  async () => (await import("./_engines_pattern.ts")).siteFit,
);

/**
 * A rewrite preview's fit check (`search/rewrite_fit.ts`): the structural engine's, as edit_rewrite_structural
 * runs it before it writes, each misfit in words.
 */
async function fitCheck(parsing: Parsing): Promise<RewriteFit> {
  const { misfitEdits, misfitText } = await siteFitEngine();
  return async (file, change) =>
    (await misfitEdits(parsing, file, change)).map((m) => ({ index: m.index, text: misfitText(m) }));
}

/** The file-selection and page arguments a structural search shares with search_text, by name. */
const SHARED = [
  "path",
  "glob",
  "paths_include_glob",
  "paths_exclude_glob",
  "type",
  "max_results",
  "offset",
  "cursor",
  "max_chars",
  "max_file_bytes",
  "hidden",
  "no_ignore",
  "context",
  "context_before",
  "context_after",
];

/** search_text's schema of the shared arguments (one description of each, wherever it is taken). */
export const STRUCTURAL_FILE_ARGS: Record<string, Record<string, unknown>> = Object.fromEntries(
  Object.entries(
    (searchTextTool.inputSchema as { properties: Record<string, Record<string, unknown>> }).properties,
  ).filter(([name]) => SHARED.includes(name)),
);

/** The aliases of the shared arguments, plus ast-grep's flag letters. */
export const STRUCTURAL_ALIASES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(SEARCH_TEXT_ALIASES).filter(([, name]) => SHARED.includes(name))),
  "-p": "pattern",
  "-l": "language",
  lang: "language",
  expandStart: "expand_start",
  expandEnd: "expand_end",
};

/** The pattern and language arguments, as both structural tools take them. */
export const PATTERN_ARGS: Record<string, Record<string, unknown>> = {
  pattern: {
    type: "string",
    description:
      "Code to find, written in the files' language, with $X for any one node, $$$ARGS for zero or more, $_ for a node not named",
  },
  rule: {
    anyOf: [{ type: "object" }, { type: "string" }],
    description:
      'Instead of pattern: an ast-grep rule object (or its YAML text, as ast-grep\'s docs write rules: "kind: call_expression\\nhas:\\n  kind: await_expression") — pattern, kind (node type), regex (RE2, on the node\'s text), nthChild (1-based place among the parent\'s named children: a number, "2n+1", or {position, reverse, ofRule}), range ({start: {line, column}, end: {…}}, 0-based, columns in characters), inside / has (a rule an enclosing / enclosed node matches), precedes / follows (a rule a later / earlier sibling matches; for these four, stopBy: "neighbor" (default), "end" or a rule; inside / has also take field, a field name such as "body" or "condition": the target lies in that field of the enclosing node / the target\'s child in that field matches), all / any (lists of rules), not (a rule), matches (the name of a rule in utils); constraints at its top as below',
  },
  constraints: {
    anyOf: [{ type: "object" }, { type: "string" }],
    description:
      'ast-grep\'s constraints: metavariable name -> a rule the node it bound must match, e.g. {"F": {"regex": "^use[A-Z]"}} (a $$$X list is not checked); also as YAML or JSON text',
  },
  transform: {
    anyOf: [{ type: "object" }, { type: "string" }],
    description:
      'ast-grep\'s transform, for rewrite: new metavariable name -> {substring: {source: "$A", startChar, endChar}} (characters, negative from the end), {replace: {source: "$A", replace: "RE2 regex", by: "text with $1"}} or {convert: {source: "$A", toCase: "camelCase" | "snakeCase" | "kebabCase" | "pascalCase" | "lowerCase" | "upperCase" | "capitalize"}}; the rewrite writes it as $NAME; also as YAML or JSON text',
  },
  utils: {
    anyOf: [{ type: "object" }, { type: "string" }],
    description:
      'ast-grep\'s utility rules, beside rule: name -> a rule that rule (or another utility) names with matches, e.g. {"rule": {"kind": "call_expression", "has": {"matches": "test-id"}}, "utils": {"test-id": {"regex": "^test"}}}; also as YAML or JSON text',
  },
  expand_start: {
    anyOf: [{ type: "object" }, { type: "string" }],
    description:
      'ast-grep\'s FixConfig expandStart, with a rewrite: a rule (and stopBy, default "neighbor") an earlier sibling of the match holds; the replaced span starts at the first such sibling, e.g. {"regex": ","}; also as YAML or JSON text',
  },
  expand_end: {
    anyOf: [{ type: "object" }, { type: "string" }],
    description:
      'ast-grep\'s FixConfig expandEnd, with a rewrite: a rule (and stopBy) a later sibling of the match holds; the replaced span ends at the first such sibling — {"regex": ","} takes a list item\'s comma with it (rewrite "" deletes the item); what the wider span passes over besides tokens is refused, not dropped; also as YAML or JSON text',
  },
  rewriters: {
    anyOf: [{ type: "array", items: { type: "object" } }, { type: "string" }],
    description:
      'ast-grep\'s rewriters, for a rewrite transform: sub-rules {id, rule, fix, constraints, utils, transform}; transform {"NEW": {"rewrite": {"source": "$$$A", "rewriters": ["id"], "joinBy": ", "}}} rewrites each node under $$$A the first listed rewriter matches (the node itself first; an outer node wins) with its fix; also as YAML or JSON text',
  },
  language: {
    anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }],
    description:
      "Languages to search (typescript, ts, tsx, javascript, python, go, rust …); default: every file with a grammar the pattern parses in",
  },
};

/** Arguments of the search alone (edit_rewrite_structural takes the pattern arguments, not these). */
const SEARCH_ONLY_ARGS: Record<string, Record<string, unknown>> = {
  output_mode: {
    type: "string",
    enum: ["content", "files_with_matches", "count"],
    description:
      'As search_text\'s: "content" (default: each match), "files_with_matches" (data.files: each file with a match and its version), "count" (data.counts: each file\'s number of matches); the last two page by file',
  },
  output_format: {
    type: "string",
    enum: ["graver", "ast-grep"],
    description:
      'How matches are shaped: "graver" (default: matches with versions and occurrence ids) or "ast-grep" (data.ast_grep, each match as `ast-grep run --json` prints it: text, range with byteOffset and 0-based start/end, file, lines, charCount, language, metaVariables single/multi, replacement with a rewrite)',
  },
  rewrite: {
    type: "string",
    description:
      "A rewrite template ($X, $$$ARGS filled in) to preview: each match gets its replacement, nothing is written (edit_rewrite_structural writes it)",
  },
  debug_query: {
    type: "boolean",
    description:
      'Also answer summary.pattern_readings: how each language\'s grammar read the pattern, as an S-expression of its nodes (metavariables as written, "_" for a node of any kind), as ast-grep --debug-query shows it; for a pattern that finds less or more than meant',
  },
  symbols: {
    type: "boolean",
    description:
      "Name each match's enclosing symbol (default true; false is faster: the matched files are not outlined)",
  },
};

const POSITION = { line: INTEGER, column: INTEGER, end_line: INTEGER, end_column: INTEGER };

/** What one match looks like in a result. */
const MATCH = shape({
  path: FILE_PATH,
  language: STRING,
  ...POSITION,
  text: STRING,
  metavariables: { type: "object", additionalProperties: shape({ text: STRING, ...POSITION }, ["text"]) },
  symbol: STRING,
  version: VERSION,
  id: STRING,
  replacement: STRING,
  replacement_loses: { type: "array", items: STRING },
  replacement_does_not_fit: STRING,
  context_before: { type: "array", items: STRING },
  context_after: { type: "array", items: STRING },
}, [
  "path",
  "language",
  "line",
  "column",
  "end_line",
  "end_column",
  "text",
  "metavariables",
  "version",
  "id",
]);

/** The summary of a structural scan. */
export const STRUCTURAL_SUMMARY = shape({
  files_scanned: INTEGER,
  files_parsed: INTEGER,
  files_matched: INTEGER,
  skipped: shape({ ignored: INTEGER, binary: INTEGER, too_large: INTEGER, unreadable: INTEGER }),
  truncated: BOOLEAN,
  shortened: STRING,
  elapsed_ms: { type: "number" },
  languages_refused: { type: "object", additionalProperties: STRING },
  pattern_read_as_error: { type: "object", additionalProperties: STRING },
  files_over_parse_limit: INTEGER,
  files_capped: { type: "array", items: STRING },
  rewrite_refuses: shape({ loses_code: INTEGER, does_not_fit: INTEGER }),
}, ["files_scanned", "files_parsed", "files_matched", "skipped"]);

/** The search_structural tool. */
export const searchStructuralTool: ToolDefinition<Record<string, unknown>> = {
  name: "search_structural",
  description:
    'Find code by its shape across the project, as ast-grep run -p does: pattern is code in the files\' language with metavariables ($X one node, $$$ARGS zero or more, $_ any node unnamed; a name used twice must match the same code), e.g. "console.log($$$A)", "$A && $A", "def $F($$$P): $$$B"; or a rule object with ast-grep\'s keys (pattern, kind, regex, inside/has/precedes/follows with stopBy, all/any/not; constraints on metavariables), e.g. {"rule": {"pattern": "await $X", "inside": {"kind": "for_statement", "stopBy": "end"}}}. Matches whole syntax nodes, so formatting, comments and strings never fool it. Files as search_text selects them (path, glob, type, .gitignore; language narrows to grammars). Each match: path, 1-based line/column range, text, each metavariable\'s text and place, enclosing symbol, the file\'s version and an occurrence id (edit_rewrite_structural takes ids). Paged (max_results, next_cursor) and shortened to fit max_chars; output_mode "files_with_matches" or "count" lists files instead, as in search_text. output_format: "ast-grep" answers data.ast_grep in the match shape of ast-grep run --json instead; rewrite previews the replacement of each match (nothing written). A pattern the grammar cannot read is refused invalid_query with what the grammar saw. For plain text or regexes, search_text; to change every match, edit_rewrite_structural.',
  inputSchema: objectSchema({ ...PATTERN_ARGS, ...SEARCH_ONLY_ARGS, ...STRUCTURAL_FILE_ARGS }, []),
  aliases: STRUCTURAL_ALIASES,
  kind: "read",
  mutates: false,
  resultData: shape({
    matches: { type: "array", items: MATCH },
    ast_grep: { type: "array", items: { type: "object" } },
    counts: {
      type: "array",
      items: shape({ path: FILE_PATH, count: INTEGER, version: VERSION }, ["path", "count", "version"]),
    },
    files: { type: "array", items: shape({ path: FILE_PATH, version: VERSION }, ["path", "version"]) },
    next_cursor: STRING,
    summary: STRUCTURAL_SUMMARY,
  }, ["summary"]),
  async handler(args, { workspace, stage }) {
    const {
      enclosingSymbolsOf,
      normalizeStructuralArgs,
      withRuleTexts,
      searchStructural,
      readAsErrorWarnings,
      skippedWarnings,
      walkSearchFiles,
    } = await searchEngine();
    const { patternMatcherOf, poolSymbolsOf } = await patternEngine();
    const query = normalizeStructuralArgs(await withRuleTexts(args));
    // Staged bytes for a file a plan wrote, else the backend's: only files that may match are hashed (parse cache).
    // A read-only search reuses the bytes of files whose stat is unchanged since the session read them.
    const files = walkSearchFiles(stage, { cache: "session" });
    // Only a page of matches in graver's shape names their enclosing symbols: a count, a list of files or
    // ast-grep's shape outlines nothing (a pool's workers outlined every matched file for a count).
    const namesSymbols = query.symbols !== false && query.outputMode === undefined &&
      query.outputFormat !== "ast-grep";
    const result = await searchStructural(files, query, {
      matcher: patternMatcherOf(workspace, { outlines: namesSymbols }),
      // With a match pool, the workers that parsed the matched files name their symbols too.
      ...(namesSymbols ? { enclosing: enclosingSymbolsOf(workspace, poolSymbolsOf(workspace)) } : {}),
      ...(query.rewrite !== undefined ? { fit: await fitCheck(workspace) } : {}),
    });
    const summary = result.summary;
    const skipped = { ...summary.skipped, overParseLimit: summary.files_over_parse_limit };
    const warnings = [
      ...readAsErrorWarnings(summary.pattern_read_as_error),
      ...skippedWarnings(skipped, query),
    ];
    warnings.push(...rewriteRefusalWarnings(summary));
    if (summary.files_capped) {
      warnings.push(
        `${summary.files_capped.join(", ")}: more matches than the matcher takes from one file (the first ` +
          "100,000); the search lists and counts only those, and a rewrite of the file is refused: narrow the " +
          "pattern or the path",
      );
    }
    return { data: result as unknown as Record<string, unknown>, shown: shownLines(result), warnings };
  },
};

/**
 * The warnings of a rewrite preview whose page holds sites `edit_rewrite_structural` refuses: counted before
 * the budget (`summary.rewrite_refuses`), so a page shortened to counts says it too, and says how to see which.
 */
function rewriteRefusalWarnings(summary: StructuralSearchResult["summary"]): string[] {
  const { loses_code: losing = 0, does_not_fit: misfits = 0 } = summary.rewrite_refuses ?? {};
  const which = summary.shortened === "counts"
    ? " (the page is shortened to counts: ask for fewer matches, max_results, to see which)"
    : "";
  const out: string[] = [];
  if (losing > 0) {
    out.push(
      `${losing} match(es) on this page would lose code to the rewrite (replacement_loses)${which}: ` +
        "edit_rewrite_structural refuses those sites; pass the ids of the others to rewrite them",
    );
  }
  if (misfits > 0) {
    out.push(
      `${misfits} match(es) on this page would get new code that does not fit there ` +
        `(replacement_does_not_fit)${which}: edit_rewrite_structural refuses those sites; write the rewrite as ` +
        "one node there (braces around several statements, parentheses around an expression), or pass the ids " +
        "of the others",
    );
  }
  return out;
}

/**
 * The lines a page of matches displayed in full, at the version each file was searched at, so an edit of
 * code found by a structural search is judged as if read. A match shows a node, not its lines: only the
 * lines it covers whole count (those between its first and last, and its first when it starts the line's
 * text at column 1). A shortened page shows nothing whole and counts for nothing.
 */
function shownLines(result: { matches?: StructuralMatch[]; summary: { shortened: string } }): ShownLines[] {
  if (!result.matches || result.summary.shortened !== "none") return [];
  const byFile = new Map<string, ShownLines & { lines: { start_line: number; end_line: number }[] }>();
  for (const m of result.matches) {
    const start_line = m.column === 1 ? m.line : m.line + 1;
    const end_line = m.end_line - 1;
    if (start_line > end_line) continue;
    const key = `${m.path}\0${m.version}`;
    const entry = byFile.get(key) ?? { path: m.path, version: m.version, lines: [] };
    byFile.set(key, entry);
    entry.lines.push({ start_line, end_line });
  }
  return [...byFile.values()];
}
