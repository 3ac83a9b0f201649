import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { createWorkspace } from "../../../src/workspace.ts";
import { fixtureUrl } from "../../_helpers.ts";

const TS =
  "/** A store. */\nexport class Store {\n  get(key: string) {\n    return key;\n  }\n}\n\nexport function make() {}\n";

Deno.test("outline() lists name paths, kinds and lines, nested", async () => {
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/a.ts": TS }),
    wasm: createWasmLoader(),
  });
  const res = await ws.call("outline", { path: "a.ts" });
  assert.ok(res.ok && res.status === "read");
  assert.equal(res.data["language"], "typescript");
  assert.deepEqual(res.data["symbols"], [
    {
      name_path: "Store",
      kind: "class",
      start_line: 1,
      end_line: 6,
      doc: "A store.",
      children: [{ name_path: "Store/get", kind: "method", start_line: 3, end_line: 5 }],
    },
    { name_path: "make", kind: "function", start_line: 8, end_line: 8 },
  ]);
});

Deno.test("outline() with depth 1 and detail full returns top-level symbols with offsets", async () => {
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/a.ts": TS }),
    wasm: createWasmLoader(),
  });
  const res = await ws.call("outline", { path: "a.ts", depth: 1, detail: "full" });
  assert.ok(res.ok);
  const [store] = res.data["symbols"] as {
    children: unknown[];
    range: { start_byte: number };
    body_range: unknown;
  }[];
  assert.deepEqual(store!.children, []);
  assert.equal(
    store!.range.start_byte,
    TS.indexOf("class Store"),
    "the range is the declaration, export is in full_range",
  );
  assert.ok(store!.body_range);
});

Deno.test("outline() outlines data files by keys and refuses files without a grammar", async () => {
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/c.yaml": "a:\n  b: 1\n", "/n.txt": "x\n" }),
    wasm: createWasmLoader(),
  });
  const yaml = await ws.call("outline", { path: "c.yaml" });
  assert.ok(yaml.ok);
  assert.deepEqual(
    (yaml.data["symbols"] as { children: { name_path: string }[] }[])[0]!.children[0]!.name_path,
    "a/b",
  );
  const txt = await ws.call("outline", { path: "n.txt" });
  assert.ok(!txt.ok && txt.error.code === "unsupported_language");
  assert.match(txt.error.hint, /read_file \{"path": "n\.txt"\}/);
});

Deno.test("outline cuts a big outline level by level to max_symbols and says how to see the rest", async () => {
  const text = await Deno.readTextFile(fixtureUrl("symbols", "context.d.ts"));
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/c.d.ts": text }),
    wasm: createWasmLoader(),
  });
  const all = await ws.call("outline", { path: "c.d.ts", max_symbols: 100000 });
  assert.ok(all.ok);
  assert.equal(all.data["truncated"], undefined);
  const count = (list: { children?: unknown[] }[]): number =>
    list.reduce((n, s) => n + 1 + count((s.children ?? []) as { children?: unknown[] }[]), 0);
  const total = count(all.data["symbols"] as { children?: unknown[] }[]);
  const top = (all.data["symbols"] as unknown[]).length;
  assert.ok(total > top + 10, `${total} symbols, ${top} at the top`);

  const cut = await ws.call("outline", { path: "c.d.ts", max_symbols: top + 5 });
  assert.ok(cut.ok);
  assert.deepEqual(cut.data["truncated"], { total, shown: top, depth: 1 });
  assert.equal(count(cut.data["symbols"] as { children?: unknown[] }[]), top);
  assert.match(cut.warnings.join("\n"), /Showing \d+ of \d+ symbols \(top level\).*find_symbol/);

  const first = await ws.call("outline", { path: "c.d.ts", max_symbols: 2 });
  assert.ok(first.ok);
  assert.equal((first.data["symbols"] as unknown[]).length, 2);
  assert.deepEqual(first.data["truncated"], { total, shown: 2, depth: 1, next_offset: 2 });
  assert.match(first.warnings.join("\n"), /outline with offset 2 shows the next \d+ top-level symbols/);
  // Pages: offset takes the next top-level symbols, until none is left.
  const names: string[] = [];
  for (let offset: number | undefined = 0; offset !== undefined;) {
    const page = await ws.call("outline", { path: "c.d.ts", max_symbols: 7, offset });
    assert.ok(page.ok, JSON.stringify(page));
    names.push(...(page.data["symbols"] as { name_path: string }[]).map((s) => s.name_path));
    offset = (page.data["truncated"] as { next_offset?: number } | undefined)?.next_offset;
  }
  assert.deepEqual(names, (all.data["symbols"] as { name_path: string }[]).map((s) => s.name_path));
  // within: one definition's members only, their name paths whole.
  const parent = (all.data["symbols"] as { name_path: string; children?: { name_path: string }[] }[])
    .find((s) => (s.children?.length ?? 0) > 3)!;
  const inside = await ws.call("outline", { path: "c.d.ts", within: parent.name_path });
  assert.ok(inside.ok, JSON.stringify(inside));
  assert.deepEqual(
    (inside.data["symbols"] as { name_path: string }[]).map((s) => s.name_path),
    parent.children!.map((c) => c.name_path),
  );
  const missing = await ws.call("outline", { path: "c.d.ts", within: "NoSuchThing" });
  assert.ok(!missing.ok && missing.error.code === "not_found", JSON.stringify(missing));
});

