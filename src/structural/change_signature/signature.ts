/**
 * Change signature: add (with a default, or a value every call passes),
 * remove, reorder and rename the parameters of a function, a method or a
 * constructor, and rewrite every call site found through bindings
 * ({@linkcode findReferences}) across the workspace — or refuse when the
 * result cannot be proven: a removed parameter the body still reads
 * (`parameter_in_use`), the function used as a value (`value_reference`), a
 * call graver cannot map (`unsupported_call_site`: spread, `.apply`/`.call`/
 * `.bind`, `*args`/`**kwargs`), a method that overrides or is overridden
 * (`overrides_present`), `obj.m(…)` calls that cannot be tied to the class
 * (`unresolved`, unless the caller opts in), a name already bound
 * (`name_clash`). Renamed parameters are renamed in the body by the rename
 * engine ({@linkcode planRename}); everything lands on a fork of the stage.
 *
 * @module
 */
import { RecoverableError } from "../../errors.ts";
import type { Stage } from "../../fs/stage.ts";
import { type FileBindings, fileBindings } from "../../syntax/bindings.ts";
import { TextIndex } from "../../syntax/text_index.ts";
import { SIGNATURE_LANGUAGES } from "../shared/refactor_languages.ts";

export { SIGNATURE_LANGUAGES } from "../shared/refactor_languages.ts";
import type { Parsing } from "../../syntax/types.ts";
import { checkOverrides } from "./_overrides.ts";
import { registeringDecorator } from "../shared/decorators.ts";
import { type ArgSpec, CallRefusal, type CallShape, classifySite, rewriteArgs } from "./_calls.ts";
import { type FunctionDecl, locateFunction, type ParamList, rebuildList } from "./_decl.ts";
import { type NewParam, newParamText, type Param } from "./_param_syntax.ts";
import { checkBody, type ParamEntry, type ParamMapping, planParams } from "./_params.ts";
import { findReferences, type ReferenceSite, type ReferenceTarget } from "../references/references.ts";
import { targetOccurrence } from "../references/reference_target.ts";
import { planRename, stageRename } from "../rename/rename.ts";
import { applyTextEdits, loadSource, type TextEdit } from "../edit/source.ts";
import { fitFStringFields } from "../edit/python_fstrings.ts";
import { type DeclaredVersion, declaredVersion } from "../edit/target_version.ts";
import type { Tree } from "web-tree-sitter";

export type { ParamEntry, ParamMapping } from "./_params.ts";
export type { FunctionDecl, ParamList } from "./_decl.ts";
export type { Param, ParamRole } from "./_param_syntax.ts";

/** Options of {@linkcode planChangeSignature}. */
export interface ChangeSignatureOptions {
  /** Tool name for messages. */
  tool: string;
  /** Version of the file the caller holds. */
  expectedVersion?: string | undefined;
  /** Also rewrite `obj.m(…)` calls that cannot be tied to the class (default false: refused with `unresolved`). */
  includeUnresolved?: boolean;
}

/** One call site in a plan. */
export interface SignatureCallSite {
  /** Relative path. */
  path: string;
  /** 1-based line of the callee. */
  line: number;
  /** 1-based column of the callee. */
  column: number;
  /** Whether its arguments changed. */
  updated: boolean;
  /** An `unresolved` candidate rewritten because the caller opted in. */
  candidate?: boolean;
}

/** What a signature change would do. */
export interface SignaturePlan {
  /** A fork of the caller's stage holding every changed file. */
  stage: Stage;
  /** The function: name, kind, file and line. */
  target: { name: string; kind: FunctionDecl["kind"]; path: string; line: number };
  /** The parameter list before and after (as written). */
  before: string;
  /** The new parameter list. */
  after: string;
  /** The old → new mapping. */
  mapping: ParamMapping[];
  /** Every call site, updated or not. */
  callSites: SignatureCallSite[];
  /** Same-name candidates left alone (not calls, with include_unresolved). */
  unresolved: ReferenceSite[];
  /** Files changed. */
  files: string[];
}

