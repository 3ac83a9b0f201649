/**
 * graver's text search finds what ripgrep finds: for a table of queries (fixed strings, regular expressions,
 * case, smart case, whole words, globs, negated globs, the later glob winning, types, multi-line, context,
 * alternatives, a folder), the set of `path:line:column` of the matches (and of the context lines) equals
 * `rg --json`'s with the same ignore rules, on hono's published package (node_modules, a real tree of 577
 * files) and on a small tree made here with ignore files, hidden files, a binary file, CRLF and non-ASCII
 * lines. ripgrep comes from Debian's packages (`deno task test` installs it as root); without it the test
 * fails and says how to get it, unless we are not root (the task could not install it): then it is skipped
 * with the reason printed.
 */
import assert from "node:assert/strict";
import { diskSearchFiles, graverSets, missing, type RgCase, rgSets, ripgrepPath, runRipgrep } from "./_rg.ts";

const HONO = Deno.realPathSync(new URL("../../../node_modules/hono", import.meta.url));

const HONO_CASES: RgCase[] = [
  { name: "fixed string", args: { pattern: "c.req.header(", literal: true }, rg: ["-F"] },
  { name: "regex with a literal", args: { pattern: "new\\s+Error\\(" }, rg: [] },
  { name: "regex without a literal", args: { pattern: "[A-Z]{4,}_[A-Z]{3,}" }, rg: [] },
  { name: "alternatives", args: { pattern: "TODO|FIXME|deprecated" }, rg: [] },
  { name: "ignore case", args: { pattern: "content-type", ignore_case: true }, rg: ["-i"] },
  { name: "smart case, lower", args: { pattern: "response", smart_case: true }, rg: ["-S"] },
  { name: "smart case, upper", args: { pattern: "Response\\b", smart_case: true }, rg: ["-S"] },
  { name: "whole word", args: { pattern: "ctx", word: true }, rg: ["-w"] },
  { name: "whole word regex", args: { pattern: "get|set", word: true }, rg: ["-w"] },
  {
    name: "anchors",
    args: { pattern: "^export (declare )?(const|function|class|type) \\w+$|^import \\{" },
    rg: [],
  },
  { name: "glob", args: { pattern: "export", glob: "*.d.ts" }, rg: ["-g", "*.d.ts"] },
  {
    name: "negated glob",
    args: { pattern: "Hono", glob: ["!*.d.ts", "!**/cjs/**"] },
    rg: ["-g", "!*.d.ts", "-g", "!**/cjs/**"],
  },
  {
    name: "later glob wins",
    args: { pattern: "Hono", glob: ["!*.js", "index.js"] },
    rg: ["-g", "!*.js", "-g", "index.js"],
  },
  {
    name: "excluded folder not entered",
    args: { pattern: "Hono", glob: ["*.js", "!**/adapter/**", "**/adapter/bun/*.js"] },
    rg: ["-g", "*.js", "-g", "!**/adapter/**", "-g", "**/adapter/bun/*.js"],
  },
  {
    name: "braces",
    args: { pattern: "serveStatic", glob: "**/{bun,deno}/*.{js,ts}" },
    rg: ["-g", "**/{bun,deno}/*.{js,ts}"],
  },
  { name: "type ts", args: { pattern: "interface \\w+Env", type: "ts" }, rg: ["-t", "ts"] },
  { name: "type js", args: { pattern: "\\bawait\\b", type: "js" }, rg: ["-t", "js"] },
  { name: "type md (no grammar)", args: { pattern: "Hono", type: "md" }, rg: ["-t", "md"] },
  { name: "multiline", args: { pattern: "\\{\\n\\s+return c\\.", multiline: true }, rg: ["-U"] },
  { name: "context", args: { pattern: "HTTPException\\(", context: 2 }, rg: ["-C", "2"] },
  { name: "folder", args: { pattern: "export", path: "dist/cjs/middleware" }, rg: [] },
];

