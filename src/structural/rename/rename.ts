/**
 * Rename: the edits that rename one symbol everywhere {@linkcode findReferences}
 * found it, or a refusal. A shorthand property keeps its key (`{x}` becomes
 * `{x: y}`, `const {x} = o` becomes `const {x: y} = o`); every other
 * occurrence takes the new name. Refused with `name_clash` when the new name
 * is already declared in a scope the symbol lives in, would shadow the symbol
 * at one of its references, or would capture a reference to another
 * declaration of that name. `unresolved` candidates are left alone unless
 * the caller opts in; a text sweep lists the name's leftover occurrences in
 * comments and strings without changing them.
 *
 * @module
 */
import { type ExampleRename, renameGoExamples } from "./_go_examples.ts";
import { keywordSetters, lookedUpByName, memberLookups } from "./_member_lookups.ts";
import { profileOf } from "../../languages/profiles.ts";
import { RecoverableError } from "../../errors.ts";
import type { Stage } from "../../fs/stage.ts";
import { type Binding, encloses, type FileBindings, lookup } from "../../syntax/bindings.ts";
import { ModuleResolver } from "../../syntax/module_resolution.ts";
import type { Parsing } from "../../syntax/types.ts";
import { TextIndex } from "../../syntax/text_index.ts";
import {
  findReferences,
  type ReferenceSearch,
  type ReferenceSite,
  type ReferenceTarget,
} from "../references/references.ts";
import { isValidName } from "../shared/names.ts";
import { checkMemberOverrides } from "../references/overrides.ts";
import { memberPresence } from "../references/member_presence.ts";
import { applyTextEdits, type TextEdit } from "../edit/source.ts";

/** Options of {@linkcode renameSymbol}. */
export interface RenameOptions {
  /** Tool name for messages. */
  tool: string;
  /** "project" (default): every file; "file": refused when other files refer to the symbol. */
  scope?: "file" | "project";
  /** Also rename the `unresolved` candidates (default false). */
  includeUnresolved?: boolean;
  /** Version of the target file the caller holds. */
  expectedVersion?: string | undefined;
}

/** A leftover textual occurrence of the old name. */
export interface TextOccurrence {
  /** Relative path. */
  path: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
  /** comment | string. */
  in: "comment" | "string";
  /** The line's text. */
  text: string;
}

/** What a rename would do. */
export interface RenamePlan {
  /** The search it is built on. */
  search: ReferenceSearch;
  /** New text per file (only files that change). */
  files: Map<string, { text: string; edits: number }>;
  /** The sites renamed (candidates included when opted in). */
  renamed: ReferenceSite[];
  /** Candidates left alone. */
  unresolved: ReferenceSite[];
  /** The old name in comments and strings (not changed). */
  textOccurrences: TextOccurrence[];
  /** Go example functions renamed with the name they document (`ExampleOld_x` → `ExampleNew_x`). */
  examples: ExampleRename[];
}

/**
 * Plan a rename: find the symbol's occurrences, check the new name, build the
 * new text of every file.
 *
 * @param parsing Grammars and parse cache.
 * @param stage The call's stage.
 * @param path The file that declares or uses the symbol.
 * @param target A name path, or a 1-based line and column on one of its names.
 * @param newName The new name.
 * @param options Tool name, scope, candidates, expected version.
 * @returns The plan; `name_clash`, `invalid_args`, `visibility_required`, `unresolved` … otherwise.
 */
export async function planRename(
  parsing: Parsing,
  stage: Stage,
  { path, target, newName, ...options }:
    & { path: string; target: ReferenceTarget; newName: string }
    & RenameOptions,
): Promise<RenamePlan> {
  const search = await findReferences(parsing, stage, {
    path,
    target,
    tool: options.tool,
    expectedVersion: options.expectedVersion,
    scope: "project",
    requested: options.scope ?? "project",
    newName,
  });
  const origin = search.target.path;
  checkFileScope(search, { newName, scope: options.scope, tool: options.tool });
  const language = search.files.get(origin)!.language;
  checkNewName(search, { newName, language });
  checkClashes(search, newName);
  checkConditional(search);
  await checkAugmentation(parsing, search);
  const renamed = [...search.sites, ...(options.includeUnresolved ? search.unresolved : [])];
  if (search.member) await checkHierarchy(parsing, stage, { search, tool: options.tool, newName, renamed });
  if (search.target.kind !== "binding") checkLookups(search);
  if (search.valueUses) throw parameterThroughValue(search, newName);
  const files = renamedTexts(search, { renamed, newName });
  // Examples embed the names they document (Go's `ExampleName`): a package-level name's examples follow it.
  const examples = profileOf(language).moduleSystem?.namedExamples && search.target.kind !== "member"
    ? await renameGoExamples(stage, {
      dir: dirOf(origin),
      oldName: search.target.name,
      newName,
      texts: files,
    })
    : [];
  return {
    search,
    files,
    renamed,
    unresolved: options.includeUnresolved ? [] : search.unresolved,
    textOccurrences: await textSweep(parsing, search, renamed),
    examples,
  };
}