/** Refusal naming the sites that cause it. */
function siteRefusal(
  code: "value_reference" | "unsupported_call_site" | "unresolved",
  decl: FunctionDecl,
  path: string,
  sites: { path: string; line: number; column: number; why: string }[],
  hint: string,
  suggestedCall?: { tool: string; args: Record<string, unknown> },
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

interface Opened {
  fb: FileBindings;
  decl: FunctionDecl;
}

/** Open the declaring file on a stage and locate the function. */
async function open(
  parsing: Parsing,
  stage: Stage,
  path: string,
  target: ReferenceTarget,
  options: { tool: string; expectedVersion?: string | undefined },
): Promise<Opened> {
  const file = await loadSource(parsing, stage, { path, ...options });
  const fb = SIGNATURE_LANGUAGES.includes(file.language)
    ? await fileBindings(parsing, {
      path: file.rel,
      language: file.language,
      version: file.version,
      text: file.text,
    })
    : null;
  if (!fb) {
    throw new RecoverableError(
      "unsupported_language",
      `Cannot change a signature in "${file.rel}": graver changes signatures in TypeScript, TSX, JavaScript and Python, not ${file.language}`,
      {
        hint:
          "Edit the declaration with replace_symbol and each call site by hand (find_references lists them where supported)",
        suggestedCall: { tool: "edit_capabilities", args: { language: file.language } },
        details: { path: file.rel, language: file.language },
      },
    );
  }
  const occ = await targetOccurrence(parsing, fb, { target, tool: options.tool });
  const tree = (await parsing.trees!.parse(fb.path, fb.language, fb.version, fb.text)).tree;
  return { fb, decl: locateFunction(fb, tree, occ) };
}

/**
 * Refuse (`value_reference`) a function with a decorator that may register it (`@rule def f(h, f)` in CPython's
 * email.mime.image: the registry calls it with positional arguments graver cannot see); decorators known to
 * only wrap or annotate are fine.
 */
async function checkDecorators(parsing: Parsing, fb: FileBindings, decl: FunctionDecl): Promise<void> {
  const tree = (await parsing.trees!.parse(fb.path, fb.language, fb.version, fb.text)).tree;
  let node = tree.rootNode.descendantForIndex(decl.start, decl.start) ?? tree.rootNode;
  while (node.parent && node.parent.startIndex === decl.start && node.parent.endIndex <= decl.end) {
    node = node.parent;
  }
  let start = node.parent?.type === "decorated_definition" ? node.parent.startIndex : decl.start;
  for (let d = node.previousNamedSibling; d?.type === "decorator"; d = d.previousNamedSibling) {
    start = d.startIndex;
  }
  const found = registeringDecorator(
    { rel: fb.path, text: fb.text, language: fb.language, root: tree.rootNode },
    fb,
    // A decorator imported from anywhere is judged by its qualified name against the harmless list.
    { spans: [{ fullStart: start, fullEnd: decl.start }], inWorkspace: () => false },
  );
  if (found === null || !found.own) return;
  throw new RecoverableError(
    "value_reference",
    `Cannot change the signature of "${decl.name}" ("${fb.path}" line ${decl.line}): its decorator ${found.written} (line ${found.line}) receives the function when the module is imported, and may call it with arguments graver cannot see`,
    {
      hint:
        "Leave the parameters as they are, or check what the decorator does with the function and change it and its callers together by hand",
      details: { path: fb.path, line: decl.line, decorator: found.written, decorator_line: found.line },
    },
  );
}

/**
 * Plan a signature change on a fork of `stage` (nothing is written to `stage` itself).
 *
 * @param parsing Grammars and parse cache.
 * @param stage The call's stage.
 * @param path The file that declares the function.
 * @param target Its name path (`"helper"`, `"Class/method"`, `"Class/constructor"`), or a 1-based position on its name.
 * @param entries The new parameter list.
 * @param options Tool name, expected version, whether to include unresolved candidates.
 * @returns The plan; a refusal (`parameter_in_use`, `value_reference`, `unsupported_call_site`,
 * `overrides_present`, `unresolved`, `name_clash`, `types_required`, `invalid_args`, `unsupported_language`) otherwise.
 */
export async function planChangeSignature(
  parsing: Parsing,
  stage: Stage,
  { path, target, entries, ...options }: {
    path: string;
    target: ReferenceTarget;
    entries: (ParamEntry | string)[];
  } & ChangeSignatureOptions,
): Promise<SignaturePlan> {
  const fork = stage.fork();
  const first = await open(parsing, fork, path, target, options);
  const rel = first.fb.path;
  const plan = planParams(first.decl, rel, entries);
  checkBody(first.fb, first.decl, plan);
  await checkOverrides(parsing, fork, { fb: first.fb, decl: first.decl, tool: options.tool });
  await checkDecorators(parsing, first.fb, first.decl);
  const before = paramsText(first.fb.text, first.decl.list);
  // Renames first, through the rename engine (body, keyword arguments, JSDoc @param); then the lists.
  const oldIndex = new Map(first.decl.list.params.map((p, i) => [p, i]));
  await renameParams(parsing, fork, { rel, target, tool: options.tool, renames: plan.renames, oldIndex });
  const { fb, decl } = plan.renames.length > 0
    ? await open(parsing, fork, rel, target, { tool: options.tool })
    : first;
  const params: NewParam[] = plan.params.map((p) =>
    p.old ? { ...p, old: decl.list.params[oldIndex.get(p.old)!]! } : p
  );
  const spec: ArgSpec = {
    language: decl.language,
    old: decl.list.params,
    formerNames: new Map(first.decl.list.params.map((p, i) => [decl.list.params[i]!.name, p.name])),
    params,
  };
  const calls = await callSites(parsing, fork, fb, decl, options);
  // Edits: the declaration's lists, then each call's arguments (inner calls first, folded into outer ones).
  const byFile: EditsByFile = new Map();
  const afterText = declarationEdits(editsFor(byFile, fb), decl, spec);
  const { report, refused } = await rewriteCalls(fork, { calls, spec, byFile });
  if (refused.length > 0) {
    throw siteRefusal(
      "unsupported_call_site",
      decl,
      rel,
      refused,
      "Rewrite those calls by hand first (or keep the parameter order there), then call again",
    );
  }
  await writeEdits(fork, byFile);
  report.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || a.column - b.column);
  return {
    stage: fork,
    target: { name: decl.name, kind: decl.kind, path: rel, line: decl.line },
    before,
    after: afterText,
    mapping: plan.mapping,
    callSites: report,
    unresolved: calls.unresolvedLeft,
    files: fork.changes().map((c) => c.path).sort(),
  };
}

