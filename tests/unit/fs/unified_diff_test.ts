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

Deno.test("unifiedDiff() names a mode change as git does", () => {
  const d = unifiedDiff("run.sh", enc("a\n"), enc("b\n"), { oldMode: 0o644, newMode: 0o755 });
  assert.match(d, /^diff --git a\/run.sh b\/run.sh\nold mode 100644\nnew mode 100755\n--- a\/run.sh/);
  assert.equal(
    unifiedDiff("run.sh", enc("a\n"), enc("a\n"), { oldMode: 0o755, newMode: 0o644 }),
    "diff --git a/run.sh b/run.sh\nold mode 100755\nnew mode 100644\n",
  );
  assert.equal(unifiedDiff("x", enc("a\n"), enc("a\n"), { oldMode: 0o600, newMode: 0o644 }), "");
  assert.match(unifiedDiff("run.sh", enc("a\n"), null, { oldMode: 0o755 }), /^deleted file mode 100755$/m);
  assert.match(unifiedDiff("run.sh", null, enc("a\n"), { newMode: 0o700 }), /^new file mode 100755$/m);
});