/** Refuse a rename asked for one file when other files refer to the symbol (`visibility_required`). */
function checkFileScope(
  search: ReferenceSearch,
  { newName, scope, tool }: { newName: string; scope: RenameOptions["scope"]; tool: string },
): void {
  const origin = search.target.path;
  const elsewhere = [...new Set(search.sites.filter((s) => s.path !== origin).map((s) => s.path))];
  if (scope === "file" && elsewhere.length > 0) {
    throw new RecoverableError(
      "visibility_required",
      `Cannot rename "${search.target.name}" in "${origin}" alone: ${elsewhere.length} other file(s) refer to it (${
        elsewhere.slice(0, 5).join(", ")
      })`,
      {
        hint: 'Call again with scope "project" to rename it in every file',
        suggestedCall: {
          tool,
          args: {
            path: origin,
            target: { line: search.target.line, column: search.target.column },
            new_name: newName,
            scope: "project",
          },
        },
        details: { path: origin, files: elsewhere },
      },
    );
  }
}

/** Refuse a new name that is not an identifier of the language (`invalid_args`), or the current one. */
function checkNewName(
  search: ReferenceSearch,
  { newName, language }: { newName: string; language: string },
): void {
  const origin = search.target.path;
  const valid = isValidName(language, newName);
  if (!valid) {
    throw new RecoverableError(
      "invalid_args",
      `Cannot rename "${search.target.name}" to "${newName}": not a valid ${language} name`,
      {
        hint: "Choose an identifier that is not a reserved word",
        details: { path: origin, new_name: newName },
      },
    );
  }
  if (newName === search.target.name) {
    throw new RecoverableError("already_applied", `Cannot rename "${newName}": it already has that name`, {
      hint: "Nothing to do; pick another new_name",
      details: { path: origin, new_name: newName },
    });
  }
}

/** The new text of each file with renamed sites, and how many edits it took. */
function renamedTexts(
  search: ReferenceSearch,
  { renamed, newName }: { renamed: ReferenceSite[]; newName: string },
): Map<string, { text: string; edits: number }> {
  const byFile = new Map<string, ReferenceSite[]>();
  for (const s of renamed) {
    let list = byFile.get(s.path);
    if (!list) byFile.set(s.path, list = []);
    list.push(s);
  }
  const files = new Map<string, { text: string; edits: number }>();
  for (const [rel, sites] of byFile) {
    const fb = search.files.get(rel)!;
    const kept = classBodyImports(fb, sites);
    // Go's `import "a/pkg"`: the path stays, an alias names the package anew.
    const edits: TextEdit[] = sites.filter((s) => !kept.uses.has(s.start)).map((s) =>
      kept.imports.has(s.start)
        ? { start: s.start, end: s.end, text: `${newName} as ${s.name}` }
        : s.aliasAt !== undefined
        ? { start: s.aliasAt, end: s.aliasAt, text: `${newName} ` }
        : {
          start: s.start,
          end: s.end,
          text: s.kind === "shorthand" || s.kind === "shorthand_pattern"
            ? `${s.name}: ${newName}`
            : s.kind === "shorthand_key"
            ? `${newName}: ${s.name}`
            : newName,
        }
    );
    files.set(rel, { text: applyTextEdits(fb.text, edits), edits: edits.length });
  }
  return files;
}

/**
 * Refuse (`unresolved`) a TypeScript declaration inside `declare global { … }` or `declare module "m" { … }`:
 * it merges with a declaration of the same name graver does not see (a lib's `SymbolConstructor`, a
 * package's module), which a rename would split from it (rxjs's `Symbol.observable` then no longer exists).
 */
