/**
 * The definition gate's data: which symbol kinds are definitions it guards,
 * and the language's definition keywords (its profile's `definitionKeywords`)
 * parsed into rules: the gate's floor (a definition keyword on a changed line
 * counts even when the tags query did not list the definition, e.g. inside a
 * parse error). Private to `src/guards/`. The profiles state the seed's table:
 * Rust fn/struct/impl/trait/enum; Python def/class; Go func/struct/interface;
 * TS/JS function/class/interface/enum; Java class/interface/enum; Kotlin
 * fun/class/interface/enum; C/C++ struct/class/enum; C# class/struct/
 * interface/enum; Ruby def/class (`async` is a modifier inside the same
 * declaration as its `fn`/`def`/`function`).
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
import { profileOf } from "../languages/profiles.ts";

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
    for (const [keyword, entries] of Object.entries(profileOf(language).definitionKeywords)) {
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
