/**
 * Pattern rewrites that give every match its own text back (`$F($$$A)` → `$F($$$A)`, `return $X;` →
 * `return $X;`) must change nothing in real files: the bound text keeps its line breaks, indentation,
 * spaces inside brackets and trailing commas, whatever the file's style (tabs, mixed, prettier, Kotlin's
 * four-space continuation in a two-space file). The files are the real-file fixtures and conformance samples.
 */
import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { createWorkspace } from "../../../src/workspace.ts";

const ROOT = new URL("../../", import.meta.url);
const PATTERNS: Record<string, string[]> = {
  ".ts": ["$F($$$A)", "$O.$M($$$A)", "return $X;", "if ($C) { $$$B }"],
  ".js": ["$F($$$A)", "$O.$M($$$A)", "return $X;"],
  ".tsx": ["$F($$$A)"],
  ".py": ["$F($$$A)", "return $X", "self.$A = $B"],
  ".go": ["$F($$$A)", "return $X"],
  ".rs": ["$F($$$A)"],
  ".java": ["$O.$M($$$A)"],
  ".c": ["$F($$$A)"],
  ".cs": ["$O.$M($$$A)"],
  ".rb": ["$F($$$A)"],
  ".php": ["$F($$$A)"],
  ".kt": ["$F($$$A)"],
  ".lua": ["$F($$$A)"],
};

function realFiles(): string[] {
  const out: string[] = [];
  const add = (dir: string) => {
    for (const e of Deno.readDirSync(new URL(`${dir}/`, ROOT))) if (e.isFile) out.push(`${dir}/${e.name}`);
  };
  for (const d of ["fixtures/symbols", "fixtures/structural", "fixtures/real"]) add(d);
  for (const e of Deno.readDirSync(new URL("conformance/samples/", ROOT))) {
    if (e.isDirectory) add(`conformance/samples/${e.name}`);
  }
  return out.filter((f) => PATTERNS[f.slice(f.lastIndexOf("."))] !== undefined).sort();
}

const wasm = createWasmLoader();

for (const path of realFiles()) {
  Deno.test(`pattern rewrites to the matched text change nothing: ${path}`, async () => {
    const text = await Deno.readTextFile(new URL(path, ROOT));
    const name = path.slice(path.lastIndexOf("/") + 1);
    const ws = await createWorkspace({ backend: createMemoryBackend({ [`/${name}`]: text }), wasm });
    const problems: string[] = [];
    for (const pattern of PATTERNS[path.slice(path.lastIndexOf("."))]!) {
      const res = await ws.call("edit_apply_node", {
        path: name,
        selector: { pattern },
        select: "all",
        new_text: pattern,
        dry_run: true,
      });
      if (!res.ok) {
        if (res.error.code !== "no_match") {
          problems.push(`${pattern}: ${res.error.code}: ${res.error.message}`);
        }
        continue;
      }
      assert.ok((res.data["replaced"] as unknown[]).length > 0);
      if (res.changes.length > 0) problems.push(`${pattern}: changed the file\n${res.changes[0]!.diff}`);
    }
    await ws.close();
    assert.deepEqual(problems, [], problems.slice(0, 3).join("\n"));
  });
}
