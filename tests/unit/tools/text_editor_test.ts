/**
 * Anthropic's text editor tool, driven with the argument shapes Anthropic
 * documents for `text_editor_20250728` (`str_replace_based_edit_tool`) and
 * `text_editor_20250124` (`str_replace_editor`), on a real Python file
 * (tests/fixtures/real/MSVSUserFile.py, from node-gyp).
 */
import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace, type ToolResult, type Workspace } from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import type { PipelineStep } from "../../../src/tools/types.ts";

const SOURCE = await Deno.readTextFile(new URL("../../fixtures/real/MSVSUserFile.py", import.meta.url));
const LINES = SOURCE.split("\n");

async function open(steps: PipelineStep[] = [], extra: Record<string, string> = {}): Promise<Workspace> {
  return await createWorkspace({
    backend: createMemoryBackend({ "/w/gyp/MSVSUserFile.py": SOURCE, "/w/README.md": "# w\n", ...extra }),
    root: "/w",
    wasm: createWasmLoader(),
    steps,
  });
}

async function text(ws: Workspace, path = "gyp/MSVSUserFile.py"): Promise<string> {
  return new TextDecoder().decode((await ws.fs.read(`/w/${path}`))!);
}

function ok(r: ToolResult): Extract<ToolResult, { ok: true }> {
  assert.ok(r.ok, JSON.stringify(r));
  return r;
}

function refused(r: ToolResult, code: string): Extract<ToolResult, { ok: false }> {
  assert.ok(!r.ok, `expected ${code}, got ${JSON.stringify(r).slice(0, 300)}`);
  assert.equal(r.error.code, code, r.error.message);
  assert.ok(r.error.hint.length > 0);
  return r;
}

