/**
 * What the variable and function inliners share: the inlining's context,
 * its refusal, the uses of the symbol, and the check that the names a moved
 * expression reads mean the same where it lands.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import { type Binding, type FileBindings, lookup, type Occurrence } from "../../syntax/bindings.ts";
import { nodeOf } from "../shared/data_flow.ts";
import { accessOf } from "../shared/variable_access.ts";
import { type FamilyRules, lineOf } from "../shared/statement_ranges.ts";
import type { SourceFile } from "../edit/source.ts";

/** What the variable and function inliners share. */
export interface InlineContext {
  /** The file. */
  file: SourceFile;
  /** Its bindings. */
  fb: FileBindings;
  /** The language family's rules. */
  rules: FamilyRules;
  /** The symbol inlined. */
  binding: Binding;
  /** Its declaring occurrence. */
  declaration: Occurrence;
  /** The occurrence targeted (the declaration: every use; a use: that one). */
  target: Occurrence;
  /** Tool name. */
  tool: string;
}

/**
 * A refusal of an inlining.
 *
 * @param ctx The inlining.
 * @param code The error code.
 * @param why What would go wrong.
 * @param hint What to do instead.
 * @param offset Where (its line goes in the message and details).
 * @returns The error to throw.
 */
export function inlineRefusal(
  ctx: InlineContext,
  code:
    | "unsupported_call_site"
    | "control_flow_escapes"
    | "name_clash"
    | "unresolved"
    | "value_reference"
    | "no_match"
    | "invalid_args"
    | "types_required",
  { why, hint, offset }: { why: string; hint: string; offset: number },
): RecoverableError {
  const line = lineOf(ctx.file.text, offset);
  return new RecoverableError(
    code,
    `Cannot inline "${ctx.binding.name}" in "${ctx.file.rel}": ${why} (line ${line})`,
    {
      hint,
      details: { path: ctx.file.rel, name: ctx.binding.name, line },
    },
  );
}

/** The uses of a binding (not its declaration), in order. */
export function usesOf(ctx: InlineContext): Occurrence[] {
  return ctx.fb.occurrences.filter((o) =>
    o.binding === ctx.binding && o !== ctx.declaration && (o.kind === "reference" || o.kind === "shorthand")
  );
}

/**
 * Check that the names an expression reads mean the same at `site`: each
 * resolves there to the binding it has where the expression was written
 * (free names stay free), and none is assigned between `from` and the site.
 *
 * @param ctx The inlining.
 * @param expr The expression moved.
 * @param site Where it goes.
 * @param from Where it was evaluated before.
 * @param skip Bindings to leave out (a function's parameters).
 */
export function checkNames(
  ctx: InlineContext,
  expr: Node,
  { site, from, skip }: { site: Occurrence; from: number; skip: Set<Binding> },
): void {
  const { fb, rules, file } = ctx;
  for (const o of fb.occurrences) {
    if (o.start < expr.startIndex || o.end > expr.endIndex) continue;
    if (o.kind !== "reference" && o.kind !== "shorthand") continue;
    const b = o.binding;
    if (b && skip.has(b)) continue;
    if (b && b.scope.start >= expr.startIndex && b.scope.end <= expr.endIndex) continue; // bound inside it
    if (lookup(site.scope, o.name) !== b) {
      throw inlineRefusal(
        ctx,
        "name_clash",
        {
          why: `"${o.name}" means something else at line ${lineOf(file.text, site.start)}`,
          hint: `Rename the "${o.name}" declared there first (edit_rename_symbol), then inline`,
          offset: site.start,
        },
      );
    }
    if (!b) continue;
    const written = fb.occurrences.find((w) =>
      w.binding === b && w.start >= from && w.start < site.start &&
      !(w.start >= expr.startIndex && w.end <= expr.endIndex) &&
      accessOf(w, nodeOf(file, w), rules) !== "read"
    );
    if (written) {
      throw inlineRefusal(
        ctx,
        "unsupported_call_site",
        {
          why: `"${o.name}" is assigned at line ${
            lineOf(file.text, written.start)
          }, between the value and its use at line ${lineOf(file.text, site.start)}`,
          hint: "Inline only uses before that assignment (target one use by its line and column)",
          offset: written.start,
        },
      );
    }
  }
}
