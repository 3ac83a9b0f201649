import assert from "node:assert/strict";
import { inProcess, stripAnsi } from "./_cli.ts";

Deno.test("importing cli_commands registers every built-in command, each with its help", async () => {
  const help = stripAnsi((await inProcess(["--help"])).stdout);
  for (const command of ["call", "apply", "checkpoints", "grep", "read", "sg", "stats", "tools"]) {
    assert.match(help, new RegExp(`\\b${command}\\b`), command);
    const own = await inProcess([command, "--help"]);
    assert.equal(own.code, 0, command);
  }
});
