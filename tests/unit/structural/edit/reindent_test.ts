import assert from "node:assert/strict";
import {
  copiedFrom,
  detectIndentUnit,
  indentOfLine,
  reindent,
} from "../../../../src/structural/edit/reindent.ts";

Deno.test("reindent() converts two-space code into a tab-indented nested body", () => {
  const code = "if (x) {\n  for (;;) {\n    y();\n  }\n}\n";
  assert.equal(
    reindent(code, { indent: "\t\t", eol: "\n", unit: "\t" }),
    "\t\tif (x) {\n\t\t\tfor (;;) {\n\t\t\t\ty();\n\t\t\t}\n\t\t}\n",
  );
});

Deno.test("reindent() converts tab-indented code into four-space depth", () => {
  const code = "\tdef f(self):\n\t\tif x:\n\t\t\treturn 1\n";
  assert.equal(
    reindent(code, { indent: "    ", eol: "\n", unit: "    " }),
    "    def f(self):\n        if x:\n            return 1\n",
  );
});

Deno.test("reindent() converts two-space units to four-space units", () => {
  assert.equal(
    reindent("a:\n  b:\n    c\n", { indent: "", eol: "\n", unit: "    " }),
    "a:\n    b:\n        c\n",
  );
});

Deno.test("reindent() strips the common indentation and keeps relative depth", () => {
  const code = "        foo();\n        if (a) {\n            bar();\n        }";
  assert.equal(
    reindent(code, { indent: "  ", eol: "\n", unit: "  " }),
    "  foo();\n  if (a) {\n    bar();\n  }",
  );
});

Deno.test("reindent() writes CRLF for every line and keeps blank lines empty", () => {
  const code = "def a():\n    x = 1\n    \n    return x\n";
  assert.equal(
    reindent(code, { indent: "    ", eol: "\r\n" }),
    "    def a():\r\n        x = 1\r\n\r\n        return x\r\n",
  );
  assert.equal(reindent("a\r\n\r\nb", { indent: "\t", eol: "\n" }), "\ta\n\n\tb");
});

Deno.test("reindent() reads a bare first line that opens a block as one level above the next lines", () => {
  // The model copied a method out of a class body and lost the first line's indentation.
  const code = "def area(self):\n        return self.w * self.h\n";
  assert.equal(
    reindent(code, { indent: "    ", eol: "\n", unit: "    " }),
    "    def area(self):\n        return self.w * self.h\n",
  );
});

Deno.test("reindent() reads a bare first line as the closing line's level when the code ends with a closer", () => {
  const code = "render() {\n        return 1;\n    }";
  assert.equal(reindent(code, { indent: "\t", eol: "\n", unit: "\t" }), "\trender() {\n\t\treturn 1;\n\t}");
});

Deno.test("reindent() reads a bare first statement as the same level as the next ones", () => {
  const code = "x = 1\n    y = 2\n    z = 3";
  assert.equal(reindent(code, { indent: "  ", eol: "\n" }), "  x = 1\n  y = 2\n  z = 3");
});

Deno.test("reindent() can leave the first line unindented (code that continues a line)", () => {
  const code = "foo(\n  a,\n  b,\n)";
  assert.equal(
    reindent(code, { indent: "    ", eol: "\n", unit: "    ", indentFirstLine: false }),
    "foo(\n        a,\n        b,\n    )",
  );
});

Deno.test("reindent() keeps alignment spaces that are not a whole unit", () => {
  const code = "/**\n * Doc.\n */\nfunction f() {}\n";
  assert.equal(
    reindent(code, { indent: "\t", eol: "\n", unit: "\t" }),
    "\t/**\n\t * Doc.\n\t */\n\tfunction f() {}\n",
  );
});

Deno.test("reindent() turns whitespace-only code into empty lines", () => {
  assert.equal(reindent("  \n\t\n", { indent: "    ", eol: "\n" }), "\n\n");
});

Deno.test("detectIndentUnit() finds tabs, two and four spaces, and ignores doc-comment alignment", () => {
  assert.equal(detectIndentUnit("func f() {\n\tif x {\n\t\treturn\n\t}\n}\n"), "\t");
  assert.equal(detectIndentUnit("class A:\n    def f(self):\n        pass\n"), "    ");
  assert.equal(detectIndentUnit("/**\n * a\n * b\n */\nx {\n  y {\n    z\n  }\n}\n"), "  ");
  assert.equal(detectIndentUnit("a\nb\n"), "    ");
  assert.equal(detectIndentUnit("a\nb\n", "\t"), "\t");
});