/** Each file's pending text edits, with the bindings (and text) they apply to. */
type EditsByFile = Map<string, { fb: FileBindings; edits: TextEdit[] }>;

/** The edit list of a file (created empty on first use). */
function editsFor(byFile: EditsByFile, f: FileBindings): TextEdit[] {
  let e = byFile.get(f.path);
  if (!e) byFile.set(f.path, e = { fb: f, edits: [] });
  return e.edits;
}

/** Rename parameters one at a time through the rename engine, re-reading the function after each. */
async function renameParams(
  parsing: Parsing,
  fork: Stage,
  { rel, target, tool, renames, oldIndex }: {
    rel: string;
    target: ReferenceTarget;
    tool: string;
    renames: { param: Param; to: string }[];
    oldIndex: Map<Param, number>;
  },
): Promise<void> {
  for (const { param, to } of renames) {
    const now = await open(parsing, fork, rel, target, { tool });
    const p = now.decl.list.params[oldIndex.get(param)!]!;
    const at = new TextIndex(now.fb.text).position(p.nameStart);
    const renamed = await planRename(parsing, fork, {
      path: rel,
      target: at,
      newName: to,
      tool,
      scope: "project",
    });
    await stageRename(fork, renamed);
  }
}

/** Edits for the declaration's parameter list and its overload signatures; returns the new list's text. */
function declarationEdits(edits: TextEdit[], decl: FunctionDecl, spec: ArgSpec): string {
  const items = spec.params.map((p) => p.old ? p.old.text : newParamText(p, decl.language));
  const afterText = rebuildList(decl.list, items);
  edits.push({ start: decl.list.start, end: decl.list.end, text: afterText });
  for (const o of decl.overloads) {
    edits.push({ start: o.start, end: o.end, text: overloadText(o, decl, spec.params, spec.formerNames) });
  }
  return afterText;
}

