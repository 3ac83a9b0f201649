/**
 * The definition gate's data: which symbol kinds are definitions it guards,
 * and the per-language keyword table that is its floor (a definition keyword
 * on a changed line counts even when the tags query did not list the
 * definition, e.g. inside a parse error). Private to `src/guards/`.
 *
 * A keyword counts only as a token of the parse tree (never inside a comment
 * or a string) and only when it introduces a declaration: its parent node (or
 * the chain of ancestors written `outer>parent`) must be one of the listed
 * node types. `struct_specifier{body}` also asks the node to have a body, so
 * C's `struct stat st;` (a use of the type) does not count where
 * `struct stat { ... };` does. `ERROR` stands for a parse error the keyword
 * sits in directly: there it counts when a name follows it (`def a`), since
 * the parser could not build the declaration (C and C++ keywords do not, as
 * `struct stat st` reads the same). Expressions that share a keyword (a JS
 * `function` expression, a Go `func` literal, `interface{}` as a type, a Rust
 * `fn(i32)` type or `impl Trait` in a return type, Java's `Foo.class`) never
 * match.
 *
 * @module
 */

/** Symbol kinds (from the tags queries) whose header the gate guards. */
export const GATED_KINDS: ReadonlySet<string> = new Set([
  "function",
  "method",
  "constructor",
  "class",
  "interface",
  "struct",
  "enum",
  "trait",
  "impl",
  "module",
  "namespace",
  "union",
  "type",
  "test",
]);

type KeywordTable = Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;

const TS: Readonly<Record<string, readonly string[]>> = {
  function: ["function_declaration", "generator_function_declaration", "function_signature", "ERROR"],
  class: ["class_declaration", "abstract_class_declaration", "ERROR"],
  interface: ["interface_declaration", "ERROR"],
  enum: ["enum_declaration", "ERROR"],
};

const C_FAMILY = {
  struct: ["struct_specifier{body}"],
  class: ["class_specifier{body}"],
  enum: ["enum_specifier{body}"],
};

/**
 * language -> keyword -> the node types the keyword must head. The seed's
 * table: Rust fn/async fn/struct/impl/trait/enum; Python def/async def/class;
 * Go func/struct/interface; TS/JS function/async function/class/interface/enum;
 * Java class/interface/enum; Kotlin fun/class/interface/enum; C/C++
 * struct/class/enum; C# class/struct/interface/enum; Ruby def/class. (`async`
 * is a modifier inside the same declaration as its `fn`/`def`/`function`.)
 */
export const DEFINITION_KEYWORDS: KeywordTable = {
  rust: {
    fn: ["function_item", "function_signature_item", "ERROR"],
    struct: ["struct_item", "ERROR"],
    impl: ["impl_item"],
    trait: ["trait_item", "ERROR"],
    enum: ["enum_item", "ERROR"],
  },
  python: { def: ["function_definition", "ERROR"], class: ["class_definition", "ERROR"] },
  go: {
    func: ["function_declaration", "method_declaration", "ERROR"],
    struct: ["type_spec>struct_type"],
    interface: ["type_spec>interface_type"],
  },
  typescript: TS,
  tsx: TS,
  javascript: {
    function: ["function_declaration", "generator_function_declaration", "ERROR"],
    class: ["class_declaration", "ERROR"],
  },
  java: {
    class: ["class_declaration", "ERROR"],
    interface: ["interface_declaration", "ERROR"],
    enum: ["enum_declaration", "ERROR"],
  },
  kotlin: {
    fun: ["function_declaration", "ERROR"],
    class: ["class_declaration", "ERROR"],
    interface: ["class_declaration", "ERROR"],
    enum: ["class_declaration>modifiers>class_modifier"],
  },
  c: { struct: C_FAMILY.struct, enum: C_FAMILY.enum },
  cpp: C_FAMILY,
  c_sharp: {
    class: ["class_declaration", "ERROR"],
    struct: ["struct_declaration", "ERROR"],
    interface: ["interface_declaration", "ERROR"],
    enum: ["enum_declaration", "ERROR"],
  },
  ruby: { def: ["method", "singleton_method", "ERROR"], class: ["class", "singleton_class", "ERROR"] },
};

/** One parsed entry of the keyword table. */
export interface KeywordRule {
  /** Ancestor node types, outermost first, ending with the keyword's parent; the first is the definition. */
  chain: string[];
  /** Whether the definition node must have a `body` field. */
  needsBody: boolean;
}

const PARSED = new Map<string, Map<string, KeywordRule[]>>();

/**
 * The keyword rules of a language, parsed once.
 *
 * @param language Language id.
 * @returns keyword -> rules (empty for a language outside the table).
 */
export function keywordRules(language: string): Map<string, KeywordRule[]> {
  let rules = PARSED.get(language);
  if (!rules) {
    rules = new Map();
    for (const [keyword, entries] of Object.entries(DEFINITION_KEYWORDS[language] ?? {})) {
      rules.set(
        keyword,
        entries.map((e) => {
          const needsBody = e.endsWith("{body}");
          return { chain: (needsBody ? e.slice(0, -6) : e).split(">"), needsBody };
        }),
      );
    }
    PARSED.set(language, rules);
  }
  return rules;
}
