/**
 * Every grammar of the manifest loads and parses a real file of its language
 * without errors; the S-expression digest must match in every runtime.
 *
 * @module
 */
import { GRAMMARS, versionOf } from "../../../src/mod.ts";
import { check, sha256Text } from "../assert.ts";
import type { Case } from "../types.ts";

/** One case per language in `grammars/manifest.json`. */
export const GRAMMAR_CASES: Case[] = Object.keys(GRAMMARS).map((id) => ({
  name: `grammar.${id}`,
  async run(ctx) {
    const sample = ctx.samples.find((s) => s.language === id);
    check(sample, `Expected a sample file for language "${id}" in samples.json`);
    const parser = await ctx.grammars.parser(id);
    try {
      const tree = parser.parse(sample.text);
      check(tree, `Expected "${sample.file}" to parse`);
      try {
        const root = tree.rootNode;
        check(
          !root.hasError,
          `Expected "${sample.file}" to parse without errors with the pinned ${id} grammar`,
        );
        check(root.endIndex === sample.text.length, `Expected the tree to span all of "${sample.file}"`);
        const sexp = root.toString();
        return {
          file: sample.file,
          bytes_sha256: await versionOf(new TextEncoder().encode(sample.text)),
          root: root.type,
          children: root.childCount,
          end_row: root.endPosition.row,
          sexp_sha256: await sha256Text(sexp),
          language_of_path: ctx.grammars.languageOf(sample.file),
        };
      } finally {
        tree.delete();
      }
    } finally {
      parser.delete();
    }
  },
}));
