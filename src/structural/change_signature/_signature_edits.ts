/**
 * The edits of a signature change, gathered per file and written to the
 * fork: the declaration's parameter list and its overload signatures, then
 * each call's arguments, innermost call first (an outer call's new text takes
 * in the edits already made inside it; a Python call in an f-string field
 * fitted to the file's declared version).
 *
 * @module
 */
import type { Stage } from "../../fs/stage.ts";
import type { FileBindings } from "../../syntax/bindings.ts";
import { applyTextEdits, type TextEdit } from "../edit/source.ts";
import { fitFStringFields } from "../edit/python_fstrings.ts";
import { type DeclaredVersion, declaredVersion } from "../edit/target_version.ts";
import { type ArgSpec, CallRefusal, type CallShape, rewriteArgs } from "./_calls.ts";
import type { FoundCall } from "./_call_sites.ts";
import { type FunctionDecl, type ParamList, rebuildList } from "./_decl.ts";
import { type NewParam, newParamText } from "./_param_syntax.ts";

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

/** Each file's pending text edits, with the bindings (and text) they apply to. */
export type EditsByFile = Map<string, { fb: FileBindings; edits: TextEdit[] }>;

/** The edit list of a file (created empty on first use). */
export function editsFor(byFile: EditsByFile, f: FileBindings): TextEdit[] {
  let e = byFile.get(f.path);
  if (!e) byFile.set(f.path, e = { fb: f, edits: [] });
  return e.edits;
}

/** Edits for the declaration's parameter list and its overload signatures; returns the new list's text. */
export function declarationEdits(edits: TextEdit[], decl: FunctionDecl, spec: ArgSpec): string {
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
export async function rewriteCalls(
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
export async function writeEdits(fork: Stage, byFile: EditsByFile): Promise<void> {
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
export function paramsText(text: string, list: ParamList): string {
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
