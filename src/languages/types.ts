/**
 * The shape of what graver knows about one language: {@linkcode LanguageProfile}
 * and the fact groups it is made of (module system, identifiers, statement and
 * flow families, definition keywords, pattern wrappers, refactor support,
 * target versions). Types only, so every profile and every reader shares one
 * vocabulary without importing a profile.
 *
 * @module
 */

/** A module system graver resolves imports of. */
export type ModuleSystem = "ecmascript" | "python" | "go" | "rust";

/** How a language's files import each other, as far as the refactors need to know. */
export interface ModuleSystemFacts {
  /** The system's name (shared by the languages of one family: TypeScript, TSX and JavaScript are "ecmascript"). */
  name: ModuleSystem;
  /** A module is a whole directory (a Go package: every file of the directory shares one top-level scope). */
  moduleIsDirectory: boolean;
  /** Modules are run-time values (Python): a variable may hold one, and names may be set on one at run time. */
  modulesAreValues: boolean;
  /** Every module-level name is importable by another module (Python, Rust), with no export marker. */
  exportsEveryTopLevelName: boolean;
  /** A module exports exactly its module-level names that start with an upper-case letter (Go). */
  exportsByCapital: boolean;
  /** A resolved import depends on the importing file itself, not only on its directory (Rust's `super`). */
  resolvesPerFile: boolean;
  /**
   * The specifier of a submodule of a module (`pkg` + `m` → `pkg.m`), or null when the system has no such form.
   *
   * @param source The parent module's specifier.
   * @param name The submodule's name.
   */
  submodule(source: string, name: string): string | null;
  /**
   * The package a file's text declares (Go's `package x` clause; "" when it has none): files of one directory
   * share their top-level scope only when they declare the same package. Null for a system without packages.
   *
   * @param text The file's text.
   */
  declaredPackage(text: string): string | null;
  /**
   * The workspace file (or, where a module is a directory, the directory) an import's specifier names.
   *
   * @param context The workspace's files and project configuration.
   * @param from The importing file (relative path).
   * @param source The specifier as written.
   * @returns The relative path, or null when no workspace file answers.
   */
  resolve(context: ResolutionContext, from: string, source: string): string | null;
  /**
   * A module that imports another's names with a glob (`from m import *`) offers them to its own importers
   * (Python), so a name may resolve through it.
   */
  globImportsReexport: boolean;
  /** A use may name a module's item by path (`crate::m::x`, `m::x`) with no import of the item (Rust). */
  itemPaths: boolean;
  /**
   * A namespace import (`import * as ns`) holds the module's names without passing them on: only re-exporting
   * it (`export { ns }`, `export *`) does (ECMAScript). Elsewhere a glob import is how a module passes names on.
   */
  namespaceImportsHoldNames: boolean;
  /**
   * A declaration may merge into the global scope or another module's (`declare global`, `declare module "m"`),
   * with declarations graver does not see (ECMAScript, through TypeScript).
   */
  ambientAugmentation: boolean;
  /** An imported binding cannot be assigned (ECMAScript's live, read-only bindings). */
  importsAreReadOnly: boolean;
  /** Names that start with this are private to their module by convention (Python's `_`), or null. */
  privatePrefix: string | null;
  /** Imports may sit under `if TYPE_CHECKING:`, for type checkers only (absent at run time). */
  typeCheckingImports: boolean;
  /** The module-level list of the names `import *` takes (Python's `__all__`), or null. */
  exportList: string | null;
  /** Imports of compiler features that every module states for itself (Python's `from __future__ import`). */
  futureImports: boolean;
  /** Files may be CommonJS modules (`require`, `module.exports`) rather than ECMAScript modules. */
  commonJs: boolean;
  /**
   * What moving a file from one path to another would break that graver does not rewrite (a Go file's
   * directory is its package; a Rust module is named by its path), with the hint to give; null when the move is
   * safe or its importers are rewritten.
   *
   * @param from The file's path (relative).
   * @param to The destination path (relative).
   */
  fileMoveBreaks(from: string, to: string): { why: string; hint: string } | null;
  /** An import may sit in a class body, where it binds a member of the class (Python). */
  importsInClassBodies: boolean;
  /** A specifier that is not relative may name a module of the project (Python's absolute imports). */
  bareSpecifiersNameProjectModules: boolean;
  /**
   * The import a file that has no import of its own to imitate writes for a module beside it: the specifier and
   * the file it names (`./x` for `x.ts`; `.x` for `x.py` inside a package, `x` at the root). Null for a system
   * whose imports graver does not write.
   *
   * @param path The importing file (relative).
   */
  sampleImport: ((path: string) => { source: string; target: string }) | null;
  /** A module may have a default export, which an importer's namespace reaches as `ns.default` (ECMAScript). */
  defaultExports: boolean;
  /**
   * Test files hold example functions named after the package-level name they document (Go's `ExampleName`):
   * renaming the name renames its examples.
   */
  namedExamples: boolean;
}

