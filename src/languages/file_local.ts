/**
 * The languages whose names graver resolves within one file (no module
 * system): Java, C, C++, C#, Ruby, PHP, Kotlin, Scala, Lua, Zig and Bash.
 * Their profiles state identifiers and reserved words (for renames),
 * definition keywords (the definition gate's floor), pattern wrappers, and
 * the C family's preprocessor facts.
 *
 * @module
 */
import { AS_WRITTEN, defineProfile, WORD_IDENTIFIER, words } from "./_base.ts";
import type { LanguageProfile, PatternWrapper } from "./types.ts";

/** A statement inside a C function body, with and without its `;`. */
const C_BODY: readonly PatternWrapper[] = [
  { prefix: "void __w(void) {\n", suffix: ";\n}" },
  { prefix: "void __w(void) {\n", suffix: "\n}" },
];

const C_RESERVED =
  "auto break case char const continue default do double else enum extern float for goto if inline int long register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while _Bool _Complex _Imaginary";

/** What only C++ writes, outside comments: templates, classes with bodies or bases, namespaces, scopes, access labels. */
const CPP_MARKERS =
  /^[ \t]*(?:template\s*<|namespace\s+[\w:]+\s*\{|class\s+\w+(?:\s+final)?\s*[:{]|(?:public|private|protected)\s*:|using\s+namespace\b|extern\s+"C\+\+")|\b\w+::~?\w+\s*\(|#include\s*<(?:iostream|string|vector|memory|map|utility|functional|type_traits)>/m;

/** A struct, class or enum keyword heads a definition only when the specifier has a body. */
const C_FAMILY_KEYWORDS = {
  struct: ["struct_specifier{body}"],
  class: ["class_specifier{body}"],
  enum: ["enum_specifier{body}"],
};

/** Java. */
export const JAVA: LanguageProfile = defineProfile({
  id: "java",
  displayName: "Java",
  identifiers: {
    pattern: WORD_IDENTIFIER,
    reserved: words(
      "abstract assert boolean break byte case catch char class const continue default do double else enum extends final finally float for goto if implements import instanceof int interface long native new package private protected public return short static strictfp super switch synchronized this throw throws transient try void volatile while true false null var record yield",
    ),
  },
  definitionKeywords: {
    class: ["class_declaration", "ERROR"],
    interface: ["interface_declaration", "ERROR"],
    enum: ["enum_declaration", "ERROR"],
  },
  patternWrappers: [
    ...AS_WRITTEN,
    { prefix: "class __W {\n", suffix: "\n}" },
    { prefix: "class __W {\nvoid __w() {\n", suffix: ";\n}\n}" },
  ],
  refactors: {
    extractFunction: false,
    inline: false,
    changeSignature: false,
    moveDeclarationInto: [],
    renameFromEdits: true,
  },
});

/**
 * What a structural search's token runs take from C and C++ (`token_runs.ts`): their comments — a `//`
 * comment goes on past a line ending in `\`, so the run test gives up there rather than skip it; a block
 * comment does not nest — and the nodes that end at a given child.
 */
const C_FAMILY_RUNS = {
  commentStarts: ["//", "/*"],
  skippableComments: { line: [], block: [{ open: "/*", close: "*/" }] },
  closedNodes: {
    call_expression: ["argument_list"],
    argument_list: [")"],
    field_expression: ["field_identifier"],
    parameter_list: [")"],
    subscript_expression: ["]"],
    compound_statement: ["}"],
  },
} satisfies Pick<LanguageProfile, "commentStarts" | "skippableComments" | "closedNodes">;

/** C. */
export const C: LanguageProfile = defineProfile({
  id: "c",
  displayName: "C",
  identifiers: { pattern: WORD_IDENTIFIER, reserved: words(C_RESERVED) },
  definitionKeywords: { struct: C_FAMILY_KEYWORDS.struct, enum: C_FAMILY_KEYWORDS.enum },
  patternWrappers: [...C_BODY, ...AS_WRITTEN, { prefix: "struct __W {\n", suffix: "\n};" }],
  indentUnit: "\t",
  hashLinesArePreprocessor: true,
  macroBodiesAreText: true,
  ...C_FAMILY_RUNS,
});

/** C++. */
export const CPP: LanguageProfile = defineProfile({
  id: "cpp",
  displayName: "C++",
  identifiers: {
    pattern: WORD_IDENTIFIER,
    reserved: words(
      `${C_RESERVED} alignas alignof and asm bool catch class constexpr const_cast decltype delete dynamic_cast explicit export false friend mutable namespace new noexcept not nullptr operator or private protected public reinterpret_cast static_assert static_cast template this thread_local throw true try typeid typename using virtual wchar_t xor`,
    ),
  },
  definitionKeywords: C_FAMILY_KEYWORDS,
  patternWrappers: [...C_BODY, ...AS_WRITTEN, { prefix: "class __W {\n", suffix: "\n};" }],
  hashLinesArePreprocessor: true,
  macroBodiesAreText: true,
  claimsHeader: { extension: ".h", from: "c", marker: CPP_MARKERS },
  ...C_FAMILY_RUNS,
});

/** C#. */
export const C_SHARP: LanguageProfile = defineProfile({
  id: "c_sharp",
  displayName: "C#",
  identifiers: {
    pattern: WORD_IDENTIFIER,
    reserved: words(
      "abstract as base bool break byte case catch char checked class const continue decimal default delegate do double else enum event explicit extern false finally fixed float for foreach goto if implicit in int interface internal is lock long namespace new null object operator out override params private protected public readonly ref return sbyte sealed short sizeof stackalloc static string struct switch this throw true try typeof uint ulong unchecked unsafe ushort using virtual void volatile while",
    ),
  },
  definitionKeywords: {
    class: ["class_declaration", "ERROR"],
    struct: ["struct_declaration", "ERROR"],
    interface: ["interface_declaration", "ERROR"],
    enum: ["enum_declaration", "ERROR"],
  },
  // A member first: as written, `void M() {}` would read as a top-level local function.
  patternWrappers: [{ prefix: "class __W {\n", suffix: "\n}" }, ...AS_WRITTEN],
  hashLinesArePreprocessor: true,
  searchTypeAliases: ["cs", "csharp"],
});

/** Ruby. */
export const RUBY: LanguageProfile = defineProfile({
  id: "ruby",
  displayName: "Ruby",
  identifiers: {
    pattern: WORD_IDENTIFIER,
    reserved: words(
      "BEGIN END alias and begin break case class def defined? do else elsif end ensure false for if in module next nil not or redo rescue retry return self super then true undef unless until when while yield",
    ),
  },
  definitionKeywords: {
    def: ["method", "singleton_method", "ERROR"],
    class: ["class", "singleton_class", "ERROR"],
  },
  patternWrappers: [{ prefix: "", suffix: "" }, { prefix: "class W__\n", suffix: "\nend" }],
  searchTypeAliases: ["rb"],
});

/** PHP. */
export const PHP: LanguageProfile = defineProfile({
  id: "php",
  displayName: "PHP",
  identifiers: {
    pattern: WORD_IDENTIFIER,
    reserved: words(
      "abstract and array as break callable case catch class clone const continue declare default do echo else elseif empty enddeclare endfor endforeach endif endswitch endwhile enum eval exit extends final finally fn for foreach function global goto if implements include instanceof insteadof interface isset list match namespace new or print private protected public readonly require return static switch throw trait try unset use var while xor yield",
    ),
  },
  patternWrappers: [
    { prefix: "<?php\n", suffix: "" },
    { prefix: "<?php\n", suffix: ";" },
    { prefix: "<?php\nclass __W {\n", suffix: "\n}" },
  ],
});

/** Kotlin. */
export const KOTLIN: LanguageProfile = defineProfile({
  id: "kotlin",
  displayName: "Kotlin",
  identifiers: {
    pattern: WORD_IDENTIFIER,
    reserved: words(
      "as break class continue do else false for fun if in interface is null object package return super this throw true try typealias typeof val var when while",
    ),
  },
  definitionKeywords: {
    fun: ["function_declaration", "ERROR"],
    class: ["class_declaration", "ERROR"],
    interface: ["class_declaration", "ERROR"],
    enum: ["class_declaration>modifiers>class_modifier"],
  },
  patternWrappers: [...AS_WRITTEN, { prefix: "fun __w() {\n", suffix: "\n}" }, {
    prefix: "class __W {\n",
    suffix: "\n}",
  }],
  searchTypeAliases: ["kt"],
});

/** Scala. */
export const SCALA: LanguageProfile = defineProfile({
  id: "scala",
  displayName: "Scala",
  patternWrappers: [...AS_WRITTEN, { prefix: "object __W {\n", suffix: "\n}" }],
});

/** Lua. */
export const LUA: LanguageProfile = defineProfile({ id: "lua", displayName: "Lua" });

/** Zig. */
export const ZIG: LanguageProfile = defineProfile({ id: "zig", displayName: "Zig" });

/** Bash. */
export const BASH: LanguageProfile = defineProfile({
  id: "bash",
  displayName: "Bash",
  searchTypeAliases: ["sh"],
});
