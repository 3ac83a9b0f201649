/**
 * Every call of the function across the workspace, found through its
 * references (aliases it is imported or exported under followed, `obj.m(…)`
 * candidates taken only when the caller opts in), and the refusals naming
 * the uses that are not calls graver can rewrite: a value use
 * (`value_reference`, the module's default export included), a call it
 * cannot map (`unsupported_call_site`), an unresolved candidate
 * (`unresolved`).
 *
 * @module
 */
import type { Tree } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import type { Stage } from "../../fs/stage.ts";
import type { FileBindings } from "../../syntax/bindings.ts";
import { TextIndex } from "../../syntax/text_index.ts";
import type { Parsing } from "../../syntax/types.ts";
import { findReferences, type ReferenceSite } from "../references/references.ts";
import { type CallShape, classifySite } from "./_calls.ts";
import type { FunctionDecl } from "./_decl.ts";

/** What the search for call sites needs of the caller's options. */
export interface CallSiteOptions {
  /** Tool name for messages. */
  tool: string;
  /** Also take `obj.m(…)` calls that cannot be tied to the class (default false: refused with `unresolved`). */
  includeUnresolved?: boolean;
}

/**
 * Refusal naming the sites that cause it.
 *
 * @param code The refusal's code.
 * @param decl The function.
 * @param refusal `path`: its file; `sites`: where and why; `hint`; `suggestedCall`, when one helps.
 * @returns The error to throw.
 */
export function siteRefusal(
  code: "value_reference" | "unsupported_call_site" | "unresolved",
  decl: FunctionDecl,
  { path, sites, hint, suggestedCall }: {
    path: string;
    sites: SiteProblem[];
    hint: string;
    suggestedCall?: { tool: string; args: Record<string, unknown> };
  },
): RecoverableError {
  const list = sites.slice(0, 5).map((s) => `"${s.path}" line ${s.line} column ${s.column} (${s.why})`);
  const what = code === "value_reference"
    ? "it is used other than by direct calls"
    : code === "unresolved"
    ? "calls on objects of unknown type may call it"
    : "a call cannot be rewritten";
  return new RecoverableError(
    code,
    `Cannot change the signature of "${decl.name}" ("${path}" line ${decl.line}): ${what} — ${
      list.join("; ")
    }${sites.length > 5 ? ` and ${sites.length - 5} more` : ""}`,
    { hint, ...(suggestedCall ? { suggestedCall } : {}), details: { path, line: decl.line, sites } },
  );
}

/** A call of the function graver can rewrite. */
export interface FoundCall {
  /** The calling file's bindings (and text). */
  fb: FileBindings;
  /** The parse of `fb.text`. */
  tree: Tree;
  /** The reference that is the callee. */
  site: ReferenceSite;
  /** The call and its arguments. */
  call: CallShape;
  /** Arguments before the first parameter (a receiver passed explicitly). */
  receiverArgs: number;
  /** An `unresolved` candidate taken because the caller opted in. */
  candidate: boolean;
}

/** A use of the function that is not a call graver can rewrite: where, and why. */
export interface SiteProblem {
  path: string;
  line: number;
  column: number;
  why: string;
}

/** What the walk over the reference sites carries from site to site. */
interface SiteWalk {
  parsing: Parsing;
  stage: Stage;
  fb: FileBindings;
  decl: FunctionDecl;
  options: CallSiteOptions;
  /** Bindings of every file the searches read, by path. */
  files: Map<string, FileBindings>;
  /** The function's own declaring names (`path:start`). */
  declNames: Set<string>;
  /** Sites (and followed aliases) already classified. */
  seen: Set<string>;
  /** Sites still to classify. */
  queue: { site: ReferenceSite; candidate: boolean }[];
  /** The calls found. */
  out: FoundCall[] & { unresolvedLeft: ReferenceSite[] };
  /** Uses as a value. */
  values: SiteProblem[];
  /** Calls graver cannot rewrite. */
  unsupported: SiteProblem[];
}

/**
 * Every call of the function in the workspace; refusals for the other uses.
 *
 * @param parsing Grammars and parse cache.
 * @param stage The stage searched.
 * @param of `fb`: the declaring file's bindings; `decl`: the function; `options`: tool name, whether to take
 *   unresolved candidates.
 * @returns The calls, and the unresolved candidates left alone (not calls).
 */
