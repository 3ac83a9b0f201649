/**
 * The plan of a structural rewrite across files (`edit_rewrite_structural`): every match of a code pattern
 * in the files a structural search selects — or only the matches an earlier search named by id — replaced
 * by the rewrite template with its metavariables filled in (re-indented to each site by the pattern engine).
 * Where matches nest (`f(f(x))` for `f($A)`), the outermost is rewritten, as ast-grep does. The plan changes
 * nothing: the tool stages the new texts, and the dispatch pipeline checks the syntax of each file and
 * commits them all or none.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { PositionCursor } from "./matched_lines.ts";
import { formatOccurrenceId, type Occurrence } from "./occurrence_id.ts";
import {
  applySites,
  type FileReplacement,
  idsByFile,
  refuseTooManySites,
  refuseUnseenIds,
  type ReplacedSite,
  type SearchCall,
  selectSites,
} from "./replace_text.ts";
import { scanEnded, type ScanStats } from "./search_text.ts";
import {
  refuseUnreadPattern,
  scanStructural,
  type StructuralFile,
  structuralStats,
} from "./structural_search.ts";
import type { SearchFiles, StructuralMatcher, StructuralQuery } from "./types.ts";
import { replacedSpan } from "./replaced_span.ts";

/** The search tool whose ids a rewrite takes (named in its refusals). */
const SEARCH_TOOL = "search_structural";

/** What to rewrite. */
export interface StructuralRewriteQuery {
  /** The search that selects the matches; its `rewrite` is the template. */
  query: StructuralQuery & { rewrite: string };
  /** The structural area's pattern engine. */
  matcher: StructuralMatcher;
  /** Only these matches (ids from an earlier search), or null: every match. */
  ids: readonly Occurrence[] | null;
}

/** The plan: every file that changes, and what the scan counted. */
export interface StructuralRewritePlan {
  /** Files with at least one rewritten match, in the walk's order. */
  files: FileReplacement[];
  /** Matches rewritten, over all files. */
  sites: number;
  /** Files read, parsed, matched, left out by cause. */
  stats: ScanStats & { parsed: number; overParseLimit: number; readAsError: ReadonlyMap<string, string> };
  /** Matches left alone because an outer match holds them. */
  nested: number;
}

/** The sites of one file's outermost matches, with their replacements. */
/** A site of the plan: where it is, and the words of the code the rewrite would drop there (if any). */
type PlannedSite = ReplacedSite & {
  start: number;
  end: number;
  drops?: string[];
  tail?: { kind: string; text: string; widened?: true }[];
  comments?: string[];
};

function sitesOf(found: StructuralFile): { sites: PlannedSite[]; nested: number } {
  const { text, version } = found;
  const path = found.file.path;
  const sites: PlannedSite[] = [];
  let nested = 0;
  let lastEnd = -1;
  const positions = new PositionCursor(text);
  for (const hit of found.hits) {
    const span = replacedSpan(hit);
    if (span.start < lastEnd) {
      nested++;
      continue;
    }
    lastEnd = span.end;
    const at = positions.at(hit.start);
    const last = positions.at(hit.end);
    sites.push({
      start: span.start,
      end: span.end,
      line: at.line,
      column: at.column,
      end_line: last.line,
      end_column: last.column,
      before: text.slice(span.start, span.end),
      after: hit.replacement ?? "",
      id: formatOccurrenceId({ path, line: at.line, column: at.column, version }),
      ...(hit.drops ? { drops: hit.drops } : {}),
      ...(hit.tail ? { tail: hit.tail } : {}),
      ...(hit.comments ? { comments: hit.comments } : {}),
    });
  }
  return { sites, nested };
}

/**
 * The refusal of a rewrite that would take away words of the code its pattern passed over (under the smart
 * strictness a pattern matches code with keywords it does not write: `function $F(…)` matches
 * `async function f(…)`, `for (const $X of $Y)` a `for await`): written as the template says, those sites
 * would lose `async` or `await` without a word about it.
 */