Deno.test("indentOfLine() returns the whitespace that starts the offset's line", () => {
  const text = "a\n    b = 1\n\tc\n";
  assert.equal(indentOfLine(text, text.indexOf("= 1")), "    ");
  assert.equal(indentOfLine(text, text.indexOf("c")), "\t");
  assert.equal(indentOfLine(text, 0), "");
  assert.equal(indentOfLine(text, text.indexOf("\tc")), "\t");
});

Deno.test("reindent() keeps the lines it is told to keep byte for byte (multi-line string content)", () => {
  const code = "const s = `\n  a\n    b\n`;\nif (x) {\n  y();\n}";
  assert.equal(
    reindent(code, { indent: "\t", eol: "\n", unit: "\t", keepLines: new Set([1, 2, 3]) }),
    "\tconst s = `\n  a\n    b\n`;\n\tif (x) {\n\t\ty();\n\t}",
  );
});

Deno.test("reindent() reads the unit from block openers, not from aligned continuation lines", () => {
  // Real shape: npm's completion.sh, a zsh function with `\` continuations aligned under an opening paren.
  const code = [
    "_npm_completion() {",
    "    local si=$IFS",
    "    compadd -- $(COMP_CWORD=$((CURRENT-1)) \\",
    "                 COMP_LINE=$BUFFER \\",
    "                 2>/dev/null)",
    "    IFS=$si",
    "  }",
  ].join("\n");
  // Same place, same unit (2): nothing changes.
  assert.equal(reindent(code, { indent: "  ", eol: "\n", unit: "  ", indentFirstLine: false }), code);
});

Deno.test("reindent() keeps mixed tabs and spaces as they are when the code is in the destination's unit", () => {
  const code = "function f(x) {\n\treturn (a)\n        && b;\n}";
  assert.equal(reindent(code, { indent: "", eol: "\n", unit: "\t", indentFirstLine: false }), code);
  // Moved one level in: the same bytes, one tab before each.
  assert.equal(
    reindent(code, { indent: "\t", eol: "\n", unit: "\t" }),
    "\tfunction f(x) {\n\t\treturn (a)\n\t        && b;\n\t}",
  );
});

Deno.test("reindent() moves docstring text with the code without reading its spacing as the unit", () => {
  const code =
    'def f(a):\n        """Doc.\n\n        Args:\n          a: thing.\n        """\n        return a';
  const align = new Set([2, 3, 4, 5]);
  assert.equal(
    reindent(code, { indent: "    ", eol: "\n", unit: "    ", indentFirstLine: false, alignLines: align }),
    code,
  );
});

Deno.test("reindent() places a leading doc comment at the level of the definition below it", () => {
  const code = "/**\n   * Doc.\n   */\n  run(): void;";
  assert.equal(reindent(code, { indent: "  ", eol: "\n", unit: "  ", indentFirstLine: false }), code);
});

Deno.test("reindent() leaves code copied from where it goes untouched (firstColumn)", () => {
  const code = "declare function f(\n    a: string,\n): void;";
  assert.equal(
    reindent(code, { indent: "", eol: "\n", unit: "\t", firstColumn: 0, indentFirstLine: false }),
    code,
  );
  // Without the hint, four spaces in a tab file are converted.
  assert.equal(
    reindent(code, { indent: "", eol: "\n", unit: "\t", indentFirstLine: false }),
    "declare function f(\n\ta: string,\n): void;",
  );
});

Deno.test("copiedFrom() tells code copied from a text from code written anew", () => {
  const text = "def a():\n\tx = 1\n\treturn x";
  assert.equal(copiedFrom("def a():\n\tx = 2\n\treturn x", text), true);
  assert.equal(copiedFrom("def a():\n    x = 2\n    return x", text), false);
  assert.equal(copiedFrom("def a():\n\t\tx = 2", text), false);
});

Deno.test("detectIndentUnit(): a long text's unit is read from its first 256 KiB (a 5 MB file is not split whole)", () => {
  const twoSpaces = "function a() {\n  return 1;\n}\n".repeat(10_000); // 290 KB
  const tabs = "function b() {\n\treturn 2;\n}\n".repeat(20_000);
  assert.equal(detectIndentUnit(twoSpaces + tabs), "  ");
  assert.equal(detectIndentUnit(tabs + twoSpaces), "\t");
});
