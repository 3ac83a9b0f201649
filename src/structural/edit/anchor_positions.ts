/**
 * The anchor positions of edit_insert_at_anchor, as data: what the tool's
 * schema lists without loading the anchor engine (anchors.ts).
 *
 * @module
 */

/** Where to insert relative to the selected node. */
export type AnchorPosition =
  | "before"
  | "after"
  | "first_child"
  | "last_child"
  | "start_of_body"
  | "end_of_body";

/** Every anchor position. */
export const ANCHOR_POSITIONS: readonly AnchorPosition[] = [
  "before",
  "after",
  "first_child",
  "last_child",
  "start_of_body",
  "end_of_body",
];
