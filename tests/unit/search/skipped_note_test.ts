/** The warnings a search gives about files it could not look into, through the real tools and the CLI. */
import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend, createWorkspace } from "../../../src/mod.ts";
import { skippedWarnings } from "../../../src/search/skipped_note.ts";
import { inProcess, project } from "../surfaces/_cli.ts";

const REAL = new URL("../../../node_modules/hono/dist/compose.js", import.meta.url);

/** hono's compose.js, and the same text padded past 4 KiB. */
async function files(): Promise<Record<string, string>> {
  const text = await Deno.readTextFile(REAL);
  return { "small.js": text, "large.js": text + `// ${"x".repeat(4096)}\n` };
}

Deno.test("each cause is named once, with what lifts it; ignored and binary files call for nothing", () => {
  const limits = { maxFileBytes: 1024 };
  assert.deepEqual(skippedWarnings({ ignored: 9, binary: 2, too_large: 0, unreadable: 0 }, limits), []);
  const [large, unread] = skippedWarnings(
    { ignored: 0, binary: 0, too_large: 2, unreadable: 1 },
    limits,
    true,
  );
  assert.match(
    large!,
    /^2 files were not searched, so nothing in them was changed: larger than max_file_bytes \(1 KiB\)/,
  );
  assert.match(unread!, /^1 file was not searched, so nothing in it was changed: could not be read/);
  const parse = skippedWarnings(
    { ignored: 0, binary: 0, too_large: 1, unreadable: 0, overParseLimit: 1 },
    limits,
  );
  assert.equal(parse.length, 1, "a file over the parse limit is not also blamed on max_file_bytes");
  assert.match(parse[0]!, /over the parse limit \(the workspace option maxParseBytes\)/);
});

Deno.test("search_text and edit_replace_text say a file over max_file_bytes was left out, and how to search it", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend(await files()), wasm: createWasmLoader() });
  const found = await ws.call("search_text", { pattern: "dispatch", max_file_bytes: 4096 });
  assert.ok(found.ok);
  assert.equal((found.data["summary"] as { skipped: { too_large: number } }).skipped.too_large, 1);
  assert.deepEqual(found.warnings, [
    "1 file was not searched: larger than max_file_bytes (4 KiB); pass a larger max_file_bytes to search it",
  ]);
  const all = await ws.call("search_text", { pattern: "dispatch", max_file_bytes: 8192 });
  assert.ok(all.ok);
  assert.deepEqual(all.warnings, [], "nothing left out: no warning");
  const replaced = await ws.call("edit_replace_text", {
    pattern: "dispatch",
    replacement: "run",
    max_file_bytes: 4096,
    dry_run: true,
  });
  assert.ok(replaced.ok, JSON.stringify(replaced));
  assert.ok(
    replaced.warnings.some((w) => w.startsWith("1 file was not searched, so nothing in it was changed")),
  );
});

Deno.test("search_structural names files over the parse limit apart from max_file_bytes", async () => {
  const ws = await createWorkspace({
    backend: createMemoryBackend(await files()),
    wasm: createWasmLoader(),
    maxParseBytes: 4096,
  });
  const r = await ws.call("search_structural", { pattern: "dispatch($I)", language: "js" });
  assert.ok(r.ok, JSON.stringify(r));
  const summary = r.data["summary"] as { files_over_parse_limit?: number; skipped: { too_large: number } };
  assert.equal(summary.files_over_parse_limit, 1);
  assert.equal(summary.skipped.too_large, 1);
  assert.ok((r.data["matches"] as { path: string }[]).every((m) => m.path === "small.js"));
  assert.equal(r.warnings.length, 1);
  assert.match(r.warnings[0]!, /^1 file was not searched: over the parse limit/);
});

Deno.test("graver grep and graver sg print the warning on stderr, naming --max-filesize, which lifts the limit", async () => {
  const dir = await project({}, await files());
  try {
    const grep = await inProcess(["grep", "-c", "dispatch", "--max-filesize", "4K"], { cwd: dir });
    assert.equal(grep.code, 0, grep.stderr);
    assert.equal(grep.stdout, "small.js:3\n");
    assert.match(
      grep.stderr,
      /1 file was not searched: larger than max_file_bytes \(4 KiB\); pass a larger --max-filesize/,
    );
    const both = await inProcess(["grep", "-c", "dispatch", "--max-filesize", "1M"], { cwd: dir });
    assert.deepEqual(both.stdout.trimEnd().split("\n").sort(), ["large.js:3", "small.js:3"]);
    assert.equal(both.stderr, "");
    const bad = await inProcess(["grep", "dispatch", "--max-filesize", "4 KB"], { cwd: dir });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr + bad.stdout, /max-filesize.{0,3} takes a size in bytes/);
    const sg = await inProcess(["sg", "-p", "dispatch($I)", "--lang", "js", "--max-filesize", "4096"], {
      cwd: dir,
    });
    assert.equal(sg.code, 0, sg.stderr);
    assert.ok(sg.stdout.split("\n").filter(Boolean).every((l) => l.startsWith("small.js:")), sg.stdout);
    assert.match(sg.stderr, /pass a larger --max-filesize/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