/** tsconfig.json's path mapping (`compilerOptions.baseUrl` and `paths`), relative to the root. */
export interface PathMapping {
  /** Directory non-relative specifiers are resolved from ("" for the root). */
  baseUrl: string;
  /** Pattern (one `*` at most) -> substitutions. */
  paths: Record<string, string[]>;
}

/** A Go module: the directory of its go.mod (relative, "" for the root) and its module path. */
export interface GoModule {
  /** Directory of the go.mod. */
  dir: string;
  /** The `module` line's path (`github.com/google/go-cmp`). */
  path: string;
}

/** A Rust package's library crate: the directory of its Cargo.toml and the name paths use (`-` as `_`). */
export interface RustCrate {
  /** Directory of the Cargo.toml ("" for the root). */
  dir: string;
  /** The crate's name in paths (`semver`, `grep_regex`). */
  name: string;
}

/** What a module system resolves against: the workspace's files and the project configuration read from it. */
export interface ResolutionContext {
  /** Every relative path of the workspace that may be imported. */
  files: ReadonlySet<string>;
  /** tsconfig path mapping, if any. */
  pathMapping: PathMapping | null;
  /** Go modules (from go.mod files). */
  goModules: readonly GoModule[];
  /** Rust library crates (from Cargo.toml files). */
  rustCrates: readonly RustCrate[];
  /**
   * The directories that hold a file with this extension (computed once per extension).
   *
   * @param extension With its dot (`.go`).
   */
  directoriesWith(extension: string): ReadonlySet<string>;
}

/** What a name a declaration may take looks like. */
export interface IdentifierRules {
  /** A whole identifier (anchored). */
  pattern: RegExp;
  /** Words no declaration may take. */
  reserved: ReadonlySet<string>;
}

/** Code wrapped around a pattern so that it parses as it would where such code lives. */
export interface PatternWrapper {
  /** Text before the pattern. */
  prefix: string;
  /** Text after it. */
  suffix: string;
  /** Indent every pattern line with this (bodies that indentation delimits). */
  indent?: string;
}

/** Node types one language family uses for what extraction looks at: statements, and what leaves them. */
export interface FlowRules {
  /** The family: "ecmascript" (TypeScript, TSX, JavaScript), "python", "go" or "rust". */
  family: "ecmascript" | "python" | "go" | "rust";
  /** Nodes whose named children are statements. */
  containers: ReadonlySet<string>;
  /** Nodes with their own `return`, `await`, `yield`, `break` targets (nested functions, classes). */
  functions: ReadonlySet<string>;
  /** Of those, the ones that do not see the outer `this` (every one but arrow functions). */
  thisFunctions: ReadonlySet<string>;
  /** Loops: `break` and `continue` targets. */
  loops: ReadonlySet<string>;
  /** Other `break` targets (switch). */
  switches: ReadonlySet<string>;
  /** `await` expressions. */
  awaits: ReadonlySet<string>;
  /** Statements that may carry an `async` / `await` keyword of their own (`for await`, `async for`, `async with`). */
  asyncStatements: ReadonlySet<string>;
  /** `yield` expressions. */
  yields: ReadonlySet<string>;
  /** Statements extraction never moves into a function (imports, exports, global declarations). */
  immovable: ReadonlySet<string>;
  /** Nodes that mean the enclosing method's receiver (`this`, `super`, Rust's `self`). */
  receivers: ReadonlySet<string>;
  /** `return` statements or expressions. */
  returns: ReadonlySet<string>;
  /** `break` / `continue` (Go: also `fallthrough`, `goto`) statements or expressions. */
  jumps: ReadonlySet<string>;
  /** Statements that run at the end of the enclosing function (Go's `defer`). */
  defers: ReadonlySet<string>;
  /** Early returns by operator (Rust's `?`). */
  tries: ReadonlySet<string>;
  /**
   * A new function declares its parameter and result types, which extraction reads from the declarations it
   * moves values between (Go, Rust): extraction builds such a function natively.
   */
  typedSignatures: boolean;
  /** A block's last expression is its value (Rust): statements that end a block may produce it. */
  blockValues: boolean;
  /** The field of a function node that holds its result type (`result` in Go, `return_type` elsewhere). */
  resultField: string;
  /** Functions may name their results (Go's `func f() (n int)`), which a bare `return` returns. */
  namedResults: boolean;
  /** The node inside a function's body block that holds its statements (Go's `statement_list`), or null. */
  bodyStatements: string | null;
  /** The type that means the enclosing implementation's own type (Rust's `Self`), or null. */
  selfType: string | null;
  /** `break`, `continue` (and Go's `goto`) may name a label, so a jump may target a statement by name. */
  labelledJumps: boolean;
  /** A method's receiver is declared in its signature like a parameter (Go's `func (r *T) m()`). */
  receiverParameters: boolean;
  /** A method names its receiver as its first parameter (Python's `self`, `cls`). */
  explicitSelf: boolean;
  /**
   * Methods whose first parameter is the class, not an instance, without a decorator saying so (Python's
   * `__new__`, `__init_subclass__`, `__class_getitem__`): code taken out of them becomes a class method.
   */
  classReceiverMethods: ReadonlySet<string>;
  /** A variable declared outside the statements and assigned in them is passed by mutable reference (Rust). */
  outputsByReference: boolean;
  /** An async generator may delegate to another generator (`yield*`; Python's `yield from` is not allowed there). */
  delegatesInAsyncGenerators: boolean;
  /** Functions see an implicit `arguments` object of their own (ECMAScript). */
  argumentsObject: boolean;
  /**
   * A plain assignment declares a variable of the enclosing function, with no keyword and no block scope
   * (Python): assigned names are declared where first bound, module-level names stay importable, and a function
   * that assigns an outer name must declare it `global` or `nonlocal`.
   */
  assignmentDeclares: boolean;
}

