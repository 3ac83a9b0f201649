/**
 * edit_apply_node: replace the node(s) a selector picks — by name path,
 * tree-sitter query or code pattern — with new code, re-indented to where the
 * node sits.
 *
 * @module
 */
import { askedGuardMode } from "./_site_edits.ts";
import type { SelectMode, Selector, Target } from "../structural/edit/selectors.ts";
import { TextIndex } from "../syntax/text_index.ts";
import { editTargetsEngine, nodeEditEngine, selectorEngine } from "./_lazy.ts";
import { DRY_RUN, EXPECTED_VERSION, objectSchema, PATH } from "./_schema.ts";
import { editedLines, NTH, openSelection, SELECT, SELECTOR } from "./_structural_args.ts";
import type { ToolDefinition } from "./types.ts";
import { BOOLEAN, FILE_PATH, INTEGER, LINES, shape, STRING, TARGET } from "./_result_schema.ts";

/** Arguments of edit_apply_node. */
export interface EditApplyNodeArgs {
  /** Relative path. */
  path: string;
  /** Name path, query or pattern. */
  selector: Selector;
  /** The replacement code ("" removes the node). */
  new_text: string;
  /** unique (default) | first | all | nth. */
  select?: SelectMode;
  /** With nth: 1-based. */
  n?: number;
  /** Version last read; refused with stale_base if the file moved on. */
  expected_version?: string;
  /** Preview only. */
  dry_run?: boolean;
}

/** Keep only targets not nested in another selected target (document order). */
export function outermostTargets(targets: Target[]): Target[] {
  const out: Target[] = [];
  for (const t of [...targets].sort((a, b) => a.start - b.start || b.end - a.end)) {
    const last = out[out.length - 1];
    if (last && t.start >= last.start && t.end <= last.end) continue;
    out.push(t);
  }
  return out;
}

/** The edit_apply_node tool. */
export const editApplyNode: ToolDefinition<EditApplyNodeArgs> = {
  name: "edit_apply_node",
  description:
    'Replace a syntax node chosen by a selector: a name path ("Class/method"), a code pattern with metavariables ({"pattern": "console.log($$$ARGS)"}; $X / $$$X in new_text are replaced by what they matched) or a tree-sitter query ({"query": "...", "capture": "..."}). new_text is re-indented to the node\'s place; "" removes the node with its decorators and doc comment. Several matches are refused as ambiguous (every candidate listed) unless select is "first", "all" or "nth". Files without a grammar: use edit_safe_text_patch.',
  inputSchema: objectSchema({
    path: PATH,
    selector: SELECTOR,
    new_text: { type: "string", description: 'Replacement code for the selected node; "" removes it' },
    select: SELECT,
    n: NTH,
    expected_version: EXPECTED_VERSION,
    dry_run: DRY_RUN,
  }, ["path", "selector", "new_text"]),
  aliases: { code: "new_text" },
  kind: "structural",
  mutates: true,
  resultData: shape({
    path: FILE_PATH,
    language: STRING,
    selector: STRING,
    total_matches: INTEGER,
    replaced: { type: "array", items: TARGET },
    edited: { type: "array", items: LINES },
    removed: BOOLEAN,
  }, ["path", "replaced", "edited"]),
  async handler(args, { workspace, stage }) {
    const { file, selection } = await openSelection(workspace, stage, { tool: "edit_apply_node", args });
    const targets = outermostTargets(selection.targets);
    const [{ stageTargetEdits }, { replacementEdit }, { describeTarget }] = await Promise.all([
      editTargetsEngine(),
      nodeEditEngine(),
      selectorEngine(),
    ]);
    const { edits, warnings } = await stageTargetEdits(workspace, stage, {
      file,
      targets,
      code: args.new_text,
      build: (t, code, lines) => replacementEdit(file, t, { newText: code, ...lines }),
      overlap: {
        message: `Cannot replace overlapping matches in "${file.rel}"`,
        hint: 'Narrow the selector or use select "nth" to replace one match at a time',
      },
      guard: askedGuardMode(args, workspace),
      leaveOut: 'leave those matches out: select "nth" edits the others one at a time',
    });
    const index = new TextIndex(file.text);
    if (targets.length < selection.targets.length) {
      warnings.push(
        `${selection.targets.length - targets.length} match(es) nested inside another match were left alone`,
      );
    }
    return {
      data: {
        path: file.rel,
        language: file.language,
        selector: selection.kind,
        total_matches: selection.total,
        replaced: targets.map((t) => describeTarget(file, index, t)),
        edited: editedLines(file.text, edits),
        removed: args.new_text.trim() === "",
      },
      warnings,
    };
  },
};
