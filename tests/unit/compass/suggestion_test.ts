import assert from "node:assert/strict";
import { suggestionText } from "../../../src/compass/suggestion.ts";

Deno.test("suggestionText() says what the freeform call did and how the primitive is called", () => {
  const rename = suggestionText("edit_file", {
    kind: "str_replace",
    path: "a.ts",
    hunk: { oldText: "x", newText: "y" },
    replaceAll: false,
  }, {
    target: "edit_rename_symbol",
    rename: { from: "x", to: "y" },
  });
  assert.match(
    rename,
    /^edit_file renamed "x" to "y" by text in "a\.ts"\. For code with a grammar, prefer edit_rename_symbol/,
  );
  const text = suggestionText("apply_edits", { kind: "edit_text", paths: ["a.md", "b.md"] }, {
    target: "edit_safe_text_patch",
    rename: null,
  });
  assert.match(
    text,
    /^apply_edits edited "a\.md", "b\.md" by matching text\. For a text edit, prefer edit_safe_text_patch \{/,
  );
});
