import assert from "node:assert/strict";
import {
  blankLinesAbove,
  blankLinesBelow,
  columnsOf,
  forEachLine,
  indentOfLine,
  isBlankLine,
  lineEndAfter,
  lineNumberAt,
  lineStart,
  lineWindow,
  nextLineStart,
  offsetOfLine,
  rowOf,
  startsLine,
  textLines,
  trimCode,
} from "../../../src/fs/lines.ts";

Deno.test("lineStart() and nextLineStart() find the line around an offset, CRLF included", () => {
  const text = "ab\r\ncd\nef";
  assert.equal(lineStart(text, 0), 0);
  assert.equal(lineStart(text, 3), 0); // the "\n" of "\r\n" is on the first line
  assert.equal(lineStart(text, 4), 4);
  assert.equal(lineStart(text, 9), 7);
  assert.equal(nextLineStart(text, 0), 4);
  assert.equal(nextLineStart(text, 4), 7);
  assert.equal(nextLineStart(text, 8), text.length);
});

Deno.test("lineEndAfter() reads a span's end as exclusive: a span ending after a newline ends there", () => {
  const text = "a();\nb();\n";
  assert.equal(lineEndAfter(text, 4), 5); // "a();" ends on line 1
  assert.equal(lineEndAfter(text, 5), 5); // "a();\n" too
  assert.equal(lineEndAfter(text, 0), 5);
  assert.equal(lineEndAfter("x", 1), 1);
});

Deno.test("startsLine() accepts spaces and tabs before an offset, nothing else", () => {
  const text = "a\n \tb c\n";
  assert.equal(startsLine(text, 4), true);
  assert.equal(startsLine(text, 2), true);
  assert.equal(startsLine(text, 6), false);
  assert.equal(startsLine(text, 0), true);
  // A carriage return or a no-break space is not indentation.
  assert.equal(startsLine("\u00a0x", 1), false);
});

Deno.test("indentOfLine() and columnsOf() read a line's indentation, a tab counting 4 columns", () => {
  const text = "class A {\n\t  foo() {}\n}\n";
  assert.equal(indentOfLine(text, text.indexOf("foo")), "\t  ");
  assert.equal(indentOfLine(text, 0), "");
  assert.equal(columnsOf("\t  "), 6);
  assert.equal(columnsOf("\t\t", 8), 16);
  assert.equal(columnsOf(""), 0);
});

Deno.test("blankLinesAbove() and blankLinesBelow() count blank lines (spaces, tabs, CR) around a line start", () => {
  const text = "a\n\n \t\r\nb\n\n\nc";
  const b = text.indexOf("b");
  assert.deepEqual(blankLinesAbove(text, b), { count: 2, from: 2 });
  assert.deepEqual(blankLinesAbove(text, 0), { count: 0, from: 0 });
  assert.deepEqual(blankLinesBelow(text, b + 2), { count: 2, to: text.indexOf("c") });
  // A last line without an ending is not a gap.
  assert.deepEqual(blankLinesBelow("a\n  ", 2), { count: 0, to: 2 });
  assert.equal(isBlankLine(" \t\r\n"), true);
  assert.equal(isBlankLine(" x"), false);
});

Deno.test("trimCode() drops leading blank lines and trailing whitespace, keeping the first line's indentation", () => {
  assert.equal(trimCode("\n \n  f();\n  g();\n\n"), "  f();\n  g();");
  assert.equal(trimCode("\r\n\r\nx\r\n"), "x");
});

Deno.test("lineWindow() and forEachLine() count and cut lines exactly as textLines() does, in one scan", () => {
  const texts = [
    "",
    "a",
    "a\n",
    "a\r\n",
    "\n",
    "\n\n",
    "a\nb",
    "a\r\nb\r\n",
    "a\n\nb\n",
    "x\ry\n",
    "a\r",
    "é😀\nz",
  ];
  for (const text of texts) {
    const all = textLines(text);
    for (let start = 1; start <= all.length + 1; start++) {
      for (let end = start; end <= all.length + 2; end++) {
        assert.deepEqual(lineWindow(text, start, end), {
          lines: all.slice(start - 1, end),
          total: all.length,
        });
      }
    }
    const seen: [number, string][] = [];
    assert.equal(
      forEachLine(text, { start: 1, end: Infinity }, (l, n) => void seen.push([n, l])),
      all.length,
    );
    assert.deepEqual(seen, all.map((l, i) => [i + 1, l]));
  }
});

// Regression: trimCode() used /\s+$/, quadratic on a long run of spaces that is not at the end.
Deno.test("trimCode() trims a code with a long inner run of spaces in one pass", () => {
  assert.equal(trimCode(`\n  a${" ".repeat(300_000)}b  \n`), `  a${" ".repeat(300_000)}b`);
});

Deno.test("lineNumberAt() and offsetOfLine() turn offsets into 1-based lines and back, CRLF included", () => {
  const text = "ab\r\ncd\n\nef";
  for (let line = 1; line <= 4; line++) {
    const at = offsetOfLine(text, line);
    assert.equal(lineNumberAt(text, at), line);
    assert.equal(at, line === 1 ? 0 : text.split("\n").slice(0, line - 1).join("\n").length + 1);
  }
  assert.equal(offsetOfLine(text, 5), -1);
  for (let o = 0; o <= text.length; o++) {
    assert.equal(lineNumberAt(text, o), text.slice(0, o).split("\n").length);
    assert.equal(rowOf(text, o), lineNumberAt(text, o) - 1);
  }
});
