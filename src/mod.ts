/**
 * graver: a WebAssembly-first sandboxed edit runtime for coding agents. Every
 * edit is staged in memory, checked, and committed all-or-nothing, guarded by
 * content hashes; tree-sitter grammars run as WASM in every runtime.
 *
 * ```ts
 * import { createMemoryBackend, createWorkspace } from "@graver/core";
 * import assert from "node:assert/strict";
 *
 * const ws = await createWorkspace({ backend: createMemoryBackend({ "/hello.txt": "hi\n" }) });
 * const res = await ws.call("read_file", { path: "hello.txt" });
 * assert.ok(res.ok);
 * assert.equal(res.data.content, "1\thi");
 * ```
 *
 * @module
 */
export * from "./errors.ts";
export * from "./telemetry.ts";
export * from "./workspace.ts";
export * from "./fs/mod.ts";
export * from "./syntax/mod.ts";
export * from "./structural/mod.ts";
export * from "./tools/mod.ts";
export * from "./text/mod.ts";
export * from "./surfaces/reflection.ts";
