import assert from "node:assert/strict";
import {
  isMarkdownPath,
  markdownHeadings,
  markdownOutline,
  readOutline,
} from "../../../src/syntax/markdown_outline.ts";
import type { SymbolInfo } from "../../../src/syntax/types.ts";
import { createMemoryBackend, createWorkspace } from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";

/** rxjs 7.8.2's README (the npm dependency): ATX headings, HTML and links in headings, a "/" in a name. */
const RXJS_README = new URL("../../../node_modules/rxjs/README.md", import.meta.url);

function tree(symbols: SymbolInfo[]): unknown[] {
  return symbols.map((s) => {
    const row: unknown[] = [s.name_path, s.full_range.start_line, s.full_range.end_line];
    return s.children.length > 0 ? [...row, tree(s.children)] : row;
  });
}

Deno.test("markdownOutline() of rxjs's README nests its headings by level, with sections' lines and escaped name paths", async () => {
  const text = await Deno.readTextFile(RXJS_README);
  const outline = markdownOutline(text);
  assert.equal(outline.language, "markdown");
  const top = outline.symbols;
  assert.deepEqual(top.map((s) => s.name_path), [
    "RxJS: Reactive Extensions For JavaScript",
    "The Roadmap from RxJS 7 to 8",
    "RxJS 7",
  ]);
  assert.deepEqual(tree(top[2]!.children).slice(0, 4), [
    ["RxJS 7/FOR 6.X PLEASE GO TO THE 6.x BRANCH", 13, 22],
    ["RxJS 7/Versions In This Repository", 24, 29],
    ["RxJS 7/Important", 31, 33],
    ["RxJS 7/Installation and Usage", 35, 89, [
      ["RxJS 7/Installation and Usage/ES6 via npm", 37, 69],
      ["RxJS 7/Installation and Usage/CDN", 71, 89],
    ]],
  ]);
  const building = top[2]!.children.find((s) => s.name === "Building/Testing");
  assert.equal(building?.name_path, "RxJS 7/Building\\/Testing");
  assert.equal(building?.kind, "heading");
  // A section ends on its last non-blank line: its text is the heading and its content, no trailing newline.
  const cdn = top[2]!.children[3]!.children[1]!;
  assert.ok(text.slice(cdn.range.start_utf16, cdn.range.end_utf16).startsWith("### CDN\n"));
  assert.ok(!/\s$/.test(text.slice(cdn.range.start_utf16, cdn.range.end_utf16)));
});

// Each expectation below is what cmark 0.30.2 (the CommonMark reference parser) finds at the top level.
Deno.test("markdownHeadings() reads ATX and setext headings as CommonMark does, and none inside code, HTML or front matter", () => {
  const md = [
    "---", // 1 front matter
    "title: Not a heading",
    "---",
    "Foo", // 4 setext over two lines
    "bar",
    "===",
    "",
    "   # Three spaces", // 8
    "    # four spaces: code",
    "",
    "#5 no space",
    "",
    "# Closing ##", // 13
    "",
    "```",
    "# in a fence",
    "``",
    "# still in it",
    "```",
    "",
    "~~~~",
    "# tilde fence",
    "~~~~",
    "",
    "<!--",
    "# in a comment",
    "-->",
    "",
    "<div>",
    "# in a div",
    "</div>",
    "",
    "> quote",
    "---",
    "",
    "- item",
    "---",
    "",
    "Para", // 39 a lazy continuation, then an underline
    "    # lazy",
    "---",
    "",
    "##", // an empty heading has no name: left out
    "",
    "## End #", // 45
    "",
    "## [Link](https://x.y/z) and <b>bold</b>", // 47
  ].join("\n");
  assert.deepEqual(markdownHeadings(md).map((h) => [h.level, h.name, h.line]), [
    [1, "Foo bar", 4],
    [1, "Three spaces", 8],
    [1, "Closing", 13],
    [2, "Para # lazy", 39],
    [2, "End", 45],
    [2, "Link and bold", 47],
  ]);
});

Deno.test("markdownOutline() keeps CRLF offsets, numbers repeated sibling names and runs an unclosed fence to the end", () => {
  const crlf = "# T\r\n\r\nSub\r\n---\r\n\r\n## Sub\r\n";
  const outline = markdownOutline(crlf);
  assert.deepEqual(tree(outline.symbols), [["T", 1, 6, [["T/Sub[0]", 3, 4], ["T/Sub[1]", 6, 6]]]]);
  const sub = outline.symbols[0]!.children[0]!;
  assert.equal(crlf.slice(sub.range.start_utf16, sub.range.end_utf16), "Sub\r\n---");
  assert.deepEqual(markdownHeadings("# A\n```\n# code\n").map((h) => h.name), ["A"]);
});

Deno.test("isMarkdownPath() knows Markdown by its extension", () => {
  assert.ok(isMarkdownPath("README.md") && isMarkdownPath("docs/a.markdown") && isMarkdownPath("x.MDX"));
  assert.ok(!isMarkdownPath("Makefile") && !isMarkdownPath("a.md.ts"));
});

Deno.test("readOutline() refuses a file without grammar with read_file, a call that runs", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
  await assert.rejects(
    readOutline(ws, "Makefile", { text: "all:\n\ttrue\n", version: "v", tool: "outline" }),
    (e: { code: string; suggestedCall: unknown }) =>
      e.code === "unsupported_language" &&
      JSON.stringify(e.suggestedCall) === JSON.stringify({ tool: "read_file", args: { path: "Makefile" } }),
  );
  const md = await readOutline(ws, "a.md", { text: "# A\n", version: "v", tool: "outline" });
  assert.equal(md.symbols[0]!.name, "A");
});
