import assert from "node:assert/strict";
import { BackendFs, createMemoryBackend, isRecoverable, RecoverableError } from "../../../src/mod.ts";
import { Sandbox } from "../../../src/fs/sandbox.ts";
import { Stage } from "../../../src/fs/stage.ts";
import { versionOf } from "../../../src/fs/version.ts";
import { enc } from "../../_helpers.ts";

function stageOver(files: Record<string, string>): { stage: Stage; fs: BackendFs } {
  const fs = BackendFs.wrap(createMemoryBackend(files));
  return { stage: new Stage(fs, new Sandbox("/")), fs };
}

Deno.test("Stage overlays writes and deletes without touching the backend", async () => {
  const { stage, fs } = stageOver({ "/a.txt": "a", "/d/b.txt": "b" });
  await stage.write("a.txt", enc("A"));
  await stage.remove("d/b.txt");
  await stage.write("d/e/c.txt", enc("c"));
  assert.equal(new TextDecoder().decode((await stage.readExisting("a.txt")).bytes), "A");
  assert.equal(await stage.read("d/b.txt"), null);
  assert.deepEqual(await stage.list(""), [{ name: "a.txt", kind: "file" }, { name: "d", kind: "dir" }]);
  assert.deepEqual(await stage.list("d"), [{ name: "e", kind: "dir" }]);
  assert.equal(new TextDecoder().decode((await fs.read("/a.txt"))!), "a");
  assert.deepEqual(stage.changes().map((c) => [c.path, c.after === null]), [
    ["a.txt", false],
    ["d/b.txt", true],
    ["d/e/c.txt", false],
  ]);
});

Deno.test("Stage.changes() drops writes that restore the base bytes", async () => {
  const { stage } = stageOver({ "/a.txt": "a" });
  await stage.write("a.txt", enc("b"));
  await stage.write("a.txt", enc("a"));
  assert.deepEqual(stage.changes(), []);
});

Deno.test("Stage.checkExpected() refuses a stale version with the current one", async () => {
  const { stage } = stageOver({ "/a.txt": "a" });
  const current = (await stage.readExisting("a.txt")).version;
  await stage.checkExpected("a.txt", current);
  await assert.rejects(
    () => stage.checkExpected("a.txt", "0".repeat(64)),
    (e) => isRecoverable(e, "stale_base") && e.details?.["current_version"] === current,
  );
});

Deno.test("Stage.checkExpected() words its refusal as the caller asks, and refuses only a stale version", async () => {
  const { stage } = stageOver({ "/a.txt": "a" });
  const current = (await stage.readExisting("a.txt")).version;
  const asked: unknown[] = [];
  const refusal = (rel: string, versions: { expected: string; actual: string | null }) => {
    asked.push({ rel, ...versions });
    return new RecoverableError("stale_base", "in the caller's words", { hint: "read again" });
  };
  await stage.checkExpected("a.txt", current.slice(0, 12), { refusal });
  assert.deepEqual(asked, []);
  await assert.rejects(
    () => stage.checkExpected("a.txt", "0".repeat(64), { refusal }),
    (e) => isRecoverable(e, "stale_base") && e.message === "in the caller's words",
  );
  assert.deepEqual(asked, [{ rel: "a.txt", expected: "0".repeat(64), actual: current }]);
});

Deno.test("Stage.notFound() suggests near names", async () => {
  const { stage } = stageOver({ "/src/parser.ts": "", "/src/printer.ts": "" });
  await assert.rejects(
    () => stage.readExisting("src/parsr.ts"),
    (e) => isRecoverable(e, "not_found") && (e.details?.["did_you_mean"] as string[])[0] === "src/parser.ts",
  );
});

Deno.test("Stage refuses to treat a directory as a file", async () => {
  const { stage } = stageOver({ "/d/x.txt": "" });
  await assert.rejects(() => stage.read("d"), (e) => isRecoverable(e, "is_directory"));
});

Deno.test("Stage.checkExpected() accepts a prefix of 12 or more hex characters and refuses a shorter one", async () => {
  const { stage } = stageOver({ "/a.txt": "one\n" });
  const current = (await stage.readExisting("a.txt")).version;
  for (
    const ok of [current, current.slice(0, 12), current.slice(0, 40), current.slice(0, 12).toUpperCase()]
  ) {
    await stage.checkExpected("a.txt", ok);
  }
  await assert.rejects(
    () => stage.checkExpected("a.txt", current.slice(0, 11)),
    (e: unknown) =>
      isRecoverable(e, "invalid_args") &&
      e.message ===
        `Cannot check "a.txt" against version "${
          current.slice(0, 11)
        }": a version needs at least 12 hex characters, got 11` &&
      /all 64 characters, or its first 12 or more/.test(e.hint),
  );
  const other = current.startsWith("0") ? "1".repeat(12) : "0".repeat(12);
  await assert.rejects(
    () => stage.checkExpected("a.txt", other),
    (e: unknown) =>
      isRecoverable(e, "stale_base") && e.details?.["current_version"] === current &&
      e.message.includes(`found "${current.slice(0, 12)}"`),
  );
});

