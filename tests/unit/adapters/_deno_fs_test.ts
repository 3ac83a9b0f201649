import assert from "node:assert/strict";
import { closeSync, fstatSync, openSync } from "node:fs";
import { denoStat, fstatNow, readdir } from "../../../src/adapters/_deno_fs.ts";

Deno.test("an open descriptor's type check answers what fstat does, also once the path holds another file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "graver-deno-fs-" });
  try {
    await Deno.writeTextFile(`${dir}/a.txt`, "hello");
    const fd = openSync(`${dir}/a.txt`, "r");
    try {
      await Deno.rename(`${dir}/a.txt`, `${dir}/moved.txt`);
      await Deno.writeTextFile(`${dir}/a.txt`, "another, longer file");
      const st = fstatNow(fd);
      assert.equal(st.size, fstatSync(fd).size);
      assert.equal(st.size, 5, "the open file, not what its path names now");
      assert.ok(st.isFile());
    } finally {
      closeSync(fd);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Deno's stat and listing tell files, folders, links and FIFOs apart; a missing path is null", async () => {
  const dir = await Deno.makeTempDir({ prefix: "graver-deno-fs-" });
  try {
    await Deno.writeTextFile(`${dir}/f`, "x");
    await Deno.mkdir(`${dir}/d`);
    await Deno.symlink(`${dir}/f`, `${dir}/l`);
    const fifo = await new Deno.Command("mkfifo", { args: [`${dir}/p`] }).output();
    assert.equal(fifo.code, 0);
    const stat = denoStat!;
    assert.ok((await stat(`${dir}/f`))!.isFile());
    assert.ok((await stat(`${dir}/d`))!.isDirectory());
    assert.ok((await stat(`${dir}/p`))!.isFIFO!());
    assert.equal(await stat(`${dir}/missing`), null);
    const entries = await readdir(dir, { withFileTypes: true }) as {
      name: string;
      isFile(): boolean;
      isDirectory(): boolean;
      isSymbolicLink(): boolean;
    }[];
    const kinds = Object.fromEntries(entries.map((e) => [
      e.name,
      e.isSymbolicLink() ? "link" : e.isFile() ? "file" : e.isDirectory() ? "dir" : "other",
    ]));
    assert.deepEqual(kinds, { f: "file", d: "dir", l: "link", p: "other" });
    assert.deepEqual((await readdir(dir)).sort(), ["d", "f", "l", "p"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
