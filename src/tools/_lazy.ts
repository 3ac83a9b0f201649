/**
 * Engines loaded on first call. A tool module is data (name, description,
 * schema) plus a handler; the handler imports the engine it needs with a
 * dynamic `import()` the first time it runs, so that opening a workspace or
 * listing the tools evaluates no engine, and a call evaluates only its area's
 * engines (text, or structural with the syntax and guard modules they share).
 * The module system caches the import: later calls pay nothing.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";

/**
 * A loader for one engine module, imported on first call.
 *
 * @param what The engine, as an agent reads it ("the structural engine (extract)").
 * @param load The dynamic import, written out so that bundlers find it, picking the engine's own module
 *   (`async () => (await import("./_engines_structural.ts")).rename`). Engines are grouped by area
 *   (`_engines_text.ts`, `_engines_search.ts`, `_engines_structural.ts`, one namespace per engine module): a bundle gets one
 *   lazy chunk per area, not one per engine — workerd compiles every module a worker ships when it starts,
 *   so each extra module costs start time while a lazy one saves only its evaluation.
 * @returns A function resolving to the module; a failed import is refused as `internal` (nothing was written).
 *
 * @example Load once, call many times
 * ```ts
 * import { lazyEngine } from "./_lazy.ts";
 * import assert from "node:assert/strict";
 *
 * const parser = lazyEngine("the edit parser", async () => (await import("./_engines_text.ts")).parseEdits);
 * assert.equal((await parser()).detectFormat("<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n"), "search-replace");
 * assert.equal(await parser(), await parser());
 * ```
 */
export function lazyEngine<T>(what: string, load: () => Promise<T>): () => Promise<T> {
  return async () => {
    try {
      return await load();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw new RecoverableError("internal", `Cannot load ${what}: ${message}`, {
        hint:
          "Nothing was written. graver's installation is incomplete (a module of its package or bundle is missing): reinstall or rebuild it, then retry the call",
        details: { engine: what },
        cause: err,
      });
    }
  };
}

/** `syntax/queries.ts` alone (which languages have which query), for edit_capabilities. */
export const queryIndexEngine = lazyEngine("the query index", () => import("../syntax/queries.ts"));

/** `structural/edit/anchors.ts` (structural engine (anchors)), from the structural engines' chunk. */
export const anchorsEngine = lazyEngine(
  "the structural engine (anchors)",
  async () => (await import("./_engines_structural.ts")).anchors,
);

/** `text/apply_edit_ops.ts` (text engine (apply edits)), from the text engines' chunk. */
export const applyEngine = lazyEngine(
  "the text engine (apply edits)",
  async () => (await import("./_engines_text.ts")).applyEditOps,
);

/** `structural/edit/edit_targets.ts` (structural engine (target edits)), from the structural engines' chunk. */
export const editTargetsEngine = lazyEngine(
  "the structural engine (target edits)",
  async () => (await import("./_engines_structural.ts")).editTargets,
);

/** `structural/extract/extract.ts` (structural engine (extract)), from the structural engines' chunk. */
export const extractEngine = lazyEngine(
  "the structural engine (extract)",
  async () => (await import("./_engines_structural.ts")).extract,
);

/** `structural/move_file/imports_rewrite.ts` (structural engine (import rewriting)), from the structural engines' chunk. */
export const importsEngine = lazyEngine(
  "the structural engine (import rewriting)",
  async () => (await import("./_engines_structural.ts")).importsRewrite,
);

/** `structural/inline/inline.ts` (structural engine (inline)), from the structural engines' chunk. */
export const inlineEngine = lazyEngine(
  "the structural engine (inline)",
  async () => (await import("./_engines_structural.ts")).inline,
);

/** `text/keep_eol.ts` (text engine (line endings)), from the text engines' chunk. */
export const keepEolEngine = lazyEngine(
  "the text engine (line endings)",
  async () => (await import("./_engines_text.ts")).keepEol,
);

/** `structural/move_decl/move_decl.ts` (structural engine (move declaration)), from the structural engines' chunk. */
export const moveDeclEngine = lazyEngine(
  "the structural engine (move declaration)",
  async () => (await import("./_engines_structural.ts")).moveDecl,
);