/** Punctuation marks run together ("file?. Did", "..", "?;"), outside quoted values. */
function doubledPunctuation(text: string): RegExpMatchArray | null {
  return text.replace(/"[^"]*"/g, '""').match(/[?!.;:,]\s*[?!.;:,]/);
}

Deno.test("Stage.notFound() did-you-mean text has no doubled punctuation", async () => {
  const { stage } = stageOver({ "/src/main.ts": "x", "/src/mains.ts": "y", "/README.md": "r" });
  for (const path of ["src/mian.ts", "src/nothing-like-it.rs", "READM.md", "nope/x.ts"]) {
    const err = await stage.notFound(path);
    assert.equal(doubledPunctuation(err.message), null, err.message);
    assert.equal(doubledPunctuation(err.hint), null, err.hint);
  }
  const near = await stage.notFound("src/mian.ts");
  assert.equal(near.hint, 'Did you mean "src/main.ts"? Call list_files to see what exists');
});

Deno.test("Stage.notFound() answers a glob path with the files it matches, not the glob again", async () => {
  const { stage } = stageOver({
    "/src/a.ts": "a",
    "/src/b.ts": "b",
    "/src/c.py": "c",
    "/src/deep/d.ts": "d",
    "/lib/e.ts": "e",
  });
  const many = await stage.notFound("src/*.ts");
  assert.equal(many.code, "not_found");
  assert.match(many.message, /looks like a glob pattern, and file tools take one path/);
  assert.equal(
    many.hint,
    'It matches "src/a.ts", "src/b.ts": call the tool once per file, with one of these paths',
  );
  assert.ok(!many.hint.includes("*"));
  assert.deepEqual(many.details?.["matches"], ["src/a.ts", "src/b.ts"]);
  const one = await stage.notFound("src/*.py");
  assert.equal(one.hint, 'It matches one file: pass "src/c.py" as the path');
  const deep = await stage.notFound("**/*.ts");
  assert.deepEqual(deep.details?.["matches"], ["lib/e.ts", "src/a.ts", "src/b.ts", "src/deep/d.ts"]);
  assert.deepEqual(deep.suggestedCall, { tool: "list_files", args: { path: "", recursive: true } });
  const braces = await stage.notFound("src/{a,c}.*");
  assert.deepEqual(braces.details?.["matches"], ["src/a.ts", "src/c.py"]);
  const none = await stage.notFound("src/*.rs");
  assert.equal(none.hint, 'It matches no file; call list_files with {"path":"src"} to see what exists');
  assert.ok(!none.hint.includes("*"));
  for (const e of [many, one, deep, braces, none]) assert.equal(doubledPunctuation(e.hint), null, e.hint);
});

Deno.test("Stage.notFound() treats a bracketed name such as [id].tsx as a name, not a glob", async () => {
  const { stage } = stageOver({ "/pages/[id].tsx": "x" });
  const err = await stage.notFound("pages/[id].ts");
  assert.doesNotMatch(err.message, /glob/);
  assert.match(err.hint, /Did you mean "pages\/\[id\]\.tsx"/);
});

Deno.test("Stage computes versions when asked: peekText does not, a write still records the base version", async () => {
  const { stage } = stageOver({ "/a.txt": "one\n", "/b.txt": "two\n", "/c.txt": "three\n" });

  assert.equal((await stage.peekText("a.txt"))?.text, "one\n");
  assert.equal(await stage.peekText("missing.txt"), null);
  // peeked, then written: the change carries the version of the bytes the stage first saw
  await stage.write("a.txt", enc("ONE\n"));
  // read (version computed), then removed
  assert.equal((await stage.readExisting("b.txt")).version, await versionOf(enc("two\n")));
  await stage.remove("b.txt");
  // a fork reads through its parent's written view: its base is the parent's current bytes
  const child = stage.fork();
  await child.peekText("a.txt");
  await child.write("a.txt", enc("1\n"));
  await child.write("c.txt", enc("3\n"));
  const changes = stage.changes();
  assert.deepEqual(changes.map((c) => [c.path, c.baseVersion]), [
    ["a.txt", await versionOf(enc("one\n"))],
    ["b.txt", await versionOf(enc("two\n"))],
  ]);
  assert.deepEqual(child.changes().map((c) => [c.path, c.baseVersion]), [
    ["a.txt", await versionOf(enc("ONE\n"))],
    ["c.txt", await versionOf(enc("three\n"))],
  ]);
});

Deno.test("Stage.size() answers from a stat before a read, then from the staged view", async () => {
  const { stage } = stageOver({ "/a.txt": "héllo", "/d/b.txt": "b" });
  assert.equal(await stage.size("a.txt"), 6, "UTF-8 bytes on the backend");
  assert.equal(await stage.size("d"), null, "a directory has no size");
  assert.equal(await stage.size("missing.txt"), null);
  await stage.write("a.txt", enc("longer text"));
  assert.equal(await stage.size("a.txt"), 11);
  await stage.remove("d/b.txt");
  assert.equal(await stage.size("d/b.txt"), null);
  const child = stage.fork();
  assert.equal(await child.size("a.txt"), 11, "a fork sees its parent's staged bytes");
});
