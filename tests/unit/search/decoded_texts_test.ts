/** The decoded texts' budget, over real files: what goes first, what a scan keeps, and searches after it. */
import assert from "node:assert/strict";
import { DECODED_TEXT_BYTES, DecodedTexts, decodedTexts } from "../../../src/search/decoded_texts.ts";
import { normalizeSearchTextArgs, searchText } from "../../../src/search/mod.ts";

const ROOT = new URL("../../../src/", import.meta.url);
/** Real modules of this repository. */
const FILES = ["fs/stage.ts", "fs/sandbox.ts", "fs/commit.ts", "search/search_text.ts", "syntax/trees.ts"];
/**
 * The first 4 KiB of each, any byte past ASCII made a `?`: one size for all (a text's charge doubles once it
 * holds a character past ASCII), so that which texts fit a budget of a few of them does not move as these
 * modules are edited.
 */
const BYTES = await Promise.all(
  FILES.map(async (f) =>
    (await Deno.readFile(new URL(f, ROOT))).slice(0, 4096).map((b) => b < 0x80 ? b : 0x3f)
  ),
);
/** What one held text is charged before its line starts: a byte a character when all ASCII, else two. */
const size = (i: number) => {
  const text = new TextDecoder().decode(BYTES[i]!);
  return text.length * (text.length === BYTES[i]!.length ? 1 : 2) + 96;
};

Deno.test(`the default budget is ${DECODED_TEXT_BYTES / 2 ** 20} MiB, and a held text is not decoded again`, () => {
  const texts = new DecodedTexts();
  assert.equal(texts.counts().maxBytes, DECODED_TEXT_BYTES);
  const first = texts.textOf(BYTES[0]!);
  assert.equal(texts.textOf(BYTES[0]!), first);
  assert.equal(first, new TextDecoder().decode(BYTES[0]!));
  assert.deepEqual(texts.counts(), { texts: 1, bytes: size(0), maxBytes: DECODED_TEXT_BYTES, decodes: 1 });
});

Deno.test("over the budget the least recently used text goes first; its version stays with the bytes", () => {
  const texts = new DecodedTexts({ maxBytes: size(0) + size(1) + size(2) });
  texts.rememberVersion(BYTES[0]!, "v0");
  for (const i of [0, 1, 2]) texts.textOf(BYTES[i]!);
  texts.textOf(BYTES[0]!); // used again: 1 is now the least recently used
  texts.textOf(BYTES[3]!);
  const { texts: held, bytes, decodes } = texts.counts();
  assert.ok(bytes <= size(0) + size(1) + size(2), `${bytes} bytes held`);
  assert.equal(decodes, 4);
  texts.textOf(BYTES[0]!);
  assert.equal(texts.counts().decodes, 4); // kept
  texts.textOf(BYTES[1]!);
  assert.equal(texts.counts().decodes, 5); // pushed out: decoded again
  assert.equal(held, 3 - (size(3) > size(1) ? 1 : 0));
  assert.equal(texts.versionOf(BYTES[0]!), "v0");
  texts.setMaxBytes(0);
  assert.deepEqual([texts.counts().texts, texts.counts().bytes], [0, 0]);
  assert.equal(texts.versionOf(BYTES[0]!), "v0");
});

Deno.test("a scan does not push out what it or the scan before it used: it keeps what it read first", () => {
  const texts = new DecodedTexts({ maxBytes: size(0) + size(1) });
  const scan = (indexes: number[]) => {
    texts.newScan();
    const before = texts.counts().decodes;
    for (const i of indexes) texts.textOf(BYTES[i]!);
    return texts.counts().decodes - before;
  };
  assert.equal(scan([0, 1, 2, 3, 4]), 5);
  assert.equal(texts.counts().texts, 2); // the first two; the rest were decoded for the scan only
  assert.equal(scan([0, 1, 2, 3, 4]), 3); // the first two were not decoded again
  assert.equal(scan([4, 3]), 2); // other files: the last scan's texts stay, these are not kept
  assert.equal(scan([4, 3]), 2); // two scans on, those may go: these are kept now
  assert.equal(scan([4, 3]), 0);
});

