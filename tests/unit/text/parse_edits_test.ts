import assert from "node:assert/strict";
import { isRecoverable } from "../../../src/errors.ts";
import { detectFormat, parseEdits } from "../../../src/text/parse_edits.ts";
import type { FileOp } from "../../../src/text/types.ts";

const SR_BODY = "<<<<<<< SEARCH\nold line\n=======\nnew line\n>>>>>>> REPLACE\n";

function edit(op: FileOp | undefined): FileOp & { kind: "edit" } {
  assert.ok(op && op.kind === "edit", `expected an edit op, got ${JSON.stringify(op)}`);
  return op;
}

const NAME_CASES: { name: string; text: string; path: string }[] = [
  { name: "bare path line", text: `src/a.ts\n${SR_BODY}`, path: "src/a.ts" },
  { name: "path above a ``` fence", text: "src/a.ts\n```ts\n" + SR_BODY + "```\n", path: "src/a.ts" },
  { name: "path above a ```` fence", text: "src/a.ts\n````\n" + SR_BODY + "````\n", path: "src/a.ts" },
  { name: "markdown heading", text: `### src/a.ts\n${SR_BODY}`, path: "src/a.ts" },
  { name: "bold with colon", text: `**src/a.ts**:\n${SR_BODY}`, path: "src/a.ts" },
  { name: "backticked", text: "`src/a.ts`\n" + SR_BODY, path: "src/a.ts" },
  { name: "fence info is a path", text: "```src/a.ts\n" + SR_BODY + "```\n", path: "src/a.ts" },
  { name: "extensionless Makefile", text: `Makefile\n${SR_BODY}`, path: "Makefile" },
  { name: "backticked path in prose", text: "Change `src/a.ts` like this:\n" + SR_BODY, path: "src/a.ts" },
  { name: "bold File: label", text: `**File: src/a.ts**\n${SR_BODY}`, path: "src/a.ts" },
  { name: "5 marker characters", text: "a.py\n<<<<< SEARCH\nx\n=====\ny\n>>>>> REPLACE\n", path: "a.py" },
  {
    name: "9 marker characters",
    text: "a.py\n<<<<<<<<< SEARCH\nx\n=========\ny\n>>>>>>>>> REPLACE\n",
    path: "a.py",
  },
  {
    name: "------- SEARCH / +++++++ REPLACE variant",
    text: "a.py\n------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n",
    path: "a.py",
  },
  { name: "CRLF input", text: `a.py\r\n${SR_BODY.replace(/\n/g, "\r\n")}`, path: "a.py" },
];

for (const c of NAME_CASES) {
  Deno.test(`parseEdits() reads the SEARCH/REPLACE file name: ${c.name}`, () => {
    const parsed = parseEdits(c.text);
    assert.equal(parsed.format, "search-replace");
    const op = edit(parsed.ops[0]);
    assert.equal(op.path, c.path);
    assert.equal(op.blocks.length, 1);
    assert.equal(op.blocks[0]!.search.length, 1);
    assert.equal(op.blocks[0]!.replace.length, 1);
  });
}

Deno.test("parseEdits() treats a language tag as a tag, not a file name, and inherits the previous file", () => {
  const text = [
    "src/a.py",
    "```python",
    "<<<<<<< SEARCH",
    "a = 1",
    "=======",
    "a = 2",
    ">>>>>>> REPLACE",
    "```",
    "",
    "```python",
    "<<<<<<< SEARCH",
    "b = 1",
    "=======",
    "b = 2",
    ">>>>>>> REPLACE",
    "```",
    "src/b.py",
    "```python",
    "<<<<<<< SEARCH",
    "=======",
    "print('new')",
    ">>>>>>> REPLACE",
    "```",
  ].join("\n");
  const { ops } = parseEdits(text);
  assert.equal(ops.length, 2);
  const a = edit(ops[0]);
  assert.equal(a.path, "src/a.py");
  assert.equal(a.blocks.length, 2);
  assert.deepEqual(a.blocks[1]!.search, ["b = 1"]);
  const b = edit(ops[1]);
  assert.equal(b.path, "src/b.py");
  assert.deepEqual(b.blocks[0]!.search, []);
  assert.equal(b.blocks[0]!.inputLine, 19);
});

const MALFORMED: { name: string; text: string; line: number; format?: "search-replace" }[] = [
  { name: "block without a file name", text: SR_BODY, line: 1 },
  { name: "missing divider", text: "a.ts\n<<<<<<< SEARCH\nx\n>>>>>>> REPLACE\n", line: 4 },
  { name: "missing REPLACE marker", text: "a.ts\n<<<<<<< SEARCH\nx\n=======\ny\n", line: 2 },
  { name: "nested SEARCH marker", text: "a.ts\n<<<<<<< SEARCH\nx\n<<<<<<< SEARCH\n", line: 4 },
  {
    name: "REPLACE marker outside a block",
    text: "a.ts\n>>>>>>> REPLACE\n",
    line: 2,
    format: "search-replace",
  },
];

for (const c of MALFORMED) {
  Deno.test(`parseEdits() refuses malformed SEARCH/REPLACE input: ${c.name}`, () => {
    assert.throws(
      () => parseEdits(c.text, c.format ? { format: c.format } : {}),
      (e) => isRecoverable(e, "invalid_args") && e.details?.["input_line"] === c.line,
    );
  });
}

Deno.test("parseEdits() refuses text in no known format with invalid_args", () => {
  assert.throws(() => parseEdits("please change foo to bar"), (e) => isRecoverable(e, "invalid_args"));
});

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

Deno.test("parseEdits() reads a git diff: hunks with hints, new, deleted and renamed files", () => {
  const parsed = parseEdits(GIT_DIFF);
  assert.equal(parsed.format, "udiff");
  const [a, created, deleted, moved] = parsed.ops;
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

Deno.test("parseEdits() reads a diff with bare @@ lines, wrong counts and unprefixed blank context", () => {
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
  const parsed = parseEdits(text);
  assert.equal(parsed.format, "udiff");
  const op = edit(parsed.ops[0]);
  assert.equal(op.path, "src/a.py");
  assert.equal(op.blocks.length, 2);
  assert.deepEqual(op.blocks[0]!.search, ["def f():", "    return 1", "", "def g():"]);
  assert.equal(op.blocks[0]!.lineHint, undefined);
  assert.deepEqual(op.blocks[1]!.replace, ["x = 2", "x2 = 3"]);
  assert.equal(op.blocks[1]!.lineHint, 99);
});

Deno.test("parseEdits() refuses a diff file section without hunks", () => {
  assert.throws(
    () => parseEdits("--- a/x.ts\n+++ b/x.ts\n", { format: "udiff" }),
    (e) => isRecoverable(e, "invalid_args"),
  );
});

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

Deno.test("parseEdits() reads *** Begin Patch with padded markers, heredoc, anchors and End of File", () => {
  const parsed = parseEdits(PATCH);
  assert.equal(parsed.format, "apply-patch");
  const [add, del, upd] = parsed.ops;
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
  Deno.test(`parseEdits() refuses a malformed *** Begin Patch: ${c.name}`, () => {
    assert.throws(
      () => parseEdits(c.text),
      (e) => isRecoverable(e, "invalid_args") && e.details?.["input_line"] === c.line,
    );
  });
}

Deno.test("detectFormat() tells the three formats apart", () => {
  assert.equal(detectFormat(`a.ts\n${SR_BODY}`), "search-replace");
  assert.equal(detectFormat(GIT_DIFF), "udiff");
  assert.equal(detectFormat(PATCH), "apply-patch");
  assert.equal(detectFormat("just prose"), null);
});
