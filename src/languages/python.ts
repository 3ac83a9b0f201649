/**
 * Python: modules are files and packages whose names are all importable and
 * which are values at run time; indentation delimits blocks (four spaces);
 * the version is declared as `requires-python` (or Poetry's, or setup.cfg's
 * `python_requires`) and gates generated syntax.
 *
 * @module
 */
import {
  defineProfile,
  PLAIN_FLOW,
  PLAIN_FUNCTIONS,
  PLAIN_MODULES,
  WORD_IDENTIFIER,
  words,
} from "./_base.ts";
import { iniValue, tomlString } from "./_config_text.ts";
import { dirOf, firstPresent, joinPath } from "./module_paths.ts";
import type {
  FlowRules,
  LanguageProfile,
  ResolutionContext,
  SyntaxFeature,
  TargetVersionFacts,
} from "./types.ts";

/** Relative imports (`.m`, `..pkg.m`) and absolute ones within the root (or its `src/`), as modules or packages. */
function resolvePython(context: ResolutionContext, from: string, source: string): string | null {
  const dots = /^\.*/.exec(source)![0].length;
  const parts = source.slice(dots).split(".").filter((p) => p !== "");
  const bases: string[] = [];
  if (dots > 0) {
    let dir = dirOf(from);
    for (let i = 1; i < dots; i++) dir = dirOf(dir);
    bases.push(dir);
  } else bases.push("", "src");
  for (const base of bases) {
    const path = joinPath(base, parts.join("/"));
    const hit = firstPresent(
      context.files,
      parts.length === 0 ? [`${path}/__init__.py`.replace(/^\//, "")] : [
        `${path}.py`,
        `${path}.pyi`,
        `${path}/__init__.py`,
      ],
    );
    if (hit) return hit;
  }
  return null;
}

/** Statements and what leaves them, for extraction. */
export const PYTHON_FLOW: FlowRules = {
  ...PLAIN_FLOW,
  family: "python",
  assignmentDeclares: true,
  labelledJumps: false,
  explicitSelf: true,
  classReceiverMethods: new Set(["__new__", "__init_subclass__", "__class_getitem__"]),
  delegatesInAsyncGenerators: false,
  containers: new Set(["module", "block"]),
  functions: new Set(["function_definition", "lambda", "class_definition"]),
  thisFunctions: new Set(["function_definition", "lambda", "class_definition"]),
  loops: new Set(["for_statement", "while_statement"]),
  switches: new Set(),
  awaits: new Set(["await"]),
  asyncStatements: new Set(["for_statement", "with_statement", "for_in_clause"]),
  yields: new Set(["yield"]),
  immovable: new Set(["future_import_statement", "global_statement", "nonlocal_statement"]),
  receivers: new Set(),
  returns: new Set(["return_statement"]),
  jumps: new Set(["break_statement", "continue_statement"]),
  defers: new Set(),
  tries: new Set(),
};

/** Syntax that needs a Python version of at least some release. */
export const PYTHON_SYNTAX = {
  assignment_expression: {
    since: [3, 8],
    what: "an assignment expression `:=` (PEP 572)",
    nodes: [{ type: "named_expression" }],
  },
  match_statement: {
    since: [3, 10],
    what: "a match statement (PEP 634)",
    nodes: [{ type: "match_statement" }],
  },
  except_star: {
    since: [3, 11],
    what: "`except*` (PEP 654)",
    nodes: [{ type: "except_clause", child: "*" }],
  },
  fstring_quote_reuse: {
    since: [3, 12],
    what: "an f-string replacement field that reuses the f-string's own quote (PEP 701)",
    nodes: [],
  },
  fstring_backslash: {
    since: [3, 12],
    what: "a backslash in an f-string replacement field (PEP 701)",
    nodes: [],
  },
  fstring_comment: {
    since: [3, 12],
    what: "a comment in an f-string replacement field (PEP 701)",
    nodes: [],
  },
  type_statement: {
    since: [3, 12],
    what: "a `type` alias statement (PEP 695)",
    nodes: [{ type: "type_alias_statement" }],
  },
} as const satisfies Record<string, SyntaxFeature>;

/** The lowest Python version a PEP 440 specifier (or Poetry's `^3.10`) admits; null without a lower bound. */
function pythonFloor(spec: string): number[] | null {
  let floor: number[] | null = null;
  for (const clause of spec.split(/[,|]/)) {
    const m = /^\s*(>=|~=|==|\^|~|>)?\s*(\d+)(?:\.(\d+))?/.exec(clause);
    if (!m) continue; // an upper bound or an exclusion says nothing about the floor
    const v = [Number(m[2]), Number(m[3] ?? 0)];
    if (floor === null || v[0]! > floor[0]! || (v[0] === floor[0] && v[1]! > floor[1]!)) floor = v;
  }
  return floor;
}

const TARGET_VERSION: TargetVersionFacts = {
  family: "python",
  versionLabel: "Python ",
  configs: [
    {
      file: "pyproject.toml",
      field: "project.requires-python",
      read: (t) => tomlString(t, "project", "requires-python"),
      parse: pythonFloor,
    },
    {
      file: "pyproject.toml",
      field: "tool.poetry.dependencies.python",
      read: (t) => tomlString(t, "tool.poetry.dependencies", "python"),
      parse: pythonFloor,
    },
    {
      file: "setup.cfg",
      field: "options.python_requires",
      read: (t) => iniValue(t, "options", "python_requires"),
      parse: pythonFloor,
    },
  ],
  syntax: PYTHON_SYNTAX,
};

/** Python. */
export const PYTHON: LanguageProfile = defineProfile({
  id: "python",
  displayName: "Python",
  commentStarts: ["#"],
  skippableComments: { line: ["#"], block: [] },
  textNodes: ["string_content"],
  closedNodes: {
    call: ["argument_list"],
    argument_list: [")"],
    parameters: [")"],
    parenthesized_expression: [")"],
    subscript: ["]"],
    list: ["]"],
    dictionary: ["}"],
  },
  moduleSystem: {
    name: "python",
    moduleIsDirectory: false,
    modulesAreValues: true,
    exportsEveryTopLevelName: true,
    exportsByCapital: false,
    resolvesPerFile: false,
    // `from . import m` names `.m`; `pkg` + `m` is `pkg.m`
    submodule: (source, name) => /^\.+$/.test(source) ? `${source}${name}` : `${source}.${name}`,
    declaredPackage: () => null,
    resolve: resolvePython,
    ...PLAIN_MODULES,
    globImportsReexport: true,
    privatePrefix: "_",
    typeCheckingImports: true,
    exportList: "__all__",
    futureImports: true,
    importsInClassBodies: true,
    bareSpecifiersNameProjectModules: true,
    sampleImport: (path) =>
      path.includes("/") ? { source: ".x", target: "x.py" } : { source: "x", target: "x.py" },
  },
  identifiers: {
    pattern: WORD_IDENTIFIER,
    reserved: words(
      "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield",
    ),
  },
  definitionKeywords: { def: ["function_definition", "ERROR"], class: ["class_definition", "ERROR"] },
  patternWrappers: [
    { prefix: "", suffix: "" },
    { prefix: "def __w():\n", suffix: "", indent: "    " },
    { prefix: "class __W:\n", suffix: "", indent: "    " },
  ],
  flow: PYTHON_FLOW,
  refactors: {
    extractFunction: true,
    inline: true,
    changeSignature: true,
    moveDeclarationInto: ["python"],
    renameFromEdits: true,
  },
  functions: {
    ...PLAIN_FUNCTIONS,
    constructorName: "__init__",
    checksArity: true,
    keywordArguments: true,
    docstrings: true,
    protocolMethods: /^__\w+__$/,
    rootClass: "object",
    topLevelBlankLines: 2,
    memberLookupCalls: ["getattr", "hasattr", "setattr", "delattr"],
    harmlessDecorators: words(
      "staticmethod classmethod property functools.wraps functools.lru_cache functools.cache functools.cached_property functools.total_ordering dataclasses.dataclass typing.overload typing.final typing.runtime_checkable contextlib.contextmanager abc.abstractmethod",
    ),
  },
  targetVersion: TARGET_VERSION,
  indentUnit: "    ",
  searchTypeAliases: ["py"],
});
