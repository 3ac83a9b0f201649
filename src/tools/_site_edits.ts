/**
 * What the tools that change every site a search selects share (`edit_replace_text`,
 * `edit_rewrite_structural`): the `expected_count` check, and staging each planned file's new text over the
 * text the plan was made from; and what every tool that edits sites of nodes needs, the syntax guard's mode of a
 * call (its refusals of new code that does not fit a site follow it).
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import type { Stage } from "../fs/stage.ts";
import type { SyntaxGuardMode } from "../syntax/types.ts";
import { INTEGER, shape, STRING } from "./_result_schema.ts";

/** What one changed site looks like in a result: where, the text before and after, its occurrence id. */
export const SITE = shape({
  line: INTEGER,
  column: INTEGER,
  end_line: INTEGER,
  end_column: INTEGER,
  before: STRING,
  after: STRING,
  id: STRING,
}, ["line", "column", "before", "after", "id"]);

/** A plan of edits at sites across files, as both tools make one. */
export interface SitePlan {
  /** Sites over all files. */
  sites: number;
  /** Each changed file: its text before and after, and its sites' lines. */
  files: { path: string; text: string; newText: string; sites: { line: number }[] }[];
}

/** How a tool names its sites in a refusal. */
export interface SiteWords {
  /** What the count counts, e.g. "occurrences would be replaced". */
  counted: string;
  /** How to narrow the search, for the hint. */
  narrow: string;
}

/**
 * Refuse when `expected_count` is given and differs from the plan's number of sites (`ambiguous` when there are
 * more, `no_match` when fewer), listing each file's lines.
 *
 * @param expected The caller's `expected_count`, if any.
 * @param plan The plan.
 * @param words How the tool names its sites.
 * @throws RecoverableError when the counts differ.
 */
export function checkExpectedCount(expected: number | undefined, plan: SitePlan, words: SiteWords): void {
  if (expected === undefined || expected === plan.sites) return;
  const where = plan.files.slice(0, 20).map((f) => `${f.path}: ${f.sites.map((s) => s.line).join(", ")}`);
  throw new RecoverableError(
    expected < plan.sites ? "ambiguous" : "no_match",
    `expected_count is ${expected}, but ${plan.sites} ${words.counted} (${where.join("; ")}${
      plan.files.length > 20 ? "; …" : ""
    }): nothing was changed`,
    {
      hint: `${words.narrow}, or call with dry_run to see every site`,
      details: { expected_count: expected, found: plan.sites, files: where },
    },
  );
}

/**
 * Stage each planned file's new text, refusing when the staged text is no longer the one the plan was made
 * from. Read strictly: a file that is not UTF-8 is refused (`encoding`), never mangled; the BOM is kept.
 *
 * @param stage The call's stage.
 * @param plan The plan.
 */
export async function stagePlannedTexts(stage: Stage, plan: SitePlan): Promise<void> {
  for (const f of plan.files) {
    const file = await stage.readText(f.path);
    if (file.text !== f.text) {
      throw new RecoverableError("stale_base", `"${f.path}" changed while the edit was planned`, {
        hint: "Call again: the search runs on the file as it is now",
        details: { path: f.path },
      });
    }
    await stage.writeText(f.path, { text: f.newText, bom: file.bom });
  }
}

/**
 * The changed files as a result lists them: each file with its version and count, and its sites up to
 * `maxSites` over all files, with how many were listed and whether some were left out.
 *
 * @param files The plan's files.
 * @param options The plan's site count and the most sites to list.
 * @returns `files`, `sites_listed` and `truncated` for the result's data.
 */
export function listedSites<S>(
  files: readonly { path: string; version: string; sites: readonly S[] }[],
  options: { total: number; maxSites: number },
): {
  files: { path: string; version: string; count: number; sites: S[] }[];
  sites_listed: number;
  truncated: boolean;
} {
  let left = options.maxSites;
  const listed = files.map((f) => {
    const sites = f.sites.slice(0, Math.max(0, left));
    left -= sites.length;
    return { path: f.path, version: f.version, count: f.sites.length, sites };
  });
  const count = listed.reduce((n, f) => n + f.sites.length, 0);
  return { files: listed, sites_listed: count, truncated: count < options.total };
}

/**
 * The syntax guard's mode a call asked for: its `syntax_guard`, else the host's.
 *
 * @param args The call's arguments.
 * @param host The host (its default mode).
 * @returns The mode.
 */
export function askedGuardMode(
  args: object,
  host: { readonly syntaxGuard: SyntaxGuardMode },
): SyntaxGuardMode {
  const asked = (args as Record<string, unknown>)["syntax_guard"];
  return asked === "refuse" || asked === "warn" || asked === "off" ? asked : host.syntaxGuard;
}
