/**
 * A rewrite preview's check that each site's new code fits where the old node was, as
 * `edit_rewrite_structural` checks it before it writes (`structural/edit/site_fit.ts`): the preview marks the
 * sites the rewrite would refuse (`replacement_does_not_fit`), so a model sees them before it asks. The check
 * itself parses, so it comes from the caller (the tools layer hands in the structural engine's); this module
 * says which sites of a file go into it — the outermost of nested hits, each changing its text, all applied
 * together as the rewrite applies them.
 *
 * @module
 */
import { applySites } from "./replace_text.ts";
import type { StructuralHit } from "./types.ts";
import { replacedSpan } from "./replaced_span.ts";

/**
 * Which edits of one file would not fit where their old nodes were: each misfit's index into `edits`, and what
 * it means in words.
 */
export type RewriteFit = (
  file: { path: string; language: string; text: string; version: string },
  change: { text: string; edits: readonly { start: number; end: number; text: string }[] },
) => Promise<{ index: number; text: string }[]>;

/**
 * The hits of one file whose replacement would not fit, each with what the check says.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { rewriteMisfits } from "./rewrite_fit.ts";
 *
 * const hits = [
 *   { start: 0, end: 4, metavariables: {}, replacement: "b();c();" },
 *   { start: 1, end: 3, metavariables: {}, replacement: "x" }, // nested: the rewrite leaves it
 *   { start: 5, end: 9, metavariables: {}, replacement: "a();" }, // unchanged: not written
 * ];
 * const file = { path: "a.js", language: "javascript", text: "a(); a();", version: "v" };
 * const found = await rewriteMisfits({ ...file, hits }, async (_file, change) => {
 *   assert.deepEqual(change.edits, [{ start: 0, end: 4, text: "b();c();" }]);
 *   assert.equal(change.text, "b();c(); a();");
 *   return [{ index: 0, text: "two statements where one fits" }];
 * });
 * assert.deepEqual([...found.values()], ["two statements where one fits"]);
 * assert.equal(found.has(hits[0]!), true);
 * ```
 *
 * @param found The file (path, language, text, version) and its hits, in document order.
 * @param fit The check.
 * @returns Each hit that would not fit, with the check's words; empty when none is rewritten.
 */
export async function rewriteMisfits(
  found: { path: string; language: string; text: string; version: string; hits: readonly StructuralHit[] },
  fit: RewriteFit,
): Promise<Map<StructuralHit, string>> {
  const judged: StructuralHit[] = [];
  let lastEnd = -1;
  for (const hit of found.hits) {
    const span = replacedSpan(hit);
    if (span.start < lastEnd) continue; // nested in the one before: the rewrite leaves it
    lastEnd = span.end;
    if (hit.replacement !== undefined && hit.replacement !== found.text.slice(span.start, span.end)) {
      judged.push(hit);
    }
  }
  const out = new Map<StructuralHit, string>();
  if (judged.length === 0) return out;
  const sites = judged.map((h) => ({ ...replacedSpan(h), after: h.replacement! }));
  const { path, language, text, version } = found;
  const misfits = await fit({ path, language, text, version }, {
    text: applySites(text, sites),
    edits: sites.map((s) => ({ start: s.start, end: s.end, text: s.after })),
  });
  for (const m of misfits) out.set(judged[m.index]!, m.text);
  return out;
}
