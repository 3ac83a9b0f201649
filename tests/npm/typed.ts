// Type-checked (tsc --noEmit, module nodenext) against the installed package's declarations: the public entry's
// types resolve, and they are real types (the @ts-expect-error below must be needed).
import { createMemoryBackend, createWorkspace, type ToolResult } from "@graver/core";
import { createWasmLoader } from "@graver/core/adapters/node";
import type { Backend } from "@graver/core/fs";

const backend: Backend = createMemoryBackend({ "/w/a.ts": "export const a = 1;\n" });
const ws = await createWorkspace({ backend, root: "/w", wasm: createWasmLoader() });
const result: ToolResult = await ws.call("read_file", { path: "a.ts" });
if (result.ok) {
  const status: string = result.status;
  console.log(status);
}
// @ts-expect-error a workspace has no such method
ws.noSuchMethod();
