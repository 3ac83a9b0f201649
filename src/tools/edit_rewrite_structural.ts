/**
 * edit_rewrite_structural: rewrite every match of a code pattern across the project's files (or only the
 * matches an earlier `search_structural` named by id) as one all-or-nothing commit — ast-grep's
 * `run -p … -r … -U` inside the sandbox, with each multi-line rewrite re-indented to its site and every
 * changed file's syntax checked by the dispatch pipeline. Files are selected exactly as `search_structural`
 * selects them; the plan is `src/search/structural_rewrite.ts`. A `rewrite` tool: the read guard refuses
 * none of its sites, and names the changed lines the session has not read.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { askedGuardMode, checkExpectedCount, listedSites, SITE, stagePlannedTexts } from "./_site_edits.ts";
import { lazyEngine } from "./_lazy.ts";
import { DRY_RUN, objectSchema } from "./_schema.ts";
import { BOOLEAN, FILE_PATH, INTEGER, shape, VERSION } from "./_result_schema.ts";
import {
  PATTERN_ARGS,
  STRUCTURAL_ALIASES,
  STRUCTURAL_FILE_ARGS,
  STRUCTURAL_SUMMARY,
} from "./search_structural.ts";
import type { ToolDefinition } from "./types.ts";
import type { Parsing } from "../syntax/types.ts";
import type { SiteMisfit } from "../structural/edit/site_fit.ts";

const searchEngine = lazyEngine("the text search", async () => (await import("./_engines_search.ts")).search);
const siteFitEngine = lazyEngine(
  "the structural engine (site fit)",
  async () => (await import("./_engines_pattern.ts")).siteFit,
);
const patternEngine = lazyEngine(
  "the structural engine (pattern search)",
  async () => (await import("./_engines_pattern.ts")).patternSearch,
);

/** Arguments of the search that only shape a page of results: a rewrite has no pages. */
/** The search's page and context arguments, which a rewrite (its sites listed with their diffs) does not take. */
const PAGE_ARGS = [
  "max_results",
  "offset",
  "cursor",
  "max_chars",
  "context",
  "context_before",
  "context_after",
];

/** Sites listed in a result by default; the rest are counted per file. */
const DEFAULT_MAX_SITES = 100;

const fileProperties = Object.fromEntries(
  Object.entries(STRUCTURAL_FILE_ARGS).filter(([name]) => !PAGE_ARGS.includes(name)),
);

/** The arguments that select the matches: the search's own. */
function searchArgsOf(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([k]) => k in fileProperties || k in PATTERN_ARGS));
}

type Plan = Awaited<ReturnType<Awaited<ReturnType<typeof searchEngine>>["planStructuralRewrite"]>>;

/** The edit_rewrite_structural tool. */
export const editRewriteStructural: ToolDefinition<Record<string, unknown>> = {
  name: "edit_rewrite_structural",
  description:
    'Rewrite every match of a code pattern (as search_structural finds it: $X one node, $$$ARGS zero or more, $_ unnamed; or a rule object) in every file the same search would search — one atomic commit, all files or none. rewrite is the new code and may use the pattern\'s metavariables, e.g. pattern "console.log($$$A)", rewrite "logger.debug($$$A)"; a multi-line rewrite is re-indented to each site; where matches nest, the outermost is rewritten. Each changed file\'s syntax is checked (syntax_error refuses the whole call, naming the files). ids (occurrence ids from search_structural) restrict it to those matches (stale_base when a file changed since); expected_count refuses when the number of sites differs; dry_run previews every site. For text or regex replacements, edit_replace_text; to rename a symbol with its scopes and imports, edit_rename_symbol.',
  inputSchema: objectSchema({
    ...PATTERN_ARGS,
    ...fileProperties,
    rewrite: {
      type: "string",
      description: "The new code for each match; $X and $$$X put in what the pattern's metavariables bound",
    },
    ids: {
      type: "array",
      items: { type: "string" },
      minItems: 1,
      description: "Occurrence ids from search_structural: only these matches are rewritten",
    },
    expected_count: {
      type: "integer",
      minimum: 0,
      description: "Refuse unless exactly this many matches would be rewritten",
    },
    max_sites: { type: "integer", minimum: 0, description: "Sites listed in the result (default 100)" },
    dry_run: DRY_RUN,
  }, ["rewrite"]),
  aliases: {
    ...STRUCTURAL_ALIASES,
    "-r": "rewrite",
    fix: "rewrite",
    replacement: "rewrite",
    occurrence_ids: "ids",
    expected_replacements: "expected_count",
  },
  kind: "rewrite",
  mutates: true,
  resultData: shape({
    rewritten: INTEGER,
    nested: INTEGER,
    files: {
      type: "array",
      items: shape({
        path: FILE_PATH,
        version: VERSION,
        count: INTEGER,
        sites: { type: "array", items: SITE },
      }, ["path", "version", "count", "sites"]),
    },
    sites_listed: INTEGER,
    truncated: BOOLEAN,
    summary: STRUCTURAL_SUMMARY,
  }, ["rewritten", "files"]),
  async handler(args, { workspace, stage }) {
    const {
      normalizeStructuralArgs,
      withRuleTexts,
      parseOccurrenceId,
      planStructuralRewrite,
      readAsErrorWarnings,
      skippedWarnings,
      walkSearchFiles,
    } = await searchEngine();
    const { patternMatcherOf } = await patternEngine();
    const rewrite = args["rewrite"] as string;
    const query = {
      ...normalizeStructuralArgs(await withRuleTexts({ ...searchArgsOf(args), rewrite })),
      rewrite,
    };
    const ids = Array.isArray(args["ids"])
      ? (args["ids"] as string[]).map((id) =>
        parseOccurrenceId(id, { tool: "search_structural", args: searchArgsOf(args) })
      )
      : null;
    const files = walkSearchFiles(stage);
    const plan = await planStructuralRewrite(files, { query, matcher: patternMatcherOf(workspace), ids })
      .catch((err) => {
        throw withRewriteOfOthers(err, args);
      });
    if (plan.sites === 0) throw nothingToRewrite(args, plan);
    checkExpectedCount(args["expected_count"] as number | undefined, plan, {
      counted: "matches would be rewritten",
      narrow:
        "Narrow the search (path, glob, language, a more specific pattern), or pass the ids of the matches to change from search_structural",
    });
    const guard = askedGuardMode(args, workspace);
    const misfit = guard === "off" ? null : await misfitsOf(workspace, plan);
    if (misfit !== null && guard === "refuse") throw withRewriteOfOthers(misfit, args);
    await stagePlannedTexts(stage, plan);
    const warnings = readAsErrorWarnings(Object.fromEntries(plan.stats.readAsError));
    if (misfit !== null) {
      warnings.push(
        misfit.message.replace(/ Nothing was written$/, " It was written as asked (syntax_guard warn)"),
      );
    }
    if (plan.nested > 0) {
      warnings.push(
        `${plan.nested} match(es) inside another match were left as they are: the outer match was rewritten`,
      );
    }
    const skipped = { ...plan.stats.skipped, overParseLimit: plan.stats.overParseLimit };
    warnings.push(...skippedWarnings(skipped, query, true));
    return { warnings, data: resultData(plan, (args["max_sites"] as number) ?? DEFAULT_MAX_SITES) };
  },
};