export async function callSites(
  parsing: Parsing,
  stage: Stage,
  { fb, decl, options }: { fb: FileBindings; decl: FunctionDecl; options: CallSiteOptions },
): Promise<FoundCall[] & { unresolvedLeft: ReferenceSite[] }> {
  const index = new TextIndex(fb.text);
  const search = await findReferences(parsing, stage, {
    path: fb.path,
    target: index.position(decl.callee.start),
    tool: options.tool,
    scope: "project",
  });
  const out = [] as unknown as FoundCall[] & { unresolvedLeft: ReferenceSite[] };
  out.unresolvedLeft = [];
  const walk: SiteWalk = {
    parsing,
    stage,
    fb,
    decl,
    options,
    files: new Map(search.files),
    declNames: new Set(decl.nameStarts.map((s) => `${fb.path}:${s}`)),
    seen: new Set<string>(),
    queue: search.sites.map((site) => ({ site, candidate: false })),
    out,
    values: defaultExportUse(fb, decl, index),
    unsupported: [],
  };
  refuseUnresolved(walk, search.unresolved, "on an object of unknown type");
  for (const site of search.unresolved) walk.queue.push({ site, candidate: true });
  for (let item = walk.queue.shift(); item; item = walk.queue.shift()) await classifyQueued(walk, item);
  refuseNonCalls(walk);
  return out;
}

/** The default export of the function, a use graver cannot follow (empty when it is not one). */
function defaultExportUse(fb: FileBindings, decl: FunctionDecl, index: TextIndex): SiteProblem[] {
  const binding = decl.callee.binding;
  if (!binding || !fb.exports.some((e) => e.exported === "default" && e.local === binding)) return [];
  const at = index.position(decl.callee.start);
  return [{
    path: fb.path,
    line: at.line,
    column: at.column,
    why: "it is the module's default export, and graver does not follow default imports",
  }];
}

/** Refuse unresolved candidate sites unless the caller asked to include them. */
function refuseUnresolved(walk: SiteWalk, sites: ReferenceSite[], why: string): void {
  const { decl, fb, options } = walk;
  if (sites.length === 0 || options.includeUnresolved) return;
  throw siteRefusal("unresolved", decl, {
    path: fb.path,
    sites: sites.map((s) => ({ path: s.path, line: s.line, column: s.column, why: `${s.name} ${why}` })),
    hint:
      "Check each candidate (read_file); call again with include_unresolved: true to rewrite the candidates that are calls too",
    suggestedCall: {
      tool: options.tool,
      args: { path: fb.path, name_path: decl.name, include_unresolved: true },
    },
  });
}

/** Classify one queued site: keep a call, follow an alias, or note a use graver cannot rewrite. */
async function classifyQueued(
  walk: SiteWalk,
  { site, candidate }: { site: ReferenceSite; candidate: boolean },
) {
  const key = `${site.path}:${site.start}`;
  if (walk.seen.has(key)) return;
  walk.seen.add(key);
  const f = walk.files.get(site.path)!;
  const tree = (await walk.parsing.trees!.parse(f.path, f.language, f.version, f.text)).tree;
  const use = classifySite(tree, f.text, { site, decl: walk.decl, declNames: walk.declNames });
  const where = { path: site.path, line: site.line, column: site.column };
  if (use.use === "call") {
    walk.out.push({ fb: f, tree, site, call: use.call, receiverArgs: use.receiverArgs, candidate });
  } else if (use.use === "follow") {
    await followAlias(walk, { site, f, at: use.at, candidate });
  } else if (use.use === "value" || use.use === "unsupported") {
    if (candidate) walk.out.unresolvedLeft.push(site);
    else (use.use === "value" ? walk.values : walk.unsupported).push({ ...where, why: use.why });
  }
}

/** Queue the references of an alias the function is imported or exported under (each alias once). */
async function followAlias(
  walk: SiteWalk,
  { site, f, at, candidate }: { site: ReferenceSite; f: FileBindings; at: number; candidate: boolean },
): Promise<void> {
  const followKey = `follow:${site.path}:${at}`;
  if (walk.seen.has(followKey)) return;
  walk.seen.add(followKey);
  const more = await findReferences(walk.parsing, walk.stage, {
    path: site.path,
    target: new TextIndex(f.text).position(at),
    tool: walk.options.tool,
    scope: "project",
  });
  for (const [k, v] of more.files) walk.files.set(k, v);
  for (const s of more.sites) walk.queue.push({ site: s, candidate });
  refuseUnresolved(walk, more.unresolved, "(an alias of it) cannot be resolved");
}

/** Refuse when the function is used as a value, or called in a way graver cannot rewrite. */
function refuseNonCalls({ decl, fb, values, unsupported }: SiteWalk): void {
  if (values.length > 0) {
    throw siteRefusal("value_reference", decl, {
      path: fb.path,
      sites: values,
      hint:
        "A function used as a value may be called with the old arguments anywhere: wrap it (a new function with the new signature that the old one calls), or change those uses first",
    });
  }
  if (unsupported.length > 0) {
    throw siteRefusal("unsupported_call_site", decl, {
      path: fb.path,
      sites: unsupported,
      hint: "Rewrite those calls as direct calls with plain arguments first, then call again",
    });
  }
}
