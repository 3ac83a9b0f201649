// Run by Node and by Bun from a project that installed the packed @graver/core tarball: a read, an edit and a
// structural edit on a real directory, through the package's public entry and its node adapter. Prints one
// JSON line: {"runtime", "read", "edit", "structural", "text"}.
import { createWorkspace } from "@graver/core";
import { createDiskBackend, createWasmLoader } from "@graver/core/adapters/node";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";

const SOURCE = [
  "export function greet(name: string): string {",
  '  return "hi " + name;',
  "}",
  "",
  "export const answer = 41;",
  "",
].join("\n");

const root = await mkdtemp(`${tmpdir()}/graver-npm-smoke-`);
try {
  await writeFile(`${root}/app.ts`, SOURCE);
  const ws = await createWorkspace({ backend: createDiskBackend(), root, wasm: createWasmLoader() });
  const read = await ws.call("read_file", { path: "app.ts" });
  const edit = await ws.call("edit_file", {
    path: "app.ts",
    old_string: "answer = 41",
    new_string: "answer = 42",
    expected_version: read.ok ? read.data.version : undefined,
  });
  const structural = await ws.call("replace_symbol", {
    path: "app.ts",
    name_path: "greet",
    new_text: "export function greet(name: string): string {\n  return `hello ${name}`;\n}",
  });
  console.log(JSON.stringify({
    runtime: typeof globalThis.Bun !== "undefined" ? "bun" : "node",
    read: read.ok ? read.data.content : read.error,
    edit: edit.ok ? edit.status : edit.error,
    structural: structural.ok ? structural.status : structural.error,
    text: await readFile(`${root}/app.ts`, "utf8"),
  }));
} finally {
  await rm(root, { recursive: true, force: true });
}
