import assert from "node:assert/strict";
import { isRecoverable } from "../../../src/mod.ts";
import {
  decodeText,
  dominantEol,
  encodeText,
  looksBinary,
  splitLinesKeepEnds,
} from "../../../src/fs/text.ts";

Deno.test("decodeText() keeps the BOM aside and encodeText() restores it", () => {
  const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a]);
  const file = decodeText(bytes, "a.txt");
  assert.deepEqual(file, { text: "a\r\n", bom: true });
  assert.deepEqual(encodeText(file), bytes);
});

Deno.test("decodeText() refuses binary and invalid UTF-8 with distinct codes", () => {
  assert.throws(
    () => decodeText(new Uint8Array([0x61, 0x00, 0x62]), "x.bin"),
    (e) => isRecoverable(e, "binary_file"),
  );
  assert.throws(
    () => decodeText(new Uint8Array([0x61, 0x62, 0xff, 0x63]), "x.txt"),
    (e) => isRecoverable(e, "encoding") && e.details?.["offset_byte"] === 2,
  );
  assert.equal(looksBinary(new TextEncoder().encode("plain")), false);
});

Deno.test("dominantEol() and splitLinesKeepEnds() respect mixed endings", () => {
  assert.equal(dominantEol("a\r\nb\r\nc\n"), "\r\n");
  assert.equal(dominantEol("a\nb\r\nc\n"), "\n");
  assert.equal(dominantEol("no newline"), "\n");
  assert.deepEqual(splitLinesKeepEnds("a\r\nb\nc"), ["a\r\n", "b\n", "c"]);
  assert.deepEqual(splitLinesKeepEnds(""), []);
});
