/**
 * Go: a package is a directory (its files share one top-level scope when
 * they declare the same package), exported names are the capitalised ones,
 * files indent with tabs. Extraction supports it; inline and change
 * signature do not.
 *
 * @module
 */
import { defineProfile, PLAIN_FLOW, WORD_IDENTIFIER, words } from "./_base.ts";
import { joinPath } from "./module_paths.ts";
import type { FlowRules, GoModule, LanguageProfile } from "./types.ts";

/**
 * The module path a go.mod declares (its `module` line), or null.
 *
 * @param text The go.mod text.
 * @returns The module path.
 */
export function goModulePath(text: string): string | null {
  const m = /^\s*module\s+"?([^\s"]+)"?\s*$/m.exec(text);
  return m ? m[1]! : null;
}

/**
 * The package directory a Go import path names: under the module path of a
 * go.mod of the workspace, a directory that holds `.go` files.
 *
 * @param modules The workspace's Go modules.
 * @param packages Directories that hold `.go` files.
 * @param source The import path.
 * @returns The directory (relative, "" for the root), or null (the standard library, other modules).
 */
export function resolveGoImport(
  modules: readonly GoModule[],
  packages: ReadonlySet<string>,
  source: string,
): string | null {
  for (const m of modules) {
    if (source !== m.path && !source.startsWith(`${m.path}/`)) continue;
    const dir = joinPath(m.dir, source.slice(m.path.length));
    if (packages.has(dir)) return dir;
  }
  return null;
}

/** Statements and what leaves them, for extraction. */
export const GO_FLOW: FlowRules = {
  ...PLAIN_FLOW,
  family: "go",
  typedSignatures: true,
  resultField: "result",
  namedResults: true,
  bodyStatements: "statement_list",
  receiverParameters: true,
  containers: new Set(["statement_list"]),
  functions: new Set(["function_declaration", "method_declaration", "func_literal"]),
  thisFunctions: new Set(["function_declaration", "method_declaration", "func_literal"]),
  loops: new Set(["for_statement"]),
  switches: new Set(["expression_switch_statement", "type_switch_statement", "select_statement"]),
  awaits: new Set(),
  asyncStatements: new Set(),
  yields: new Set(),
  immovable: new Set(["type_declaration", "const_declaration"]),
  receivers: new Set(),
  returns: new Set(["return_statement"]),
  jumps: new Set(["break_statement", "continue_statement", "goto_statement", "fallthrough_statement"]),
  defers: new Set(["defer_statement"]),
  tries: new Set(),
};

/** Go. */
export const GO: LanguageProfile = defineProfile({
  id: "go",
  displayName: "Go",
  moduleSystem: {
    name: "go",
    moduleIsDirectory: true,
    modulesAreValues: false,
    exportsEveryTopLevelName: false,
    exportsByCapital: true,
    resolvesPerFile: false,
    submodule: () => null,
    declaredPackage: (text) => /^package\s+([\p{L}_][\p{L}\p{N}_]*)/mu.exec(text)?.[1] ?? "",
    resolve: (context, _from, source) =>
      resolveGoImport(context.goModules, context.directoriesWith(".go"), source),
    globImportsReexport: false,
    itemPaths: false,
    namespaceImportsHoldNames: false,
    ambientAugmentation: false,
  },
  identifiers: {
    pattern: WORD_IDENTIFIER,
    reserved: words(
      "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var",
    ),
  },
  definitionKeywords: {
    func: ["function_declaration", "method_declaration", "ERROR"],
    struct: ["type_spec>struct_type"],
    interface: ["type_spec>interface_type"],
  },
  patternWrappers: [
    { prefix: "package p\nfunc __w() {\n", suffix: "\n}" },
    { prefix: "package p\n", suffix: "" },
    { prefix: "package p\ntype __W struct {\n", suffix: "\n}" },
    { prefix: "package p\ntype __W interface {\n", suffix: "\n}" },
  ],
  flow: GO_FLOW,
  refactors: {
    extractFunction: true,
    inline: false,
    changeSignature: false,
    moveDeclarationInto: [],
    renameFromEdits: true,
  },
  indentUnit: "\t",
});
