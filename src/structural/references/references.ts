/**
 * References: every occurrence of one symbol across the workspace, resolved
 * through bindings ({@linkcode fileBindings}) and module resolution
 * ({@linkcode ModuleResolver}): a declaration's references in its file, the
 * imports of it in other files (named, aliased, namespace `ns.x`), re-exports
 * (`export {x} from`, `export * from`) and their importers, and for class
 * members `this.x` / `self.x` inside the class. Property accesses on
 * anything else (`obj.x`) cannot be tied to a class without types: they are
 * `unresolved` candidates. A file whose text does not contain the name (nor a
 * star re-export) cannot refer to it and is not parsed. The read half of
 * edit_rename_symbol (`rename.ts`), and find_references' engine.
 *
 * @module
 */
import { RecoverableError } from "../../errors.ts";
import type { Stage } from "../../fs/stage.ts";
import type { WalkSkipped } from "../../fs/walk.ts";
import {
  type Binding,
  classScopeOf,
  type FileBindings,
  type Occurrence,
  type OccurrenceKind,
  type Scope,
} from "../../syntax/bindings.ts";
import { TextIndex } from "../../syntax/text_index.ts";
import type { Parsing } from "../../syntax/types.ts";
import { checkFileLocal, isFileLocalLanguage } from "../shared/file_local.ts";
import { Collector } from "./reference_collector.ts";
import { keywordParameter } from "./keyword_parameter.ts";
import { classNamed } from "./class_hierarchy.ts";
import { ProjectFiles } from "../shared/project_files.ts";
import { type ReferenceTarget, targetOccurrence, unresolvedTarget } from "./reference_target.ts";
import { loadSource } from "../edit/source.ts";

export { MAX_PROJECT_FILES } from "../shared/project_files.ts";
export type { ReferenceTarget } from "./reference_target.ts";

/** One occurrence found. */
export interface ReferenceSite {
  /** Relative path. */
  path: string;
  /** Start offset (UTF-16). */
  start: number;
  /** End offset (UTF-16). */
  end: number;
  /** 1-based line. */
  line: number;
  /** 1-based column (UTF-16 code units). */
  column: number;
  /** What the occurrence is (definition, reference, shorthand, import_name …). */
  kind: OccurrenceKind;
  /** The name as written there. */
  name: string;
  /** For a Go package import's unwritten name: where a rename inserts an alias. */
  aliasAt?: number;
}

/** What a search found. */
export interface ReferenceSearch {
  /** The symbol: its name, what it is, and where it is declared. */
  target: { name: string; kind: "binding" | "member" | "export"; path: string; line: number; column: number };
  /** Every binding-resolved occurrence, the declaration included, sorted by path and offset. */
  sites: ReferenceSite[];
  /** Same-name occurrences that may or may not be the symbol (`obj.x` for a member, unresolved imports). */
  unresolved: ReferenceSite[];
  /** The bindings of every file the search parsed (what a rename checks for clashes), by path. */
  files: Map<string, FileBindings>;
  /** The bindings renamed in each file (a rename's clash check walks their scopes). */
  bindings: Map<string, Set<Binding>>;
  /** For a member: the class scope and the file that declares it. */
  member?: { path: string; scope: Scope };
  /** For an exported name target: the exporting file. */
  exportOf?: string;
  /**
   * For a Python parameter: where its function is used as a value (passed, stored, decorated), so that calls
   * through the value may pass the parameter by keyword where no search can see them.
   */
  valueUses?: ReferenceSite[];
  /** Files searched (read), for the text sweep. */
  searched: string[];
  /** Files that name the target's name in comments only, left unparsed (path to text), for the text sweep. */
  commented?: Map<string, string>;
  /**
   * For a language resolved within one file only (src/structural/shared/file_local.ts): other files that contain
   * the name, which graver did not search.
   */
  otherFiles?: string[];
  /** What the project walk left out (links that leave the root, special files), when anything. */
  skipped?: Partial<WalkSkipped>;
}

/** Options of {@linkcode findReferences}. */
export interface FindReferencesOptions {
  /** Tool name for messages. */
  tool: string;
  /** Version of the file the caller holds. */
  expectedVersion?: string | undefined;
  /** "file": only the target's file is searched; "project" (default): the whole workspace. */
  scope?: "file" | "project";
  /** The scope the caller asked for, when it differs from `scope` (a rename searches the project either way). */
  requested?: "file" | "project";
  /** A rename's new name (for the suggested call of a refusal). */
  newName?: string;
}

/**
 * Find every occurrence of the symbol at `target` in `path`.
 *
 * @param parsing Grammars and parse cache.
 * @param stage The call's stage (what the search reads).
 * @param path The file that declares or uses the symbol.
 * @param target A name path in that file, or a 1-based line and column on one of the symbol's names.
 * @param options Tool name, expected version, scope.
 * @returns The sites, the unresolved candidates and what the search parsed.
 */
