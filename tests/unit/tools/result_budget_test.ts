/**
 * Results that fit a context window, on a real minified bundle (isomorphic-git's `index.umd.min.js`: one
 * line of 268,728 characters): a read is sliced by columns and reads on to the whole line; an edit of a few
 * characters in it answers with a diff around the change, under the result budget, and the whole diff on
 * request.
 */
import assert from "node:assert/strict";
import { createWorkspace } from "../../../src/mod.ts";
import { createDiskBackend, createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { DEFAULT_RESULT_CHARS } from "../../../src/tools/result_fit.ts";

const BUNDLE = new URL("../../../node_modules/isomorphic-git/index.umd.min.js", import.meta.url);

async function workspaceWithBundle() {
  const root = await Deno.makeTempDir({ prefix: "graver-budget-" });
  await Deno.copyFile(BUNDLE, `${root}/bundle.min.js`);
  const ws = await createWorkspace({ backend: createDiskBackend(), root, wasm: createWasmLoader() });
  return { root, ws, text: await Deno.readTextFile(`${root}/bundle.min.js`) };
}

Deno.test("read_file slices a line longer than a read, and next_call reads on to its end", async () => {
  const { root, ws, text } = await workspaceWithBundle();
  const line = text.split("\n").reduce((a, b) => (b.length > a.length ? b : a));
  const lineNo = text.split("\n").indexOf(line) + 1;
  assert.ok(line.length > 200_000, "the bundle has one very long line");
  let args: Record<string, unknown> = { path: "bundle.min.js", start_line: lineNo, numbered: false };
  let joined = "";
  for (let reads = 0; reads < 20; reads++) {
    const r = await ws.call("read_file", args);
    assert.ok(r.ok, JSON.stringify(r).slice(0, 500));
    assert.ok(JSON.stringify(r).length < DEFAULT_RESULT_CHARS, "each read fits the result budget");
    assert.equal(r.data["line_length"], line.length);
    joined += r.data["content"] as string;
    const next = r.data["next_call"] as { args: Record<string, unknown> } | undefined;
    if (!next) break;
    assert.match(r.data["notice"] as string, new RegExp(`Line ${lineNo} has ${line.length} characters`));
    args = { ...next.args, numbered: false };
  }
  assert.equal(joined, line, "the slices make the whole line");
  const bad = await ws.call("read_file", {
    path: "bundle.min.js",
    start_line: lineNo,
    start_column: line.length + 5,
  });
  assert.ok(!bad.ok && bad.error.code === "invalid_args", JSON.stringify(bad));
  await Deno.remove(root, { recursive: true });
});

Deno.test("an edit of 26 characters in a minified line answers with the change, not 500,000 characters", async () => {
  const { root, ws, text } = await workspaceWithBundle();
  const at = text.indexOf("function", 150_000);
  const old = text.slice(at, at + 26);
  assert.equal(text.indexOf(old), at, "the text to change is unique");
  const edit = { path: "bundle.min.js", old_string: old, new_string: old.replace("function", "function ") };
  const r = await ws.call("edit_file", edit);
  assert.ok(r.ok && r.status === "applied", JSON.stringify(r).slice(0, 500));
  const size = JSON.stringify(r).length;
  assert.ok(size < DEFAULT_RESULT_CHARS / 10, `the result is ${size} characters`);
  const diff = r.changes[0]!.diff!;
  assert.ok(diff.includes(old.replace("function", "function ").slice(0, 20)), "the diff shows the change");
  assert.match(diff, /…\[\d+ characters\]…/);
  assert.match(r.warnings.join("\n"), /shortened to fit .*full_diff: true/);
  assert.equal(await Deno.readTextFile(`${root}/bundle.min.js`), text.replace(old, edit.new_string));
  // On request, the whole diff.
  const back = await ws.call("edit_file", {
    ...edit,
    old_string: edit.new_string,
    new_string: old,
    full_diff: true,
  });
  assert.ok(back.ok && back.changes[0]!.diff!.length > 2 * 200_000, "full_diff: the whole diff");
  assert.equal(await Deno.readTextFile(`${root}/bundle.min.js`), text, "back to the original bytes");
  await Deno.remove(root, { recursive: true });
});
