/**
 * Every symbol of every real-file fixture, in every language with symbols:
 * replacing it with its own text (as `range` gives it, and with its docs and
 * decorations as `full_range` gives it) must change nothing, and removing it
 * must leave a file that still parses. The files are real-world sources taken
 * from npm packages (see the READMEs next to them), not written for this test.
 */
import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { flattenSymbols, type SymbolInfo } from "../../../src/syntax/symbols.ts";
import { createWorkspace } from "../../../src/workspace.ts";

const ROOT = new URL("../../", import.meta.url);
const DIRS = ["fixtures/symbols", "fixtures/structural", "fixtures/real"];
const DATA = new Set(["json", "yaml", "toml", "css", "html"]);

function realFiles(): { path: string; name: string }[] {
  const out: { path: string; name: string }[] = [];
  const add = (dir: string) => {
    for (const e of Deno.readDirSync(new URL(`${dir}/`, ROOT))) {
      if (e.isFile && !e.name.endsWith(".json") && e.name !== "README.md") {
        out.push({ path: `${dir}/${e.name}`, name: e.name });
      }
    }
  };
  for (const d of DIRS) add(d);
  for (const e of Deno.readDirSync(new URL("conformance/samples/", ROOT))) {
    if (e.isDirectory) add(`conformance/samples/${e.name}`);
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

const wasm = createWasmLoader();

for (const file of realFiles()) {
  Deno.test(`replace_symbol with a symbol's own text is a no-op, remove_symbol parses: ${file.path}`, async () => {
    const text = Deno.readTextFileSync(new URL(file.path, ROOT));
    const ws = await createWorkspace({ backend: createMemoryBackend({ [`/${file.name}`]: text }), wasm });
    const outline = await ws.call("outline", { path: file.name, detail: "full" });
    if (!outline.ok) {
      assert.equal(outline.error.code, "unsupported_language", JSON.stringify(outline.error));
      return;
    }
    if (DATA.has(outline.data["language"] as string)) return;
    const problems: string[] = [];
    const symbols = flattenSymbols(outline.data["symbols"] as SymbolInfo[]); // some scripts define nothing
    for (const s of symbols) {
      const name_path = `/${s.name_path}`;
      for (const [label, range] of [["range", s.range], ["full_range", s.full_range]] as const) {
        const own = text.slice(range.start_utf16, range.end_utf16);
        const r = await ws.call("replace_symbol", {
          path: file.name,
          name_path,
          new_body: own,
          dry_run: true,
        });
        if (!r.ok) problems.push(`${name_path} (${label}): refused ${r.error.code}: ${r.error.message}`);
        else if (r.data["unchanged"] !== true) {
          problems.push(
            `${name_path} (${label}): changed the file\n${r.changes.map((c) => c.diff).join("\n")}`,
          );
        }
      }
      const removed = await ws.call("remove_symbol", { path: file.name, name_path, dry_run: true });
      if (!removed.ok) {
        problems.push(`${name_path}: remove refused ${removed.error.code}: ${removed.error.message}`);
      }
    }
    ws.close();
    assert.deepEqual(problems, [], problems.slice(0, 5).join("\n\n"));
  });
}
