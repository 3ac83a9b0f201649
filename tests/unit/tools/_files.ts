/** Shared set-up for the file tool tests: a small in-memory workspace rooted at "/w" with real grammars. @module */
import assert from "node:assert/strict";
import {
  type Backend,
  createMemoryBackend,
  createWorkspace,
  type ToolResult,
  type Workspace,
} from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";

/** Files of every file-tool workspace: LF, CRLF, BOM, binary and Latin-1 content. */
export const FILES: Record<string, string | Uint8Array> = {
  "/w/src/a.ts": "export const a = 1;\n",
  "/w/src/crlf.py": "x = 1\r\ny = 2\r\n",
  "/w/bom.txt": "\uFEFFbom\n",
  "/w/img.bin": new Uint8Array([0x89, 0x50, 0x00, 0x01]),
  "/w/latin1.txt": new Uint8Array([0x63, 0x61, 0x66, 0xe9]),
};

/** A workspace over {@linkcode FILES} (plus `extra`), rooted at "/w". */
export async function open(
  extra: Record<string, string | Uint8Array> = {},
): Promise<{ backend: Backend; ws: Workspace }> {
  const backend = createMemoryBackend({ ...FILES, ...extra });
  const ws = await createWorkspace({ backend, root: "/w", wasm: createWasmLoader() });
  return { backend, ws };
}

/** The data of a successful result (fails the test otherwise). */
export function okData(r: ToolResult): Record<string, unknown> {
  assert.ok(r.ok, JSON.stringify(r));
  return r.data;
}

/** The code of a refusal, checking it carries a hint (fails the test on success). */
export function code(r: ToolResult): string {
  assert.ok(!r.ok, `expected a refusal, got ${JSON.stringify(r)}`);
  assert.ok(r.error.hint.length > 0);
  return r.error.code;
}
