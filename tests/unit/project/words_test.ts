/** The whole-word rule and the word index over real text. */
import assert from "node:assert/strict";
import { hasWord, WORD_ANSWERS, WordIndex, wordOffsets, wordPattern } from "../../../src/project/words.ts";

const SOURCE = await Deno.readTextFile(
  new URL("../../../node_modules/rxjs/src/internal/operators/map.ts", import.meta.url),
);

Deno.test("wordOffsets() finds a name only where no identifier character touches it", () => {
  const text = "project projectValue $project project_ x.project(project)";
  assert.deepEqual(wordOffsets(text, "project"), [0, 41, 49]);
  assert.deepEqual(wordOffsets(text, "project", 2), [0, 41]);
  assert.deepEqual(wordOffsets(text, ""), []);
  assert.ok(hasWord("const é = $x;", "$x"));
  assert.ok(!hasWord("fooé", "foo")); // a letter outside ASCII continues the word
});

Deno.test("hasWord() on a real module matches a whole-word regular expression", () => {
  for (
    const word of ["map", "project", "operate", "OperatorFunction", "value", "index", "mapper", "thisArg"]
  ) {
    const re = new RegExp(`(?<![\\p{L}\\p{N}_$])${word}(?![\\p{L}\\p{N}_$])`, "u");
    assert.equal(hasWord(SOURCE, word), re.test(SOURCE), word);
  }
});

Deno.test("wordPattern() finds what wordOffsets() finds, on a real module and around non-ASCII letters", () => {
  for (const word of ["map", "project", "OperatorFunction", "value", "index", "$x", "a.b"]) {
    const found = [...SOURCE.matchAll(wordPattern(word, "g"))].map((m) => m.index);
    assert.deepEqual(found, wordOffsets(SOURCE, word), word);
  }
  const text = "fooé foo $foo é_foo foo$ x.foo(foo)";
  assert.deepEqual([...text.matchAll(wordPattern("foo", "g"))].map((m) => m.index), wordOffsets(text, "foo"));
  assert.equal(text.replace(wordPattern("foo", "g"), "bar"), "fooé bar $foo é_foo foo$ x.bar(bar)");
  assert.equal(
    "a.b ab a.b".replace(wordPattern("a.b", "g"), "c"),
    "c ab c",
    "the word's characters are literal",
  );
});

Deno.test("WordIndex reads each file once per word and treats an unreadable file as naming nothing", async () => {
  const reads: string[] = [];
  const texts: Record<string, string | null> = { "map.ts": SOURCE, "empty.ts": "", "gone.ts": null };
  const index = new WordIndex((path) => {
    reads.push(path);
    return Promise.resolve(texts[path] ?? null);
  });
  const paths = ["map.ts", "empty.ts", "gone.ts"];
  assert.deepEqual(await index.filesMentioning("project", paths), ["map.ts"]);
  assert.deepEqual(await index.filesMentioning("project", paths), ["map.ts"]);
  assert.deepEqual(reads, paths);
  assert.equal(await index.mentions("map.ts", "operate"), true);
  assert.equal(await index.mentions("gone.ts", "operate"), false);
});

Deno.test(`WordIndex remembers at most its bound of answers (${WORD_ANSWERS} by default): the word learnt first goes first`, async () => {
  const reads: string[] = [];
  const texts: Record<string, string> = { "map.ts": SOURCE, "a.ts": "const project = 1;\n", "b.ts": "" };
  const index = new WordIndex((path) => {
    reads.push(path);
    return Promise.resolve(texts[path] ?? null);
  }, { maxAnswers: 4 });
  const paths = Object.keys(texts);
  assert.deepEqual(await index.filesMentioning("project", paths), ["map.ts", "a.ts"]);
  assert.equal(index.answers, 3);
  assert.deepEqual(await index.filesMentioning("operate", paths), ["map.ts"]); // "project" goes to make room
  assert.ok(index.answers <= 4);
  reads.length = 0;
  assert.deepEqual(await index.filesMentioning("operate", paths), ["map.ts"]);
  assert.deepEqual(reads, []); // still known
  assert.deepEqual(await index.filesMentioning("project", paths), ["map.ts", "a.ts"]); // read again, same answer
  assert.deepEqual(reads, paths);
  assert.ok(index.answers <= 4);
});
