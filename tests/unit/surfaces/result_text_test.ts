import assert from "node:assert/strict";
import { resultText } from "../../../src/surfaces/result_text.ts";
import type { ToolResult } from "../../../src/tools/types.ts";

Deno.test("resultText(): a refusal is its code, message, hint, the suggested call as JSON, then details", () => {
  const result: ToolResult = {
    ok: false,
    tool: "replace_symbol",
    error: {
      code: "ambiguous",
      message: 'Cannot replace "run" in "a.py": 2 symbols match',
      hint: "Pass the name path of one",
      suggested_call: { tool: "replace_symbol", args: { path: "a.py", name_path: "A/run" } },
      details: { candidates: ["A/run", "B/run"] },
    },
    reminders: [{ provider: "compass", text: "prefer structural tools", preserve_on_compact: false }],
  };
  assert.equal(
    resultText(result, { chars: 10_000 }),
    'replace_symbol refused (ambiguous): Cannot replace "run" in "a.py": 2 symbols match\n' +
      "hint: Pass the name path of one\n" +
      'suggested_call: {"tool":"replace_symbol","args":{"path":"a.py","name_path":"A/run"}}\n' +
      "Nothing was written.\n" +
      "reminder (compass): prefer structural tools\n\n" +
      'details: {"candidates":["A/run","B/run"]}',
  );
});

Deno.test("resultText(): a dry run says what would change; a created and a deleted file are named so", () => {
  const text = resultText({
    ok: true,
    tool: "move_file",
    status: "dry_run",
    changes: [
      { path: "new.ts", before_version: null, after_version: "v2", diff: "@@ -0,0 +1,2 @@\n+a\n+b\n" },
      { path: "old.ts", before_version: "v1", after_version: null, diff: "@@ -1,2 +0,0 @@\n-a\n-b\n" },
    ],
    data: {},
    warnings: ["old.ts had no importers"],
    reminders: [],
  }, { chars: 10_000 });
  assert.match(text, /^move_file: dry_run, 2 files would change\n/);
  assert.match(text, /^new\.ts: created, lines 1–2 \(version v2\)$/m);
  assert.match(text, /^old\.ts: deleted$/m);
  assert.match(text, /^warning: old\.ts had no importers$/m);
});

Deno.test("resultText(): past the budget a long part is cut with a note of how much is left out and where", () => {
  const content = Array.from({ length: 2000 }, (_, i) => `${i + 1}\tline ${i}`).join("\n");
  const text = resultText({
    ok: true,
    tool: "read_file",
    status: "read",
    changes: [],
    data: { path: "a.txt", content },
    warnings: [],
    reminders: [],
  }, { chars: 5_000 });
  assert.ok(text.length <= 5_000, `${text.length}`);
  assert.match(text, /^read_file: read\npath: "a\.txt"\n\ncontent:\n1\tline 0\n/);
  const note = /…\[(\d+) more characters not shown here; the whole result is in structuredContent\]$/.exec(
    text,
  );
  assert.ok(note, text.slice(-200));
  const shown = text.slice(text.indexOf("content:\n") + "content:\n".length, note.index - 1);
  assert.ok(content.startsWith(shown));
  assert.equal(shown.length + Number(note[1]), content.length, "the note counts exactly what is left out");
});