function wordsDropped(dropping: { path: string; site: PlannedSite }[], rewrite: string): RecoverableError {
  const shown = dropping.slice(0, 10).map(({ path, site }) =>
    `${path}:${site.line}:${site.column} (${site.drops!.map((w) => `\`${w}\``).join(", ")})`
  );
  const words = [...new Set(dropping.flatMap(({ site }) => site.drops!))];
  return new RecoverableError(
    "ambiguous",
    `The rewrite would take away ${words.map((w) => `\`${w}\``).join(", ")} at ${dropping.length} site(s) ` +
      `its pattern matched without writing ${words.length === 1 ? "that word" : "those words"}: ${
        shown.join("; ")
      }${dropping.length > shown.length ? "; …" : ""}. Nothing was written`,
    {
      hint:
        `Write ${words.map((w) => `\`${w}\``).join(", ")} in the rewrite where ${
          words.length === 1 ? "it belongs" : "they belong"
        } (with a pattern that writes it too, for those sites alone), or leave those sites out: pass the ids of ` +
        `the others from ${SEARCH_TOOL}, or narrow with a rule ({"all": [{"pattern": …}, {"not": {"regex": "\\b${
          words[0]
        }\\b"}}]})`,
      details: {
        sites: dropping.map(({ path, site }) => ({
          path,
          line: site.line,
          column: site.column,
          id: site.id,
          drops: site.drops,
        })),
        rewrite,
      },
    },
  );
}

/** How a refusal of some sites says to leave them out (the tool adds the call, `details.other_ids`). */
const LEAVE_OUT =
  `pass the ids of the other sites (the suggested call, where details.other_ids lists them; else from ${SEARCH_TOOL})`;

/** Sites whose ids a refusal lists for the call that rewrites the others (more, and it lists none). */
const MAX_OTHER_IDS = 500;

/**
 * A refusal of some sites with the ids of the plan's other sites in its details (`other_ids`, when there are
 * some and at most {@linkcode MAX_OTHER_IDS}): the rewrite of those alone is the next call.
 */
function withOtherIds(
  refusal: RecoverableError,
  of: { plan: StructuralRewritePlan; refused: { site: PlannedSite }[] },
): RecoverableError {
  const refused = new Set(of.refused.map(({ site }) => site.id));
  const others = of.plan.files.flatMap((f) => f.sites.map((s) => s.id)).filter((id) => !refused.has(id));
  if (others.length > 0 && others.length <= MAX_OTHER_IDS) refusal.details!["other_ids"] = others;
  return refusal;
}

/** A run of code shown in a sentence: its whitespace as single spaces, cut past 60 characters. */
function shortCode(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 60 ? `${flat.slice(0, 57)}…` : flat;
}

/**
 * The refusal of a rewrite that would take away code its pattern passed over after its end: under the smart
 * strictness `if ($C) return $X;` matches an `if` with an `else` (as ast-grep's does), and the rewrite,
 * replacing the whole `if`, would drop the `else` branch without a word.
 */
function codeDropped(
  dropping: { path: string; site: PlannedSite }[],
  query: { rewrite: string },
): RecoverableError {
  const shown = dropping.slice(0, 5).map(({ path, site }) =>
    `${path}:${site.line}:${site.column} (\`${shortCode(site.tail![0]!.text)}\`)`
  );
  const kinds = [...new Set(dropping.flatMap(({ site }) => site.tail!.map((t) => t.kind)))].filter((k) => k);
  const widened = dropping.every(({ site }) => site.tail!.every((t) => t.widened));
  const why = widened
    ? `the fix's expandStart / expandEnd widen the replaced span over code between the match and the sibling ` +
      `they find (${kinds.join(", ")})`
    : `the matched node goes on after the pattern's end (${kinds.join(", ") || "more code"}), and the ` +
      "rewrite replaces the whole node";
  return new RecoverableError(
    "ambiguous",
    `The rewrite would take away code at ${dropping.length} site(s) that its pattern matched without writing: ` +
      `${why}: ${shown.join("; ")}${dropping.length > shown.length ? "; …" : ""}. Nothing was written`,
    {
      hint: widened
        ? "Let the expansion take the next sibling only (stopBy: neighbor, its default), or rewrite those " +
          `sites apart, or leave them out: ${LEAVE_OUT}`
        : "Write the pattern out to the node's end for those sites (for an `if` with an `else`: its `else $E` " +
          `in the pattern, and $E in the rewrite) and rewrite them apart, or leave them out: ${LEAVE_OUT}`,
      details: {
        sites: dropping.map(({ path, site }) => ({
          path,
          line: site.line,
          column: site.column,
          id: site.id,
          passed_over: site.tail!.map((t) => ({ kind: t.kind, text: shortCode(t.text) })),
        })),
        rewrite: query.rewrite,
      },
    },
  );
}

/**
 * The refusal of a rewrite that would take away comments inside its matches: only what the metavariables
 * bound is carried into the template (`foo(a, /* keep *\/ b)` for `foo($A, $B)` → `bar($B, $A)`).
 */
function commentsDropped(
  dropping: { path: string; site: PlannedSite }[],
  query: { rewrite: string },
): RecoverableError {
  const count = dropping.reduce((n, { site }) => n + site.comments!.length, 0);
  const shown = dropping.slice(0, 5).map(({ path, site }) =>
    `${path}:${site.line}:${site.column} (${site.comments!.map((c) => `\`${shortCode(c)}\``).join(", ")})`
  );
  return new RecoverableError(
    "ambiguous",
    `The rewrite would take away ${count} comment(s) inside ${dropping.length} match(es): neither a ` +
      `metavariable nor the rewrite holds them: ${shown.join("; ")}${
        dropping.length > shown.length ? "; …" : ""
      }. ` +
      "Nothing was written",
    {
      hint:
        "Bind the code around them with a $$$ metavariable (what it binds is carried over whole, comments " +
        `included: \`foo($$$A)\` → \`bar($$$A)\`), write them into the rewrite, or leave those sites out: ` +
        LEAVE_OUT,
      details: {
        sites: dropping.map(({ path, site }) => ({
          path,
          line: site.line,
          column: site.column,
          id: site.id,
          comments: site.comments,
        })),
        rewrite: query.rewrite,
      },
    },
  );
}

