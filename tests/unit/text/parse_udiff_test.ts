import assert from "node:assert/strict";
import { isRecoverable } from "../../../src/errors.ts";
import { looksLikeUnifiedDiff, parseUnifiedDiff } from "../../../src/text/parse_udiff.ts";
import type { FileOp } from "../../../src/text/types.ts";

function edit(op: FileOp | undefined): FileOp & { kind: "edit" } {
  assert.ok(op && op.kind === "edit", `expected an edit op, got ${JSON.stringify(op)}`);
  return op;
}

const GIT_DIFF = `diff --git a/src/a.ts b/src/a.ts
index 1111111..2222222 100644
--- a/src/a.ts
+++ b/src/a.ts
@@ -10,3 +10,3 @@ function f() {
 const a = 1;
-const b = 2;
+const b = 3;
 const c = 4;
@@ -20,2 +20,3 @@
 x();
+y();
 z();
diff --git a/new.txt b/new.txt
new file mode 100644
--- /dev/null
+++ b/new.txt
@@ -0,0 +1,2 @@
+hello
+world
\\ No newline at end of file
diff --git a/old.txt b/old.txt
deleted file mode 100644
--- a/old.txt
+++ /dev/null
@@ -1 +0,0 @@
-bye
diff --git a/from.ts b/to.ts
similarity index 90%
rename from from.ts
rename to to.ts
--- a/from.ts
+++ b/to.ts
@@ -1 +1 @@
-x
+y
`;

Deno.test("parseUnifiedDiff() reads a git diff: hunks with hints, new, deleted and renamed files", () => {
  const [a, created, deleted, moved] = parseUnifiedDiff(GIT_DIFF);
  const ea = edit(a);
  assert.equal(ea.path, "src/a.ts");
  assert.equal(ea.blocks.length, 2);
  assert.deepEqual(ea.blocks[0]!.search, ["const a = 1;", "const b = 2;", "const c = 4;"]);
  assert.deepEqual(ea.blocks[0]!.replace, ["const a = 1;", "const b = 3;", "const c = 4;"]);
  assert.equal(ea.blocks[0]!.lineHint, 10);
  assert.equal(ea.blocks[1]!.lineHint, 20);
  assert.deepEqual(created, {
    kind: "create",
    path: "new.txt",
    lines: ["hello", "world"],
    noEol: true,
    inputLine: 14,
  });
  assert.equal(deleted?.kind, "delete");
  assert.equal(deleted?.path, "old.txt");
  const em = edit(moved);
  assert.equal(em.path, "from.ts");
  assert.equal(em.moveTo, "to.ts");
});

Deno.test("parseUnifiedDiff() reads a diff with bare @@ lines, wrong counts and unprefixed blank context", () => {
  const text = [
    "Here is the fix:",
    "```diff",
    "--- src/a.py",
    "+++ src/a.py",
    "@@",
    " def f():",
    "-    return 1",
    "+    return 2",
    "",
    " def g():",
    "@@ -99,1 +99,1 @@ wrong counts",
    "-x = 1",
    "+x = 2",
    "+x2 = 3",
    "```",
  ].join("\n");
  const op = edit(parseUnifiedDiff(text)[0]);
  assert.equal(op.path, "src/a.py");
  assert.equal(op.blocks.length, 2);
  assert.deepEqual(op.blocks[0]!.search, ["def f():", "    return 1", "", "def g():"]);
  assert.equal(op.blocks[0]!.lineHint, undefined);
  assert.deepEqual(op.blocks[1]!.replace, ["x = 2", "x2 = 3"]);
  assert.equal(op.blocks[1]!.lineHint, 99);
});

Deno.test("parseUnifiedDiff() refuses a diff file section without hunks", () => {
  assert.throws(
    () => parseUnifiedDiff("--- a/x.ts\n+++ b/x.ts\n"),
    (e) => isRecoverable(e, "invalid_args"),
  );
});

Deno.test("parseUnifiedDiff() refuses text without a file header or hunk, naming line 1", () => {
  assert.throws(
    () => parseUnifiedDiff("no diff here\n"),
    (e) => isRecoverable(e, "invalid_args") && e.details?.["input_line"] === 1,
  );
});

Deno.test("looksLikeUnifiedDiff() accepts @@ lines, ---/+++ headers or diff --git", () => {
  assert.equal(looksLikeUnifiedDiff(GIT_DIFF), true);
  assert.equal(looksLikeUnifiedDiff("@@\n-a\n+b\n"), true);
  assert.equal(looksLikeUnifiedDiff("--- a.ts\n+++ a.ts\n"), true);
  assert.equal(looksLikeUnifiedDiff("--- just a rule\nno plus header\n"), false);
  assert.equal(looksLikeUnifiedDiff("plain prose"), false);
});