/** `structural/edit/node_edit.ts` (structural engine (node edits)), from the structural engines' chunk. */
export const nodeEditEngine = lazyEngine(
  "the structural engine (node edits)",
  async () => (await import("./_engines_structural.ts")).nodeEdit,
);

/** `text/parse_edits.ts` (text engine (edit parser)), from the text engines' chunk. */
export const parseEngine = lazyEngine(
  "the text engine (edit parser)",
  async () => (await import("./_engines_text.ts")).parseEdits,
);

/** `structural/references/references.ts` (structural engine (references)), from the structural engines' chunk. */
export const referencesEngine = lazyEngine(
  "the structural engine (references)",
  async () => (await import("./_engines_structural.ts")).references,
);

/** `structural/edit/selectors.ts` (structural engine (selectors)), from the structural engines' chunk. */
export const selectorEngine = lazyEngine(
  "the structural engine (selectors)",
  async () => (await import("./_engines_structural.ts")).selectors,
);

/** `structural/change_signature/signature.ts` (structural engine (change signature)), from the structural engines' chunk. */
export const signatureEngine = lazyEngine(
  "the structural engine (change signature)",
  async () => (await import("./_engines_structural.ts")).signature,
);

/** `structural/edit/source.ts` (structural engine (source files)), from the structural engines' chunk. */
export const sourceEngine = lazyEngine(
  "the structural engine (source files)",
  async () => (await import("./_engines_structural.ts")).source,
);

/** `text/str_replace.ts` (text engine (str_replace)), from the text engines' chunk. */
export const strReplaceEngine = lazyEngine(
  "the text engine (str_replace)",
  async () => (await import("./_engines_text.ts")).strReplace,
);

/** `structural/edit/symbol_insert.ts` (structural engine (insert next to a symbol)), from the structural engines' chunk. */
export const symbolInsertEngine = lazyEngine(
  "the structural engine (insert next to a symbol)",
  async () => (await import("./_engines_structural.ts")).symbolInsert,
);

/** `structural/edit/symbol_replace.ts` (structural engine (replace a symbol)), from the structural engines' chunk. */
export const symbolReplaceEngine = lazyEngine(
  "the structural engine (replace a symbol)",
  async () => (await import("./_engines_structural.ts")).symbolReplace,
);

/** `structural/edit/symbol_target.ts` (structural engine (a symbol by name path)), from the structural engines' chunk. */
export const symbolTargetEngine = lazyEngine(
  "the structural engine (a symbol by name path)",
  async () => (await import("./_engines_structural.ts")).symbolTarget,
);

/** `syntax/symbols.ts` (symbol outline), from the structural engines' chunk. */
export const symbolsEngine = lazyEngine(
  "the symbol outline",
  async () => (await import("./_engines_structural.ts")).symbols,
);

/** `syntax/markdown_outline.ts` (Markdown outline), from the structural engines' chunk. */
export const markdownOutlineEngine = lazyEngine(
  "the Markdown outline",
  async () => (await import("./_engines_structural.ts")).markdownOutline,
);

/** `syntax/queries.ts` (embedded queries), from the structural engines' chunk. */
export const queriesEngine = lazyEngine(
  "the embedded queries",
  async () => (await import("./_engines_structural.ts")).queries,
);

/** `syntax/bindings.ts` (bindings engine), from the structural engines' chunk. */
export const bindingsEngine = lazyEngine(
  "the bindings engine",
  async () => (await import("./_engines_structural.ts")).bindings,
);

/** `syntax/line_summary.ts` (summary of omitted lines), from the structural engines' chunk. */
export const lineSummaryEngine = lazyEngine(
  "the summary of omitted lines",
  async () => (await import("./_engines_structural.ts")).lineSummary,
);

/** `guards/definition_gate.ts` (definition gate), from the structural engines' chunk. */
export const definitionGateEngine = lazyEngine(
  "the definition gate",
  async () => (await import("./_engines_structural.ts")).definitionGate,
);

/** `syntax/syntax_guard.ts` (parses each change's after-state), a chunk of its own. */
export const syntaxGuardEngine = lazyEngine(
  "the syntax guard",
  () => import("../syntax/syntax_guard.ts"),
);
