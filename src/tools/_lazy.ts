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
 * @param load The dynamic import, written out (`() => import("./_engines_structural.ts")`) so that bundlers
 *   find it. Engines are grouped by area (`_engines_text.ts`, `_engines_structural.ts`): a bundle gets one
 *   lazy chunk per area, not one per engine — workerd compiles every module a worker ships when it starts,
 *   so each extra module costs start time while a lazy one saves only its evaluation.
 * @returns A function resolving to the module; a failed import is refused as `internal` (nothing was written).
 *
 * @example Load once, call many times
 * ```ts
 * import { lazyEngine } from "./_lazy.ts";
 * import assert from "node:assert/strict";
 *
 * const lines = lazyEngine("the line helpers", () => import("./_engines_text.ts"));
 * assert.equal((await lines()).textLines("a\nb").length, 2);
 * assert.equal(await lines(), await lines());
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

/** The query index (which languages have which query): `syntax/queries.ts` alone, for edit_capabilities. */
export const queryIndexEngine = lazyEngine("the query index", () => import("../syntax/queries.ts"));

/** The structural engine (anchors). */
export const anchorsEngine = lazyEngine(
  "the structural engine (anchors)",
  () => import("./_engines_structural.ts"),
);

/** The text engine (apply edits). */
export const applyEngine = lazyEngine(
  "the text engine (apply edits)",
  () => import("./_engines_text.ts"),
);

/** The structural engine (target edits). */
export const editTargetsEngine = lazyEngine(
  "the structural engine (target edits)",
  () => import("./_engines_structural.ts"),
);

/** The structural engine (extract). */
export const extractEngine = lazyEngine(
  "the structural engine (extract)",
  () => import("./_engines_structural.ts"),
);

/** The structural engine (import rewriting). */
export const importsEngine = lazyEngine(
  "the structural engine (import rewriting)",
  () => import("./_engines_structural.ts"),
);

/** The structural engine (inline). */
export const inlineEngine = lazyEngine(
  "the structural engine (inline)",
  () => import("./_engines_structural.ts"),
);

/** The text engine (line endings). */
export const keepEolEngine = lazyEngine(
  "the text engine (line endings)",
  () => import("./_engines_text.ts"),
);

/** The structural engine (move declaration). */
export const moveDeclEngine = lazyEngine(
  "the structural engine (move declaration)",
  () => import("./_engines_structural.ts"),
);

/** The structural engine (node edits). */
export const nodeEditEngine = lazyEngine(
  "the structural engine (node edits)",
  () => import("./_engines_structural.ts"),
);

/** The text engine (edit parser). */
export const parseEngine = lazyEngine(
  "the text engine (edit parser)",
  () => import("./_engines_text.ts"),
);

/** The structural engine (references). */
export const referencesEngine = lazyEngine(
  "the structural engine (references)",
  () => import("./_engines_structural.ts"),
);

/** The structural engine (rename). */
export const renameEngine = lazyEngine(
  "the structural engine (rename)",
  () => import("./_engines_structural.ts"),
);

/** The structural engine (selectors). */
export const selectorEngine = lazyEngine(
  "the structural engine (selectors)",
  () => import("./_engines_structural.ts"),
);

/** The structural engine (change signature). */
export const signatureEngine = lazyEngine(
  "the structural engine (change signature)",
  () => import("./_engines_structural.ts"),
);

/** The structural engine (source files). */
export const sourceEngine = lazyEngine(
  "the structural engine (source files)",
  () => import("./_engines_structural.ts"),
);

/** The text engine (str_replace). */
export const strReplaceEngine = lazyEngine(
  "the text engine (str_replace)",
  () => import("./_engines_text.ts"),
);

/** The structural engine (insert next to a symbol). */
export const symbolInsertEngine = lazyEngine(
  "the structural engine (insert next to a symbol)",
  () => import("./_engines_structural.ts"),
);

/** The structural engine (replace a symbol). */
export const symbolReplaceEngine = lazyEngine(
  "the structural engine (replace a symbol)",
  () => import("./_engines_structural.ts"),
);

/** The structural engine (a symbol by name path). */
export const symbolTargetEngine = lazyEngine(
  "the structural engine (a symbol by name path)",
  () => import("./_engines_structural.ts"),
);

/** The syntax layer's symbols (outline, definitions). */
export const symbolsEngine = lazyEngine(
  "the symbol outline",
  () => import("./_engines_structural.ts"),
);

/** The syntax layer's embedded queries. */
export const queriesEngine = lazyEngine(
  "the embedded queries",
  () => import("./_engines_structural.ts"),
);

/** The syntax layer's bindings (scopes, references). */
export const bindingsEngine = lazyEngine(
  "the bindings engine",
  () => import("./_engines_structural.ts"),
);

/** The syntax layer's summary of the lines a capped read leaves out. */
export const lineSummaryEngine = lazyEngine(
  "the summary of omitted lines",
  () => import("./_engines_structural.ts"),
);

/** The definition gate's judge (guards). */
export const definitionGateEngine = lazyEngine(
  "the definition gate",
  () => import("./_engines_structural.ts"),
);

/** The syntax guard (parses each change's after-state). */
export const syntaxGuardEngine = lazyEngine(
  "the syntax guard",
  () => import("../syntax/syntax_guard.ts"),
);
