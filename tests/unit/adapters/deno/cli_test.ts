/** The Deno CLI entry as a process: what it does when the reader of its output leaves early (`| head`), and with a FIFO or a device for a file. */
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

Deno.test("graver apply and graver sg scan -r refuse a FIFO or a device named as their file, instead of waiting for ever", async () => {
  const dir = await Deno.makeTempDir({ prefix: "graver-fifo-" });
  try {
    const made = await new Deno.Command("mkfifo", { args: [`${dir}/edits.md`] }).output();
    assert.equal(made.code, 0, "mkfifo");
    await Deno.writeTextFile(`${dir}/a.js`, "f(1);\n");
    const run = async (args: string[]) => {
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", CLI, ...args],
        cwd: dir,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      // Before the fix, the read of the FIFO never returned: end the child rather than hang the suite.
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      const out = await child.output();
      clearTimeout(timer);
      return {
        code: out.code,
        text: new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr),
      };
    };
    const apply = await run(["apply", "edits.md"]);
    assert.equal(apply.code, 2, apply.text);
    assert.match(apply.text, /named pipe \(FIFO\), not a regular file/);
    const device = await run(["apply", "/dev/zero"]);
    assert.equal(device.code, 2, device.text);
    assert.match(device.text, /character device, not a regular file/);
    const scan = await run(["sg", "scan", "-r", "edits.md"]);
    assert.equal(scan.code, 2, scan.text);
    assert.match(scan.text, /cannot read the rule file .*not a regular file/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
