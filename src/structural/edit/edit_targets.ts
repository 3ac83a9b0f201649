/**
 * Edits of selected targets: build one edit per target (a pattern target's
 * metavariables filled into the code first), make identical edits once, apply
 * them all and stage the result.
 *
 * @module
 */
import { RecoverableError } from "../../errors.ts";
import type { Stage } from "../../fs/stage.ts";
import type { Parsing, SyntaxGuardMode } from "../../syntax/types.ts";
import { substituteMetavariables } from "./metavariable_fill.ts";
import type { Target } from "./selectors.ts";
import { reindent } from "./reindent.ts";
import { misfitEdits, misfitRefusal } from "./site_fit.ts";
import { lostComments } from "./lost_comments.ts";
import {
  applyTextEdits,
  type SourceFile,
  stringLineFinder,
  type TextEdit,
  type TextLines,
} from "./source.ts";

/** How {@linkcode stageTargetEdits} builds and reports edits. */
export interface TargetEditOptions {
  /** The model's code ($X / $$$X are replaced by what a pattern target matched). */
  code: string;
  /** One edit for a target, given its code and the finder of lines inside multi-line strings and comments. */
  build: (target: Target, code: string, lines: TextLines) => TextEdit;
  /** The refusal when two edits overlap. */
  overlap: { message: string; hint: string };
  /** How the caller leaves out sites whose new code does not fit (the end of the refusal's hint). */
  leaveOut?: string;
  /**
   * What a site whose new code does not fit (`site_fit.ts`) gets, as the call's syntax guard says: refused
   * (the default), a warning, or nothing.
   */
  guard?: SyntaxGuardMode;
}

/**
 * Build one edit per target, apply them to the file's text and stage it.
 *
 * @param ws The workspace.
 * @param stage The call's stage.
 * @param file The parsed file.
 * @param targets The targets to edit.
 * @param options The code, how to build an edit, and the overlap refusal.
 * @returns The edits applied and the warnings to report; `ambiguous` when two edits overlap.
 */
export async function stageTargetEdits(
  ws: Parsing,
  stage: Stage,
  { file, targets, ...options }: { file: SourceFile; targets: Target[] } & TargetEditOptions,
): Promise<{ edits: TextEdit[]; warnings: string[] }> {
  const strings = await stringLineFinder(ws, file.language);
  let edits: TextEdit[];
  try {
    edits = targets.map((t) => {
      const lines: TextLines = { keepLines: strings.keepLines, alignLines: strings.alignLines };
      if (!t.bindings) return options.build(t, options.code, lines);
      // A rewrite that gives the node's own text back (`f($$$A)` for `f($$$A)`) is that text, byte for byte.
      const asIs = substituteMetavariables(options.code, t.bindings, {
        sourceText: file.text,
        matchStart: t.start,
        asIs: true,
      });
      if (asIs === file.text.slice(t.start, t.end)) return options.build(t, asIs, lines);
      // The model's template is put into the file's indent unit first; bound text is in it already, its lines
      // re-based onto the template's. The result is then all in the file's unit, its first line at column 0.
      const template = file.unit === ""
        ? options.code
        : reindent(options.code, { indent: "", eol: "\n", unit: file.unit, indentFirstLine: false });
      const code = substituteMetavariables(template, t.bindings, {
        sourceText: file.text,
        matchStart: t.start,
      });
      if (code === template) return options.build(t, options.code, lines);
      return options.build(t, code, {
        ...lines,
        firstColumn: 0,
        ...(file.unit === "" ? {} : { codeUnit: file.unit }),
      });
    });
  } finally {
    strings.dispose();
  }
  refuseLostComments(file, targets.map((t, i) => ({ target: t, text: edits[i]!.text })));
  // Matches that lead to the very same edit (`f(f(x))` anchored at one statement) make it once.
  const seen = new Set<string>();
  const before = edits.length;
  edits = edits.filter((e) => {
    const key = `${e.start}:${e.end}:${e.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const merged = before - edits.length;
  let next: string;
  try {
    next = applyTextEdits(file.text, edits);
  } catch (cause) {
    throw new RecoverableError("ambiguous", options.overlap.message, {
      hint: options.overlap.hint,
      details: { path: file.rel, matches: targets.length },
      cause,
    });
  }
  const warnings = await fitWarnings(ws, { file, next, edits }, options);
  await stage.writeText(file.rel, { text: next, bom: file.bom });
  if (merged > 0) {
    warnings.push(`${merged} match(es) led to the same edit as another match; it was made once`);
  }
  if (file.problems > 0) {
    warnings.push(
      `"${file.rel}" already had ${file.problems} parse error(s) before this edit; nodes near them may be misread`,
    );
  }
  return { edits, warnings };
}

/**
 * Check that each edit's new code fits where its node was (`site_fit.ts`), as the call's syntax guard says:
 * refused (thrown), or answered as a warning, or not checked.
 */
async function fitWarnings(
  ws: Parsing,
  change: { file: SourceFile; next: string; edits: TextEdit[] },
  options: Pick<TargetEditOptions, "guard" | "leaveOut">,
): Promise<string[]> {
  const { file, next, edits } = change;
  const guard = options.guard ?? "refuse";
  if (guard === "off") return [];
  const misfits = await misfitEdits(ws, { ...file, path: file.rel }, { text: next, edits });
  if (misfits.length === 0) return [];
  const refusal = misfitRefusal(
    misfits.map((misfit) => ({ path: file.rel, misfit })),
    options.leaveOut ?? "leave those sites out",
  );
  if (guard === "refuse") throw refusal;
  return [refusal.message.replace(/ Nothing was written$/, " It was written as asked (syntax_guard warn)")];
}

/**
 * Refuse pattern edits whose new code would take away comments inside their matches (`lost_comments.ts`):
 * only what the metavariables bound is carried into the new code.
 */
function refuseLostComments(file: SourceFile, edited: { target: Target; text: string }[]): void {
  const lost = edited.flatMap(({ target, text }) => {
    if (!target.bindings) return [];
    const comments = lostComments(target.node, {
      text: file.text,
      language: file.language,
      bindings: Object.values(target.bindings),
      replacement: text,
    });
    const at = target.node.startPosition;
    return comments.length > 0 ? [{ line: at.row + 1, column: at.column + 1, comments }] : [];
  });
  if (lost.length === 0) return;
  const shown = lost.slice(0, 5).map((l) => `${file.rel}:${l.line}:${l.column} (${l.comments.join(", ")})`);
  throw new RecoverableError(
    "ambiguous",
    `The new code would take away the comments inside ${lost.length} match(es), which no metavariable ` +
      `binds: ${shown.join("; ")}${lost.length > shown.length ? "; …" : ""}. Nothing was written`,
    {
      hint:
        "Bind the code around them with a $$$ metavariable (what it binds is carried over whole, comments " +
        'included), write them into new_text, or leave those matches out (select "nth")',
      details: { path: file.rel, sites: lost },
    },
  );
}