Deno.test("outline() of a file the grammar misreads warns with the unparsed lines and lists no junk", async () => {
  // effect@4.1.0 src/internal/doNotation.ts: two generic call signatures in a row without `;`.
  const text = await Deno.readTextFile(fixtureUrl("unparsed", "doNotation.ts"));
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/doNotation.ts": text }),
    wasm: createWasmLoader(),
  });
  const res = await ws.call("outline", { path: "doNotation.ts" });
  assert.ok(res.ok);
  const names = (res.data["symbols"] as { name_path: string }[]).map((s) => s.name_path);
  // Mapped types from inside ERROR nodes are not fields; the real symbols that parsed are still there.
  assert.ok(!names.some((n) => n.includes("[K in")), names.join(", "));
  for (const n of ["Map", "bindTo", "bind"]) assert.ok(names.includes(n), n);
  const regions = res.data["error_regions"] as { start_line: number; end_line: number }[];
  assert.ok(regions.length > 0);
  assert.ok(regions.some((r) => r.start_line <= 15 && r.end_line >= 13), JSON.stringify(regions));
  assert.match(
    res.warnings.join("\n"),
    /"doNotation\.ts" line 8, lines 13–15.*could not be parsed.*may be missing/,
  );
});

Deno.test("outline() of a clean file has no error regions and no warning", async () => {
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/a.ts": TS }),
    wasm: createWasmLoader(),
  });
  const res = await ws.call("outline", { path: "a.ts" });
  assert.ok(res.ok);
  assert.equal(res.data["error_regions"], undefined);
  assert.deepEqual(res.warnings, []);
});

Deno.test("outline() of README.md lists its headings; of a Makefile, Dockerfile or .env suggests read_file, which runs", async () => {
  const readme = await Deno.readTextFile(new URL("../../../node_modules/rxjs/README.md", import.meta.url));
  const ws = await createWorkspace({
    backend: createMemoryBackend({
      "/README.md": readme,
      "/Makefile": "all:\n\tdeno task test\n",
      "/Dockerfile": "FROM debian:bookworm\nRUN true\n",
      "/.env": "TOKEN=x\n",
    }),
    wasm: createWasmLoader(),
  });
  const md = await ws.call("outline", { path: "README.md", depth: 2 });
  assert.ok(md.ok, JSON.stringify(md));
  assert.equal(md.data["language"], "markdown");
  const top = md.data["symbols"] as { name_path: string; kind: string; children?: { name_path: string }[] }[];
  assert.deepEqual(top.map((s) => `${s.kind} ${s.name_path}`), [
    "heading RxJS: Reactive Extensions For JavaScript",
    "heading The Roadmap from RxJS 7 to 8",
    "heading RxJS 7",
  ]);
  assert.ok(top[2]!.children!.some((c) => c.name_path === "RxJS 7/Installation and Usage"));
  for (const path of ["Makefile", "Dockerfile", ".env"]) {
    const r = await ws.call("outline", { path });
    assert.ok(!r.ok && r.error.code === "unsupported_language", JSON.stringify(r));
    assert.deepEqual(r.error.suggested_call, { tool: "read_file", args: { path } }, path);
    assert.doesNotMatch(JSON.stringify(r.error), /edit_safe_text_patch|<exact current text/);
    const read = await ws.call(r.error.suggested_call!.tool, r.error.suggested_call!.args);
    assert.ok(read.ok, `the suggested read of ${path} runs`);
  }
  // find_symbol on a named Markdown file finds a section, with its text.
  const found = await ws.call("find_symbol", { name_path: "CDN", path: "README.md", include_body: true });
  assert.ok(found.ok, JSON.stringify(found));
  const [cdn] = found.data["matches"] as { name_path: string; body: string }[];
  assert.equal(cdn!.name_path, "RxJS 7/Installation and Usage/CDN");
  assert.match(cdn!.body, /^### CDN\n/);
  const mk = await ws.call("find_symbol", { name_path: "all", path: "Makefile" });
  assert.ok(!mk.ok && mk.error.suggested_call?.tool === "read_file");
});