/** The `search_structural` call that lists what a rewrite of `query` changes (its pattern or rule, and languages). */
function structuralSearchCall(query: StructuralQuery): SearchCall {
  const args: Record<string, unknown> = query.rule ? { rule: query.rule } : { pattern: query.pattern };
  if (query.languages.length === 1) args.language = query.languages[0];
  else if (query.languages.length > 1) args.language = query.languages;
  return { tool: SEARCH_TOOL, args };
}

/**
 * Plan a structural rewrite: scan the files as `search_structural` would, rewrite every outermost match (or
 * the ones `ids` name), and return each changed file's new text.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryBackend, createWorkspace } from "../mod.ts";
 * import { createWasmLoader } from "../adapters/deno/mod.ts";
 * import { patternMatcherOf } from "../structural/search/mod.ts";
 * import { normalizeStructuralArgs } from "./structural_args.ts";
 * import { planStructuralRewrite } from "./structural_rewrite.ts";
 *
 * const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
 * const files = {
 *   async *files() { yield { path: "a.ts" }; },
 *   read: async () => new TextEncoder().encode("log(f(log(1)));\n"),
 * };
 * const query = normalizeStructuralArgs({ pattern: "log($A)", rewrite: "info($A)" });
 * const plan = await planStructuralRewrite(files, { query: { ...query, rewrite: "info($A)" }, matcher: patternMatcherOf(ws), ids: null });
 * assert.equal(plan.files[0]!.newText, "info(f(log(1)));\n");
 * assert.equal(plan.nested, 1);
 * ```
 *
 * @param files Where the files come from.
 * @param q The search with its rewrite, the pattern engine, and the ids to keep to.
 * @returns The plan (nothing is written).
 * @throws RecoverableError `invalid_query` for a pattern no searched language reads; `stale_base` when a file
 *   an id names changed since; `no_match` for an id that names no match.
 */