/**
 * Rewrite each call's arguments, innermost first (an outer call's new text
 * takes in the edits already made inside it); the calls that cannot be
 * rewritten come back as refusals.
 */
async function rewriteCalls(
  fork: Stage,
  { calls, spec, byFile }: { calls: FoundCall[]; spec: ArgSpec; byFile: EditsByFile },
): Promise<
  { report: SignatureCallSite[]; refused: { path: string; line: number; column: number; why: string }[] }
> {
  const report: SignatureCallSite[] = [];
  const declaredOf = new Map<string, Promise<DeclaredVersion | null>>();
  const refused: { path: string; line: number; column: number; why: string }[] = [];
  calls.sort((a, b) => (a.call.end - a.call.start) - (b.call.end - b.call.start));
  for (const c of calls) {
    const edits = editsFor(byFile, c.fb);
    let text: string | null;
    try {
      text = rewriteArgs(callAfterEdits(c, edits), c.receiverArgs, spec);
      if (text !== null) text = await fitCallText(fork, c, text, declaredOf);
    } catch (e) {
      if (!(e instanceof CallRefusal)) throw e;
      refused.push({ path: c.site.path, line: c.site.line, column: c.site.column, why: e.message });
      continue;
    }
    // A keyword argument the rename engine already renamed counts as an update too.
    const renamedKeyword = c.call.args.some((a) =>
      a.keyword !== null && (spec.formerNames.get(a.keyword) ?? a.keyword) !== a.keyword
    );
    report.push({
      path: c.site.path,
      line: c.site.line,
      column: c.site.column,
      updated: text !== null || renamedKeyword,
      ...(c.candidate ? { candidate: true } : {}),
    });
    if (text === null) continue;
    const inner = edits.filter((e) => e.start >= c.call.start && e.end <= c.call.end);
    for (const e of inner) edits.splice(edits.indexOf(e), 1);
    edits.push({ start: c.call.start, end: c.call.end, text });
  }
  return { report, refused };
}

/** A call's shape with each argument's text as it reads after the edits already made inside it. */
function callAfterEdits(c: FoundCall, edits: TextEdit[]): CallShape {
  const slice = (start: number, end: number) =>
    applyTextEdits(
      c.fb.text.slice(start, end),
      edits.filter((e) => e.start >= start && e.end <= end).map((e) => ({
        ...e,
        start: e.start - start,
        end: e.end - start,
      })),
    );
  return {
    ...c.call,
    args: c.call.args.map((a) => ({
      ...a,
      text: slice(a.start, a.end),
      valueText: slice(a.valueStart, a.valueEnd),
    })),
  };
}

/** Write each file's edits to the fork, keeping its byte-order mark. */
async function writeEdits(fork: Stage, byFile: EditsByFile): Promise<void> {
  for (const [file, { fb: f, edits }] of byFile) {
    const current = await fork.readText(file);
    await fork.writeText(file, { text: applyTextEdits(f.text, edits), bom: current.bom });
  }
}

/**
 * A rewritten call's text fitted to the declared language version of its file
 * (a Python call inside an f-string field re-quoted to run before 3.12), or a
 * `CallRefusal` naming the version.
 */
