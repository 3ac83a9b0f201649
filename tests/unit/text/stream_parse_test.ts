import assert from "node:assert/strict";
import { isRecoverable } from "../../../src/errors.ts";
import { parseEdits } from "../../../src/text/parse_edits.ts";
import { EditStreamParser } from "../../../src/text/stream_parse.ts";
import type { EditBlock, FileOp } from "../../../src/text/types.ts";
import { randomChunks, seededRandom } from "../../_helpers.ts";

interface Streamed {
  ops: FileOp[];
  events: string[];
  error?: unknown;
}

function stream(pieces: string[]): Streamed {
  const out: Streamed = { ops: [], events: [] };
  const parser = new EditStreamParser({
    file: (f) => out.events.push(`file ${f.op} ${f.path} @${f.inputLine}`),
    search: (b: EditBlock) => out.events.push(`search @${b.inputLine}`),
    block: (b: EditBlock) => out.events.push(`block @${b.inputLine}`),
    op: (op) => out.ops.push(op),
  });
  try {
    for (const p of pieces) parser.write(p);
    parser.end();
  } catch (err) {
    out.error = err;
  }
  return out;
}

function oneShot(text: string): { ops?: FileOp[]; error?: unknown } {
  try {
    return { ops: parseEdits(text).ops };
  } catch (error) {
    return { error };
  }
}

const INPUTS: Record<string, string> = {
  "search-replace": [
    "Change `src/a.ts`:",
    "```ts",
    "<<<<<<< SEARCH",
    "const a = 1;",
    "=======",
    "const a = 2;",
    ">>>>>>> REPLACE",
    "```",
    "<<<<<<< SEARCH",
    "b",
    "=======",
    "x",
    "=======",
    "c",
    ">>>>>>> REPLACE",
    "src/b.ts",
    "------- SEARCH",
    "=======",
    "new",
    "+++++++ REPLACE",
    "",
  ].join("\n"),
  "search-replace, CRLF": "a.txt\r\n<<<<<<< SEARCH\r\none\r\n=======\r\n1\r\n>>>>>>> REPLACE\r\n",
  "search-replace, lone CR endings": "a.txt\r<<<<<<< SEARCH\rone\r=======\r1\r>>>>>>> REPLACE",
  "unified diff, git": [
    "diff --git a/src/a.ts b/src/a.ts",
    "index 1111111..2222222 100644",
    "--- a/src/a.ts",
    "+++ b/src/a.ts",
    "@@ -10,3 +10,3 @@ function f() {",
    " const a = 1;",
    "-const b = 2;",
    "+const b = 3;",
    " const c = 4;",
    "@@ -20,2 +20,3 @@",
    " x();",
    "+y();",
    " z();",
    "diff --git a/new.txt b/new.txt",
    "new file mode 100644",
    "--- /dev/null",
    "+++ b/new.txt",
    "@@ -0,0 +1,2 @@",
    "+hello",
    "+world",
    "\\ No newline at end of file",
    "diff --git a/old.txt b/old.txt",
    "deleted file mode 100644",
    "--- a/old.txt",
    "+++ /dev/null",
    "@@ -1 +0,0 @@",
    "-bye",
    "diff --git a/from.ts b/to.ts",
    "similarity index 90%",
    "rename from from.ts",
    "rename to to.ts",
    "",
  ].join("\n"),
  "unified diff, bare @@ and a removed --- line": [
    "--- a/x.sql",
    "+++ b/x.sql",
    "@@",
    " select 1;",
    "--- a comment",
    "+-- another comment",
    "",
    "Some prose after it.",
  ].join("\n"),
  "apply-patch": [
    "apply_patch <<'EOF'",
    "*** Begin Patch",
    "*** Add File: hello.txt",
    "+Hello",
    "*** Delete File: gone.txt",
    "*** Update File: src/app.py",
    "*** Move to: src/main.py",
    "@@ def f():",
    "-    return 1",
    "+    return 2",
    "",
    "@@",
    " tail",
    "+more",
    "*** End of File",
    "*** End Patch",
    "EOF",
    "",
  ].join("\n"),
  "malformed: a REPLACE marker outside a block": "a.txt\n>>>>>>> REPLACE\n",
  "malformed: no divider": "a.txt\n<<<<<<< SEARCH\none\n",
  "malformed: apply-patch without an end": "*** Begin Patch\n*** Update File: a.py\n-a\n+b\n",
  "malformed: an update with no change lines": "*** Begin Patch\n*** Update File: a.py\n*** End Patch\n",
  "malformed: a diff of a file without hunks": "--- a/x\n+++ b/x\nprose\n",
  "no known format": "Just some prose.\n",
};

