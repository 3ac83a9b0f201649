/**
 * edit_insert_at_anchor: insert code before or after a selected node, or as
 * the first or last child of its body, re-indented and on lines of its own.
 *
 * @module
 */
import { askedGuardMode } from "./_site_edits.ts";
import { RecoverableError } from "../errors.ts";
import { ANCHOR_POSITIONS, type AnchorPosition } from "../structural/edit/anchor_positions.ts";
import type { SelectMode, Selector } from "../structural/edit/selectors.ts";
import { TextIndex } from "../syntax/text_index.ts";
import { anchorsEngine, editTargetsEngine, selectorEngine } from "./_lazy.ts";
import { DRY_RUN, EXPECTED_VERSION, objectSchema, PATH } from "./_schema.ts";
import { editedLines, NTH, openSelection, SELECT, SELECTOR } from "./_structural_args.ts";
import type { ToolDefinition } from "./types.ts";
import { FILE_PATH, INTEGER, LINES, shape, STRING, TARGET } from "./_result_schema.ts";

/** Arguments of edit_insert_at_anchor. */
export interface EditInsertAtAnchorArgs {
  /** Relative path. */
  path: string;
  /** Name path, query or pattern. */
  selector: Selector;
  /** Where, relative to the selected node. */
  position: AnchorPosition;
  /** The code to insert. */
  text: string;
  /** unique (default) | first | all | nth. */
  select?: SelectMode;
  /** With nth: 1-based. */
  n?: number;
  /** Version last read; refused with stale_base if the file moved on. */
  expected_version?: string;
  /** Preview only. */
  dry_run?: boolean;
}

/** The edit_insert_at_anchor tool. */
export const editInsertAtAnchor: ToolDefinition<EditInsertAtAnchorArgs> = {
  name: "edit_insert_at_anchor",
  description:
    'Insert code relative to a node chosen by a selector (name path, {"pattern": ...} or {"query": ..., "capture": ...}): "before"/"after" it (as a sibling, after its decorators and doc comment are taken into account), or "first_child"/"last_child"/"start_of_body"/"end_of_body" of its body (start_of_body goes after a Python docstring). The code is re-indented to the destination (tabs or spaces, nesting depth), placed on lines of its own, with the blank lines the neighbouring definitions use. Files without a grammar: use edit_safe_text_patch.',
  inputSchema: objectSchema({
    path: PATH,
    selector: SELECTOR,
    position: {
      type: "string",
      enum: [...ANCHOR_POSITIONS],
      description: "Where to insert relative to the node",
    },
    text: {
      type: "string",
      minLength: 1,
      description: "The code to insert (any indentation; it is re-indented)",
    },
    select: SELECT,
    n: NTH,
    expected_version: EXPECTED_VERSION,
    dry_run: DRY_RUN,
  }, ["path", "selector", "position", "text"]),
  aliases: { code: "text", new_text: "text" },
  kind: "structural",
  mutates: true,
  // inserting adds code and never replaces any; a second call adds it again
  behaviour: { destructive: false },
  resultData: shape({
    path: FILE_PATH,
    language: STRING,
    selector: STRING,
    position: STRING,
    total_matches: INTEGER,
    anchors: { type: "array", items: TARGET },
    inserted: { type: "array", items: LINES },
  }, ["path", "anchors", "inserted"]),
  async handler(args, { workspace, stage }) {
    if (args.text.trim() === "") {
      throw new RecoverableError("invalid_args", "Cannot insert blank text", {
        hint: 'Pass the code to insert in text; to remove a node use edit_apply_node with new_text ""',
      });
    }
    const { file, selection } = await openSelection(workspace, stage, {
      tool: "edit_insert_at_anchor",
      args,
    });
    const [{ stageTargetEdits }, { definitionStarts, insertionEdit }, { describeTarget }] = await Promise.all(
      [
        editTargetsEngine(),
        anchorsEngine(),
        selectorEngine(),
      ],
    );
    const defs = await definitionStarts(workspace, file);
    const { edits, warnings } = await stageTargetEdits(workspace, stage, {
      file,
      targets: selection.targets,
      code: args.text,
      build: (t, code, lines) =>
        insertionEdit(file, t, { position: args.position, rawCode: code, defs, ...lines }),
      overlap: {
        message: `Cannot insert at overlapping places in "${file.rel}"`,
        hint: 'Narrow the selector or use select "nth" to insert at one match at a time',
      },
      guard: askedGuardMode(args, workspace),
      leaveOut: 'use select "nth" to insert at the other matches one at a time',
    });
    const index = new TextIndex(file.text);
    return {
      data: {
        path: file.rel,
        language: file.language,
        selector: selection.kind,
        position: args.position,
        total_matches: selection.total,
        anchors: selection.targets.map((t) => describeTarget(file, index, t)),
        inserted: editedLines(file.text, edits),
      },
      warnings,
    };
  },
};
