import assert from "node:assert/strict";
import { unifiedDiff } from "../../../src/mod.ts";

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
    const diff = unifiedDiff(path, before === null ? null : enc(before), after === null ? null : enc(after));
    const files: Record<string, string> = before === null ? {} : { [path]: before };
    const res = await gitApplyCheck(files, diff);
    assert.ok(res.ok, `${path}: ${res.out}\n${diff}`);
  }
});

Deno.test("unifiedDiff() says binary files differ instead of dumping bytes", () => {
  const d = unifiedDiff("img.bin", new Uint8Array([0, 1]), new Uint8Array([0, 2]));
  assert.match(d, /Binary files a\/img.bin and b\/img.bin differ/);
});
