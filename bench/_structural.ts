/**
 * What the structural benches share: the ast-grep binary (or a clean exit where it is not installed), and the
 * files a structural search parses, with their texts (the floor a parse-only or worker run is measured on).
 *
 * @module
 */
import { normalizeStructuralArgs, searchStructural } from "../src/search/mod.ts";
import { type PatternMatcher, patternMatcherOf } from "../src/structural/search/mod.ts";
import type { Parsing } from "../src/syntax/types.ts";
import { astGrepPath } from "../tests/unit/search/_astgrep.ts";
import { diskSearchFiles } from "../tests/unit/search/_rg.ts";

/**
 * The ast-grep binary (`AST_GREP`, else the pinned npm package's); where there is none, say so and end the
 * bench (exit 0: a bench that cannot compare has nothing to report).
 *
 * @param bench The bench's name, for the message.
 * @returns The binary's path.
 */
export async function astGrepOrExit(bench: string): Promise<string> {
  const bin = Deno.env.get("AST_GREP") ?? await astGrepPath();
  if (bin !== null) return bin;
  console.log(`${bench}: ast-grep is not installed (deno run -A scripts/install_runtimes.ts)`);
  Deno.exit(0);
}

/** A file a search parsed, and its text. */
export interface ParsedText {
  path: string;
  text: string;
}

/**
 * The files a structural search of `pattern` under `root` parses, with their texts: the matcher's program
 * sees each of them once.
 *
 * @param parsing The grammars and parse cache to search with.
 * @param search The tree, the pattern and its language.
 * @returns The parsed files, in the search's order.
 */
export async function parsedTexts(
  parsing: Parsing,
  search: { root: string; pattern: string; language: string },
): Promise<ParsedText[]> {
  const texts: ParsedText[] = [];
  const inner = patternMatcherOf(parsing);
  const matcher: PatternMatcher = {
    languageOf: inner.languageOf,
    async compile(language, query) {
      const program = await inner.compile(language, query);
      return {
        ...program,
        match(file) {
          texts.push({ path: file.path, text: file.text });
          return program.match(file);
        },
      };
    },
  };
  const query = normalizeStructuralArgs({
    pattern: search.pattern,
    language: search.language,
    max_results: 10_000_000,
  });
  await searchStructural(diskSearchFiles(search.root), query, { matcher });
  return texts;
}
