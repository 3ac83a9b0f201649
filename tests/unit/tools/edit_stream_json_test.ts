import assert from "node:assert/strict";
import { JsonFieldScanner } from "../../../src/tools/_stream_json.ts";

function scan(pieces: string[]): { fields: Record<string, unknown>; closed: boolean } {
  const fields: Record<string, unknown> = {};
  let closed = false;
  const s = new JsonFieldScanner((k, v) => fields[k] = v, () => closed = true);
  for (const p of pieces) s.write(p);
  return { fields, closed };
}

const ARGS = {
  path: "src/a b.ts",
  old_text: 'quote " backslash \\ tab \t newline \n slash / é 😀 \u0001',
  nested: { old_text: "not top level", list: [1, "two", { three: 3 }] },
  edits: [{ oldText: "a", newText: "b" }],
  start_line: 12,
  replace_all: true,
  fuzzy: false,
  note: null,
  new_text: "}{][,:",
};

/** The JSON of ARGS with every non-ASCII character written as \u escapes (a surrogate pair as two). */
const JSON_TEXT = JSON.stringify(ARGS, null, 1).replace(
  /[\u0080-\uffff]/g,
  (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
);

Deno.test("JsonFieldScanner reads the top-level scalars of an object cut anywhere, escapes included", () => {
  const want = { ...ARGS } as Record<string, unknown>;
  delete want["nested"];
  delete want["edits"];
  assert.deepEqual(JSON.parse(JSON_TEXT), ARGS);
  for (let cut = 0; cut <= JSON_TEXT.length; cut++) {
    const got = scan([JSON_TEXT.slice(0, cut), JSON_TEXT.slice(cut)]);
    assert.deepEqual(got.fields, want, `cut at ${cut}`);
    assert.equal(got.closed, true);
  }
  assert.deepEqual(scan([...JSON_TEXT]).fields, want);
});

Deno.test("JsonFieldScanner reports a field as soon as its value closes, before the object does", () => {
  const fields: Record<string, unknown> = {};
  const s = new JsonFieldScanner((k, v) => fields[k] = v);
  s.write('{"path": "a.txt", "old_text": "x\\');
  assert.deepEqual(fields, { path: "a.txt" });
  s.write('ny"');
  assert.deepEqual(fields, { path: "a.txt", old_text: "x\ny" });
});
