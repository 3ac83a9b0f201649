/**
 * Go: a package is a directory (its files share one top-level scope when
 * they declare the same package), exported names are the capitalised ones,
 * files indent with tabs. Extraction supports it; inline and change
 * signature do not.
 *
 * @module
 */
import { defineProfile, PLAIN_FLOW, PLAIN_MODULES, WORD_IDENTIFIER, words } from "./_base.ts";
import { dirOf, joinPath } from "./module_paths.ts";
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

/** GOOS and GOARCH values a Go file name's suffix may carry (`x_linux.go`, `x_windows_amd64.go`). */
const GO_BUILD_TAGS = new Set([
  "aix",
  "android",
  "darwin",
  "dragonfly",
  "freebsd",
  "hurd",
  "illumos",
  "ios",
  "js",
  "linux",
  "nacl",
  "netbsd",
  "openbsd",
  "plan9",
  "solaris",
  "wasip1",
  "windows",
  "zos",
  "386",
  "amd64",
  "amd64p32",
  "arm",
  "armbe",
  "arm64",
  "arm64be",
  "loong64",
  "mips",
  "mipsle",
  "mips64",
  "mips64le",
  "mips64p32",
  "mips64p32le",
  "ppc",
  "ppc64",
  "ppc64le",
  "riscv",
  "riscv64",
  "s390",
  "s390x",
  "sparc",
  "sparc64",
  "wasm",
]); // deno-fmt-ignore

const baseOf = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/** What a Go file's name tells the go tool: ignored, a test, and the build tags of its suffix. */
function goFileRole(path: string): string {
  const base = baseOf(path);
  const parts = base.replace(/\.go$/, "").split("_");
  const test = parts.length > 1 && parts.at(-1) === "test" ? parts.pop() : "";
  const tags: string[] = [];
  while (parts.length > 1 && GO_BUILD_TAGS.has(parts.at(-1)!) && tags.length < 2) tags.unshift(parts.pop()!);
  return `${/^[_.]/.test(base) ? "ignored" : ""}|${test}|${tags.join("_")}`;
}

/**
 * What moving a Go file breaks: its directory is its package (graver does not rewrite the package's importers),
 * and its name tells the go tool its role (`_test`, GOOS/GOARCH suffixes, a leading `_` or `.`).
 *
 * @param from The file's path (relative).
 * @param to The destination path (relative).
 * @returns Why the move breaks the build, and the hint; null when it does not.
 */
export function goFileMoveBreaks(from: string, to: string): { why: string; hint: string } | null {
  let why: string | null = null;
  if (dirOf(from) !== dirOf(to)) {
    why = "a Go file's directory is its package, and graver does not rewrite the package's importers";
  } else if (goFileRole(from) !== goFileRole(to)) {
    why =
      "the new name changes how the go tool reads the file (a `_test`, GOOS/GOARCH suffix, or a leading `_`/`.`)";
  }
  return why === null ? null : {
    why,
    hint:
      "Keep the file in its directory with the same suffixes, or pass update_imports: false to move the bytes only and update its package clause and importers yourself",
  };
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
  commentStarts: ["//", "/*"],
  skippableComments: { line: ["//"], block: [{ open: "/*", close: "*/" }] },
  closedNodes: {
    selector_expression: ["field_identifier"],
    call_expression: ["argument_list"],
    argument_list: [")"],
    parameter_list: [")"],
    index_expression: ["]"],
    block: ["}"],
  },
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
    ...PLAIN_MODULES,
    fileMoveBreaks: goFileMoveBreaks,
    namedExamples: true,
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
