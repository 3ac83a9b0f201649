/**
 * Queries: the tree-sitter query files graver owns (`grammars/<lang>/queries/*.scm`),
 * embedded as JSON so every runtime gets them through an import, compiled
 * once per loaded language and cached. Also the per-language symbol rules
 * (`grammars/<lang>/symbols.json`): which nodes are comments, decorations and
 * wrappers of a definition — data, not per-language code.
 *
 * @module
 */
import type { Query } from "web-tree-sitter";
import embedded from "../../grammars/queries.json" with { type: "json" };
import { RecoverableError } from "../errors.ts";
import { type Grammars, treeSitter } from "./grammars.ts";

/** Per-language facts the symbol engine needs besides the tags query. */
export interface SymbolRules {
  /** Node types that are comments. */
  comments: string[];
  /** A comment is a doc comment only when its text matches this (default: any adjacent comment). */
  doc_pattern?: string;
  /** Node types that decorate the next sibling definition (decorators, attributes, annotations). */
  decorations: string[];
  /** Node types that wrap exactly one definition (export, decorated_definition, `type` declarations…). */
  wrappers: string[];
  /** Node types that are a definition's body when it has no `body` field (e.g. Kotlin `class_body`). */
  bodies?: string[];
  /** A data or markup language (JSON, YAML, CSS…): outlined, but skipped by workspace-wide symbol search. */
  data?: boolean;
  /** Kinds that are locals, not listed, when directly inside a symbol of a `scope_kinds` kind (default {@linkcode LOCAL_KINDS}). */
  local_kinds?: string[];
  /** Kinds whose bodies hold locals (default {@linkcode SCOPE_KINDS}). */
  scope_kinds?: string[];
  /**
   * Bodies the grammar accepts empty but the language refuses (Python's `block`), and the statement that fills
   * one (`pass`): the syntax guard counts a new empty one as an error, and removals put the filler in.
   */
  empty_body?: { types: string[]; filler: string };
  /** Node types whose items are separated by commas (a JS `object`): an item inserted next to the only one brings one. */
  comma_lists?: string[];
  /**
   * Read from the grammar's `node-types.json` when queries.json is built (not written by hand): the node
   * types that can sit directly in a wrapper, and those with a `body` or a `value` field. Lets the symbol
   * engine skip asking the tree what cannot be.
   */
  shape?: { wrappable: string[]; body: string[]; value: string[] };
}

/** Kinds dropped as locals inside functions unless a language says otherwise. */
export const LOCAL_KINDS: readonly string[] = [
  "variable",
  "constant",
  "method",
  "field",
  "property",
  "enum_member",
];
/** Function-like kinds whose bodies hold locals. */
export const SCOPE_KINDS: readonly string[] = ["function", "method", "constructor"];

interface EmbeddedLanguage {
  queries: Record<string, string>;
  symbols?: SymbolRules;
}

const LANGUAGES = (embedded as { languages: Record<string, EmbeddedLanguage> }).languages;

const DEFAULT_RULES: SymbolRules = { comments: ["comment"], decorations: [], wrappers: [] };

/**
 * The source of one embedded query file.
 *
 * @param language Language id.
 * @param name Query name ("tags").
 * @returns The query text, or null when graver has none for that language.
 */
export function querySource(language: string, name: string): string | null {
  return LANGUAGES[language]?.queries[name] ?? null;
}

/**
 * The symbol rules of a language (defaults when it has none).
 *
 * @param language Language id.
 * @returns Comments, decorations and wrapper node types.
 */
export function symbolRules(language: string): SymbolRules {
  return LANGUAGES[language]?.symbols ?? DEFAULT_RULES;
}

/** Languages that have a tags query. */
export function languagesWithTags(): string[] {
  return languagesWithQuery("tags");
}

/**
 * Languages that have the query `name` (e.g. "bindings").
 *
 * @param name Query name.
 * @returns Language ids.
 */
export function languagesWithQuery(name: string): string[] {
  return Object.keys(LANGUAGES).filter((l) => LANGUAGES[l]!.queries[name] !== undefined);
}

const CACHE = new WeakMap<object, Map<string, Query>>();

/**
 * The compiled query `name` for a language, cached per loaded language.
 *
 * @param grammars The language registry.
 * @param language Language id.
 * @param name Query name ("tags").
 * @returns The compiled query, or null when there is no such query.
 */
export async function loadQuery(grammars: Grammars, language: string, name: string): Promise<Query | null> {
  const source = querySource(language, name);
  if (source === null) return null;
  const lang = await grammars.language(language);
  let byName = CACHE.get(lang);
  if (!byName) CACHE.set(lang, byName = new Map());
  let query = byName.get(name);
  if (!query) {
    try {
      query = new (treeSitter().Query)(lang, source);
    } catch (cause) {
      throw new RecoverableError(
        "internal",
        `Cannot compile "grammars/${language}/queries/${name}.scm": ${
          cause instanceof Error ? cause.message : cause
        }`,
        { hint: "This is a bug in graver's query files; report it with the language id", cause },
      );
    }
    byName.set(name, query);
  }
  return query;
}
