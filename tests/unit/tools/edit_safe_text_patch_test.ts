import assert from "node:assert/strict";
import { versionOf } from "../../../src/mod.ts";
import { fixture, fixtureWorkspace, ok, refused, stored, workspaceWith } from "../structural/_fixtures.ts";

const enc = (s: string) => new TextEncoder().encode(s);

Deno.test("edit_safe_text_patch applies exact hunks guarded by the hash", async () => {
  const ws = await fixtureWorkspace(["native_modules.rb"]);
  const original = fixture("native_modules.rb");
  const hash = await versionOf(enc(original));
  const r = await ws.call("edit_safe_text_patch", {
    path: "native_modules.rb",
    expected_hash: hash,
    hunks: [
      { old_text: "require 'pathname'\n", new_text: "require 'pathname'\nrequire 'json'\n" },
      { old_text: "    config = nil;\n", new_text: "    config = nil\n" },
    ],
  });
  const d = ok(r);
  assert.ok(r.ok && r.changes[0]!.before_version === hash);
  assert.deepEqual(
    (d["hunks"] as { hunk: number; start_line: number }[]).map((h) => [h.hunk, h.start_line]),
    [[1, 12], [2, 21]],
  );
  assert.equal(
    await stored(ws, "native_modules.rb"),
    original.replace("require 'pathname'\n", "require 'pathname'\nrequire 'json'\n").replace(
      "    config = nil;\n",
      "    config = nil\n",
    ),
  );
});

Deno.test("edit_safe_text_patch refuses a stale hash with the current one, and writes nothing", async () => {
  const ws = await fixtureWorkspace(["native_modules.rb"]);
  const e = refused(
    await ws.call("edit_safe_text_patch", {
      path: "native_modules.rb",
      expected_hash: "a".repeat(64),
      hunks: [{ old_text: "require 'pathname'", new_text: "require 'x'" }],
    }),
  );
  assert.equal(e.code, "stale_base");
  assert.equal(e.details!["current_hash"], await versionOf(enc(fixture("native_modules.rb"))));
  assert.equal(e.suggested_call?.tool, "read_file");
});

Deno.test("edit_safe_text_patch checks the version by the stage's one rule, in its own words", async () => {
  const ws = await fixtureWorkspace(["native_modules.rb"]);
  const current = await versionOf(enc(fixture("native_modules.rb")));
  const call = (expected_hash: string) =>
    ws.call("edit_safe_text_patch", {
      path: "native_modules.rb",
      expected_hash,
      hunks: [{ old_text: "require 'pathname'", new_text: "require 'x'" }],
      dry_run: true,
    });
  // A 12-character prefix is a version, an 11-character one is no version: as for every other tool.
  ok(await call(current.slice(0, 12).toUpperCase()));
  assert.equal(refused(await call(current.slice(0, 11))).code, "invalid_args");
  const other = current.startsWith("a") ? "b".repeat(64) : "a".repeat(64);
  const e = refused(await call(other));
  assert.equal(e.code, "stale_base");
  assert.equal(
    e.message,
    `Cannot patch "native_modules.rb": expected hash "${other.slice(0, 12)}", found "${
      current.slice(0, 12)
    }"`,
  );
  assert.equal(
    e.hint,
    'The file changed since you read it; call read_file with {"path": "native_modules.rb"} and redo the hunks against the current text',
  );
  assert.deepEqual(e.details, {
    path: "native_modules.rb",
    expected_hash: other,
    current_hash: current,
    current_version: current,
  });
});

Deno.test("edit_safe_text_patch applies all hunks or none: ambiguous and missing old_text refuse the whole patch", async () => {
  const ws = await fixtureWorkspace(["MSVSUserFile.py"]);
  const original = fixture("MSVSUserFile.py");
  const amb = refused(
    await ws.call("edit_safe_text_patch", {
      path: "MSVSUserFile.py",
      hunks: [
        { old_text: "import os\n", new_text: "import os\nimport sys\n" },
        { old_text: "return command", new_text: "return None" },
      ],
    }),
  );
  assert.equal(amb.code, "ambiguous");
  assert.deepEqual(amb.details!["lines"], [26, 35]);
  assert.equal(amb.details!["hunk"], 2);
  const miss = refused(
    await ws.call("edit_safe_text_patch", {
      path: "MSVSUserFile.py",
      hunks: [
        { old_text: "import os\n", new_text: "import os\nimport sys\n" },
        { old_text: "def AddConfig(self,  name):", new_text: "def AddConfig(self, name, extra):" },
      ],
    }),
  );
  assert.equal(miss.code, "no_match");
  assert.deepEqual(miss.details!["near_lines"], [71]);
  assert.equal(await stored(ws, "MSVSUserFile.py"), original);
});

Deno.test("edit_safe_text_patch works on files with no grammar, matches LF hunks in a CRLF file, and spots already-applied hunks", async () => {
  const ws = await workspaceWith({ "notes.txt": "one\r\ntwo\r\nthree\r\n" });
  ok(
    await ws.call("edit_safe_text_patch", {
      path: "notes.txt",
      hunks: [{ old_text: "one\ntwo\n", new_text: "one\n2\n" }],
    }),
  );
  assert.equal(await stored(ws, "notes.txt"), "one\r\n2\r\nthree\r\n");
  const again = refused(
    await ws.call("edit_safe_text_patch", {
      path: "notes.txt",
      hunks: [{ old_text: "three", new_text: "3" }, { old_text: "two", new_text: "2" }],
    }),
  );
  assert.equal(again.code, "no_match");
  const done = refused(
    await ws.call("edit_safe_text_patch", { path: "notes.txt", hunks: [{ old_text: "two", new_text: "2" }] }),
  );
  assert.equal(done.code, "already_applied");
});

Deno.test("edit_safe_text_patch refuses overlapping hunks", async () => {
  const ws = await workspaceWith({ "a.txt": "alpha beta gamma\n" });
  const e = refused(
    await ws.call("edit_safe_text_patch", {
      path: "a.txt",
      hunks: [{ old_text: "alpha beta", new_text: "A" }, { old_text: "beta gamma", new_text: "B" }],
    }),
  );
  assert.equal(e.code, "ambiguous");
  assert.equal(await stored(ws, "a.txt"), "alpha beta gamma\n");
});

Deno.test("edit_safe_text_patch never splits a CRLF pair, and new lines in a CRLF file get CRLF", async () => {
  // Regression: old_text "\n/** …" matched at the "\n" of "\r\n" and left a lone "\r" in the file.
  const text = "'use strict';\r\n\r\n/** @type */\r\nmodule.exports = 1;\r\n";
  const cases: [string, string, string][] = [
    [
      "\n/** @type */",
      "\n/** @type */\n// probe",
      "'use strict';\r\n\r\n/** @type */\r\n// probe\r\nmodule.exports = 1;\r\n",
    ],
    [
      "module.exports = 1;",
      "module.exports = 1;\nmodule.exports.b = 2;",
      "'use strict';\r\n\r\n/** @type */\r\nmodule.exports = 1;\r\nmodule.exports.b = 2;\r\n",
    ],
  ];
  for (const [oldText, newText, want] of cases) {
    const ws = await workspaceWith({ "f.js": text });
    ok(
      await ws.call("edit_safe_text_patch", {
        path: "f.js",
        hunks: [{ old_text: oldText, new_text: newText }],
      }),
    );
    const after = await stored(ws, "f.js");
    assert.equal(after, want, JSON.stringify(oldText));
    assert.doesNotMatch(after, /\r(?!\n)|(?<!\r)\n/);
  }
});
