/** `graver tools --format …` through the real CLI entry. */
import assert from "node:assert/strict";
import { TOOLS } from "../../../src/tools/catalogue.ts";
import { inProcess, json, project, subprocess } from "./_cli.ts";

Deno.test("graver tools --format openai|openai-responses|anthropic|mcp|json prints the catalogue for function calling", async () => {
  const openai = await subprocess(["tools", "--format", "openai"]);
  assert.equal(openai.code, 0, openai.stderr);
  const tools = JSON.parse(openai.stdout) as {
    type: string;
    function: { name: string; parameters: unknown };
  }[];
  assert.deepEqual(tools.map((t) => t.function.name), TOOLS.map((t) => t.name));
  assert.ok(tools.every((t) => t.type === "function"));
  const anthropic = JSON.parse((await inProcess(["tools", "--format", "anthropic"])).stdout) as Record<
    string,
    unknown
  >[];
  assert.ok(anthropic.every((t) => typeof t["input_schema"] === "object" && !("inputSchema" in t)));
  const mcp = JSON.parse((await inProcess(["tools", "--format=mcp"])).stdout) as {
    name: string;
    annotations: { readOnlyHint: boolean; destructiveHint: boolean };
  }[];
  const read = mcp.find((t) => t.name === "read_file")!;
  assert.equal(read.annotations.readOnlyHint, true);
  assert.equal(mcp.find((t) => t.name === "delete_file")!.annotations.destructiveHint, true);
  const one = json(await inProcess(["tools", "edit_file", "--format", "json"]));
  assert.equal(one.name, "edit_file");
  assert.equal(one.inputSchema.$schema, "https://json-schema.org/draft/2020-12/schema");
  assert.deepEqual(one.argumentAliases, { file_path: "path", dryRun: "dry_run" });
  const responses = json(await inProcess(["tools", "apply_patch", "--format", "openai-responses"]));
  assert.deepEqual(Object.keys(responses).sort(), ["description", "name", "parameters", "type"]);
});

Deno.test("graver tools --no-aliases leaves out the compatibility aliases; a bad format is a usage error with did-you-mean", async () => {
  const core = JSON.parse((await inProcess(["tools", "--format", "openai", "--no-aliases"])).stdout) as {
    function: { name: string };
  }[];
  const names = core.map((t) => t.function.name);
  assert.ok(names.includes("edit_file"));
  for (const alias of ["apply_patch", "str_replace_editor", "str_replace_based_edit_tool"]) {
    assert.ok(!names.includes(alias), alias);
  }
  const list = await inProcess(["tools"]);
  assert.match(list.stdout, /^apply_patch +\(compatibility alias\) Codex's apply_patch/m);
  assert.ok(!(await inProcess(["tools", "--no-aliases"])).stdout.includes("apply_patch "));
  const bad = await inProcess(["tools", "--format", "opneai"]);
  assert.equal(bad.code, 2);
  assert.match(json(bad).error.message, /unknown format "opneai" \(did you mean "openai"\?\)/);
  const unknown = await inProcess(["tools", "apply_pach", "--format", "mcp"]);
  assert.equal(unknown.code, 2);
  assert.deepEqual(json(unknown).error.details.did_you_mean, ["apply_patch"]);
});

Deno.test("graver call runs a compatibility alias with the shape its model sends, as the real tool", async () => {
  const dir = await project({ "gyp/MSVSUserFile.py": "fixtures/real/MSVSUserFile.py" });
  try {
    const view = await subprocess([
      "call",
      "str_replace_based_edit_tool",
      '{"command":"view","path":"gyp/MSVSUserFile.py","view_range":[1,1]}',
    ], { cwd: dir });
    assert.equal(view.code, 0, view.stdout);
    assert.equal(json(view).tool, "read_file");
    const patch =
      "*** Begin Patch\n*** Update File: gyp/MSVSUserFile.py\n-import re\n+import re  # regexps\n*** End Patch\n";
    const applied = await subprocess(["call", "apply_patch", JSON.stringify({ input: patch })], { cwd: dir });
    assert.equal(applied.code, 0, applied.stdout);
    assert.match(await Deno.readTextFile(`${dir}/gyp/MSVSUserFile.py`), /^import re {2}# regexps$/m);
    const undo = await subprocess([
      "call",
      "str_replace_editor",
      '{"command":"undo_edit","path":"gyp/MSVSUserFile.py"}',
    ], {
      cwd: dir,
    });
    assert.equal(undo.code, 1, "a refusal, not a usage error: the call was well-formed");
    assert.equal(json(undo).error.code, "invalid_args");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
