/** The Deno CLI entry as a process: what it does when the reader of its output leaves early (`| head`). */
import assert from "node:assert/strict";

const CLI = new URL("../../../../src/adapters/deno/cli.ts", import.meta.url).pathname;

Deno.test("graver grep whose reader leaves early (| head) stops quietly with status 0, as rg does", async () => {
  const dir = await Deno.makeTempDir({ prefix: "graver-pipe-" });
  try {
    // Far more output than a pipe holds (64 KiB), so the process is still writing when its reader leaves.
    const line = "const value = findThisWord(42);\n";
    await Deno.writeTextFile(`${dir}/many.js`, line.repeat(20_000));
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CLI, "grep", "-F", "findThisWord"],
      cwd: dir,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const reader = child.stdout.getReader();
    const first = await reader.read();
    assert.ok(!first.done && first.value.length > 0, "some output came");
    await reader.cancel(); // the reader leaves, as head does after its lines
    const [status, err] = await Promise.all([child.status, new Response(child.stderr).text()]);
    assert.equal(status.code, 0, err);
    assert.doesNotMatch(err, /BrokenPipe|Uncaught|internal/i);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