async function checkAugmentation(parsing: Parsing, search: ReferenceSearch): Promise<void> {
  for (const site of search.sites) {
    if (site.kind !== "definition" && site.kind !== "member_definition") continue;
    const fb = search.files.get(site.path);
    if (!fb || !parsing.trees || !profileOf(fb.language).moduleSystem?.ambientAugmentation) continue;
    const tree = (await parsing.trees.parse(fb.path, fb.language, fb.version, fb.text)).tree;
    for (let n = tree.rootNode.descendantForIndex(site.start, site.end); n; n = n.parent) {
      const global = n.type === "ambient_declaration" && n.children.some((c) => c?.type === "global");
      const external = n.type === "module" && n.childForFieldName("name")?.type === "string";
      if (!global && !external) continue;
      const what = global ? "declare global" : `declare module ${n.childForFieldName("name")!.text}`;
      throw new RecoverableError(
        "unresolved",
        `Cannot rename "${search.target.name}" ("${site.path}" line ${site.line}): it is declared in \`${what}\`, where it merges with a declaration of the same name graver does not see (a library's or another package's), which would keep the old name`,
        {
          hint: "Leave the name as it is, or rename the declaration it augments and every use by hand",
          details: { path: site.path, line: site.line, augments: what },
        },
      );
    }
  }
}

/**
 * Refuse renaming a member that overrides or is overridden (or may override a
 * base outside the workspace), that a base or subclass uses through `this`/`self`
 * where the rename does not reach, or whose new name a class of the hierarchy
 * already has: renaming one member of a hierarchy changes which code a call
 * runs, or which attribute code reads, with no error anywhere.
 */
async function checkHierarchy(
  parsing: Parsing,
  stage: Stage,
  { search, tool, newName, renamed }: {
    search: ReferenceSearch;
    tool: string;
    newName: string;
    renamed: ReferenceSite[];
  },
) {
  const member = search.member!;
  const fb = search.files.get(member.path)!;
  // The member's own declaration (its class's, not a base's in the same file), or its first use there.
  const declared = memberPresence(fb, member.scope, search.target.name)?.occurrence;
  const line = declared ? new TextIndex(fb.text).position(declared.start).line : search.target.line;
  await checkMemberOverrides(parsing, stage, {
    fb,
    subject: {
      name: search.target.name,
      line,
      kind: "member",
      classScope: member.scope,
      override: false,
    },
    tool,
    action: "rename",
    hint:
      "Leave the name, or rename the member in every class of the hierarchy at once by hand (find_references on each declaration, then one apply_edits call over all the files)",
    files: search.files,
    newName,
    renamed: new Set(renamed.map((s) => `${s.path}:${s.start}`)),
  });
}

/**
 * A Python parameter whose function is used as a value: calls through the value may pass it by keyword
 * (`handler(msg, obj, cte="7bit")` after `register(str, set_text_content)`), and no search can find them.
 */
function parameterThroughValue(search: ReferenceSearch, newName: string): RecoverableError {
  const uses = search.valueUses!;
  const where = uses.slice(0, 5).map((u) => {
    const fb = search.files.get(u.path)!;
    return `"${u.path}" line ${new TextIndex(fb.text).position(u.start).line}`;
  });
  return new RecoverableError(
    "value_reference",
    `Cannot rename parameter "${search.target.name}" to "${newName}": its function is used as a value at ${
      where.join(", ")
    }${
      uses.length > 5 ? ` and ${uses.length - 5} more` : ""
    }, and calls through that value may pass "${search.target.name}" by keyword where no search can see them`,
    {
      hint:
        "Leave the parameter's name, or read those uses and rename it by hand together with every keyword argument that names it",
      details: {
        path: search.target.path,
        line: search.target.line,
        value_uses: uses.map((u) => ({ path: u.path, start: u.start })),
      },
    },
  );
}

/**
 * Refuse when a same-name declaration under a build condition (a Rust `#[cfg(…)] let`) is renamed or may be what
 * a renamed use reads: which declaration a use reads depends on the build.
 */
