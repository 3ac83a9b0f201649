import assert from "node:assert/strict";
import { mayMatch } from "../../../src/search/structural_candidate.ts";

const program = (extra: { mayHold?: (text: string) => boolean } = {}) => ({
  literals: ["header", "(", "."],
  words: ["c", "header"],
  match: () => [],
  ...extra,
});

Deno.test("a text lacking a literal, or holding an identifier only inside longer words, cannot match", () => {
  assert.equal(mayMatch(program(), "c.req.header(name)"), true);
  assert.equal(mayMatch(program(), "c.req.header"), false, "no ( anywhere");
  assert.equal(mayMatch(program(), "abc.req.headers(x)"), false, "c and header only inside longer words");
  assert.equal(mayMatch(program(), "ctx.header(x); c = 1"), true, "each word whole somewhere is enough here");
});

Deno.test("the program's token runs have the last word; without them the texts decide", () => {
  const text = "ctx.header(x); c = 1";
  assert.equal(mayMatch(program({ mayHold: (t) => t.includes("c.header(") }), text), false);
  assert.equal(mayMatch(program({ mayHold: () => true }), text), true);
});
