import assert from "node:assert/strict";
import { provablySameReplace, sameVersion } from "../../../src/compass/exact_rewrite.ts";

Deno.test("provablySameReplace() holds only for one exact occurrence that changes something", () => {
  assert.ok(provablySameReplace("a = 1\nb = 2\n", "b = 2", "b = 3"));
  assert.ok(!provablySameReplace("a = 1\na = 1\n", "a = 1", "a = 2"), "two occurrences");
  assert.ok(!provablySameReplace("aaa", "aa", "b"), "overlapping occurrences count");
  assert.ok(
    !provablySameReplace("a = 1\n", "a  = 1", "a = 2"),
    "the ladder would place it, not an exact match",
  );
  assert.ok(
    !provablySameReplace("a = 1\n", "a = 1", "a = 1"),
    "no change: edit_file refuses, the patch would not",
  );
  assert.ok(!provablySameReplace("a = 1\n", "", "x"), "empty old text creates files");
});

Deno.test("provablySameReplace() follows CRLF files as both tools read them", () => {
  const crlf = "a = 1\r\nb = 2\r\nc = 3\r\n";
  assert.ok(provablySameReplace(crlf, "a = 1\nb = 2", "a = 1\nb = 5"), "the model's \\n means \\r\\n");
  assert.ok(provablySameReplace(crlf, "b = 2", "b = 5"));
  assert.ok(!provablySameReplace(crlf, "\nb", "\nx"), "a match splitting a CRLF pair");
  const mixed = "a\nb\r\na\r\nb\n";
  assert.ok(
    !provablySameReplace(mixed, "a\nb", "x"),
    "both spellings occur: the two tools pick different ones",
  );
});

Deno.test("sameVersion() accepts the full version or a 12+ hex prefix", () => {
  const v = "ab".repeat(32);
  assert.ok(sameVersion(v, v));
  assert.ok(sameVersion(v, v.slice(0, 12).toUpperCase()));
  assert.ok(!sameVersion(v, v.slice(0, 8)));
  assert.ok(!sameVersion(v, "cd".repeat(32)));
});
