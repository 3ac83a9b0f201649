// Where an outline's floor is, outside graver: the same 1 MB TypeScript file
// and the same tags query (grammars/queries.json) in ONE Node process, with
// the native binding (tree-sitter 0.25.1 + tree-sitter-typescript 0.23.2,
// bench/native) and with web-tree-sitter 0.27.1 (the vendored wasm). For each:
// a bare parse, the tags query's matches, a one-pattern query (the cost of any
// query's walk over the tree) and descendantsOfType (a walk in C, no query).
// Started by bench/symbols.bench.ts; prints one JSON object on stdout.
//
// usage: node bench/symbols_native_node.mjs <repo root> <file.ts> <runs>
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [root, file, runsText] = process.argv.slice(2);
const runs = Number(runsText ?? 7);
const text = readFileSync(file, "utf8");
const tagsSource =
  JSON.parse(readFileSync(join(root, "grammars/queries.json"), "utf8")).languages.typescript.queries.tags;
const ONE = "(function_declaration) @f";

const require = createRequire(join(root, "bench/native/package.json"));
const NativeParser = require("tree-sitter");
const nativeLanguage = require("tree-sitter-typescript").typescript;
const nativeParser = new NativeParser();
nativeParser.setLanguage(nativeLanguage);
// The native binding copies the text through a buffer; one big enough for the whole file avoids chunking.
const nativeOptions = { bufferSize: 4 * text.length };

const wts = await import(pathToFileURL(join(root, "node_modules/web-tree-sitter/web-tree-sitter.js")).href);
await wts.Parser.init({ wasmBinary: readFileSync(join(root, "wasm/web-tree-sitter.wasm")) });
const wasmLanguage = await wts.Language.load(readFileSync(join(root, "grammars/wasm/typescript.wasm")));
const wasmParser = new wts.Parser();
wasmParser.setLanguage(wasmLanguage);

function time(f) {
  const t = performance.now();
  f();
  return performance.now() - t;
}

function measure(side) {
  const out = { parse: [], tags: [], one: [], walk: [], matches: 0 };
  for (let i = -1; i < runs; i++) {
    let tree;
    const parse = time(() => (tree = side.parse()));
    let matches = 0;
    const tags = time(() => (matches = side.tags.matches(tree.rootNode).length));
    const one = time(() => side.one.matches(tree.rootNode));
    const walk = time(() => tree.rootNode.descendantsOfType("function_declaration"));
    side.free(tree);
    if (i < 0) continue; // warm-up
    out.parse.push(parse);
    out.tags.push(tags);
    out.one.push(one);
    out.walk.push(walk);
    out.matches = matches;
  }
  return out;
}

const native = measure({
  parse: () => nativeParser.parse(text, undefined, nativeOptions),
  tags: new NativeParser.Query(nativeLanguage, tagsSource),
  one: new NativeParser.Query(nativeLanguage, ONE),
  free: () => {},
});
const wasm = measure({
  parse: () => wasmParser.parse(text),
  tags: new wts.Query(wasmLanguage, tagsSource),
  one: new wts.Query(wasmLanguage, ONE),
  free: (tree) => tree.delete(),
});
console.log(JSON.stringify({ node: process.version, bytes: Buffer.byteLength(text), native, wasm }));