export async function findReferences(
  parsing: Parsing,
  stage: Stage,
  { path, target, ...options }: { path: string; target: ReferenceTarget } & FindReferencesOptions,
): Promise<ReferenceSearch> {
  const file = await loadSource(parsing, stage, {
    path,
    tool: options.tool,
    expectedVersion: options.expectedVersion,
  });
  const project = new ProjectFiles(parsing, stage);
  const crossFile = options.scope !== "file";
  if (crossFile) await project.open();
  else project.files.set(file.rel, file.language);
  const fb = await project.bindings(file.rel);
  if (!fb) {
    throw new RecoverableError(
      "unsupported_language",
      `Cannot resolve names in "${file.rel}": graver has no binding rules for ${file.language}`,
      {
        hint: "Call edit_capabilities to see which languages support find_references and edit_rename_symbol",
        suggestedCall: { tool: "edit_capabilities", args: { language: file.language } },
        details: { path: file.rel, language: file.language },
      },
    );
  }
  const occ = await targetOccurrence(parsing, fb, { target, tool: options.tool });
  const collector = new Collector(project);
  const index = new TextIndex(fb.text);
  const at = index.position(occ.start);
  const otherFiles = await fileLocalOtherFiles(parsing, stage, { fb, occ, at, options });
  const search: TargetSearch = { project, collector, fb, occ, at, crossFile };
  const { kind, member, exportOf } = await collectTarget(search);
  collector.docTags();
  const { sites, unresolved, toSite } = siteLists(search, index);
  return {
    target: { name: occ.name, kind, path: fb.path, line: at.line, column: at.column },
    sites,
    unresolved,
    files: project.parsed,
    ...(project.skipped ? { skipped: project.skipped } : {}),
    bindings: collector.bindings,
    ...(member ? { member } : {}),
    ...(exportOf ? { exportOf } : {}),
    ...(collector.valueUses.length > 0
      ? { valueUses: collector.valueUses.map((u) => toSite(u.path, u.occ)) }
      : {}),
    searched: [...project.parsed.keys()],
    ...(project.commented.has(occ.name) ? { commented: project.commented.get(occ.name)! } : {}),
    ...(otherFiles.length > 0 ? { otherFiles } : {}),
  };
}

/**
 * For a language graver resolves names of only within one file, the other
 * files that contain the target's name (a refusal from `checkFileLocal` when
 * another file may refer to it); empty for the other languages.
 */
async function fileLocalOtherFiles(
  parsing: Parsing,
  stage: Stage,
  { fb, occ, at, options }: {
    fb: FileBindings;
    occ: Occurrence;
    at: { line: number; column: number };
    options: FindReferencesOptions;
  },
) {
  return isFileLocalLanguage(fb.language)
    ? await checkFileLocal(parsing, stage, {
      target: {
        path: fb.path,
        language: fb.language,
        occurrence: occ,
        member: occ.kind.startsWith("member") || occ.binding?.scope.kind === "class",
        at,
        text: fb.text,
      },
      scope: options.requested ?? options.scope ?? "project",
      tool: options.tool,
      ...(options.newName !== undefined ? { newName: options.newName } : {}),
    })
    : [];
}

/** What collecting a target's occurrences works on. */
interface TargetSearch {
  project: ProjectFiles;
  collector: Collector;
  /** The target's file. */
  fb: FileBindings;
  /** The target occurrence. */
  occ: Occurrence;
  /** Its 1-based line and column. */
  at: { line: number; column: number };
  /** Whether the whole workspace is searched. */
  crossFile: boolean;
}

/** What kind of target the search found: a binding, a class member or an exported name. */
interface TargetKind {
  kind: ReferenceSearch["target"]["kind"];
  member: ReferenceSearch["member"];
  exportOf: string | undefined;
}