export async function planStructuralRewrite(
  files: SearchFiles,
  q: StructuralRewriteQuery,
): Promise<StructuralRewritePlan> {
  checkRewriteMetavariables(
    q.query.rule ? JSON.stringify(q.query.rule) : q.query.pattern,
    q.query.rewrite,
    Object.keys(q.query.transform ?? {}),
  );
  const stats = structuralStats();
  const byFile = q.ids === null ? null : idsByFile(q.ids);
  const plan: StructuralRewritePlan = { files: [], sites: 0, stats, nested: 0 };
  const seen = new Set<string>();
  const search = structuralSearchCall(q.query);
  const dropping: { path: string; site: PlannedSite }[] = [];
  const tails: { path: string; site: PlannedSite }[] = [];
  const uncommented: { path: string; site: PlannedSite }[] = [];
  for await (const found of scanStructural(files, { query: q.query, matcher: q.matcher, stats })) {
    const path = found.file.path;
    const ids = byFile?.get(path);
    if (byFile !== null && ids === undefined) continue;
    seen.add(path);
    refuseTooManySites(
      { path, here: found.hits.length, before: plan.sites, capped: found.capped === true },
      search,
    );
    const outer = sitesOf(found);
    plan.nested += outer.nested;
    let sites = outer.sites;
    if (ids !== undefined) {
      sites = selectSites({ path, version: found.version, sites }, { ids, search });
    }
    sites = sites.filter((s) => s.after !== s.before);
    if (sites.length === 0) continue;
    for (const site of sites) {
      if (site.drops) dropping.push({ path, site });
      if (site.tail) tails.push({ path, site });
      if (site.comments) uncommented.push({ path, site });
    }
    plan.sites += sites.length;
    plan.files.push({
      path,
      version: found.version,
      text: found.text,
      newText: applySites(found.text, sites, path),
      sites: sites.map(({ start: _s, end: _e, drops: _d, tail: _t, comments: _c, ...site }) => site),
      structural: {
        language: found.language,
        edits: sites.map((s) => ({ start: s.start, end: s.end, text: s.after })),
      },
    });
  }
  const refusal = tails.length > 0
    ? codeDropped(tails, q.query)
    : uncommented.length > 0
    ? commentsDropped(uncommented, q.query)
    : dropping.length > 0
    ? wordsDropped(dropping, q.query.rewrite)
    : null;
  if (refusal !== null) {
    throw withOtherIds(refusal, { plan, refused: [...tails, ...uncommented, ...dropping] });
  }
  await scanEnded(files, stats.skipped);
  refuseUnreadPattern(stats);
  if (byFile !== null) {
    await refuseUnseenIds(files, {
      unseen: [...byFile].filter(([path]) => !seen.has(path)),
      search,
    });
  }
  return plan;
}

/**
 * Refuse a rewrite template that names a metavariable the pattern does not bind (it would be left as text).
 *
 * @param pattern The pattern (or the rule object's JSON: its patterns' metavariables are in it).
 * @param rewrite The template.
 * @param made The names a `transform` makes (the rewrite may write them too).
 * @throws RecoverableError `invalid_args` naming the unbound metavariables.
 */
export function checkRewriteMetavariables(
  pattern: string,
  rewrite: string,
  made: readonly string[] = [],
): void {
  const names = (s: string) =>
    new Set([...s.matchAll(/\$\$\$([A-Z][A-Z0-9_]*)|\$([A-Z][A-Z0-9_]*)/g)].map((m) => m[1] ?? m[2]!));
  const bound = new Set([...names(pattern), ...made]);
  const unknown = [...names(rewrite)].filter((n) => !bound.has(n));
  if (unknown.length === 0) return;
  throw new RecoverableError(
    "invalid_args",
    `The rewrite uses ${unknown.map((n) => `$${n}`).join(", ")}, which the pattern does not bind: ${
      unknown.length === 1 ? "it" : "they"
    } would be written as text`,
    {
      hint: `Use the pattern's metavariables (${
        [...bound].map((n) => `$${n}`).join(", ") || "none"
      }) in the rewrite, or add the missing one to the pattern`,
      details: { unbound: unknown, pattern, rewrite },
    },
  );
}