/** How functions, parameters and calls look, for the refactors that rewrite declarations and call sites. */
export interface FunctionFacts {
  /** The name of a class's constructor method (`constructor`, Python's `__init__`), or null when it has none. */
  constructorName: string | null;
  /** A class's constructor runs only through `new` (ECMAScript): a plain call of the class is a value use. */
  constructorsNeedNew: boolean;
  /** A call with too many or too few arguments fails (Python), rather than ignoring extras or passing undefined. */
  checksArity: boolean;
  /** Calls may pass arguments by parameter name (`f(cte="7bit")`). */
  keywordArguments: boolean;
  /** Declarations carry written types (TypeScript): generated parameters and variables need them. */
  writesTypes: boolean;
  /** A function's or class's first statement, when a plain string, is its documentation (Python's docstring). */
  docstrings: boolean;
  /** Methods the language's runtime calls itself with fixed arguments (Python's `__x__`), or null. */
  protocolMethods: RegExp | null;
  /** The base every class has without naming it, written as a base all the same (Python's `object`), or null. */
  rootClass: string | null;
  /** A rest parameter must be the last one (ECMAScript); Python's `*args` may be followed by keyword-only ones. */
  restParameterLast: boolean;
  /** A function may declare its `this` as a first parameter named `this` (TypeScript), which takes no argument. */
  thisParameter: boolean;
  /** Blank lines the style puts between top-level definitions (Python's two; one elsewhere). */
  topLevelBlankLines: number;
  /**
   * Built-in functions that reach a member by a name held in a string (Python's `getattr(obj, "name")`): a
   * member whose name such a call may build at run time cannot be renamed with certainty.
   */
  memberLookupCalls: readonly string[];
  /**
   * Decorators known to only wrap or annotate what they decorate (no registry, no effect at import time), as
   * qualified names: a builtin by its name, an imported one by module and name (`functools.wraps`). Any other
   * decorator may register what it decorates, so moving the declaration or changing its signature is refused.
   */
  harmlessDecorators: ReadonlySet<string>;
}

/** One node shape a {@linkcode SyntaxFeature} is recognised by. */
export interface SyntaxMatcher {
  /** The node type. */
  type: string;
  /** A child token (anonymous node) it must have. */
  child?: string;
  /** How its text must end. */
  textEnds?: string;
}

/** A piece of syntax a generator may emit, and the version that introduced it. */
export interface SyntaxFeature {
  /** The lowest version that accepts it. */
  since: number[];
  /** What it is, for a refusal's message. */
  what: string;
  /**
   * The tree-sitter nodes that are it: a node type, optionally with a child
   * token it must have (`except_clause` with `*`) or a text ending (`1n`).
   * Empty when only a structural check finds it (f-string fields).
   */
  nodes: readonly SyntaxMatcher[];
}

/** A language family whose version a project can declare. */
export type VersionFamily = "python" | "ecmascript" | "rust";

/** One place a project declares its language version. */
export interface VersionConfigField {
  /** The configuration file's name (`pyproject.toml`). */
  file: string;
  /** The field in it, dotted (`project.requires-python`). */
  field: string;
  /** The field's value as written in a file's text, or null. */
  read(text: string): string | null;
  /** The lowest version a written value admits, as numbers, or null when it names none. */
  parse(written: string): number[] | null;
}

