import assert from "node:assert/strict";
import { createDiskBackend, createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { runCli } from "../../../src/surfaces/cli.ts";
import "../../../src/surfaces/cli_commands.ts";

async function cli(args: string[], cwd: string) {
  let [stdout, stderr] = ["", ""];
  const code = await runCli(args, {
    stdout: (t) => stdout += t,
    stderr: (t) => stderr += t,
    readStdin: () => Promise.resolve(""),
    readHostFile: (p) => Deno.readTextFile(p),
    cwd,
    backend: createDiskBackend(),
    wasm: createWasmLoader(),
  });
  return { code, stdout, stderr };
}

Deno.test("graver call --compass suggest|rewrite|off, --persona and --events", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.ts`, "export const a = 1;\nexport const b = a + 1;\n");
    await Deno.mkdir(`${dir}/.graver/personas`, { recursive: true });
    await Deno.writeTextFile(
      `${dir}/.graver/personas/fixer.json`,
      JSON.stringify({ edit_strategy: { prefer: ["edit_safe_text_patch"] } }),
    );
    const edit = (from: string, to: string) =>
      JSON.stringify({ path: "a.ts", old_string: from, new_string: to });
    // default: the CLI names no session, so an unconfigured compass stays quiet
    const plain = await cli(["call", "edit_file", edit("a + 1", "a + 2")], dir);
    assert.equal(plain.code, 0);
    assert.deepEqual(JSON.parse(plain.stdout).reminders, []);
    const suggest = await cli([
      "call",
      "edit_file",
      edit("a + 2", "a + 3"),
      "--compass",
      "suggest",
      "--events",
    ], dir);
    assert.equal(suggest.code, 0);
    // a constant's value changed, not a definition's name or shape: the hash-guarded text patch
    assert.match(JSON.parse(suggest.stdout).reminders[0].text, /prefer edit_safe_text_patch/);
    const events = suggest.stderr.trim().split("\n").map((l) => JSON.parse(l));
    const decision = events.find((e) => e.event === "compass_routing_decision");
    assert.equal(decision.action, "suggested");
    assert.equal(decision.path, "a.ts");
    assert.ok(!suggest.stderr.includes("a + 3"), "no file contents in events");
    assert.ok(events.some((e) => e.event === "graver.commit"));
    const rewrite = await cli(["call", "edit_file", edit("a + 3", "a + 4"), "--compass=rewrite"], dir);
    assert.equal(JSON.parse(rewrite.stdout).tool, "edit_safe_text_patch");
    assert.equal(rewrite.stderr, "", "no --events: nothing on stderr");
    const persona = await cli(["call", "edit_file", edit("a + 4", "a + 5"), "--persona", "fixer"], dir);
    assert.match(JSON.parse(persona.stdout).reminders[0].text, /prefer edit_safe_text_patch/);
    const off = await cli([
      "call",
      "edit_file",
      edit("a + 5", "a + 6"),
      "--compass",
      "off",
      "--persona",
      "fixer",
    ], dir);
    assert.deepEqual(JSON.parse(off.stdout).reminders, []);
    assert.equal(await Deno.readTextFile(`${dir}/a.ts`), "export const a = 1;\nexport const b = a + 6;\n");
    const bad = await cli(["call", "read_file", '{"path":"a.ts"}', "--compass", "loud"], dir);
    assert.equal(bad.code, 2);
    assert.match(JSON.parse(bad.stdout).error.hint, /off, suggest or rewrite/);
    const missing = await cli(["call", "read_file", '{"path":"a.ts"}', "--persona", "nobody"], dir);
    assert.equal(missing.code, 1);
    assert.match(JSON.parse(missing.stdout).error.hint, /Known personas: fixer/);
    assert.match((await cli(["call", "--help"], dir)).stdout, /--compass MODE/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
