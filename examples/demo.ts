/**
 * `deno task demo`: graver in the terminal against an embedded in-memory sample project —
 * list, read, a staged edit refused by the syntax guard, a hash-guarded
 * commit with its diff, and a stale write refused — all through the one
 * dispatch path.
 *
 * @module
 */
import { createMemoryBackend, createWorkspace, type ToolResult } from "../src/mod.ts";
import { createWasmLoader } from "../src/adapters/deno/mod.ts";

const SAMPLE: Record<string, string> = {
  "/project/README.md": "# Sample\n\nA tiny project graver edits in memory.\n",
  "/project/src/greet.ts": [
    "export interface Greeting {",
    "  name: string;",
    "  excited?: boolean;",
    "}",
    "",
    "export function greet(g: Greeting): string {",
    '  const mark = g.excited ? "!" : ".";',
    "  return `Hello, ${g.name}${mark}`;",
    "}",
    "",
  ].join("\n"),
  "/project/src/main.py": 'def main():\r\n    print("hi")\r\n',
};

function show(title: string, result: ToolResult): void {
  console.log(`\n== ${title}`);
  if (!result.ok) {
    console.log(`refused (${result.error.code}): ${result.error.message}`);
    console.log(`hint: ${result.error.hint}`);
    return;
  }
  console.log(`ok: ${result.tool} -> ${result.status}`);
  for (const c of result.changes) console.log(c.diff.trimEnd());
}

const backend = createMemoryBackend(SAMPLE);
const ws = await createWorkspace({ backend, root: "/project", wasm: createWasmLoader() });

const list = await ws.call("list_files", { recursive: true });
console.log("== list_files");
if (list.ok) console.log((list.data["entries"] as string[]).join("\n"));

const read = await ws.call("read_file", { path: "src/greet.ts" });
if (!read.ok) throw new Error(read.error.message);
console.log(`\n== read_file src/greet.ts (version ${String(read.data["version"]).slice(0, 12)})`);
console.log(read.data["content"]);

const text = (await backend.readFile("/project/src/greet.ts")) as Uint8Array;
const original = new TextDecoder().decode(text);

show(
  "write_file with a broken edit (syntax guard)",
  await ws.call("write_file", {
    path: "src/greet.ts",
    content: original.replace("return `Hello", "return (`Hello"),
    expected_version: read.data["version"],
  }),
);

const good = await ws.call("write_file", {
  path: "src/greet.ts",
  content: original.replace('"!" : "."', '"!!" : "."'),
  expected_version: read.data["version"],
});
show("write_file, hash-guarded: stage -> syntax check -> atomic commit", good);

show(
  "write_file again with the old version (another writer got there first)",
  await ws.call("write_file", {
    path: "src/greet.ts",
    content: original,
    expected_version: read.data["version"],
  }),
);

const response = [
  "Here is the fix (the model indented everything 2 more and lost the CRLF endings):",
  "",
  "src/main.py",
  "```python",
  "<<<<<<< SEARCH",
  "  def main():",
  '      print("hi")',
  "=======",
  "  def main():",
  '      print("hello, graver")',
  ">>>>>>> REPLACE",
  "```",
].join("\n");
show(
  "apply_edits: a drifted SEARCH/REPLACE block lands on the right lines",
  await ws.call("apply_edits", { text: response }),
);

const outline = await ws.call("outline", { path: "src/greet.ts" });
console.log("\n== outline src/greet.ts");
if (outline.ok) {
  for (const s of outline.data["symbols"] as { kind: string; name_path: string; start_line: number }[]) {
    console.log(`${s.kind.padEnd(10)} ${s.name_path} (line ${s.start_line})`);
  }
}
show(
  "replace_symbol greet: the new body is re-indented and the export keyword kept",
  await ws.call("replace_symbol", {
    path: "src/greet.ts",
    name_path: "greet",
    new_text: "function greet(g: Greeting): string {\n    return `Hi, ${g.name}`;\n}",
  }),
);

show(
  "move_file src/main.py -> app/main.py (CRLF bytes kept)",
  await ws.call("move_file", { from: "src/main.py", to: "app/main.py" }),
);
show("read_file ../etc/passwd", await ws.call("read_file", { path: "../etc/passwd" }));

console.log("\nEvery call above returned one JSON object; run `deno task graver tools` for the catalogue.");