Deno.test("bytes that look binary are remembered as such and cost nothing; line starts are charged once found", () => {
  const texts = new DecodedTexts({ maxBytes: 1 << 20 });
  assert.equal(texts.textOf(new Uint8Array([1, 0, 2])), null);
  assert.equal(texts.counts().bytes, 0);
  const text = texts.textOf(BYTES[0]!)!;
  const lines = texts.lineStartsOf(BYTES[0]!, text);
  assert.equal(texts.lineStartsOf(BYTES[0]!, text), lines);
  lines.lineAt(text.length - 1);
  texts.textOf(BYTES[0]!); // charged anew at its next use
  assert.equal(texts.counts().bytes, size(0) + lines.found * 8);
  assert.ok(lines.found > 20);
});

Deno.test("a text over the budget is decoded for its caller and not held; its line starts are not either", () => {
  const texts = new DecodedTexts({ maxBytes: 100 });
  const text = texts.textOf(BYTES[0]!)!;
  assert.equal(texts.counts().texts, 0);
  assert.notEqual(texts.lineStartsOf(BYTES[0]!, text), texts.lineStartsOf(BYTES[0]!, text));
});

Deno.test("a warm search over a budget smaller than the tree answers what a fresh one does", async () => {
  const files = {
    async *files() {
      for (const path of FILES) yield { path };
    },
    read: (path: string) => Promise.resolve(BYTES[FILES.indexOf(path)]!), // the same arrays each time
  };
  const query = normalizeSearchTextArgs({ pattern: "\\bconst\\b", max_results: 1e6, max_chars: 1e9 });
  const fresh = await searchText(files, query);
  decodedTexts.setMaxBytes(size(0) + size(1));
  try {
    const cold = await searchText(files, query);
    const decodes = decodedTexts.counts().decodes;
    const warm = await searchText(files, query);
    assert.ok(decodedTexts.counts().bytes <= size(0) + size(1));
    assert.ok(decodedTexts.counts().decodes - decodes < FILES.length); // some held texts were reused
    for (const r of [cold, warm]) {
      assert.deepEqual(r.matches, fresh.matches);
      assert.equal(r.summary.files_matched, fresh.summary.files_matched);
    }
  } finally {
    decodedTexts.setMaxBytes(DECODED_TEXT_BYTES);
  }
});

Deno.test("once a scan finds no room, it keeps no smaller text further on: the next scan reuses all it kept", async () => {
  // commit.ts finds no room after errors.ts; the three small modules after it would fit, and keeping them would
  // only push them out again in the next scan (to make room for commit.ts) before that scan reaches them.
  const order = ["errors.ts", "fs/commit.ts", "fs/version.ts", "tool_kinds.ts", "telemetry.ts", "fs/text.ts"];
  const arrays = await Promise.all(order.map((f) => Deno.readFile(new URL(f, ROOT))));
  const charge = (bytes: Uint8Array) => {
    const text = new TextDecoder().decode(bytes);
    return text.length * (text.length === bytes.length ? 1 : 2) + 96;
  };
  const [first, large, ...rest] = arrays.map(charge);
  const texts = new DecodedTexts({ maxBytes: first! + rest[0]! + rest[1]! + rest[2]! + 100 });
  assert.ok(first! + large! > texts.counts().maxBytes);
  const scan = () => {
    texts.newScan();
    for (const bytes of arrays) texts.textOf(bytes);
  };
  scan();
  assert.equal(texts.counts().texts, 1); // errors.ts; commit.ts found no room, and nothing after it was kept
  for (let i = 0; i < 2; i++) {
    const before = texts.counts().decodes;
    scan();
    assert.equal(texts.counts().decodes - before, arrays.length - 1);
  }
});
