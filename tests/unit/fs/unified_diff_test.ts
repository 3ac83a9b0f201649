import assert from "node:assert/strict";
import { unifiedDiff } from "../../../src/mod.ts";
import { applyPatch, structuredPatch } from "diff";

const enc = (s: string) => new TextEncoder().encode(s);

async function gitApplyCheck(
  files: Record<string, string>,
  diff: string,
): Promise<{ ok: boolean; out: string }> {
  const dir = await Deno.makeTempDir();
  try {
    for (const [p, c] of Object.entries(files)) {
      await Deno.mkdir(`${dir}/${p}`.replace(/\/[^/]*$/, ""), { recursive: true });
      await Deno.writeTextFile(`${dir}/${p}`, c);
    }
    await Deno.writeTextFile(`${dir}/x.patch`, diff);
    const init = await new Deno.Command("git", { args: ["init", "-q"], cwd: dir }).output();
    assert.equal(init.code, 0);
    const res = await new Deno.Command("git", { args: ["apply", "--check", "x.patch"], cwd: dir }).output();
    return { ok: res.code === 0, out: new TextDecoder().decode(res.stderr) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("unifiedDiff() output is accepted by git apply for edits, creation, deletion, no final newline", async () => {
  const cases: [string, string | null, string | null][] = [
    ["a.txt", "one\ntwo\nthree\n", "one\n2\nthree\n"],
    ["b.txt", null, "new\nfile\n"],
    ["c.txt", "gone\n", null],
    ["d.txt", "x\ny", "x\nz"],
    ["e.txt", "crlf\r\nline\r\n", "crlf\r\nLINE\r\n"],
  ];
  for (const [path, before, after] of cases) {
    const diff = unifiedDiff(path, {
      before: before === null ? null : enc(before),
      after: after === null ? null : enc(after),
    });
    const files: Record<string, string> = before === null ? {} : { [path]: before };
    const res = await gitApplyCheck(files, diff);
    assert.ok(res.ok, `${path}: ${res.out}\n${diff}`);
  }
});

Deno.test("unifiedDiff() says binary files differ instead of dumping bytes", () => {
  const d = unifiedDiff("img.bin", { before: new Uint8Array([0, 1]), after: new Uint8Array([0, 2]) });
  assert.match(d, /Binary files a\/img.bin and b\/img.bin differ/);
});

Deno.test("unifiedDiff() names a mode change as git does", () => {
  const d = unifiedDiff("run.sh", { before: enc("a\n"), after: enc("b\n") }, {
    oldMode: 0o644,
    newMode: 0o755,
  });
  assert.match(d, /^diff --git a\/run.sh b\/run.sh\nold mode 100644\nnew mode 100755\n--- a\/run.sh/);
  assert.equal(
    unifiedDiff("run.sh", { before: enc("a\n"), after: enc("a\n") }, { oldMode: 0o755, newMode: 0o644 }),
    "diff --git a/run.sh b/run.sh\nold mode 100755\nnew mode 100644\n",
  );
  assert.equal(
    unifiedDiff("x", { before: enc("a\n"), after: enc("a\n") }, { oldMode: 0o600, newMode: 0o644 }),
    "",
  );
  assert.match(
    unifiedDiff("run.sh", { before: enc("a\n"), after: null }, { oldMode: 0o755 }),
    /^deleted file mode 100755$/m,
  );
  assert.match(
    unifiedDiff("run.sh", { before: null, after: enc("a\n") }, { newMode: 0o700 }),
    /^new file mode 100755$/m,
  );
});

Deno.test("unifiedDiff() diffs only the changed region, with the same hunks as a diff of the whole file", async () => {
  const { structuredPatch } = await import("diff");
  const text = await Deno.readTextFile(new URL("../../fixtures/text/string.js", import.meta.url));
  const lines = text.split("\n");
  // The whole-file reference, written out the way unifiedDiff writes hunks.
  const whole = (a: string, b: string) =>
    structuredPatch("f", "f", a, b, undefined, undefined, { context: 3 }).hunks.map((h) =>
      `@@ -${h.oldLines === 0 ? h.oldStart - 1 : h.oldStart},${h.oldLines} +${
        h.newLines === 0 ? h.newStart - 1 : h.newStart
      },${h.newLines} @@\n${h.lines.join("\n")}\n`
    ).join("");
  const ours = (a: string, b: string) =>
    unifiedDiff("f", { before: new TextEncoder().encode(a), after: new TextEncoder().encode(b) }).split("\n")
      .slice(3).join("\n")
      .replace(/^@@ -(\d+) /gm, "@@ -$1,1 ").replace(/^(@@ -\S+ \+)(\d+) @@/gm, "$1$2,1 @@");
  let seed = 7;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  for (let i = 0; i < 300; i++) {
    const edited = [...lines];
    for (let k = 0, n = 1 + rand(3); k < n; k++) {
      const at = rand(edited.length);
      const op = rand(4);
      if (op === 0) edited.splice(at, 1 + rand(4));
      else if (op === 1) edited.splice(at, 0, `// inserted ${i}.${k}`);
      else if (op === 2) edited[at] = `${edited[at]} // changed`;
      else edited.splice(at, 0, ...edited.slice(at, at + 2)); // a repeated pair of lines
    }
    let after = edited.join("\n");
    if (i % 50 === 0) after = after.replace(/\n$/, ""); // the final newline dropped
    if (i % 75 === 1) after = `// head\n${after}\n// tail`;
    assert.equal(ours(text, after), whole(text, after), `edit ${i}`);
  }
});

// unifiedDiff() finds the changed region on the bytes and decodes only it (a big file with a small edit is
// never decoded whole); its hunks must still turn the old text into the new one at the lines they name
// (jsdiff applies them without fuzz), multi-byte characters and CRLF included.
Deno.test("unifiedDiff() on bytes gives hunks that apply to the whole text", () => {
  let seed = 7;
  const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const words = ["a", "é", "😀", "x = 1;", "", "  return", "\t}", "名前"];
  for (let round = 0; round < 300; round++) {
    const eol = random(3) === 0 ? "\r\n" : "\n";
    const lines = Array.from(
      { length: 1 + random(30) },
      () => words[random(words.length)]! + words[random(8)]!,
    );
    const a = lines.join(eol) + (random(2) ? eol : "");
    const edited = [...lines];
    for (let k = 0; k <= random(3); k++) {
      const at = random(edited.length + 1);
      const op = random(3);
      if (op === 0) edited.splice(at, 0, words[random(words.length)]!);
      else if (op === 1) edited.splice(at, 1);
      else edited[Math.min(at, edited.length - 1)] += words[random(words.length)]!;
    }
    const b = edited.join(eol) + (random(2) ? eol : "");
    if (a === b) continue;
    assert.equal(
      applyPatch(a, unifiedDiff("f.txt", { before: enc(a), after: enc(b) })),
      b,
      JSON.stringify({ a, b }),
    );
  }
});

Deno.test("unifiedDiff() sees no change when only a BOM was added", () => {
  assert.equal(unifiedDiff("f.txt", { before: enc("x\n"), after: enc("\uFEFFx\n") }), "");
});

// Issue 22, item 14: two edits far apart in a large file made the changed region the whole file, and jsdiff
// then diffed 2.3 million lines (1.2 GB and 6 s on a 50 MB file). The region is split into its hunks first;
// the diff must be the one of the whole texts.
/** The unified diff of two whole texts, formatted as unifiedDiff formats it. */
function wholeDiff(path: string, before: string, after: string): string {
  const whole = structuredPatch(path, path, before, after, "", "", { context: 3 });
  if (whole.hunks.length === 0) return "";
  let out = `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n`;
  for (const h of whole.hunks) {
    const oldStart = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart;
    const newStart = h.newLines === 0 ? h.newStart - 1 : h.newStart;
    const range = (s: number, n: number) => n === 1 ? `${s}` : `${s},${n}`;
    out += `@@ -${range(oldStart, h.oldLines)} +${range(newStart, h.newLines)} @@\n`;
    for (const l of h.lines) out += l + "\n";
  }
  return out;
}

Deno.test("unifiedDiff() of random scattered edits in a large file applies, in as many hunks as a whole diff", () => {
  let seed = 7;
  const random = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
  const lines = Array.from({ length: 130_000 }, (_, i) => `row ${i % 7 === 0 ? "same" : i}\n`);
  for (let round = 0; round < 4; round++) {
    const edited = lines.slice();
    for (let e = 0; e < 12; e++) {
      const at = random(edited.length);
      const kind = random(3);
      if (kind === 0) edited[at] = `edited ${round} ${e}\n`;
      else if (kind === 1) edited.splice(at, 1 + random(5));
      else edited.splice(at, 0, `added ${round} ${e}\n`, "row same\n");
    }
    const [before, after] = [lines.join(""), edited.join("")];
    const diff = unifiedDiff("r.txt", { before: enc(before), after: enc(after) });
    assert.equal(applyPatch(before, diff), after, `round ${round}`);
    const hunks = (d: string) => d.split("\n@@ ").length;
    assert.equal(hunks(diff), hunks(wholeDiff("r.txt", before, after)), `round ${round}: as many hunks`);
  }
});

Deno.test("unifiedDiff() of distant edits in a large file is the diff of the whole texts", () => {
  const lines = Array.from({ length: 120_000 }, (_, i) => `line ${String(i).padStart(6, "0")}\n`);
  const before = lines.join("");
  const edited = lines.slice();
  edited[9] = "changed 9\n";
  edited.splice(60_000, 1);
  edited.splice(60_003, 0, "inserted\n", "inserted too\n");
  edited[119_990] = "changed near the end\n";
  const after = edited.join("") + "no newline";
  const got = unifiedDiff("big.txt", { before: enc(before), after: enc(after) });
  const whole = structuredPatch("big.txt", "big.txt", before, after, "", "", { context: 3 });
  let expected = "diff --git a/big.txt b/big.txt\n--- a/big.txt\n+++ b/big.txt\n";
  for (const h of whole.hunks) {
    const oldStart = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart;
    const newStart = h.newLines === 0 ? h.newStart - 1 : h.newStart;
    const range = (s: number, n: number) => n === 1 ? `${s}` : `${s},${n}`;
    expected += `@@ -${range(oldStart, h.oldLines)} +${range(newStart, h.newLines)} @@\n`;
    for (const l of h.lines) expected += l + "\n";
  }
  assert.equal(whole.hunks.length, 4);
  assert.equal(got, expected);
  assert.match(got, /^@@ -7,7 \+7,7 @@\n line 000006\n/m);
});

// Every line of a 20,000-line file rewritten: jsdiff alone costs the lines times the edits (107 s for a rewrite
// of 20,000 sites); the region is cut into parts of few edits, and the diff still applies.
Deno.test("unifiedDiff() of a file whose every line changed applies, in parts of few edits each", () => {
  const lines = Array.from({ length: 20_000 }, (_, i) => i % 2 ? `keep ${i % 5}\n` : "console.log(1);\n");
  const before = lines.join("");
  const after = lines.map((l) => l.replace("console.log", "log")).join("") + "tail";
  const diff = unifiedDiff("many.js", { before: enc(before), after: enc(after) });
  assert.equal(applyPatch(before, diff), after);
  const hunks = diff.split("\n@@ ").length - 1;
  assert.ok(hunks > 100, `${hunks} hunks`);
  // git reads it as well.
  return gitApplyCheck({ "many.js": before }, diff).then((r) => assert.ok(r.ok, r.out));
});
