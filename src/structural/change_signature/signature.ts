/**
 * Change signature: add (with a default, or a value every call passes),
 * remove, reorder and rename the parameters of a function, a method or a
 * constructor, and rewrite every call site found through bindings
 * (`findReferences`) across the workspace — or refuse when the
 * result cannot be proven: a removed parameter the body still reads
 * (`parameter_in_use`), the function used as a value (`value_reference`), a
 * call graver cannot map (`unsupported_call_site`: spread, `.apply`/`.call`/
 * `.bind`, `*args`/`**kwargs`), a method that overrides or is overridden
 * (`overrides_present`), `obj.m(…)` calls that cannot be tied to the class
 * (`unresolved`, unless the caller opts in), a name already bound
 * (`name_clash`). Renamed parameters are renamed in the body by the rename
 * engine ({@linkcode planRename}); everything lands on a fork of the stage.
 *
 * This module runs the steps in order; its parts: the function opened
 * (`_declaring_file.ts`), the new list read and the body checked
 * (`_params.ts`), every call found (`_call_sites.ts`), the edits written
 * (`_signature_edits.ts`).
 *
 * @module
 */
import type { Stage } from "../../fs/stage.ts";
import { TextIndex } from "../../syntax/text_index.ts";
import type { Parsing } from "../../syntax/types.ts";
import { checkOverrides } from "./_overrides.ts";
import type { ArgSpec } from "./_calls.ts";
import { callSites, siteRefusal } from "./_call_sites.ts";
import type { FunctionDecl } from "./_decl.ts";
import { checkDecorators, openFunction } from "./_declaring_file.ts";
import type { NewParam, Param } from "./_param_syntax.ts";
import { checkBody, type ParamEntry, type ParamMapping, planParams } from "./_params.ts";
import {
  declarationEdits,
  type EditsByFile,
  editsFor,
  paramsText,
  rewriteCalls,
  type SignatureCallSite,
  writeEdits,
} from "./_signature_edits.ts";
import type { ReferenceSite, ReferenceTarget } from "../references/references.ts";
import { planRename, stageRename } from "../rename/rename.ts";

export { SIGNATURE_LANGUAGES } from "../shared/refactor_languages.ts";
export type { ParamEntry, ParamMapping } from "./_params.ts";
export type { FunctionDecl, ParamList } from "./_decl.ts";
export type { Param, ParamRole } from "./_param_syntax.ts";
export type { SignatureCallSite } from "./_signature_edits.ts";

/** Options of {@linkcode planChangeSignature}. */
export interface ChangeSignatureOptions {
  /** Tool name for messages. */
  tool: string;
  /** Version of the file the caller holds. */
  expectedVersion?: string | undefined;
  /** Also rewrite `obj.m(…)` calls that cannot be tied to the class (default false: refused with `unresolved`). */
  includeUnresolved?: boolean;
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
  const first = await openFunction(parsing, fork, { path, target, ...options });
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
    ? await openFunction(parsing, fork, { path: rel, target, tool: options.tool })
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
  const calls = await callSites(parsing, fork, { fb, decl, options });
  // Edits: the declaration's lists, then each call's arguments (inner calls first, folded into outer ones).
  const byFile: EditsByFile = new Map();
  const afterText = declarationEdits(editsFor(byFile, fb), decl, spec);
  const { report, refused } = await rewriteCalls(fork, { calls, spec, byFile });
  if (refused.length > 0) {
    throw siteRefusal("unsupported_call_site", decl, {
      path: rel,
      sites: refused,
      hint: "Rewrite those calls by hand first (or keep the parameter order there), then call again",
    });
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
    const now = await openFunction(parsing, fork, { path: rel, target, tool });
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

/**
 * Stage a plan: fold its fork into the caller's stage.
 *
 * @param stage The call's stage (the one the plan was made on).
 * @param plan The plan.
 */
export async function stageChangeSignature(stage: Stage, plan: SignaturePlan): Promise<void> {
  await stage.merge(plan.stage);
}
