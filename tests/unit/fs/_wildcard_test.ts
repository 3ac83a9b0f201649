import assert from "node:assert/strict";
import { bracketAt, WildcardBuilder } from "../../../src/fs/_wildcard.ts";

Deno.test("WildcardBuilder: *, ?, ** and folders() keep to their names or cross folders", () => {
  const star = new WildcardBuilder().literal("a").star().literal(".ts").build();
  assert.ok(star.test("a.ts") && star.test("abc.ts") && !star.test("a/b.ts"));
  const one = new WildcardBuilder().one().build();
  assert.ok(one.test("x") && one.test("é") && !one.test("/") && !one.test("xy"));
  const deep = new WildcardBuilder().star(true).literal(".ts").build();
  assert.ok(deep.test("a/b/c.ts") && deep.test(".ts"));
  const folders = new WildcardBuilder().folders().literal("x").build();
  assert.ok(folders.test("x") && folders.test("a/b/x") && !folders.test("ax"));
});

Deno.test("WildcardBuilder.oneOf() matches one of several literal strings", () => {
  const m = new WildcardBuilder().literal("x.").oneOf(["ts", "py", ""]).build();
  assert.ok(m.test("x.ts") && m.test("x.py") && m.test("x.") && !m.test("x.rs"));
});

Deno.test("bracketAt() reads negation, a leading ], escapes and ranges, and stops at the closing ]", () => {
  const range = bracketAt("[a-c]z", 0)!;
  assert.equal(range.end, 5);
  assert.ok(range.test("b") && !range.test("d"));
  const neg = bracketAt("[!a-c]", 0)!;
  assert.ok(neg.test("d") && !neg.test("a") && !neg.test("/"));
  const close = bracketAt("[]]", 0)!;
  assert.ok(close.test("]") && close.end === 3);
  const escaped = bracketAt("[a\\-c]", 0)!;
  assert.ok(escaped.test("-") && !escaped.test("b"));
  assert.equal(bracketAt("[abc", 0), null);
});

// The automaton's size follows the pattern; the work per character is bounded by it, whatever the path.
Deno.test("WildcardBuilder: a matcher answers on a long path for a pattern of many stars", () => {
  const b = new WildcardBuilder();
  for (let i = 0; i < 30; i++) b.star().literal("a");
  const m = b.star().literal("b").build();
  assert.ok(m.size < 100);
  assert.equal(m.test("a".repeat(5000)), false);
  assert.equal(m.test("a".repeat(5000) + "b"), true);
});

Deno.test("WildcardBuilder: a pattern of many stars in a row answers without running out of stack", () => {
  const b = new WildcardBuilder();
  for (let i = 0; i < 100_000; i++) b.star(true);
  const m = b.literal("x").build();
  assert.equal(m.test("abc/x"), true);
  assert.equal(m.test("abc"), false);
});

/** The regular expression of each wildcard piece (literals stand for themselves). */
const REGEX_OF: Record<string, string> = { "*": "[^/]*", "?": "[^/]", "**": ".*", "**/": "(?:.*/)?" };

// The literal head, tail and longest run only refuse early what the automaton would refuse: checked against
// a regular expression of the same pattern on random short patterns and paths (small enough for RegExp).
Deno.test("WildcardBuilder: prefilters never change an answer", () => {
  let seed = 11;
  const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const pieces = ["a", "b", "ab", "/", "*", "?", "**", "**/"];
  for (let round = 0; round < 2000; round++) {
    const b = new WildcardBuilder();
    let source = "";
    for (let k = 0; k < 1 + random(5); k++) {
      const piece = pieces[random(pieces.length)]!;
      if (piece === "*") b.star();
      else if (piece === "?") b.one();
      else if (piece === "**") b.star(true);
      else if (piece === "**/") b.folders();
      else b.literal(piece);
      source += REGEX_OF[piece] ?? piece;
    }
    const matcher = b.build();
    const re = new RegExp(`^${source}$`);
    for (let p = 0; p < 10; p++) {
      const path = Array.from({ length: random(7) }, () => "ab/"[random(3)]).join("");
      assert.equal(matcher.test(path), re.test(path), `${source} on "${path}"`);
    }
  }
});

Deno.test("WildcardBuilder: a literal head and tail need room for both", () => {
  const m = new WildcardBuilder().literal("ab").star().literal("ab").build();
  assert.ok(!m.test("ab") && !m.test("aba") && m.test("abab") && m.test("abxab"));
});
