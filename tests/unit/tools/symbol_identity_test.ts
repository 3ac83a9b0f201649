/**
 * Every symbol of every real-file fixture, in every language with symbols:
 * replacing it with its own text (replace_symbol, edit_apply_node) (as `range` gives it, and with its docs and
 * decorations as `full_range` gives it) must change nothing, and removing it
 * must leave a file that still parses; inserting a copy of it after it (and
 * at the start or end of its parent's body, for a first or last child, with
 * insert_code and with edit_insert_at_anchor) and
 * removing the copy must give the original bytes back. The files are real-world sources taken
 * from npm packages (see the READMEs next to them), not written for this test.
 */
import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { flattenSymbols, type SymbolInfo } from "../../../src/syntax/symbols.ts";
import { syntaxProblems } from "../../../src/syntax/trees.ts";
import { createWorkspace, type Workspace } from "../../../src/workspace.ts";

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
  Deno.test(`replacing a symbol with its own text is a no-op, remove_symbol parses: ${file.path}`, async () => {
    const text = Deno.readTextFileSync(new URL(file.path, ROOT));
    const ws = await createWorkspace({ backend: createMemoryBackend({ [`/${file.name}`]: text }), wasm });
    const outline = await ws.call("outline", { path: file.name, detail: "full" });
    if (!outline.ok) {
      assert.equal(outline.error.code, "unsupported_language", JSON.stringify(outline.error));
      return;
    }
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
      for (const [label, range] of [["range", s.range], ["full_range", s.full_range]] as const) {
        const own = text.slice(range.start_utf16, range.end_utf16);
        const r = await ws.call("edit_apply_node", {
          path: file.name,
          selector: name_path,
          new_text: own,
          dry_run: true,
        });
        if (!r.ok) {
          problems.push(
            `${name_path} edit_apply_node (${label}): refused ${r.error.code}: ${r.error.message}`,
          );
        } else if (r.changes.length > 0) {
          problems.push(`${name_path} edit_apply_node (${label}): changed the file\n${r.changes[0]!.diff}`);
        }
      }
      const removed = await ws.call("remove_symbol", { path: file.name, name_path, dry_run: true });
      if (!removed.ok) {
        problems.push(`${name_path}: remove refused ${removed.error.code}: ${removed.error.message}`);
      }
    }
    await ws.close();
    assert.deepEqual(problems, [], problems.slice(0, 5).join("\n\n"));
  });
}

/** Insert `copy` at `position` of `anchor`, find the copy (same name and kind, at the line reported), remove it. */
async function roundTrip(
  open: () => Promise<Workspace>,
  file: string,
  text: string,
  anchor: string,
  position: string,
  copy: SymbolInfo,
  code: string,
): Promise<string | null> {
  const w = await open();
  try {
    // insert_code's positions, and edit_insert_at_anchor's (first_child, last_child, anchor:before|after) on the
    // same symbols.
    const anchored = position === "first_child" || position === "last_child" ||
      position.startsWith("anchor:");
    const inserted = anchored
      ? await w.call("edit_insert_at_anchor", {
        path: file,
        selector: anchor,
        position: position.replace(/^anchor:/, ""),
        text: code,
      })
      : await w.call("insert_code", { path: file, name_path: anchor, position, code });
    if (!inserted.ok) return `insert refused ${inserted.error.code}: ${inserted.error.message}`;
    const line = anchored
      ? (inserted.data["inserted"] as { start_line: number }[])[0]!.start_line
      : inserted.data["start_line"] as number;
    const after = await w.call("outline", { path: file, detail: "full" });
    if (!after.ok) return `outline after the insert: ${after.error.code}`;
    const copies = flattenSymbols(after.data["symbols"] as SymbolInfo[]).filter((x) =>
      x.name === copy.name && x.kind === copy.kind && x.full_range.start_line === line
    );
    if (copies.length !== 1) return `the copy is not the symbol at line ${line} (${copies.length} found)`;
    const removed = await w.call("remove_symbol", { path: file, name_path: `/${copies[0]!.name_path}` });
    if (!removed.ok) return `removing the copy refused ${removed.error.code}`;
    const back = new TextDecoder().decode((await w.fs.read(`/${file}`))!);
    return back === text ? null : "insert then remove changed the file";
  } finally {
    await w.close();
  }
}

/** A symbol's text as a model would copy it: with its docs, and the `;` that ends a C struct. */
function copyOf(text: string, s: SymbolInfo): string {
  const semi = /^[ \t]*;/.exec(text.slice(s.full_range.end_utf16));
  return text.slice(s.full_range.start_utf16, s.full_range.end_utf16) + (semi ? ";" : "");
}

for (const file of realFiles()) {
  Deno.test(`insert_code of a symbol's copy next to it or into its parent, then remove_symbol of the copy, restores the bytes: ${file.path}`, async () => {
    const text = Deno.readTextFileSync(new URL(file.path, ROOT));
    const open = () => createWorkspace({ backend: createMemoryBackend({ [`/${file.name}`]: text }), wasm });
    const ws = await open();
    const outline = await ws.call("outline", { path: file.name, detail: "full" });
    await ws.close();
    // Data and markup (JSON, YAML, TOML, CSS, HTML) often hold items on one line, where a copy lands on the same
    // line as its original: the round trip is checked on code.
    if (!outline.ok || DATA.has(outline.data["language"] as string)) return;
    const parser = await ws.grammars!.parser(outline.data["language"] as string);
    const tree = parser.parse(text)!;
    const badLines = syntaxProblems(tree.rootNode).map((p) => p.line);
    tree.delete();
    parser.delete();
    const problems: string[] = [];
    const visit = async (list: SymbolInfo[], parent: SymbolInfo | null) => {
      for (const s of list) {
        const cases: [string, string][] = [
          [`/${s.name_path}`, "after"],
          [`/${s.name_path}`, "anchor:after"],
          [`/${s.name_path}`, "anchor:before"],
        ];
        if (parent && s === list[0]) {
          cases.push([`/${parent.name_path}`, "start_of_body"], [`/${parent.name_path}`, "first_child"]);
        }
        if (parent && s === list[list.length - 1]) {
          cases.push([`/${parent.name_path}`, "end_of_body"], [`/${parent.name_path}`, "last_child"]);
        }
        for (const [anchor, position] of cases) {
          const problem = await roundTrip(open, file.name, text, anchor, position, s, copyOf(text, s));
          // Copying code that already holds syntax errors (zsh in a bash file) is refused by the guard: fine.
          const broken = problem?.startsWith("insert refused syntax_error") &&
            badLines.some((l) => l >= s.full_range.start_line && l <= s.full_range.end_line);
          // Children spread over several inline types (a property typed `(a: {x}) => {y}`) share no body: fine.
          const bodiless = !/after|before/.test(position) && /it has no body$/.test(problem ?? "");
          if (problem && !broken && !bodiless) {
            problems.push(`${anchor} ${position} (copy of /${s.name_path}): ${problem}`);
          }
        }
        await visit(s.children, s);
      }
    };
    await visit(outline.data["symbols"] as SymbolInfo[], null);
    assert.deepEqual(problems, [], problems.slice(0, 5).join("\n"));
  });
}
