import assert from "node:assert/strict";
import { candidateTargets, orderTargets } from "../../../src/compass/targets.ts";

const hunk = (oldText: string, newText: string) => ({ oldText, newText });

Deno.test("candidateTargets() reads the edit's shape: a rename, an insertion, a balanced replacement, anything else", () => {
  const str = (oldText: string, newText: string) => ({
    kind: "str_replace" as const,
    path: "a.ts",
    hunk: hunk(oldText, newText),
    replaceAll: false,
  });
  assert.deepEqual(candidateTargets(str("a", "b"), true)[0], "edit_rename_symbol");
  assert.deepEqual(candidateTargets(str("f();\n", "f();\ng();\n"), false)[0], "edit_insert_at_anchor");
  assert.deepEqual(candidateTargets(str("f(a) { x }", "f(b) { y }"), false), [
    "edit_apply_node",
    "replace_symbol",
    "edit_safe_text_patch",
  ]);
  assert.deepEqual(candidateTargets(str("f(a) {", "g(a) {"), false), [
    "edit_safe_text_patch",
    "edit_apply_node",
  ]);
  assert.deepEqual(candidateTargets({ kind: "whole_file", path: "a.ts" }, false)[0], "edit_apply_node");
  assert.deepEqual(candidateTargets({ kind: "edit_text", paths: ["a.ts"] }, false), [
    "edit_apply_node",
    "edit_safe_text_patch",
  ]);
});

Deno.test("orderTargets() puts the preferred candidates first, ignoring preferences that are no candidate", () => {
  assert.deepEqual(
    orderTargets(["edit_apply_node", "edit_safe_text_patch"], ["write_file", "edit_safe_text_patch"]),
    [
      "edit_safe_text_patch",
      "edit_apply_node",
    ],
  );
});