for (const [name, text] of Object.entries(INPUTS)) {
  Deno.test(`the stream parser gives the one-shot parse of ${name}, in every chunking`, () => {
    const whole = oneShot(text);
    const rand = seededRandom(text.length);
    for (const max of [1, 2, 3, 7, 64, text.length]) {
      for (let round = 0; round < 4; round++) {
        const got = stream(randomChunks(text, rand, max));
        if (whole.error) {
          assert.ok(isRecoverable(got.error), `${name}: expected a refusal, got ${String(got.error)}`);
          assert.ok(isRecoverable(whole.error));
          assert.equal(got.error.message, whole.error.message);
          assert.equal(got.error.hint, whole.error.hint);
          assert.deepEqual(got.error.details, whole.error.details);
        } else {
          assert.equal(got.error, undefined, String(got.error));
          assert.deepEqual(got.ops, whole.ops);
        }
      }
    }
  });
}

Deno.test("the stream parser reports a block's search side at its divider and the block at its marker", () => {
  const events: string[] = [];
  const parser = new EditStreamParser({
    file: (f) => events.push(`file ${f.path}`),
    search: (b) => events.push(`search ${b.search.join("|")}`),
    block: (b) => events.push(`block ${b.replace.join("|")}`),
    op: (op) => events.push(`op ${op.path}`),
  });
  parser.write("a.txt\n<<<<<<");
  assert.deepEqual(events, []);
  parser.write("< SEARCH\none\n===");
  assert.deepEqual(events, ["file a.txt"]);
  parser.write("====\n1\n");
  assert.deepEqual(events, ["file a.txt", "search one"]);
  parser.write(">>>>>>> REPLACE\n");
  assert.deepEqual(events, ["file a.txt", "search one", "block 1"]);
  parser.end();
  assert.deepEqual(events, ["file a.txt", "search one", "block 1", "op a.txt"]);
});

Deno.test("the stream parser keeps a CRLF split across chunks one line ending", () => {
  const ops: FileOp[] = [];
  const parser = new EditStreamParser({ op: (op) => ops.push(op) });
  for (
    const piece of ["a.txt\r", "\n<<<<<<< SEARCH\r", "\n\r", "\n=======\r", "\nx\r\n>>>>>>> REPLACE\r", "\n"]
  ) {
    parser.write(piece);
  }
  parser.end();
  assert.deepEqual(ops, parseEdits("a.txt\r\n<<<<<<< SEARCH\r\n\r\n=======\r\nx\r\n>>>>>>> REPLACE\r\n").ops);
});

Deno.test("the stream parser decides a format from its first deciding line, holding the lines before it", () => {
  const ops: FileOp[] = [];
  const parser = new EditStreamParser({ op: (op) => ops.push(op) });
  parser.write("Here is the diff.\n--- a/x.txt\n");
  assert.equal(parser.format, null);
  parser.write("+++ b/x.txt\n");
  assert.equal(parser.format, "udiff");
  parser.write("@@ -1 +1 @@\n-a\n+b\n");
  assert.equal(parser.end(), "udiff");
  assert.equal(ops.length, 1);
});
