import assert from "node:assert/strict";
import { keepLineEndings } from "../../../src/text/keep_eol.ts";

Deno.test("keepLineEndings() gives each line the file's ending, and each unchanged line of a mixed file its own", () => {
  assert.equal(keepLineEndings("a\r\nb\r\n", "a\nc\n").text, "a\r\nc\r\n");
  assert.equal(keepLineEndings("a\nb\n", "a\r\nc").text, "a\nc");
  const mixed = keepLineEndings("a\r\nb\nc\r\n", "a\nb\nd\ne\n");
  assert.equal(mixed.text, "a\r\nb\nd\r\ne\r\n");
  assert.equal(mixed.dominant, "\r\n");
});

Deno.test("keepLineEndings() asks for the old text only when its endings are mixed, and keeps a text already right as it is", () => {
  let asked = 0;
  const lf = { style: "lf" as const, dominant: "\n" as const, text: () => (asked++, "a\nb\n") };
  const next = "x\n".repeat(1000);
  const kept = keepLineEndings(lf, next);
  assert.equal(kept.text, next);
  assert.equal(keepLineEndings(lf, "x\r\ny\n").text, "x\ny\n");
  assert.equal(asked, 0, "a file with one style of endings is never decoded whole");
  const mixed = { style: "mixed" as const, dominant: "\n" as const, text: () => (asked++, "a\r\nb\n") };
  assert.equal(keepLineEndings(mixed, "a\nb\nc\n").text, "a\r\nb\nc\n");
  assert.equal(asked, 1);
});
