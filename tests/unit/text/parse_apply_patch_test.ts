import assert from "node:assert/strict";
import { isRecoverable } from "../../../src/errors.ts";
import { looksLikeApplyPatch, parseApplyPatch } from "../../../src/text/parse_apply_patch.ts";
import type { FileOp } from "../../../src/text/types.ts";

function edit(op: FileOp | undefined): FileOp & { kind: "edit" } {
  assert.ok(op && op.kind === "edit", `expected an edit op, got ${JSON.stringify(op)}`);
  return op;
}

const PATCH = `apply_patch <<'EOF'
  *** Begin Patch
*** Add File: docs/new.md
+# Title
+
+text
*** Delete File: old.py
*** Update File: src/app.py
*** Move to: src/main.py
@@ class App:
@@     def run(self):
-        return 1
+        return 2

@@
 tail()
-end()
+finish()
*** End of File
***  End Patch
EOF
`;

Deno.test("parseApplyPatch() reads *** Begin Patch with padded markers, heredoc, anchors and End of File", () => {
  const [add, del, upd] = parseApplyPatch(PATCH);
  assert.deepEqual(add, {
    kind: "create",
    path: "docs/new.md",
    lines: ["# Title", "", "text"],
    noEol: false,
    inputLine: 3,
  });
  assert.equal(del?.kind, "delete");
  const u = edit(upd);
  assert.equal(u.path, "src/app.py");
  assert.equal(u.moveTo, "src/main.py");
  assert.equal(u.blocks.length, 2);
  assert.deepEqual(u.blocks[0]!.anchors, ["class App:", "def run(self):"]);
  assert.deepEqual(u.blocks[0]!.search, ["        return 1"]);
  assert.equal(u.blocks[1]!.atEnd, true);
  assert.deepEqual(u.blocks[1]!.search, ["tail()", "end()"]);
});

const PATCH_MALFORMED: { name: string; text: string; line: number }[] = [
  { name: "no End Patch", text: "*** Begin Patch\n*** Delete File: a\n", line: 2 },
  { name: "Update without a path", text: "*** Begin Patch\n*** Update File:\n-x\n*** End Patch\n", line: 2 },
  { name: "stray line", text: "*** Begin Patch\nhello\n*** End Patch\n", line: 2 },
  { name: "bad chunk line", text: "*** Begin Patch\n*** Update File: a\n-x\n?y\n*** End Patch\n", line: 4 },
];

for (const c of PATCH_MALFORMED) {
  Deno.test(`parseApplyPatch() refuses a malformed patch: ${c.name}`, () => {
    assert.throws(
      () => parseApplyPatch(c.text),
      (e) => isRecoverable(e, "invalid_args") && e.details?.["input_line"] === c.line,
    );
  });
}

Deno.test("parseApplyPatch() refuses text without *** Begin Patch, naming line 1", () => {
  assert.throws(
    () => parseApplyPatch("*** Update File: a\n-x\n+y\n"),
    (e) => isRecoverable(e, "invalid_args") && e.details?.["input_line"] === 1,
  );
});

Deno.test("looksLikeApplyPatch() needs a *** Begin Patch line", () => {
  assert.equal(looksLikeApplyPatch(PATCH), true);
  assert.equal(looksLikeApplyPatch("*** Update File: a\n"), false);
  assert.equal(looksLikeApplyPatch("say *** Begin Patch in prose"), false);
});
