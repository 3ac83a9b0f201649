import assert from "node:assert/strict";
import { installLauncher, launcherScript } from "../../../scripts/launcher.ts";

// bin/graver, the launcher `deno task setup` writes: run for real, as an agent would, from another directory.
const ROOT = new URL("../../../", import.meta.url).pathname;

async function run(launcher: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const out = await new Deno.Command(launcher, { args, cwd, env, stdout: "piped", stderr: "piped" }).output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
}

Deno.test("bin/graver runs the CLI with the set-up's Deno binary, on the directory it is called from", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const launcher = `${dir}/bin/graver`;
    await installLauncher(launcher, ROOT, Deno.execPath());
    assert.equal((await Deno.stat(launcher)).mode! & 0o111, 0o111, "executable");
    const text = await Deno.readTextFile(launcher);
    assert.ok(text.startsWith("#!/bin/sh\n"));
    assert.ok(text.includes(Deno.execPath()), "names the binary that ran the set-up");
    await Deno.mkdir(`${dir}/project`);
    await Deno.writeTextFile(`${dir}/project/a.py`, "x = 1\n");

    const read = await run(launcher, ["call", "read_file", '{"path":"a.py"}'], `${dir}/project`);
    assert.equal(read.code, 0);
    const obj = JSON.parse(read.stdout);
    assert.equal(obj.data.content, "1\tx = 1");

    // Exit codes and --root pass through: a refused write is 1 and writes nothing.
    const refused = await run(
      launcher,
      ["call", "write_file", '{"path":"a.py","content":"x = (\\n"}', "--root", `${dir}/project`],
      "/",
    );
    assert.equal(refused.code, 1);
    assert.equal(JSON.parse(refused.stdout).error.code, "syntax_error");
    assert.equal(await Deno.readTextFile(`${dir}/project/a.py`), "x = 1\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bin/graver falls back to the deno on PATH when the set-up's binary is gone", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const launcher = `${dir}/graver`;
    await installLauncher(launcher, ROOT, `${dir}/no-such-deno`);
    await Deno.writeTextFile(`${dir}/b.ts`, "export const b = 1;\n");
    // PATH holds only the directory of the running deno (and sh's own tools).
    const bin = Deno.execPath().slice(0, Deno.execPath().lastIndexOf("/"));
    const path = `${dir}/path`;
    await Deno.mkdir(path);
    await Deno.symlink(Deno.execPath(), `${path}/deno`);
    const read = await run(launcher, ["call", "outline", '{"path":"b.ts"}'], dir, {
      PATH: `${path}:/usr/bin:/bin`,
    });
    assert.equal(read.code, 0, `deno from ${bin}`);
    assert.equal(JSON.parse(read.stdout).data.symbols[0].name_path, "b");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("launcherScript() quotes paths for sh", () => {
  const text = launcherScript("/opt/it's here/", "/usr/local/bin/deno");
  assert.ok(text.includes(`ROOT='/opt/it'\\''s here'\n`));
  assert.ok(text.includes(`DENO='/usr/local/bin/deno'\n`));
});