function checkConditional(search: ReferenceSearch): void {
  for (const [path, renamed] of search.bindings) {
    const fb = search.files.get(path)!;
    // The conditional declaration itself, or one inside a renamed binding's scope (it may shadow it).
    const cond = fb.occurrences.find((o) =>
      o.kind === "definition" && o.binding?.conditional && o.name === search.target.name &&
      [...renamed].some((b) => b === o.binding || (b.scope.start <= o.start && o.start < b.scope.end))
    );
    if (!cond) continue;
    const line = new TextIndex(fb.text).position(cond.start).line;
    throw new RecoverableError(
      "unresolved",
      `Cannot rename "${search.target.name}": "${path}" line ${line} declares it again under a build condition (#[cfg]), so whether the uses after it read that declaration or the one it shadows depends on the build`,
      {
        hint:
          "Rename the conditional declaration and the one it shadows together by hand, or give the conditional one its own name first",
        details: { path, line },
      },
    );
  }
}

/** Refuse when `newName` is already visible where the symbol is declared or used. */
function checkClashes(search: ReferenceSearch, newName: string): void {
  const clash = (path: string, fb: FileBindings, offset: number, why: string): never => {
    const line = fb.text.slice(0, offset).split("\n").length;
    throw new RecoverableError(
      "name_clash",
      `Cannot rename "${search.target.name}" to "${newName}": ${why} ("${path}" line ${line})`,
      {
        hint: "Choose another new_name, or rename the other declaration first",
        details: { path, line, new_name: newName },
      },
    );
  };
  if (search.member) {
    const fb = search.files.get(search.member.path)!;
    const other = memberPresence(fb, search.member.scope, newName)?.occurrence;
    if (other) clash(search.member.path, fb, other.start, `the class already has a member "${newName}"`);
  }
  if (search.exportOf) {
    const fb = search.files.get(search.exportOf)!;
    const other = fb.exports.find((e) => e.exported === newName);
    if (other) clash(search.exportOf, fb, 0, `the module already exports "${newName}"`);
  }
  for (const [path, bindings] of search.bindings) {
    const fb = search.files.get(path)!;
    for (const b of bindings) checkBinding(fb, b, newName, (offset, why) => clash(path, fb, offset, why));
    // A Go package's top level spans its directory: another file may declare newName there.
    if (![...bindings].some((b) => b.scope.kind === "module")) continue;
    for (const [rel, other] of search.files) {
      if (
        rel === path || other.language !== fb.language ||
        !profileOf(fb.language).moduleSystem?.moduleIsDirectory
      ) continue;
      if (ModuleResolver.moduleOf(rel, fb.language) !== ModuleResolver.moduleOf(path, fb.language)) continue;
      const x = other.scopes[0]!.bindings.get(newName);
      if (!x || x.linked || x.kind === "import") continue;
      const at = other.occurrences.find((o) => o.binding === x && o.kind === "definition")?.start ?? 0;
      clash(rel, other, at, `"${newName}" is already declared in the package`);
    }
  }
}

function checkBinding(
  fb: FileBindings,
  b: Binding,
  newName: string,
  clash: (offset: number, why: string) => never,
): void {
  const declaredAt = (x: Binding) =>
    fb.occurrences.find((o) => o.binding === x && (o.kind === "definition" || o.kind === "shorthand_pattern"))
      ?.start ?? 0;
  const same = b.scope.bindings.get(newName);
  if (same && same !== b) clash(declaredAt(same), `"${newName}" is already declared in the same scope`);
  for (const occ of fb.occurrences) {
    if (occ.binding === b && occ.kind !== "definition") {
      // A declaration of newName between the use and the symbol's scope would take the use over.
      for (let s = occ.scope; s && s !== b.scope; s = s.parent!) {
        const x = s.bindings.get(newName);
        if (x) {
          clash(declaredAt(x), `"${newName}" declared here would shadow it at line ${line(fb, occ.start)}`);
        }
        if (!s.parent) break;
      }
    } else if (occ.name === newName && (occ.kind === "reference" || occ.kind === "shorthand")) {
      // A use of another newName inside the symbol's scope would be captured by the renamed symbol.
      const x = occ.binding;
      if (x === b || !encloses(b.scope, occ.scope)) continue;
      if (x && !(encloses(x.scope, b.scope) && x.scope !== b.scope)) continue;
      if (lookup(occ.scope, b.name) !== b) continue;
      clash(occ.start, `"${newName}" used here would then refer to the renamed symbol`);
    }
  }
}

