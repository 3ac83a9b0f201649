// WASM (web-tree-sitter 0.27.1 + the vendored wasm) vs the native binding
// (tree-sitter 0.25.1 + tree-sitter-typescript 0.23.2, built from source in
// bench/native) parsing the same TypeScript file in ONE Node process, runs
// alternating. Started by bench/foundation_parse.bench.ts; prints one JSON
// object on stdout.
//
// usage: node bench/foundation_parse_node.mjs <repo root> <file.ts> <runs>
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [root, file, runsText] = process.argv.slice(2);
const runs = Number(runsText ?? 15);
const text = readFileSync(file, "utf8");

const wts = await import(pathToFileURL(join(root, "node_modules/web-tree-sitter/web-tree-sitter.js")).href);
const { Parser: WasmParser, Language: WasmLanguage } = wts;
let t = performance.now();
await WasmParser.init({ wasmBinary: readFileSync(join(root, "wasm/web-tree-sitter.wasm")) });
const wasmInitMs = performance.now() - t;
t = performance.now();
const wasmLanguage = await WasmLanguage.load(readFileSync(join(root, "grammars/wasm/typescript.wasm")));
const wasmLoadMs = performance.now() - t;
const wasmParser = new WasmParser();
wasmParser.setLanguage(wasmLanguage);

const require = createRequire(join(root, "bench/native/package.json"));
t = performance.now();
const NativeParser = require("tree-sitter");
const nativeLanguage = require("tree-sitter-typescript").typescript;
const nativeLoadMs = performance.now() - t;
const nativeParser = new NativeParser();
const built = [
  "tree-sitter/build/Release/tree_sitter_runtime_binding.node",
  "tree-sitter-typescript/build/Release/tree_sitter_typescript_binding.node",
]
  .every((rel) => existsSync(join(root, "bench/native/node_modules", rel)));
nativeParser.setLanguage(nativeLanguage);

function parseWasm() {
  const t0 = performance.now();
  const tree = wasmParser.parse(text);
  const dt = performance.now() - t0;
  tree.delete();
  return dt;
}

function parseNative() {
  const t0 = performance.now();
  nativeParser.parse(text);
  return performance.now() - t0;
}

function digest(sexp) {
  return createHash("sha256").update(sexp).digest("hex");
}

// Same tree from both? (S-expression digest and error flag.)
const wasmTree = wasmParser.parse(text);
const nativeTree = nativeParser.parse(text);
const check = {
  wasm: { sha256: digest(wasmTree.rootNode.toString()), hasError: wasmTree.rootNode.hasError },
  native: { sha256: digest(nativeTree.rootNode.toString()), hasError: nativeTree.rootNode.hasError },
};
wasmTree.delete();

// Warm-up (JIT, allocator), then alternate which goes first.
for (let i = 0; i < 3; i++) {
  parseWasm();
  parseNative();
}
const wasm = [];
const native = [];
for (let i = 0; i < runs; i++) {
  globalThis.gc?.();
  if (i % 2 === 0) {
    wasm.push(parseWasm());
    native.push(parseNative());
  } else {
    native.push(parseNative());
    wasm.push(parseWasm());
  }
}

// Incremental re-parse after a one-line edit in the middle (an identifier
// renamed), both parsers, alternating between the two texts.
const lines = text.split("\n");
const pattern = /^(\s*(?:readonly\s+)?)([A-Za-z_$][\w$]*)(\??\s*[:(])/;
let at = Math.floor(lines.length / 2);
while (!pattern.test(lines[at])) at++;
lines[at] = lines[at].replace(pattern, "$1$2Edited$3");
const texts = [text, lines.join("\n")];

function pointAt(s, offset) {
  let row = 0;
  let lineStart = 0;
  for (let i = s.indexOf("\n"); i !== -1 && i < offset; i = s.indexOf("\n", i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: offset - lineStart };
}

function editBetween(before, after) {
  let start = 0;
  while (before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let oldEnd = before.length;
  let newEnd = after.length;
  while (oldEnd > start && newEnd > start && before.charCodeAt(oldEnd - 1) === after.charCodeAt(newEnd - 1)) {
    oldEnd--;
    newEnd--;
  }
  return {
    startIndex: start,
    oldEndIndex: oldEnd,
    newEndIndex: newEnd,
    startPosition: pointAt(before, start),
    oldEndPosition: pointAt(before, oldEnd),
    newEndPosition: pointAt(after, newEnd),
  };
}
const edits = [editBetween(texts[1], texts[0]), editBetween(texts[0], texts[1])];

function incremental(parser, deleteTree, n) {
  const out = [];
  let tree = parser.parse(texts[0]);
  let state = 0;
  for (let i = -4; i < n; i++) {
    const next = 1 - state;
    const t0 = performance.now();
    tree.edit(edits[next]);
    const fresh = parser.parse(texts[next], tree);
    const dt = performance.now() - t0;
    if (deleteTree) tree.delete();
    tree = fresh;
    state = next;
    if (i >= 0) out.push(dt);
  }
  if (deleteTree) tree.delete();
  return out;
}
const incrementalRuns = runs * 4;
const incrementalWasm = incremental(wasmParser, true, incrementalRuns);
const incrementalNative = incremental(nativeParser, false, incrementalRuns);

console.log(JSON.stringify({
  node: process.version,
  bytes: Buffer.byteLength(text),
  setup: { wasmInitMs, wasmLoadMs, nativeLoadMs },
  nativeBinary: built ? "built from source (node-gyp)" : "prebuilt (shipped in the npm package)",
  check,
  wasm,
  native,
  incremental: { line: at + 1, wasm: incrementalWasm, native: incrementalNative },
}));
