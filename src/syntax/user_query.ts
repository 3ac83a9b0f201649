/**
 * Tree-sitter queries written by users (the `query` selector of
 * `edit_apply_node` and friends). web-tree-sitter evaluates `#match?` and
 * `#not-match?` with a backtracking `RegExp`, so one predicate such as
 * `"^(a|aa)+c$"` against a long identifier blocks the event loop for as long
 * as it likes. Here the regex predicates (`#match?`, `#not-match?`,
 * `#any-match?`, `#any-not-match?`) are renamed before web-tree-sitter sees
 * them, so it keeps them as plain predicates, and graver evaluates them on
 * the linear-time engine (`linear_regex.ts`) with web-tree-sitter's meaning:
 * every captured node must match (any one for `any-`), and a pattern with no
 * such node passes only the negative forms. `#eq?`, `#any-of?` and the rest
 * stay web-tree-sitter's.
 *
 * @module
 */
import type { Language, Node, Query, QueryCapture, QueryMatch } from "web-tree-sitter";
import { RecoverableError } from "../errors.ts";
import { treeSitter } from "./grammars.ts";
import { compileLinearRegex } from "./linear_regex.ts";

/** The predicates whose regular expression graver evaluates itself. */
export const REGEX_PREDICATES: readonly string[] = ["match?", "not-match?", "any-match?", "any-not-match?"];

/** What the renamed predicates are called while web-tree-sitter holds them. */
const RENAMED = "graver-";

/** A compiled user query: web-tree-sitter's `Query` plus graver's regex predicates. */
export interface UserQuery {
  /** The compiled query (capture names, other predicates). */
  readonly query: Query;
  /** Captures in document order, of the matches whose predicates all hold. */
  captures(node: Node): QueryCapture[];
  /** Free the query. */
  delete(): void;
}

/**
 * `source` with each regex predicate renamed (`#match?` → `#graver-match?`), outside strings and comments,
 * and the offsets (in the original) where a rename was made.
 *
 * @param source A query in tree-sitter's S-expression syntax.
 * @returns The rewritten source and the original offsets of the renamed predicates' names.
 */
export function renameRegexPredicates(source: string): { source: string; renamedAt: number[] } {
  let out = "";
  let from = 0;
  const renamedAt: number[] = [];
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '"') {
      for (i++; i < source.length && source[i] !== '"'; i++) if (source[i] === "\\") i++;
    } else if (c === ";") {
      while (i < source.length && source[i] !== "\n") i++;
    } else if (c === "#") {
      let end = i + 1;
      while (end < source.length && /[\w?!.-]/.test(source[end]!)) end++;
      if (REGEX_PREDICATES.includes(source.slice(i + 1, end))) {
        out += source.slice(from, i + 1) + RENAMED;
        from = i + 1;
        renamedAt.push(i + 1);
      }
      i = end - 1;
    }
  }
  return { source: out + source.slice(from), renamedAt };
}

type Check = (captures: QueryCapture[]) => boolean;

/** The regex predicates of one pattern as checks on a match's captures. */
function regexChecks(query: Query, patternIndex: number): Check[] {
  const checks: Check[] = [];
  for (const p of query.predicatesForPattern(patternIndex)) {
    if (!p.operator.startsWith(RENAMED)) continue;
    const operator = p.operator.slice(RENAMED.length);
    const [capture, pattern] = p.operands;
    if (p.operands.length !== 2 || capture?.type !== "capture" || pattern?.type !== "string") {
      throw new RecoverableError(
        "invalid_query",
        `Cannot use #${operator} as written: it takes a capture and a string`,
        {
          hint: `Write it as (#${operator} @name "regex")`,
          details: { operator, operands: p.operands.length },
        },
      );
    }
    const regex = compileLinearRegex(pattern.value, {
      what: `the #${operator} predicate`,
      code: "invalid_query",
    });
    const positive = !operator.includes("not-");
    const every = !operator.startsWith("any-");
    checks.push((captures) => {
      const texts = captures.filter((c) => c.name === capture.name).map((c) => c.node.text);
      if (texts.length === 0) return !positive;
      const holds = (text: string) => regex.test(text) === positive;
      return every ? texts.every(holds) : texts.some(holds);
    });
  }
  return checks;
}

/**
 * Compile a user's query with its regex predicates on the linear-time engine.
 *
 * @param language The loaded language.
 * @param source The query.
 * @returns The compiled query.
 * @throws web-tree-sitter's `QueryError` for a query that does not compile (its `index` in `source`'s own
 *   offsets), or `invalid_query` for a regex predicate the engine refuses (look-around, backreferences).
 */
export function compileUserQuery(language: Language, source: string): UserQuery {
  const renamed = renameRegexPredicates(source);
  let query: Query;
  try {
    query = new (treeSitter().Query)(language, renamed.source);
  } catch (cause) {
    const e = cause as { index?: number };
    if (typeof e.index === "number") {
      const at = e.index;
      e.index = at - RENAMED.length * renamed.renamedAt.filter((r, k) => r + RENAMED.length * k < at).length;
    }
    throw cause;
  }
  let checks: Check[][];
  try {
    checks = Array.from({ length: query.patternCount() }, (_, i) => regexChecks(query, i));
  } catch (err) {
    query.delete();
    throw err;
  }
  const anyChecks = checks.some((c) => c.length > 0);
  return {
    query,
    captures(node) {
      if (!anyChecks) return query.captures(node);
      const kept = query.matches(node).filter((m: QueryMatch) =>
        checks[m.patternIndex]!.every((c) => c(m.captures))
      );
      return kept.flatMap((m) => m.captures).sort((a, b) => a.node.startIndex - b.node.startIndex);
    },
    delete: () => query.delete(),
  };
}
