/**
 * The ECMAScript family: TypeScript, TSX and JavaScript share one module
 * system (relative specifiers, index files, tsconfig paths), one statement
 * and flow family, one identifier syntax and one version declaration
 * (`compilerOptions.target`); they differ in definition keywords (TypeScript
 * has `interface` and `enum`), pattern wrappers and which languages a
 * declaration may move into.
 *
 * @module
 */
import { AS_WRITTEN, defineProfile, PLAIN_FLOW, PLAIN_FUNCTIONS, PLAIN_MODULES } from "./_base.ts";
import { jsonTarget } from "./_config_text.ts";
import { dirOf, firstPresent, joinPath } from "./module_paths.ts";
import type {
  FlowRules,
  FunctionFacts,
  LanguageProfile,
  ModuleSystemFacts,
  PathMapping,
  RefactorSupport,
  ResolutionContext,
  SyntaxFeature,
  TargetVersionFacts,
} from "./types.ts";

const ECMA_EXTENSIONS = [".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

/** The file a path names with or without an extension (`./a.js` may name `a.ts`), or its index file. */
function ecmaCandidates(files: ReadonlySet<string>, base: string): string | null {
  const stem = base.replace(/\.(?:m|c)?js$|\.jsx$/, "");
  const list = [base];
  for (const ext of ECMA_EXTENSIONS) list.push(stem + ext);
  for (const ext of ECMA_EXTENSIONS) list.push(`${base}/index${ext}`);
  return firstPresent(files, list);
}

/** The file a non-relative specifier names through tsconfig's `paths` and `baseUrl`. */
function throughMapping(files: ReadonlySet<string>, m: PathMapping, source: string): string | null {
  for (const [pattern, targets] of Object.entries(m.paths)) {
    const star = pattern.indexOf("*");
    let captured: string | null = null;
    if (star < 0) captured = pattern === source ? "" : null;
    else {
      const pre = pattern.slice(0, star);
      const post = pattern.slice(star + 1);
      if (source.startsWith(pre) && source.endsWith(post) && source.length >= pre.length + post.length) {
        captured = source.slice(pre.length, source.length - post.length);
      }
    }
    if (captured === null) continue;
    for (const t of targets) {
      const hit = ecmaCandidates(files, joinPath(m.baseUrl, t.replace("*", captured)));
      if (hit) return hit;
    }
  }
  return ecmaCandidates(files, joinPath(m.baseUrl, source));
}

/** Relative specifiers with or without an extension, index files, then tsconfig `baseUrl`/`paths`. */
function resolveEcmaScript(context: ResolutionContext, from: string, source: string): string | null {
  if (source.startsWith("./") || source.startsWith("../") || source === "." || source === "..") {
    return ecmaCandidates(context.files, joinPath(dirOf(from), source));
  }
  return context.pathMapping ? throughMapping(context.files, context.pathMapping, source) : null;
}

/** ECMAScript modules: files, names exported by declaration, no submodule specifiers. */
const MODULES: ModuleSystemFacts = {
  name: "ecmascript",
  moduleIsDirectory: false,
  modulesAreValues: false,
  exportsEveryTopLevelName: false,
  exportsByCapital: false,
  resolvesPerFile: false,
  submodule: () => null,
  declaredPackage: () => null,
  resolve: resolveEcmaScript,
  ...PLAIN_MODULES,
  namespaceImportsHoldNames: true,
  ambientAugmentation: true,
  importsAreReadOnly: true,
  commonJs: true,
  sampleImport: () => ({ source: "./x", target: "x.ts" }),
  defaultExports: true,
};

/** Functions and classes: each has its own `return` target; all but arrow functions have their own `this`. */
const OWN_THIS = [
  "function_declaration",
  "generator_function_declaration",
  "function_expression",
  "generator_function",
  "function",
  "method_definition",
  "class_declaration",
  "abstract_class_declaration",
  "class",
];

/** Statements and what leaves them, for extraction. */
export const ECMASCRIPT_FLOW: FlowRules = {
  ...PLAIN_FLOW,
  family: "ecmascript",
  argumentsObject: true,
  containers: new Set(["program", "statement_block", "switch_case", "switch_default"]),
  functions: new Set([...OWN_THIS.slice(0, 5), "arrow_function", ...OWN_THIS.slice(5)]),
  thisFunctions: new Set(OWN_THIS),
  loops: new Set(["for_statement", "for_in_statement", "while_statement", "do_statement"]),
  switches: new Set(["switch_statement"]),
  awaits: new Set(["await_expression"]),
  asyncStatements: new Set(["for_in_statement"]),
  yields: new Set(["yield_expression"]),
  // A type declared in a block is seen by the rest of it; moved into a function, it would be seen there only.
  immovable: new Set([
    "import_statement",
    "export_statement",
    "interface_declaration",
    "type_alias_declaration",
    "ambient_declaration",
  ]),
  receivers: new Set(["this", "super"]),
  returns: new Set(["return_statement"]),
  jumps: new Set(["break_statement", "continue_statement"]),
  defers: new Set(),
  tries: new Set(),
};

/** Syntax that needs a TypeScript target of at least some ES year. */
export const ECMASCRIPT_SYNTAX = {
  private_name: {
    since: [2015],
    what: "a private name `#x` (TypeScript needs target ES2015)",
    nodes: [{ type: "private_property_identifier" }],
  },
  bigint_literal: {
    since: [2020],
    what: "a BigInt literal `1n` (TypeScript needs target ES2020)",
    nodes: [{ type: "number", textEnds: "n" }],
  },
} as const satisfies Record<string, SyntaxFeature>;

/** ECMAScript target names as years: ES3, ES5, ES6 = ES2015 … ESNext. */
function esYear(target: string): number[] | null {
  const t = target.toLowerCase();
  if (t === "esnext") return [9999];
  if (t === "es6") return [2015];
  const m = /^es(\d+)$/.exec(t);
  return m ? [Number(m[1])] : null;
}

const TARGET_VERSION: TargetVersionFacts = {
  family: "ecmascript",
  versionLabel: "ES",
  configs: [
    { file: "tsconfig.json", field: "compilerOptions.target", read: jsonTarget, parse: esYear },
    { file: "jsconfig.json", field: "compilerOptions.target", read: jsonTarget, parse: esYear },
  ],
  syntax: ECMASCRIPT_SYNTAX,
};

const TS_KEYWORDS = {
  function: ["function_declaration", "generator_function_declaration", "function_signature", "ERROR"],
  class: ["class_declaration", "abstract_class_declaration", "ERROR"],
  interface: ["interface_declaration", "ERROR"],
  enum: ["enum_declaration", "ERROR"],
};

const CLASS_BODY = { prefix: "class __W {\n", suffix: "\n}" };
const OBJECT_BODY = { prefix: "({\n", suffix: "\n})" };

/** Extract, inline and change signature; a declaration moves into the given languages. */
function refactors(moveDeclarationInto: readonly string[]): RefactorSupport {
  return {
    extractFunction: true,
    inline: true,
    changeSignature: true,
    moveDeclarationInto,
    renameFromEdits: true,
  };
}

/** Classes with a `constructor` that runs through `new`; a `this` parameter; types written where `typed`. */
function functions(writesTypes: boolean): FunctionFacts {
  return {
    ...PLAIN_FUNCTIONS,
    constructorName: "constructor",
    constructorsNeedNew: true,
    thisParameter: true,
    restParameterLast: true,
    writesTypes,
  };
}

/** The facts the three languages share. */
/** The grammars' extras besides whitespace: comments, and HTML-like comments (`<!--`, and `-->` opening a line). */
const COMMENT_STARTS = ["//", "/*", "<!--", "-->"];

/** Node types and the child types that stand only last in them (the grammars' sequences end so). */
const CLOSED_NODES = {
  member_expression: ["property_identifier", "private_property_identifier"],
  call_expression: ["arguments"],
  new_expression: ["arguments"],
  arguments: [")"],
  subscript_expression: ["]"],
  parenthesized_expression: [")"],
  formal_parameters: [")"],
  statement_block: ["}"],
  object: ["}"],
  array: ["]"],
};

const SHARED = {
  moduleSystem: MODULES,
  flow: ECMASCRIPT_FLOW,
  targetVersion: TARGET_VERSION,
  commentStarts: COMMENT_STARTS,
  skippableComments: { line: ["//"], block: [{ open: "/*", close: "*/" }] },
  closedNodes: CLOSED_NODES,
};

/** TypeScript. */
export const TYPESCRIPT: LanguageProfile = defineProfile({
  id: "typescript",
  displayName: "TypeScript",
  ...SHARED,
  functions: functions(true),
  definitionKeywords: TS_KEYWORDS,
  patternWrappers: [...AS_WRITTEN, CLASS_BODY, { prefix: "interface __W {\n", suffix: "\n}" }, OBJECT_BODY],
  refactors: refactors(["typescript", "tsx"]),
  searchTypeAliases: ["ts"],
});

/** TypeScript with JSX. */
export const TSX: LanguageProfile = defineProfile({
  id: "tsx",
  displayName: "TSX",
  ...SHARED,
  functions: functions(true),
  definitionKeywords: TS_KEYWORDS,
  patternWrappers: [...AS_WRITTEN, CLASS_BODY, OBJECT_BODY],
  refactors: refactors(["tsx"]),
  searchTypeAliases: ["ts"],
});

/** JavaScript (with JSX). */
export const JAVASCRIPT: LanguageProfile = defineProfile({
  id: "javascript",
  displayName: "JavaScript",
  ...SHARED,
  functions: functions(false),
  definitionKeywords: {
    function: ["function_declaration", "generator_function_declaration", "ERROR"],
    class: ["class_declaration", "ERROR"],
  },
  patternWrappers: [...AS_WRITTEN, CLASS_BODY, OBJECT_BODY],
  refactors: refactors(["javascript", "typescript", "tsx"]),
  searchTypeAliases: ["js"],
});
