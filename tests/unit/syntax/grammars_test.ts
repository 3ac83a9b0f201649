import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { GRAMMARS, Grammars } from "../../../src/mod.ts";
import { HEAD_CHARS } from "../../../src/syntax/grammars.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";

Deno.test("Grammars.languageOf() uses names, extensions and shebangs", () => {
  const g = new Grammars(createWasmLoader());
  assert.equal(g.languageOf("a/b/c.ts"), "typescript");
  assert.equal(g.languageOf("x.TSX"), "tsx");
  assert.equal(g.languageOf("Rakefile"), "ruby");
  assert.equal(g.languageOf(".bashrc"), "bash");
  assert.equal(g.languageOf("bin/tool", "#!/usr/bin/env -S python3 -u"), "python");
  assert.equal(g.languageOf("bin/tool", "#!/bin/bash"), "bash");
  assert.equal(g.languageOf("README"), null);
  // CocoaPods and Bundler files are Ruby
  assert.equal(g.languageOf("ios/react-native-safe-area-context.podspec"), "ruby");
  assert.equal(g.languageOf("ios/Podfile"), "ruby");
});

Deno.test("Grammars.languageOf() reads a .h header as C++ when its start shows C++, else as C", async () => {
  const g = new Grammars(createWasmLoader());
  const root = new URL("../../../", import.meta.url);
  const cpp = await Deno.readTextFile(new URL("tests/conformance/samples/cpp/napi-inl.deprecated.h", root));
  const c = await Deno.readTextFile(new URL("tests/fixtures/symbols/tag.h", root));
  assert.equal(g.languageOf("napi-inl.deprecated.h", cpp.slice(0, HEAD_CHARS)), "cpp");
  assert.equal(g.languageOf("tag.h", c.slice(0, HEAD_CHARS)), "c");
  assert.equal(g.languageOf("x.h"), "c");
  assert.equal(g.languageOf("x.h", "#pragma once\nnamespace app {\nint f();\n}\n"), "cpp");
  assert.equal(g.languageOf("x.h", "/* a class of its own */\nstruct point { int x; };\n"), "c");
});

Deno.test("every manifest grammar loads from its vendored wasm, whose hash matches the manifest", async () => {
  const g = new Grammars(createWasmLoader());
  const root = new URL("../../../", import.meta.url);
  for (const [id, entry] of Object.entries(GRAMMARS)) {
    const bytes = new Uint8Array(await readFile(new URL(`grammars/wasm/${id}.wasm`, root)));
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
    assert.equal([...digest].map((b) => b.toString(16).padStart(2, "0")).join(""), entry.sha256, id);
    const language = await g.language(id);
    assert.ok(language.abiVersion >= 13 && language.abiVersion <= 15, `${id} ABI ${language.abiVersion}`);
  }
});

Deno.test("Grammars.language() rejects unknown ids clearly", async () => {
  const g = new Grammars(createWasmLoader());
  await assert.rejects(() => g.language("cobol"), /not in the manifest/);
});

Deno.test("Grammars loads a grammar from a URL and from a precompiled WebAssembly.Module", async () => {
  const root = new URL("../../../", import.meta.url);
  const disk = createWasmLoader();
  const module = new WebAssembly.Module(
    new Uint8Array(await readFile(new URL("grammars/wasm/json.wasm", root))),
  );
  const g = new Grammars({
    runtime: disk.runtime,
    grammar: (id) => Promise.resolve(id === "json" ? module : new URL(`grammars/wasm/${id}.wasm`, root)),
  });
  const json = await g.parser("json");
  assert.equal(json.parse('{"a": [1, 2]}')!.rootNode.hasError, false);
  const go = await g.parser("go");
  assert.equal(go.parse("package main\n\nfunc main() {}\n")!.rootNode.hasError, false);
});

Deno.test("registries of one process share a language loaded from the same wasm (by SHA-256)", async () => {
  const a = new Grammars(createWasmLoader());
  const b = new Grammars(createWasmLoader());
  assert.equal(await a.language("python"), await b.language("python"));
  // A manifest entry without a hash is loaded by its own registry.
  const own = new Grammars(createWasmLoader(), { python: { ...GRAMMARS["python"]!, sha256: "" } });
  assert.notEqual(await own.language("python"), await a.language("python"));
});
