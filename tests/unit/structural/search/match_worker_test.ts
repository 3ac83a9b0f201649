/**
 * The inside of a match-pool worker, driven in this thread through a scope of its own: it loads the runtime
 * and the grammar it is sent, answers each batch in order with the sites the main thread's matcher finds,
 * and answers `failed` for what it cannot match (a query that does not compile) rather than dying.
 */
import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace } from "../../../../src/mod.ts";
import { createWasmLoader } from "../../../../src/adapters/deno/mod.ts";
import { GRAMMARS } from "../../../../src/syntax/grammars.ts";
import { patternMatcherOf } from "../../../../src/structural/search/mod.ts";
import { type MatchWorkerScope, serveMatches } from "../../../../src/structural/search/match_worker.ts";

/** A worker scope in this thread: what the worker posts, awaited one message at a time. */
function scope(): MatchWorkerScope & { send(m: unknown): void; next(): Promise<Record<string, unknown>> } {
  const out: Record<string, unknown>[] = [];
  let wake = () => {};
  const s = {
    onmessage: null as ((event: MessageEvent) => void) | null,
    postMessage(m: unknown) {
      out.push(m as Record<string, unknown>);
      wake();
    },
    send(m: unknown) {
      s.onmessage!({ data: structuredClone(m) } as MessageEvent);
    },
    async next(): Promise<Record<string, unknown>> {
      while (out.length === 0) await new Promise<void>((resolve) => wake = resolve);
      return out.shift()!;
    },
  };
  return s;
}

Deno.test("a worker answers each batch, in order, with the sites the main thread's matcher finds", async () => {
  const loader = createWasmLoader();
  const s = scope();
  serveMatches(s);
  s.send({ type: "init", runtime: await loader.runtime() });
  assert.deepEqual(await s.next(), { type: "ready" });
  s.send({
    type: "grammar",
    language: "javascript",
    wasm: await loader.grammar("javascript", GRAMMARS.javascript!),
  });
  const query = { pattern: "log($A)", rewrite: "info($A)" };
  const files = [
    { path: "a.js", text: "log(1);\nf(log(2));\n", version: "a1" },
    { path: "b.js", text: "nothing();\n", version: "b1" },
  ];
  s.send({ type: "match", id: 1, language: "javascript", query, files });
  s.send({ type: "match", id: 2, language: "javascript", query, files: [{ ...files[0]!, version: "a2" }] });
  const first = await s.next();
  const second = await s.next();
  const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: loader });
  const program = await patternMatcherOf(ws).compile("javascript", query);
  assert.deepEqual(first, {
    type: "done",
    id: 1,
    results: [{ sites: await program.match(files[0]!) }, { sites: [] }],
  });
  assert.equal(second.id, 2);
  const [site] = (first.results as { sites: { replacement: string }[] }[])[0]!.sites;
  assert.equal(site!.replacement, "info(1)");
});

Deno.test("a worker answers failed for a query that does not compile, and keeps serving (its trees freed too)", async () => {
  const loader = createWasmLoader();
  const s = scope();
  serveMatches(s);
  s.send({ type: "init", runtime: await loader.runtime() });
  await s.next();
  s.send({
    type: "grammar",
    language: "javascript",
    wasm: await loader.grammar("javascript", GRAMMARS.javascript!),
  });
  const file = { path: "a.js", text: "log(1);\n", version: "a1" };
  s.send({ type: "match", id: 1, language: "javascript", query: { pattern: "log(" }, files: [file] });
  const refused = await s.next();
  assert.match((refused.results as { failed: string }[])[0]!.failed, /did not compile/);
  s.send({ type: "match", id: 2, language: "javascript", query: { pattern: "log($A)" }, files: [file] });
  assert.equal(((await s.next()).results as { sites: unknown[] }[])[0]!.sites.length, 1);
  // Its trees freed, it parses again.
  s.send({ type: "clear" });
  s.send({ type: "match", id: 3, language: "javascript", query: { pattern: "log($A)" }, files: [file] });
  assert.equal(((await s.next()).results as { sites: unknown[] }[])[0]!.sites.length, 1);
});

Deno.test("a worker lists a file's symbols depth first, as this thread's outline does", async () => {
  const loader = createWasmLoader();
  const s = scope();
  serveMatches(s);
  s.send({ type: "init", runtime: await loader.runtime() });
  await s.next();
  s.send({
    type: "grammar",
    language: "javascript",
    wasm: await loader.grammar("javascript", GRAMMARS.javascript!),
  });
  const file = {
    path: "a.js",
    text: "class A {\n  run() {\n    go();\n  }\n}\nfunction b() {}\n",
    version: "a1",
  };
  s.send({ type: "outline", id: 1, language: "javascript", files: [file, { ...file, path: "notes.txt" }] });
  const { results } = await s.next() as { results: [{ sites: { name_path: string }[] }, { failed: string }] };
  assert.deepEqual(results[0].sites.map((x) => x.name_path), ["A", "A/run", "b"]);
  assert.match(results[1].failed, /notes\.txt/); // no grammar: this thread answers it (with no symbol)
});
