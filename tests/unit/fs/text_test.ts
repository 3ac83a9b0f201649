import assert from "node:assert/strict";
import { isRecoverable } from "../../../src/mod.ts";
import {
  decodeText,
  dominantEol,
  encodeText,
  looksBinary,
  spliceBytes,
  splitLinesKeepEnds,
  textShape,
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

Deno.test("looksBinary() looks for a NUL in the first 8 KiB only, as git does", () => {
  const at = (i: number, size = 9000) => {
    const bytes = new Uint8Array(size).fill(0x61);
    if (i < size) bytes[i] = 0;
    return bytes;
  };
  assert.equal(looksBinary(at(0)), true);
  assert.equal(looksBinary(at(8191)), true);
  assert.equal(looksBinary(at(8192)), false);
  assert.equal(looksBinary(at(99)), true);
  assert.equal(looksBinary(at(5, 5)), false);
  assert.equal(looksBinary(new Uint8Array()), false);
  assert.equal(looksBinary(at(8192, 20_000).subarray(8192)), true, "a view: its own first bytes");
});

Deno.test("dominantEol() and splitLinesKeepEnds() respect mixed endings", () => {
  assert.equal(dominantEol("a\r\nb\r\nc\n"), "\r\n");
  assert.equal(dominantEol("a\nb\r\nc\n"), "\n");
  assert.equal(dominantEol("no newline"), "\n");
  assert.deepEqual(splitLinesKeepEnds("a\r\nb\nc"), ["a\r\n", "b\n", "c"]);
  assert.deepEqual(splitLinesKeepEnds(""), []);
});

Deno.test("decodeText() tells a file's own U+FFFD from invalid UTF-8 (the lenient decode is checked)", () => {
  const own = new TextEncoder().encode("a \uFFFD b");
  assert.deepEqual(decodeText(own, "a.txt"), { text: "a \uFFFD b", bom: false });
  const invalid = new Uint8Array([0x61, 0x20, 0xff, 0x20, 0x62]);
  assert.throws(() => decodeText(invalid, "b.txt"), (e) => isRecoverable(e, "encoding"));
  const both = new Uint8Array([...own, 0xc3]); // a real U+FFFD, then a cut sequence
  assert.throws(() => decodeText(both, "c.txt"), (e) => isRecoverable(e, "encoding"));
});

Deno.test("spliceBytes() builds the same bytes as editing the text and encoding it, BOM and endings kept", () => {
  const samples = [
    "plain ascii\nline two\n",
    "\ufeffcafé = 1;\r\n😀 emoji = 2;\r\nend",
    "mixed\r\nendings\nß 😀 x\n",
  ];
  for (const sample of samples) {
    const bytes = new TextEncoder().encode(sample);
    const file = { ...decodeText(bytes, "a.ts"), bytes };
    const text = file.text;
    const splices = [
      { from: 0, to: 0, insert: "head " },
      { from: 3, to: 7, insert: "é😀" },
      { from: text.length - 3, to: text.length - 1, insert: "" },
      { from: text.length, to: text.length, insert: " tail" },
    ];
    let expected = text;
    for (const s of [...splices].reverse()) {
      expected = expected.slice(0, s.from) + s.insert + expected.slice(s.to);
    }
    assert.deepEqual(spliceBytes(file, splices), encodeText({ text: expected, bom: file.bom }), sample);
  }
});

Deno.test("textShape() tells the BOM and line endings from the bytes, and null where decodeText() refuses", () => {
  const enc = (t: string) => new TextEncoder().encode(t);
  assert.deepEqual(textShape(enc("a\nb\n")), { bom: false, empty: false, style: "lf", dominant: "\n" });
  assert.deepEqual(textShape(enc("\uFEFFa\r\nb")), {
    bom: true,
    empty: false,
    style: "crlf",
    dominant: "\r\n",
  });
  assert.deepEqual(textShape(enc("\uFEFF")), { bom: true, empty: true, style: "lf", dominant: "\n" });
  assert.deepEqual(textShape(enc("a\r\nb\nc\n")), {
    bom: false,
    empty: false,
    style: "mixed",
    dominant: "\n",
  });
  assert.equal(textShape(new Uint8Array([0x61, 0x00, 0x62])), null, "binary");
  assert.equal(textShape(new Uint8Array([0x61, 0xc3])), null, "a sequence cut at the end");
  // Checked in 64 KiB pieces: a character across a piece boundary is valid, a broken one past it is not.
  const across = enc("x".repeat(64 * 1024 - 1) + "é\n");
  assert.equal(textShape(across)?.style, "lf");
  const broken = across.slice();
  broken[64 * 1024] = 0x41; // the second byte of "é" replaced
  assert.equal(textShape(broken), null);
  assert.throws(() => decodeText(broken, "a.txt"), (e) => isRecoverable(e, "encoding"));
});