async function fitCallText(
  stage: Stage,
  c: FoundCall,
  text: string,
  declaredOf: Map<string, Promise<DeclaredVersion | null>>,
): Promise<string> {
  let declared = declaredOf.get(c.fb.path);
  if (!declared) declaredOf.set(c.fb.path, declared = declaredVersion(stage, c.fb.path, c.fb.language));
  const fitted = fitFStringFields(
    { language: c.fb.language, tree: c.tree },
    [{ start: c.call.start, end: c.call.end, text }],
    await declared,
  );
  if ("problem" in fitted) {
    throw new CallRefusal(`the call is in an f-string's replacement field, where ${fitted.problem.reason}`);
  }
  return fitted.edits[0]!.text;
}

/** A parameter list's text as written. */
function paramsText(text: string, list: ParamList): string {
  const t = text.slice(list.start, list.end);
  return list.bare ? `(${t})` : t;
}

/** An overload signature's new list: its own parameters, mapped by position. */
function overloadText(
  o: ParamList,
  decl: FunctionDecl,
  params: NewParam[],
  formerNames: Map<string, string>,
): string {
  const chosen: { p: NewParam; text: string | null }[] = [];
  // Parameters of a longer overload past the implementation's (kept in place: checkOverloads refuses otherwise).
  const extra = o.params.slice(decl.list.params.length);
  for (const p of params) {
    if (!p.old) {
      for (const own of extra.splice(0)) chosen.push({ p, text: own.text });
      chosen.push({ p, text: null });
      continue;
    }
    const i = decl.list.params.indexOf(p.old);
    const own = o.params[i];
    if (!own) continue;
    let text = own.text;
    if (own.nameStart >= 0 && own.name === formerNames.get(p.old.name) && p.name !== own.name) {
      const at = own.nameStart - own.start;
      text = text.slice(0, at) + p.name + text.slice(at + own.name.length);
    }
    chosen.push({ p, text });
  }
  for (const own of extra) chosen.push({ p: params[params.length - 1]!, text: own.text });
  const items = chosen.map((c, i) =>
    c.text ??
      newParamText(c.p, decl.language, {
        signature: true,
        trailingOptional: chosen.slice(i + 1).every((x) => x.text === null),
      })
  );
  return rebuildList(o, items);
}

interface FoundCall {
  fb: FileBindings;
  /** The parse of `fb.text`. */
  tree: Tree;
  site: ReferenceSite;
  call: CallShape;
  receiverArgs: number;
  candidate: boolean;
}

/** A use of the function that is not a call graver can rewrite: where, and why. */
interface SiteProblem {
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
  options: ChangeSignatureOptions;
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

/** Every call of the function in the workspace; refusals for the other uses. */
async function callSites(
  parsing: Parsing,
  stage: Stage,
  fb: FileBindings,
  decl: FunctionDecl,
  options: ChangeSignatureOptions,
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
  throw siteRefusal(
    "unresolved",
    decl,
    fb.path,
    sites.map((s) => ({ path: s.path, line: s.line, column: s.column, why: `${s.name} ${why}` })),
    "Check each candidate (read_file); call again with include_unresolved: true to rewrite the candidates that are calls too",
    { tool: options.tool, args: { path: fb.path, name_path: decl.name, include_unresolved: true } },
  );
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
    throw siteRefusal(
      "value_reference",
      decl,
      fb.path,
      values,
      "A function used as a value may be called with the old arguments anywhere: wrap it (a new function with the new signature that the old one calls), or change those uses first",
    );
  }
  if (unsupported.length > 0) {
    throw siteRefusal(
      "unsupported_call_site",
      decl,
      fb.path,
      unsupported,
      "Rewrite those calls as direct calls with plain arguments first, then call again",
    );
  }
}

/**
 * Stage a plan: fold its fork into the caller's stage.
 *
 * @param stage The call's stage (the one the plan was made on).
 * @param plan The plan.
 */
export async function stageChangeSignature(stage: Stage, plan: SignaturePlan): Promise<void> {
  await stage.merge(plan.stage);
}
