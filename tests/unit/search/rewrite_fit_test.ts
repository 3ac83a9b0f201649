/**
 * rewriteMisfits with the structural engine's real fit check: which sites of a file are judged (the outermost
 * of nested hits, each changing its text, all applied together) and which come back as misfits.
 */
import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace } from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { rewriteMisfits } from "../../../src/search/rewrite_fit.ts";
import type { StructuralHit } from "../../../src/search/types.ts";
import { misfitEdits, misfitText } from "../../../src/structural/edit/site_fit.ts";

const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });

Deno.test("rewriteMisfits judges the outermost changed sites together, with the engine's fit check", async () => {
  const text = "if (a) f(1);\nif (b) f(2);\nf(f(3));\n";
  const at = (code: string, from = 0) => text.indexOf(code, from);
  const hit = (code: string, replacement: string, from = 0): StructuralHit => ({
    start: at(code, from),
    end: at(code, from) + code.length,
    metavariables: {},
    replacement,
  });
  const hits = [
    hit("f(1);", "g(1); h(1);"), // two statements for the if's one: does not fit
    hit("f(2);", "f(2);"), // unchanged: not written, not judged
    hit("f(f(3));", "k(f(3));"), // fits
    hit("f(3)", "two(); statements()", at("f(f(3))") + 1), // nested in the one before: the rewrite leaves it
  ];
  const judged: number[] = [];
  const found = await rewriteMisfits(
    { path: "a.js", language: "javascript", text, version: "v1", hits },
    async (file, change) => {
      judged.push(change.edits.length);
      return (await misfitEdits(ws, file, change)).map((m) => ({ index: m.index, text: misfitText(m) }));
    },
  );
  assert.deepEqual(judged, [2]);
  assert.deepEqual([...found.keys()], [hits[0]]);
  assert.match(found.get(hits[0]!)!, /the if_statement that held it \(line 1\)/);
  // A file none of whose hits is rewritten is not checked at all.
  const none = await rewriteMisfits({
    path: "a.js",
    language: "javascript",
    text,
    version: "v1",
    hits: [hits[1]!],
  }, () => {
    throw new Error("not asked");
  });
  assert.equal(none.size, 0);
});