function line(fb: FileBindings, offset: number): number {
  return fb.text.slice(0, offset).split("\n").length;
}

/** The old name's occurrences in comments and strings of the searched files, other than the renamed sites. */
async function textSweep(
  parsing: Parsing,
  search: ReferenceSearch,
  renamed: ReferenceSite[],
): Promise<TextOccurrence[]> {
  const name = search.target.name;
  const taken = new Set(renamed.map((s) => `${s.path}:${s.start}`));
  const out: TextOccurrence[] = [];
  const escaped = name.replace(/[$]/g, "\\$");
  const re = new RegExp(`(?<![\\p{L}\\p{N}_$])${escaped}(?![\\p{L}\\p{N}_$])`, "gu");
  // The files parsed, and those that name it in comments only (a lexer found them; they were not parsed).
  const files: string[] = [...search.searched];
  for (const rel of search.commented?.keys() ?? []) if (!search.files.has(rel)) files.push(rel);
  files.sort();
  for (const rel of files) {
    const fb = search.files.get(rel);
    const text = fb?.text ?? search.commented!.get(rel)!;
    let tree = null;
    let index: TextIndex | null = null;
    for (const m of text.matchAll(re)) {
      if (taken.has(`${rel}:${m.index}`)) continue;
      let kind: "comment" | "string" | null = fb ? null : "comment";
      if (fb) {
        tree ??= (await parsing.trees!.parse(rel, fb.language, fb.version, text)).tree;
        const node = tree.rootNode.descendantForIndex(m.index, m.index + name.length);
        for (let n: typeof node | null = node; n && kind === null; n = n.parent) {
          if (n.type.includes("comment")) kind = "comment";
          else if (/string|template/.test(n.type)) kind = "string";
        }
      }
      if (kind === null) continue;
      index ??= new TextIndex(text);
      const start = text.lastIndexOf("\n", m.index - 1) + 1;
      const end = text.indexOf("\n", m.index);
      out.push({
        path: rel,
        line: index.position(m.index).line,
        column: m.index - start + 1,
        in: kind,
        text: text.slice(start, end < 0 ? text.length : end).replace(/\r$/, ""),
      });
      if (out.length >= 200) return out;
    }
  }
  return out;
}

/**
 * Stage a rename plan: write every changed file (its BOM kept).
 *
 * @param stage The call's stage.
 * @param plan The plan.
 */
export async function stageRename(stage: Stage, plan: RenamePlan): Promise<void> {
  for (const [rel, f] of plan.files) {
    const current = await stage.readText(rel);
    await stage.writeText(rel, { text: f.text, bom: current.bom });
  }
}

/**
 * Python imports into a class body (`class Message: from email.iterators import walk`) bind a member of the
 * class: renaming the imported function keeps the member's name with an alias (`import walk2 as walk`), and the
 * class body's own uses of the name stay.
 */
function classBodyImports(
  fb: FileBindings,
  sites: ReferenceSite[],
): { imports: Set<number>; uses: Set<number> } {
  const imports = new Set<number>();
  const uses = new Set<number>();
  if (!profileOf(fb.language).moduleSystem?.importsInClassBodies) return { imports, uses };
  for (const s of sites) {
    const occ = fb.occurrences.find((o) => o.start === s.start);
    const b = occ?.binding;
    if (!b || b.kind !== "import" || b.scope.kind !== "class") continue;
    const declares = occ.kind === "definition" && !/^\s+as\s/.test(fb.text.slice(s.end, s.end + 8));
    if (declares) imports.add(s.start);
    else if (occ.kind === "reference") uses.add(s.start);
  }
  return { imports, uses };
}

/** The directory of a relative path ("" at the root). */
function dirOf(rel: string): string {
  const slash = rel.lastIndexOf("/");
  return slash === -1 ? "" : rel.slice(0, slash);
}

/** Refuse a member or exported name that a lookup by a name built at run time may reach (`_member_lookups.ts`). */
function checkLookups(search: ReferenceSearch): void {
  const lookups = memberLookups(search.files, search.target.name);
  if (search.target.kind === "member") lookups.push(...keywordSetters(search.files, search.target));
  if (lookups.length > 0) throw lookedUpByName(search.target.name, lookups);
}
