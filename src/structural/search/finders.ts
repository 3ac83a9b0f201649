/**
 * How a compiled query finds its matches in one tree (`Finder`): from the places its rarest required text
 * occurs as a leaf, else from the nodes of its kind, or by a rule; the texts every match holds verbatim (so a
 * file lacking one is never parsed) and the test of its token runs; and its matches in one file, a refusal of
 * the matcher naming the file. The project matcher (`pattern_matcher.ts`) compiles a query into one per
 * language.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import {
  type Binding,
  type CompiledPattern,
  matchPattern,
  matchPatternAround,
  type PatternNode,
} from "../edit/pattern.ts";
import { type CompiledRule, matchRule, requiredPatterns, ruleLiterals } from "./rule.ts";
import { runFilter, type RunLexicon } from "./token_runs.ts";

/** Most matches taken from one file (a pattern such as `$A($$$B)` on a generated file stays bounded). */
export const MAX_MATCHES_PER_FILE = 100_000;

/** Separators the matcher may skip next to `$$$X` (`f(a, $$$B)` matches `f(a)`): not required in a file. */
const OPTIONAL_TOKENS = new Set([",", ";"]);

/**
 * The leaf texts of a compiled pattern that every match holds verbatim: leaves are compared byte for byte,
 * so each one's text is in any file the pattern matches. Punctuation of one character is left out (it is
 * in every file and tells nothing).
 *
 * @param root The compiled pattern's root.
 * @returns The texts, longest first, without repeats.
 */
export function requiredTexts(root: PatternNode): string[] {
  const out = new Set<string>();
  const visit = (p: PatternNode) => {
    if (p.meta) return;
    if (p.children.length === 0) {
      if (p.text !== "" && !OPTIONAL_TOKENS.has(p.text) && (p.text.length > 1 || /\w/.test(p.text))) {
        out.add(p.text);
      }
      return;
    }
    for (const c of p.children) visit(c);
  };
  visit(root);
  return [...out].sort((a, b) => b.length - a.length);
}

/** A character a word is made of, as far as the whole-word test goes (ASCII only: any other is a boundary). */
const WORD_EDGE = /^[A-Za-z0-9_]|[A-Za-z0-9_]$/;

/**
 * The identifiers among a compiled pattern's leaf texts (a named leaf whose node type is an identifier of
 * some kind, as tree-sitter grammars name them): a lexer reads the longest run of word characters as one
 * identifier, so a match's identifier has no ASCII letter, digit or `_` right before or after it.
 *
 * @param root The compiled pattern's root.
 * @returns The texts with a word character at an end, without repeats.
 */
export function requiredWords(root: PatternNode): string[] {
  const out = new Set<string>();
  const visit = (p: PatternNode) => {
    if (p.meta) return;
    if (p.children.length > 0) return p.children.forEach(visit);
    if (p.named && p.type.includes("identifier") && WORD_EDGE.test(p.text)) out.add(p.text);
  };
  visit(root);
  return [...out];
}

/**
 * A finder's matches in one file; a refusal of the matcher (too many steps: `MAX_MATCH_STEPS`, or a rule's
 * `MAX_RELATION_VISITS`) names the file.
 *
 * @param find The finder.
 * @param root The file's tree's root.
 * @param file Its path and text.
 * @returns The matches with their bindings.
 */
export function matchesIn(
  find: Finder,
  root: Node,
  file: { path: string; text: string },
): { node: Node; bindings: Record<string, Binding> }[] {
  try {
    return find.matches(root, file.text);
  } catch (err) {
    if (
      !(err instanceof RecoverableError) || err.code !== "limit_exceeded" ||
      err.details?.["path"] !== undefined
    ) {
      throw err;
    }
    const message = err.message.replace(
      /^Cannot match the (pattern|rule)/,
      `Cannot match the $1 in "${file.path}"`,
    );
    throw new RecoverableError("limit_exceeded", message, {
      hint: err.hint ?? "",
      details: { ...err.details, path: file.path },
    });
  }
}

/** How a compiled query finds its matches in one tree, and the texts every match holds. */
export interface Finder {
  /** The pattern's root, or null for a rule (whose matches no one pattern describes). */
  pattern: PatternNode | null;
  literals: string[];
  words: string[];
  /** The test of the pattern's token runs, if it has any. */
  mayHold?: (text: string) => boolean;
  matches(root: Node, text: string): { node: Node; bindings: Record<string, Binding> }[];
}

/**
 * A pattern's finder: from the places its rarest required text occurs as a leaf when there is one, else from
 * the nodes of its kind; with the test of its token runs where the language's lexicon is known.
 *
 * @param compiled The compiled pattern.
 * @param lexicon The language's token-run lexicon, or null.
 * @returns The finder.
 */
export function patternFinder(compiled: CompiledPattern, lexicon: RunLexicon | null): Finder {
  const literals = requiredTexts(compiled.root);
  const mayHold = runFilter(compiled.root, lexicon);
  return {
    pattern: compiled.root,
    literals,
    words: requiredWords(compiled.root),
    ...(mayHold ? { mayHold } : {}),
    matches: (root, text) =>
      literals.length > 0
        ? matchPatternAround(compiled, root, { text, literal: literals, limit: MAX_MATCHES_PER_FILE })
        : matchPattern(compiled, root, { text, limit: MAX_MATCHES_PER_FILE }),
  };
}

/**
 * A rule's finder, with the test of the token runs of the patterns every match needs.
 *
 * @param rule The compiled rule.
 * @param lexicon The language's token-run lexicon, or null.
 * @returns The finder.
 */
export function ruleFinder(rule: CompiledRule, lexicon: RunLexicon | null): Finder {
  const tests = requiredPatterns(rule).map((p) => runFilter(p.root, lexicon)).filter((t) => t !== null);
  return {
    pattern: null,
    literals: ruleLiterals(rule, (p) => requiredTexts(p.root)),
    words: ruleLiterals(rule, (p) => requiredWords(p.root)),
    ...(tests.length > 0 ? { mayHold: (text: string) => tests.every((t) => t(text)) } : {}),
    matches: (root, text) =>
      matchRule(rule, root, {
        text,
        literalOf: (p) => {
          const texts = requiredTexts(p.root);
          return texts.length > 0 ? texts : undefined;
        },
        limit: MAX_MATCHES_PER_FILE,
      }),
  };
}
