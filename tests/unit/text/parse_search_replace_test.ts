import assert from "node:assert/strict";
import { isRecoverable } from "../../../src/errors.ts";
import { looksLikeSearchReplace, parseSearchReplace } from "../../../src/text/parse_search_replace.ts";

const SR_BODY = "<<<<<<< SEARCH\nold line\n=======\nnew line\n>>>>>>> REPLACE\n";

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
  Deno.test(`parseSearchReplace() reads the file name: ${c.name}`, () => {
    const op = parseSearchReplace(c.text)[0];
    assert.ok(op);
    assert.equal(op.path, c.path);
    assert.equal(op.blocks.length, 1);
    assert.equal(op.blocks[0]!.search.length, 1);
    assert.equal(op.blocks[0]!.replace.length, 1);
  });
}

Deno.test("parseSearchReplace() treats a language tag as a tag, not a file name, and inherits the previous file", () => {
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
  const ops = parseSearchReplace(text);
  assert.equal(ops.length, 2);
  const a = ops[0]!;
  assert.equal(a.path, "src/a.py");
  assert.equal(a.blocks.length, 2);
  assert.deepEqual(a.blocks[1]!.search, ["b = 1"]);
  const b = ops[1]!;
  assert.equal(b.path, "src/b.py");
  assert.deepEqual(b.blocks[0]!.search, []);
  assert.equal(b.blocks[0]!.inputLine, 19);
});

const MALFORMED: { name: string; text: string; line: number }[] = [
  { name: "block without a file name", text: SR_BODY, line: 1 },
  { name: "missing divider", text: "a.ts\n<<<<<<< SEARCH\nx\n>>>>>>> REPLACE\n", line: 4 },
  { name: "missing REPLACE marker", text: "a.ts\n<<<<<<< SEARCH\nx\n=======\ny\n", line: 2 },
  { name: "nested SEARCH marker", text: "a.ts\n<<<<<<< SEARCH\nx\n<<<<<<< SEARCH\n", line: 4 },
  {
    name: "REPLACE marker outside a block",
    text: "a.ts\n>>>>>>> REPLACE\n",
    line: 2,
  },
];

for (const c of MALFORMED) {
  Deno.test(`parseSearchReplace() refuses malformed input: ${c.name}`, () => {
    assert.throws(
      () => parseSearchReplace(c.text),
      (e) => isRecoverable(e, "invalid_args") && e.details?.["input_line"] === c.line,
    );
  });
}

Deno.test("looksLikeSearchReplace() needs a SEARCH marker line", () => {
  assert.equal(looksLikeSearchReplace(`a.ts\n${SR_BODY}`), true);
  assert.equal(looksLikeSearchReplace("a.py\n------- SEARCH\nx\n"), true);
  assert.equal(looksLikeSearchReplace("say <<<<<<< SEARCH in prose"), false);
  assert.equal(looksLikeSearchReplace("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"), false);
});