const FIXTURE_CASES: RgCase[] = [
  { name: "ignore files, hidden, binary", args: { pattern: "needle" }, rg: [] },
  { name: "line ends: $ before CRLF", args: { pattern: "needle$" }, rg: [] },
  { name: "type txt (no grammar)", args: { pattern: "needle", type: "txt" }, rg: ["-t", "txt"] },
  { name: "non-ASCII columns", args: { pattern: "wörld", ignore_case: true }, rg: ["-i"] },
  { name: "whole word at line edges", args: { pattern: "needle", word: true }, rg: ["-w"] },
  { name: "context at file edges", args: { pattern: "first|last", context: 3 }, rg: ["-C", "3"] },
];

/** A small real tree with what the walk and the binary check decide. */
async function fixtureTree(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "graver-search-" });
  const files: Record<string, string | Uint8Array> = {
    ".gitignore": "ignored.txt\nbuild/\n*.log\n!keep.log\n",
    // .ignore and .rgignore: kept out of searches, not out of git; a later file's rule wins (rg's order)
    ".ignore": "vendor/\n!build/\nsearch_only.txt\n",
    ".rgignore": "!search_only.txt\n",
    "vendor/lib.ts": "needle\n",
    "search_only.txt": "needle here\n",
    "a.ts": "first line\nconst needle = 1; // needle\nneedles and a needle\nlast\n",
    "crlf.txt": "one needle\r\ntwo\r\nneedle\r\n",
    "unicode.txt": "héllo Wörld — and wörld again: needle\n",
    "ignored.txt": "needle\n",
    "x.log": "needle\n",
    "keep.log": "needle kept\n",
    "build/out.js": "needle\n",
    "sub/b.py": "# needle\nneedle_x = 2\n",
    "sub/.gitignore": "*.tmp\n",
    "sub/t.tmp": "needle\n",
    "sub/.hidden.ts": "needle\n",
    ".hiddendir/c.ts": "needle\n",
    "bin.dat": new Uint8Array([110, 101, 101, 100, 108, 101, 0, 1, 2, 10]),
  };
  for (const [rel, content] of Object.entries(files)) {
    const abs = `${root}/${rel}`;
    await Deno.mkdir(abs.slice(0, abs.lastIndexOf("/")), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(abs, content);
    else await Deno.writeFile(abs, content);
  }
  return root;
}

async function assertSameAsRg(root: string, c: RgCase): Promise<void> {
  const theirs = rgSets(await runRipgrep(root, c));
  const args = { ...c.args };
  const ours = await graverSets(diskSearchFiles(root), args);
  const what = `${c.name} (${JSON.stringify(c.args)})`;
  assert.ok(theirs.matches.size > 0, `${what}: rg found nothing, the case checks nothing`);
  assert.deepEqual(missing(theirs.matches, ours.matches), [], `${what}: rg found, graver did not`);
  assert.deepEqual(missing(ours.matches, theirs.matches), [], `${what}: graver found, rg did not`);
  assert.deepEqual(missing(theirs.lines, ours.lines), [], `${what}: lines rg shows, graver does not`);
  assert.deepEqual(missing(ours.lines, theirs.lines), [], `${what}: lines graver shows, rg does not`);
}

const rg = await ripgrepPath();
// `deno task test` installs ripgrep when it runs as root (CI does); a user who is not root gets the reason
// printed and the comparison skipped, as the task could not install it.
const cannotInstall = rg === null && Deno.uid() !== 0;
if (cannotInstall) {
  console.error(
    "search_text equals ripgrep: skipped: rg is not on PATH and we are not root (apt-get install ripgrep)",
  );
}

Deno.test({ name: "search_text equals ripgrep: ripgrep is installed", ignore: cannotInstall }, () => {
  assert.ok(
    rg !== null,
    "ripgrep (rg) is not on PATH: `deno task test` installs Debian's ripgrep when run as root (scripts/install_runtimes.ts); or apt-get install ripgrep",
  );
});

for (const c of HONO_CASES) {
  Deno.test({ name: `search_text equals ripgrep on hono: ${c.name}`, ignore: rg === null }, async () => {
    await assertSameAsRg(HONO, c);
  });
}

Deno.test({
  name: "search_text equals ripgrep on a tree with ignore files, hidden and binary files",
  ignore: rg === null,
}, async (t) => {
  const root = await fixtureTree();
  try {
    for (const c of FIXTURE_CASES) await t.step(c.name, () => assertSameAsRg(root, c));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