/** Where a language's version is declared, and what syntax each version allows. */
export interface TargetVersionFacts {
  /** The family whose declaration governs the language (TypeScript, TSX and JavaScript share "ecmascript"). */
  family: VersionFamily;
  /** How a message names a version of it: `Python ` 3.12, `ES`2020, `edition `2024. */
  versionLabel: string;
  /** Where the version is declared, nearest first in each folder. */
  configs: readonly VersionConfigField[];
  /** Syntax whose availability depends on the declared version. */
  syntax: Readonly<Record<string, SyntaxFeature>>;
}

/** Which refactors a language supports. */
export interface RefactorSupport {
  /** edit_extract_function (the profile has {@linkcode LanguageProfile.flow}). */
  extractFunction: boolean;
  /** edit_inline. */
  inline: boolean;
  /** edit_change_signature. */
  changeSignature: boolean;
  /** The languages a top-level declaration of this language may move into (edit_move_declaration); empty: none. */
  moveDeclarationInto: readonly string[];
  /** The compass reads a one-identifier edit of this language as a rename that edit_rename_symbol should make. */
  renameFromEdits: boolean;
}

/** Everything graver knows about one language, so that no other module branches on a language name. */
export interface LanguageProfile {
  /** The language id (the grammar manifest's key: "typescript", "c_sharp"). */
  id: string;
  /** The language's name as people write it ("TypeScript", "C#"). */
  displayName: string;
  /** Its module system, or null when graver resolves names within one file only. */
  moduleSystem: ModuleSystemFacts | null;
  /** Which names a declaration may take. */
  identifiers: IdentifierRules;
  /**
   * Keyword -> the node types the keyword must head for a line to hold a definition (the definition gate's
   * floor). An entry `outer>parent` names a chain of ancestors, `type{body}` asks for a `body` field, and
   * `ERROR` a parse error the keyword sits in directly.
   */
  definitionKeywords: Readonly<Record<string, readonly string[]>>;
  /** Where code of the language usually lives, tried in order after the code as written (structural patterns). */
  patternWrappers: readonly PatternWrapper[];
  /** Statement and control-flow node types for extraction, or null when extraction does not support it. */
  flow: FlowRules | null;
  /** Which refactors it supports. */
  refactors: RefactorSupport;
  /** How its functions, parameters and calls look. */
  functions: FunctionFacts;
  /** Where its version is declared and what each version allows, or null when graver does not check it. */
  targetVersion: TargetVersionFacts | null;
  /**
   * The indent unit its style fixes (Go and C: a tab, Python: four spaces), used for a file with no indentation
   * yet; null when it has no single one (the caller's default).
   */
  indentUnit: string | null;
  /**
   * The texts that open a comment, or any other text the grammar lets stand between two tokens besides
   * whitespace (its `extras`: `<!--` in JavaScript); null when not stated. A structural search tests that a
   * file holds a pattern's adjacent tokens together only where this is stated (`token_runs.ts`).
   */
  commentStarts: readonly string[] | null;
  /**
   * Of those, the comments a token run's test skips rather than stopping at: line comments (to the end of
   * the line) and block comments that do not nest (to the first close), whose openers nothing else between two
   * tokens of the language spells.
   */
  skippableComments: { line: readonly string[]; block: readonly { open: string; close: string }[] };
  /**
   * Node types whose children do not cover their text (Python's `string_content` between two escape
   * sequences): the pattern matcher compares their children, not that text, so a structural search's token
   * runs stop at them.
   */
  textNodes: readonly string[];
  /**
   * Node type -> child types that stand only last in a node of that type (a member expression's property,
   * an argument list's `)`): a pattern node of that type ending in such a child is matched only by code nodes
   * that end there too, so a structural search's token run may go on past it (`c.req.header(` is one run).
   */
  closedNodes: Readonly<Record<string, readonly string[]>>;
  /** A line opening with `#` is a preprocessor directive, not a comment (the C family). */
  hashLinesArePreprocessor: boolean;
  /** Macro bodies (`#define`) are text the grammar does not parse, so a name may hide in one. */
  macroBodiesAreText: boolean;
  /** ripgrep's `-t` type names for this language besides its id (`ts`, `py`), so a search's type works as in rg. */
  searchTypeAliases: readonly string[];
  /**
   * A header extension this language claims from another when the file's start shows its syntax (C++ takes a
   * `.h` whose head has templates, classes, namespaces or `::`), or null.
   */
  claimsHeader: { extension: string; from: string; marker: RegExp } | null;
}