/**
 * A refusal of some sites (they would lose code, comments or words) with the call that rewrites the others by
 * their ids, where the plan listed them (`details.other_ids`).
 */
function withRewriteOfOthers(err: unknown, args: Record<string, unknown>): unknown {
  const others = err instanceof RecoverableError ? err.details?.["other_ids"] : undefined;
  if (!Array.isArray(others)) return err;
  const e = err as RecoverableError;
  return new RecoverableError(e.code, e.message, {
    hint: e.hint,
    details: e.details ?? {},
    suggestedCall: { tool: "edit_rewrite_structural", args: { ...args, ids: others } },
    cause: e,
  });
}

/**
 * The refusal of a rewrite with sites whose new code does not fit where the match was (it parses, but the
 * code around it would read it otherwise: `structural/edit/site_fit.ts`), naming every such site; null when
 * every site fits.
 */
async function misfitsOf(parsing: Parsing, plan: Plan): Promise<RecoverableError | null> {
  const { misfitEdits, misfitRefusal } = await siteFitEngine();
  const found: { path: string; misfit: SiteMisfit; id: string }[] = [];
  for (const f of plan.files) {
    if (f.structural === undefined) continue;
    const { language, edits } = f.structural;
    const misfits = await misfitEdits(parsing, { path: f.path, language, text: f.text, version: f.version }, {
      text: f.newText,
      edits,
    });
    for (const misfit of misfits) found.push({ path: f.path, misfit, id: f.sites[misfit.index]!.id });
  }
  if (found.length === 0) return null;
  const refusal = misfitRefusal(
    found,
    "leave those sites out: pass the ids of the others (the suggested call, where details.other_ids lists them)",
  );
  const misfit = new Set(found.map((f) => f.id));
  const others = plan.files.flatMap((f) => f.sites.map((s) => s.id)).filter((id) => !misfit.has(id));
  if (others.length > 0 && others.length <= 500) refusal.details!["other_ids"] = others;
  return refusal;
}

/** What the result lists: every file with its count, and sites up to the limit. */
function resultData(plan: Plan, maxSites: number): Record<string, unknown> {
  return {
    rewritten: plan.sites,
    nested: plan.nested,
    ...listedSites(plan.files, { total: plan.sites, maxSites }),
    summary: {
      files_scanned: plan.stats.scanned,
      files_parsed: plan.stats.parsed,
      files_matched: plan.stats.matched,
      skipped: plan.stats.skipped,
    },
  };
}

function nothingToRewrite(args: Record<string, unknown>, plan: Plan): RecoverableError {
  const { scanned, parsed } = plan.stats;
  const same = plan.stats.matched > 0;
  return new RecoverableError(
    "no_match",
    same
      ? `Every match of ${
        JSON.stringify(args["pattern"] ?? args["rule"])
      } already reads as the rewrite: nothing was changed`
      : `No match of ${
        JSON.stringify(args["pattern"] ?? args["rule"])
      } in the ${scanned} files searched (${parsed} parsed): nothing was changed`,
    {
      hint:
        "Check the pattern and the path/glob/type/language with search_structural (it searches exactly the same files); hidden and ignored files need hidden / no_ignore",
      details: { pattern: args["pattern"] ?? args["rule"], files_scanned: scanned, files_parsed: parsed },
      suggestedCall: { tool: "search_structural", args: searchArgsOf(args) },
    },
  );
}