for (const name of ["str_replace_based_edit_tool", "str_replace_editor"]) {
  Deno.test(`${name} view reads a file (numbered, view_range with -1) or lists a directory`, async () => {
    const ws = await open();
    const all = ok(await ws.call(name, { command: "view", path: "gyp/MSVSUserFile.py" }));
    assert.equal(all.tool, "read_file");
    assert.equal(all.data["total_lines"], 152);
    assert.match(all.data["content"] as string, /^ {2}1\t# Copyright/);
    const some = ok(
      await ws.call(name, { command: "view", path: "gyp/MSVSUserFile.py", view_range: [16, 17] }),
    );
    assert.equal(some.data["content"], `16\t${LINES[15]}\n17\t${LINES[16]}`);
    const tail = ok(
      await ws.call(name, { command: "view", path: "/w/gyp/MSVSUserFile.py", view_range: [150, -1] }),
    );
    assert.deepEqual(
      [tail.data["start_line"], tail.data["end_line"]],
      [150, 152],
      "absolute path inside the root",
    );
    const dir = ok(await ws.call(name, { command: "view", path: "/w" }));
    assert.equal(dir.tool, "list_files");
    assert.deepEqual(dir.data["entries"], ["README.md", "gyp/", "gyp/MSVSUserFile.py"]);
    refused(
      await ws.call(name, { command: "view", path: "gyp/MSVSUserFile.py", view_range: [9, 3] }),
      "invalid_args",
    );
    refused(await ws.call(name, { command: "view", path: "gyp", view_range: [1, 2] }), "invalid_args");
    refused(await ws.call(name, { command: "view", path: "gyp/nope.py" }), "not_found");
    refused(await ws.call(name, { command: "view", path: "../etc/passwd" }), "sandbox_violation");
  });

  Deno.test(`${name} str_replace lands through edit_file: exact, ambiguous, no match, new_str omitted`, async () => {
    const ws = await open();
    const r = ok(
      await ws.call(name, {
        command: "str_replace",
        path: "gyp/MSVSUserFile.py",
        old_str: "import socket  # for gethostname",
        new_str: "import socket  # for gethostname()",
      }),
    );
    assert.equal(r.tool, "edit_file");
    assert.match(r.changes[0]!.diff, /^\+import socket {2}# for gethostname\(\)$/m);
    const before = await text(ws);
    const amb = refused(
      await ws.call(name, {
        command: "str_replace",
        path: "gyp/MSVSUserFile.py",
        old_str: "return command",
        new_str: "x",
      }),
      "ambiguous",
    );
    assert.equal(amb.tool, name, "a refusal names the tool the model called");
    refused(
      await ws.call(name, {
        command: "str_replace",
        path: "gyp/MSVSUserFile.py",
        old_str: "import sockets\n",
      }),
      "no_match",
    );
    refused(await ws.call(name, { command: "str_replace", path: "gyp/MSVSUserFile.py" }), "invalid_args");
    assert.equal(await text(ws), before, "refusals write nothing");
    ok(await ws.call(name, { command: "str_replace", path: "gyp/MSVSUserFile.py", old_str: "import re\n" }));
    assert.ok(!(await text(ws)).includes("import re\n"), "omitted new_str deletes old_str");
  });

  Deno.test(`${name} create makes a new file, refuses an existing one, replaces it given expected_version`, async () => {
    const ws = await open();
    const made = ok(await ws.call(name, { command: "create", path: "gyp/new.py", file_text: "X = 1\n" }));
    assert.equal(made.tool, "create_file");
    assert.equal(await text(ws, "gyp/new.py"), "X = 1\n");
    refused(
      await ws.call(name, { command: "create", path: "gyp/MSVSUserFile.py", file_text: "" }),
      "already_exists",
    );
    assert.equal(await text(ws), SOURCE);
    const version = ok(await ws.call("read_file", { path: "gyp/new.py" })).data["version"];
    const replaced = ok(
      await ws.call(name, {
        command: "create",
        path: "gyp/new.py",
        file_text: "X = 2\n",
        expected_version: version,
      }),
    );
    assert.equal(replaced.tool, "write_file");
    assert.equal(await text(ws, "gyp/new.py"), "X = 2\n");
    refused(
      await ws.call(name, {
        command: "create",
        path: "gyp/new.py",
        file_text: "X = 3\n",
        expected_version: version,
      }),
      "stale_base",
    );
  });

  Deno.test(`${name} insert puts text after insert_line (new_str or insert_text), 0 at the start`, async () => {
    const ws = await open();
    // after "from gyp import easy_xml" (line 11), the old spelling new_str
    const at = LINES.indexOf("from gyp import easy_xml") + 1;
    assert.equal(at, 11);
    ok(
      await ws.call(name, {
        command: "insert",
        path: "gyp/MSVSUserFile.py",
        insert_line: at,
        new_str: "import sys",
      }),
    );
    let lines = (await text(ws)).split("\n");
    assert.deepEqual(lines.slice(at - 1, at + 2), ["from gyp import easy_xml", "import sys", ""]);
    // at the start, the new spelling insert_text
    const start = ok(
      await ws.call(name, {
        command: "insert",
        path: "gyp/MSVSUserFile.py",
        insert_line: 0,
        insert_text: "#!/usr/bin/env python3\n",
      }),
    );
    assert.equal(start.tool, "edit_file");
    lines = (await text(ws)).split("\n");
    assert.deepEqual(lines.slice(0, 2), ["#!/usr/bin/env python3", LINES[0]]);
    // after the last line: a line that occurs many times is still placed by its number
    const last = lines.length - 1; // the file ends with a newline
    ok(
      await ws.call(name, {
        command: "insert",
        path: "gyp/MSVSUserFile.py",
        insert_line: last,
        insert_text: "# end\n",
      }),
    );
    assert.ok((await text(ws)).endsWith(`${LINES[LINES.length - 2]}\n# end\n`));
    const before = await text(ws);
    refused(
      await ws.call(name, {
        command: "insert",
        path: "gyp/MSVSUserFile.py",
        insert_line: 500,
        insert_text: "x",
      }),
      "invalid_args",
    );
    refused(
      await ws.call(name, {
        command: "insert",
        path: "gyp/MSVSUserFile.py",
        insert_line: 1,
        insert_text: "x",
        new_str: "y",
      }),
      "invalid_args",
    );
    // a body-less def after line 1 breaks the parse: the syntax guard of the real tool refuses it
    refused(
      await ws.call(name, {
        command: "insert",
        path: "gyp/MSVSUserFile.py",
        insert_line: 1,
        insert_text: "def broken(:",
      }),
      "syntax_error",
    );
    assert.equal(await text(ws), before);
  });

  Deno.test(`${name} insert into an empty file and after a last line without a newline`, async () => {
    const ws = await open([], { "/w/empty.txt": "", "/w/noeol.txt": "a\nb" });
    ok(await ws.call(name, { command: "insert", path: "empty.txt", insert_line: 0, insert_text: "first" }));
    assert.equal(await text(ws, "empty.txt"), "first\n");
    ok(await ws.call(name, { command: "insert", path: "noeol.txt", insert_line: 2, insert_text: "c\n" }));
    assert.equal(await text(ws, "noeol.txt"), "a\nb\nc", "the file still ends without a newline");
    ok(await ws.call(name, { command: "insert", path: "noeol.txt", insert_line: 1, insert_text: "a2" }));
    assert.equal(await text(ws, "noeol.txt"), "a\na2\nb\nc");
  });

  Deno.test(`${name} undo_edit is refused with what to do instead; unknown command and stray args are invalid_args`, async () => {
    const ws = await open();
    const undo = refused(
      await ws.call(name, { command: "undo_edit", path: "gyp/MSVSUserFile.py" }),
      "invalid_args",
    );
    assert.match(undo.error.message, /records no checkpoints/);
    assert.match(undo.error.hint, /str_replace/);
    refused(await ws.call(name, { command: "delete", path: "gyp/MSVSUserFile.py" }), "invalid_args");
    const stray = refused(
      await ws.call(name, { command: "view", path: "gyp/MSVSUserFile.py", file_text: "x" }),
      "invalid_args",
    );
    assert.match(stray.error.hint, /view takes path, view_range/);
    assert.equal(await text(ws), SOURCE);
  });
}

Deno.test("the text editor alias runs the real tool through the pipeline: steps and after hooks see read_file / edit_file", async () => {
  const seen: string[] = [];
  const step: PipelineStep = {
    name: "spy",
    stage: "guard",
    run(call) {
      seen.push(`guard:${call.tool.name}:${call.args["path"]}`);
    },
    after(call, result) {
      seen.push(`after:${call.tool.name}:${result.ok ? result.status : result.error.code}`);
    },
  };
  const ws = await open([step]);
  ok(
    await ws.call("str_replace_based_edit_tool", {
      command: "view",
      path: "gyp/MSVSUserFile.py",
      view_range: [1, 3],
    }),
  );
  const dry = ok(
    await ws.call("str_replace_based_edit_tool", {
      command: "str_replace",
      path: "gyp/MSVSUserFile.py",
      old_str: "import os\n",
      new_str: "import os.path\n",
      dry_run: true,
    }),
  );
  assert.equal(dry.status, "dry_run");
  assert.equal(await text(ws), SOURCE);
  const plan = ok(
    await ws.call("edit_dry_run", {
      plan: [{
        tool: "str_replace_editor",
        args: { command: "insert", path: "README.md", insert_line: 1, new_str: "x" },
      }],
    }),
  );
  assert.match(plan.changes[0]!.diff, /^\+x$/m);
  assert.deepEqual(seen, [
    "guard:read_file:gyp/MSVSUserFile.py",
    "after:read_file:read",
    "guard:edit_file:gyp/MSVSUserFile.py",
    "after:edit_file:dry_run",
    "guard:edit_dry_run:undefined",
    "guard:edit_file:README.md", // the plan's op, forwarded too
    "after:edit_dry_run:dry_run",
  ]);
});

Deno.test("the definition gate judges the alias as the edit_file it runs: a def removed through str_replace is refused", async () => {
  const { definitionGate } = await import("../../../src/tools/definition_gate_step.ts");
  const ws = await open([definitionGate({ mode: "refuse" })]);
  const removed = refused(
    await ws.call("str_replace_based_edit_tool", {
      command: "str_replace",
      path: "gyp/MSVSUserFile.py",
      old_str: LINES.slice(70, 77).join("\n") + "\n",
      new_str: "",
    }),
    "definition_gate",
  );
  assert.equal(removed.tool, "str_replace_based_edit_tool");
  assert.match(
    removed.error.message,
    /with str_replace_based_edit_tool:/,
    "the refusal names the tool the model called",
  );
  assert.equal(removed.error.suggested_call?.tool, "remove_symbol");
  assert.equal(await text(ws), SOURCE);
  // a plain line inserted through the alias is not a definition: it lands
  ok(
    await ws.call("str_replace_editor", {
      command: "insert",
      path: "gyp/MSVSUserFile.py",
      insert_line: 9,
      new_str: "import sys",
    }),
  );
});
