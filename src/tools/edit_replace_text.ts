/**
 * edit_replace_text: replace every occurrence of a text search across the project's files (or only the
 * occurrences an earlier `search_text` named by id) as one all-or-nothing commit — grep, then sed, inside
 * the sandbox. Files are selected exactly as `search_text` selects them; the plan is
 * `src/search/replace_text.ts`. A `rewrite` tool: the read guard refuses none of its sites, and names the
 * changed lines the session has not read.
 *
 * @module
 */
import { SEARCH_TEXT_ALIASES } from "../search/text_aliases.ts";
import { RecoverableError } from "../errors.ts";
import { checkExpectedCount, listedSites, SITE, stagePlannedTexts } from "./_site_edits.ts";
import { lazyEngine } from "./_lazy.ts";
import { DRY_RUN, objectSchema } from "./_schema.ts";
import { BOOLEAN, FILE_PATH, INTEGER, shape, VERSION } from "./_result_schema.ts";
import { searchTextTool } from "./search_text.ts";
import type { ToolDefinition } from "./types.ts";

const searchEngine = lazyEngine("the text search", async () => (await import("./_engines_search.ts")).search);

/** Arguments of the search that only shape a page of results: a replacement has no pages. */
const PAGE_ARGS = [
  "output_mode",
  "context_before",
  "context_after",
  "context",
  "max_results",
  "offset",
  "cursor",
];

/** Sites listed in a result by default; the rest are counted per file. */
const DEFAULT_MAX_SITES = 100;

const searchProperties = Object.fromEntries(
  Object.entries(
    (searchTextTool.inputSchema as { properties: Record<string, Record<string, unknown>> }).properties,
  ).filter(([name]) => !PAGE_ARGS.includes(name) && name !== "max_chars" && name !== "-n"),
);

/** The arguments that select the occurrences: the search's own (the rest are this tool's and every edit's). */
function searchArgsOf(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([k]) => k in searchProperties));
}

/** The edit_replace_text tool. */
export const editReplaceText: ToolDefinition<Record<string, unknown>> = {
  name: "edit_replace_text",
  description:
    "Replace every occurrence of a regular expression (RE2 syntax) or, with literal: true, a fixed string, in every file a search_text call with the same arguments would search (path, glob, type, .gitignore honoured) — one atomic commit, all files or none. replacement may use $1, ${1}, ${name} for capture groups and $$ for a literal $ (a group the pattern lacks is refused; literal_replacement: true takes it as it is). ids (occurrence ids from search_text) restrict the change to those occurrences; an id whose file changed since is refused stale_base. expected_count refuses when the number of occurrences differs. dry_run previews every site's diff. For a symbol's every use, edit_rename_symbol is safer (it follows scopes and imports).",
  inputSchema: objectSchema({
    ...searchProperties,
    replacement: {
      type: "string",
      description: "What replaces each occurrence: $1, ${1}, ${name} for groups, $$ for a literal $",
    },
    literal_replacement: {
      type: "boolean",
      description: "Take replacement as it is, with no group references (default: true when literal)",
    },
    ids: {
      type: "array",
      items: { type: "string" },
      minItems: 1,
      description: "Occurrence ids from search_text: only these occurrences are replaced",
    },
    expected_count: {
      type: "integer",
      minimum: 0,
      description: "Refuse unless exactly this many occurrences would be replaced",
    },
    max_sites: { type: "integer", minimum: 0, description: "Sites listed in the result (default 100)" },
    dry_run: DRY_RUN,
  }, ["pattern", "replacement"]),
  aliases: {
    ...SEARCH_TEXT_ALIASES,
    replace: "replacement",
    "-r": "replacement",
    replace_with: "replacement",
    occurrence_ids: "ids",
    expected_replacements: "expected_count",
  },
  kind: "rewrite",
  mutates: true,
  resultData: shape({
    replaced: INTEGER,
    files: {
      type: "array",
      items: shape({
        path: FILE_PATH,
        version: VERSION,
        count: INTEGER,
        sites: { type: "array", items: SITE },
      }, [
        "path",
        "version",
        "count",
        "sites",
      ]),
    },
    sites_listed: INTEGER,
    truncated: BOOLEAN,
    summary: shape({
      files_scanned: INTEGER,
      files_matched: INTEGER,
      skipped: shape({ ignored: INTEGER, binary: INTEGER, too_large: INTEGER, unreadable: INTEGER }),
    }),
  }, ["replaced", "files"]),
  async handler(args, { stage }) {
    const { normalizeSearchTextArgs, parseOccurrenceId, planTextReplace, skippedWarnings, walkSearchFiles } =
      await searchEngine();
    const query = normalizeSearchTextArgs(searchArgsOf(args));
    const ids = Array.isArray(args["ids"])
      ? (args["ids"] as string[]).map((id) =>
        parseOccurrenceId(id, { tool: "search_text", args: searchArgsOf(args) })
      )
      : null;
    const files = walkSearchFiles(stage);
    const plan = await planTextReplace(files, {
      query,
      replacement: args["replacement"] as string,
      literalReplacement: args["literal_replacement"] === true,
      ids,
    });
    if (plan.sites === 0) throw nothingToReplace(args, plan.stats.scanned);
    checkExpectedCount(args["expected_count"] as number | undefined, plan, {
      counted: "occurrences would be replaced",
      narrow:
        "Narrow the search (path, glob, word, a longer pattern), or pass the ids of the occurrences to change from search_text",
    });
    await stagePlannedTexts(stage, plan);
    return {
      warnings: [...plan.warnings, ...skippedWarnings(plan.stats.skipped, query, true)],
      data: resultData(plan, (args["max_sites"] as number) ?? DEFAULT_MAX_SITES),
    };
  },
};

/** What the result lists: every file with its count, and sites up to the limit. */
function resultData(
  plan: Awaited<ReturnType<Awaited<ReturnType<typeof searchEngine>>["planTextReplace"]>>,
  maxSites: number,
): Record<string, unknown> {
  return {
    replaced: plan.sites,
    ...listedSites(plan.files, { total: plan.sites, maxSites }),
    summary: {
      files_scanned: plan.stats.scanned,
      files_matched: plan.stats.matched,
      skipped: plan.stats.skipped,
    },
  };
}

function nothingToReplace(args: Record<string, unknown>, scanned: number): RecoverableError {
  return new RecoverableError(
    "no_match",
    `No occurrence of ${
      JSON.stringify(args["pattern"])
    } in the ${scanned} files searched: nothing was changed`,
    {
      hint:
        "Check the pattern and the path/glob/type with search_text (it searches exactly the same files); hidden and ignored files need hidden / no_ignore",
      details: { pattern: args["pattern"], files_scanned: scanned },
      suggestedCall: {
        tool: "search_text",
        args: searchArgsOf(args),
      },
    },
  );
}