/** Collect the target's occurrences by what it is: a member, an import, an export alias, a module member, a binding. */
async function collectTarget(search: TargetSearch): Promise<TargetKind> {
  const { project, collector, fb, occ, at, crossFile } = search;
  let kind: ReferenceSearch["target"]["kind"] = "binding";
  let member: ReferenceSearch["member"];
  let exportOf: string | undefined;
  const memberScope = occ.kind === "member_definition" || occ.kind === "member_this"
    ? classScopeOf(occ.scope)
    : occ.binding?.scope.kind === "class" && occ.binding.kind !== "parameter"
    ? occ.binding.scope
    : occ.kind === "member_property"
    ? classNamed(fb, occ.object)
    : parameterPropertyClass(fb, occ.binding);
  // `cmd.f` where cmd's type is written (`cmd *Command`): a member of that type, wherever it is declared.
  const typed = !memberScope && occ.kind === "member_property"
    ? await collector.declaredClass(fb, occ.object)
    : null;
  if (memberScope || typed) {
    const home = typed ?? { fb, scope: memberScope! };
    kind = "member";
    member = { path: home.fb.path, scope: home.scope };
    await collector.member(home.fb, home.scope, occ.name, crossFile);
  } else if (occ.kind === "import_name" || occ.kind === "reexport_name") {
    const imp = fb.imports.find((i) => i.nameOccurrence === occ);
    const re = fb.exports.find((e) => e.from?.occurrence === occ);
    const source = imp?.source ?? re?.from?.source ?? "";
    const from = crossFile ? project.resolver.resolve(fb.path, fb.language, source) : null;
    if (!from) {
      throw unresolvedTarget(fb.path, occ, { at, why: `its module "${source}" is not a workspace file` });
    }
    collector.add(fb.path, occ);
    await collector.exported(from, occ.name, true);
  } else if (occ.kind === "export_alias") {
    kind = "export";
    exportOf = fb.path;
    collector.add(fb.path, occ);
    if (crossFile) await collector.importers(fb.path, occ.name);
  } else if (occ.kind === "member_property") {
    await collectModuleMember(search);
  } else if (occ.kind === "keyword") {
    const param = keywordParameter(fb, occ);
    if (!param) {
      throw unresolvedTarget(fb.path, occ, { at, why: "the called function is not declared in this file" });
    }
    await collector.binding(fb, param, crossFile);
  } else if (occ.binding) {
    await collector.binding(fb, occ.binding, crossFile);
  } else {
    throw unresolvedTarget(
      fb.path,
      occ,
      {
        at,
        why:
          "graver follows no declaration of it: a global or a built-in, or a kind of declaration references are not followed for (a trait's associated type)",
        hint:
          `If it is declared in the workspace, find its uses with search_text (pattern "${occ.name}", word: true) and change them with edit_replace_text or apply_edits; otherwise target a name declared in the workspace`,
      },
    );
  }
  return { kind, member, exportOf };
}

/**
 * The class a parameter property (`constructor(protected x: T)`) declares its member in, or null: the
 * parameter is that member, so it is searched, and renamed, as the class member it is (its hierarchy
 * included), not as a parameter alone.
 */
function parameterPropertyClass(fb: FileBindings, b: Binding | null): Scope | null {
  if (b?.kind !== "parameter" || !fb.occurrences.some((o) => o.binding === b && o.parameterProperty)) {
    return null;
  }
  return classScopeOf(b.scope);
}

/** Collect `ns.x` / `mod.x`, where the object is a module (a namespace import, or Python's module objects). */
async function collectModuleMember(
  { project, collector, fb, occ, at, crossFile }: TargetSearch,
): Promise<void> {
  const ns = occ.object?.import;
  const module = ns && crossFile ? project.resolver.resolve(fb.path, fb.language, ns.source) : null;
  // `import * as ns from "m"`, or `import { ns } from "m"` where m has `export * as ns from "n"`.
  const from = !ns || !module
    ? null
    : ns.kind === "namespace"
    ? module
    : ns.kind === "default"
    ? null
    : await collector.namespaceOf(module, ns.imported);
  // `pkg.mod.x` (Python's `import pkg.mod`), `mod.x` (`from pkg import mod`): the object is a module.
  const reached = from ?? (crossFile ? await collector.objectModule(fb, occ) : null);
  if (!reached || reached === "unknown") {
    throw unresolvedTarget(fb.path, occ, {
      at,
      why: "the object's type is not known without a type checker",
    });
  }
  await collector.exported(reached, occ.name, true);
  // A submodule (`pkg.mod` itself), or a name the module does not declare: not a symbol graver can follow.
  if (!collector.sites.get(fb.path)?.has(occ.start)) {
    throw unresolvedTarget(fb.path, occ, {
      at,
      why: `"${reached}" declares no "${occ.name}" graver can follow`,
    });
  }
}

/** The collected occurrences as sorted sites (resolved, and unresolved candidates), and the site maker. */
function siteLists({ project, collector, fb }: TargetSearch, index: TextIndex): {
  sites: ReferenceSite[];
  unresolved: ReferenceSite[];
  toSite: (rel: string, o: Occurrence) => ReferenceSite;
} {
  const sites: ReferenceSite[] = [];
  const unresolved: ReferenceSite[] = [];
  const indexes = new Map([[fb.path, index]]);
  const toSite = (rel: string, o: Occurrence): ReferenceSite => {
    let idx = indexes.get(rel);
    if (!idx) indexes.set(rel, idx = new TextIndex(project.parsed.get(rel)!.text));
    const p = idx.position(o.start);
    return {
      path: rel,
      start: o.start,
      end: o.end,
      line: p.line,
      column: p.column,
      kind: o.kind,
      name: o.name,
      ...(o.aliasAt !== undefined ? { aliasAt: o.aliasAt } : {}),
    };
  };
  for (const [rel, m] of collector.sites) for (const o of m.values()) sites.push(toSite(rel, o));
  for (const [rel, m] of collector.unresolved) {
    for (const o of m.values()) if (!collector.sites.get(rel)?.has(o.start)) unresolved.push(toSite(rel, o));
  }
  const order = (a: ReferenceSite, b: ReferenceSite) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : a.start - b.start;
  sites.sort(order);
  unresolved.sort(order);
  return { sites, unresolved, toSite };
}
