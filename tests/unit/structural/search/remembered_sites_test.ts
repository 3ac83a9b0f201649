import assert from "node:assert/strict";
import { RememberedSites } from "../../../../src/structural/search/remembered_sites.ts";

const key = (path: string, query = "q", version = "v1") => ({ path, language: "javascript", version, query });

Deno.test("answers are kept by path, language, version and query, and used ones stay longest", () => {
  const store = new RememberedSites<number>({ maxSites: 5 });
  store.remember(key("a.js"), [1, 2]);
  store.remember(key("b.js"), [3, 4]);
  assert.deepEqual(store.answer(key("a.js")), [1, 2]); // a.js is now the most recently used
  assert.equal(store.answer(key("a.js", "other")), undefined);
  assert.equal(store.answer(key("a.js", "q", "v2")), undefined);
  store.remember(key("c.js"), [5, 6]); // 6 sites > 5: the least recently used (b.js) goes
  assert.equal(store.answer(key("b.js")), undefined);
  assert.deepEqual(store.answer(key("a.js")), [1, 2]);
  assert.deepEqual(store.answer(key("c.js")), [5, 6]);
  assert.equal(store.held, 4);
});

Deno.test("the bound holds over many files and queries, empty answers included", () => {
  const store = new RememberedSites<number>({ maxSites: 1_000, maxPerAnswer: 100 });
  for (let i = 0; i < 10_000; i++) store.remember(key(`f${i}.js`, `q${i % 7}`), i % 3 === 0 ? [] : [i, i]);
  assert.ok(store.held <= 1_000, `held ${store.held}`);
  assert.ok(store.held > 900, "the store fills up to its bound");
  store.remember(key("big.js"), Array.from({ length: 101 }, (_, i) => i));
  assert.equal(store.answer(key("big.js")), undefined, "an answer over maxPerAnswer is not kept");
  store.remember(key("f9999.js", "q3"), [7]); // replacing an answer counts it once
  store.clear();
  assert.equal(store.held, 0);
  assert.equal(store.answer(key("f9999.js", "q3")), undefined);
});
