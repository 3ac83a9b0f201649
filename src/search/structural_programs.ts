/**
 * A structural query compiled per language, on first need, for one scan (`structural_search.ts`): which
 * languages read it, which refused it and what each grammar saw.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import type { CompiledQuery, StructuralMatcher, StructuralProgram, StructuralQuery } from "./types.ts";

/** What a program is compiled from beside its pattern or rule (each given only when the query has it). */
const COMPILED_KEYS = ["rewrite", "transform", "rewriters", "expandStart", "expandEnd"] as const;

/** Where a scan notes each language's answer to the query. */
export interface LanguageReadings {
  /** Languages whose grammar does not read the pattern, with the refusal. */
  refused: Map<string, RecoverableError>;
  /** Languages that read it. */
  accepted: Set<string>;
  /** Languages that read it only as one ERROR node, with what they saw. */
  readAsError: Map<string, string>;
  /** Each language's reading of a code pattern. */
  readings: Map<string, string>;
}

/**
 * What a query's program is compiled from: its pattern or rule, and its rewrite, transform, rewriters and
 * expansions where it has them.
 *
 * @param query The query.
 * @returns The parts the matcher compiles.
 */
export function compiledQueryOf(query: StructuralQuery): CompiledQuery {
  const out: CompiledQuery = query.rule ? { rule: query.rule } : { pattern: query.pattern };
  for (const key of COMPILED_KEYS) {
    if (query[key] !== undefined) Object.assign(out, { [key]: query[key] });
  }
  return out;
}

/**
 * The pattern compiled per language, on first need; a language where it does not parse is remembered.
 *
 * @param matcher The structural area's pattern engine.
 * @param query The query (its pattern or rule, rewrite and transform, and the languages given).
 * @param languages Where each language's answer is noted (a scan's counts).
 * @returns The program of a language, or null for one whose grammar does not read the pattern.
 * @throws RecoverableError `invalid_query` at once where the languages were given; any other refusal.
 */
export function programs(
  matcher: StructuralMatcher,
  query: StructuralQuery,
  languages: LanguageReadings,
): (language: string) => Promise<StructuralProgram | null> {
  const { refused, accepted, readAsError, readings } = languages;
  const compiled = new Map<string, Promise<StructuralProgram | null>>();
  const pattern = compiledQueryOf(query);
  return (language) => {
    let p = compiled.get(language);
    if (p === undefined) {
      p = matcher.compile(language, pattern).then((program) => {
        accepted.add(language);
        if (program?.readAsError) readAsError.set(language, program.readAsError);
        if (program?.reading) readings.set(language, program.reading);
        return program;
      }, (err) => {
        // With the languages given, a pattern one of them cannot read is the caller's mistake: say so now; a
        // refusal that is not about the language (a bad rule key) is the caller's mistake in any language.
        if (
          !(err instanceof RecoverableError) || err.code !== "invalid_query" || query.languages.length > 0
        ) {
          throw err;
        }
        refused.set(language, err);
        return null;
      });
      compiled.set(language, p);
    }
    return p;
  };
}
