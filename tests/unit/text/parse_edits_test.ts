import assert from "node:assert/strict";
import { isRecoverable } from "../../../src/errors.ts";
import { parseApplyPatch } from "../../../src/text/parse_apply_patch.ts";
import { detectFormat, parseEdits } from "../../../src/text/parse_edits.ts";
import { parseSearchReplace } from "../../../src/text/parse_search_replace.ts";
import { parseUnifiedDiff } from "../../../src/text/parse_udiff.ts";

const SEARCH_REPLACE = "a.ts\n<<<<<<< SEARCH\nold line\n=======\nnew line\n>>>>>>> REPLACE\n";
const UDIFF = "diff --git a/a.ts b/a.ts\n--- a/a.ts\n+++ b/a.ts\n@@ -1 +1 @@\n-old line\n+new line\n";
const PATCH = "*** Begin Patch\n*** Update File: a.ts\n@@\n-old line\n+new line\n*** End Patch\n";

Deno.test("detectFormat() tells the three formats apart", () => {
  assert.equal(detectFormat(SEARCH_REPLACE), "search-replace");
  assert.equal(detectFormat(UDIFF), "udiff");
  assert.equal(detectFormat(PATCH), "apply-patch");
  assert.equal(detectFormat("just prose"), null);
});

Deno.test("detectFormat() prefers apply-patch over its @@ lines, and SEARCH/REPLACE over ---/+++ lines inside a block", () => {
  assert.match(PATCH, /^@@/m);
  assert.equal(detectFormat(PATCH), "apply-patch");
  const srWithDiffLines = "a.md\n<<<<<<< SEARCH\n--- a\n+++ b\n=======\nx\n>>>>>>> REPLACE\n";
  assert.equal(detectFormat(srWithDiffLines), "search-replace");
});

Deno.test("parseEdits() hands auto-detected text to the matching parser", () => {
  assert.deepEqual(parseEdits(SEARCH_REPLACE), {
    format: "search-replace",
    ops: parseSearchReplace(SEARCH_REPLACE),
  });
  assert.deepEqual(parseEdits(UDIFF), { format: "udiff", ops: parseUnifiedDiff(UDIFF) });
  assert.deepEqual(parseEdits(PATCH, { format: "auto" }), {
    format: "apply-patch",
    ops: parseApplyPatch(PATCH),
  });
});

Deno.test("parseEdits() uses a forced format even when detection would pick another", () => {
  assert.equal(parseEdits(PATCH).format, "apply-patch");
  // The same envelope read as a unified diff has a hunk but no file header.
  assert.throws(() => parseEdits(PATCH, { format: "udiff" }), (e) => isRecoverable(e, "invalid_args"));
  assert.throws(() => parseEdits(UDIFF, { format: "apply-patch" }), (e) => isRecoverable(e, "invalid_args"));
  assert.throws(
    () => parseEdits(UDIFF, { format: "search-replace" }),
    (e) => isRecoverable(e, "invalid_args"),
  );
});

Deno.test("parseEdits() refuses text in no known format with invalid_args", () => {
  assert.throws(
    () => parseEdits("please change foo to bar"),
    (e) => isRecoverable(e, "invalid_args") && Array.isArray(e.details?.["formats"]),
  );
});

Deno.test("parseEdits() refuses a format that yields no edit", () => {
  assert.throws(
    () => parseEdits("*** Begin Patch\n*** End Patch\n"),
    (e) => isRecoverable(e, "invalid_args") && e.details?.["format"] === "apply-patch",
  );
});
