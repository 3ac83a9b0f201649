import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace, RecoverableError } from "../../../src/mod.ts";
import {
  fixture,
  fixtureWorkspace,
  GRAMMARS,
  ok,
  refused,
  stored,
  workspaceWith,
} from "../structural/_fixtures.ts";

async function git(cwd: string, ...args: string[]): Promise<{ code: number; out: string }> {
  const r = await new Deno.Command("git", { args, cwd, stdout: "piped", stderr: "piped" }).output();
  const dec = new TextDecoder();
  return { code: r.code, out: dec.decode(r.stdout) + dec.decode(r.stderr) };
}

Deno.test("edit_dry_run chains ops on one overlay, writes nothing, and its diff passes git apply --check", async () => {
  const ws = await fixtureWorkspace(["MSVSUserFile.py", "lib.rs"]);
  const r = await ws.call("edit_dry_run", {
    plan: [
      {
        tool: "edit_insert_at_anchor",
        args: {
          path: "MSVSUserFile.py",
          selector: "Writer/AddConfig",
          position: "after",
          text: "def RemoveConfig(self, name):\n    pass",
        },
      },
      // Op 2 edits what op 1 inserted: it only exists on the overlay.
      {
        tool: "edit_apply_node",
        args: {
          path: "MSVSUserFile.py",
          selector: { pattern: "pass" },
          new_text: "del self.configurations[name]",
        },
      },
      {
        tool: "edit_safe_text_patch",
        args: {
          path: "lib.rs",
          hunks: [{
            old_text: "pub fn language() -> Language {",
            new_text: "pub fn language() -> Language { // grammar",
          }],
        },
      },
      // A file created by one op is edited by the next.
      { tool: "create_file", args: { path: "pkg/util.py", content: "def util():\n    return 1\n" } },
      {
        tool: "edit_insert_at_anchor",
        args: { path: "pkg/util.py", selector: "util", position: "after", text: "def other():\n  return 2" },
      },
    ],
  });
  assert.ok(r.ok, JSON.stringify(r));
  assert.equal(r.status, "dry_run");
  assert.equal(r.data["status"], "ok");
  const ops = r.data["ops"] as {
    index: number;
    tool: string;
    ok: boolean;
    changes: { after_version: string }[];
  }[];
  assert.deepEqual(ops.map((o) => [o.index, o.tool, o.ok]), [
    [0, "edit_insert_at_anchor", true],
    [1, "edit_apply_node", true],
    [2, "edit_safe_text_patch", true],
    [3, "create_file", true],
    [4, "edit_insert_at_anchor", true],
  ]);
  assert.deepEqual(r.changes.map((c) => c.path), ["MSVSUserFile.py", "lib.rs", "pkg/util.py"]);
  assert.equal(await ws.fs.read("/pkg/util.py"), null);
  assert.equal(await stored(ws, "MSVSUserFile.py"), fixture("MSVSUserFile.py"));
  assert.equal(await stored(ws, "lib.rs"), fixture("lib.rs"));

  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/MSVSUserFile.py`, fixture("MSVSUserFile.py"));
    await Deno.writeTextFile(`${dir}/lib.rs`, fixture("lib.rs"));
    assert.equal((await git(dir, "init", "-q")).code, 0);
    await Deno.writeTextFile(`${dir}/plan.diff`, r.changes.map((c) => c.diff).join(""));
    const check = await git(dir, "apply", "--check", "plan.diff");
    assert.equal(check.code, 0, check.out);
    assert.equal((await git(dir, "apply", "plan.diff")).code, 0);
    const applied = await Deno.readTextFile(`${dir}/MSVSUserFile.py`);
    assert.ok(
      applied.includes(
        "    def RemoveConfig(self, name):\n        del self.configurations[name]\n\n    def AddDebugSettings(",
      ),
    );
    assert.ok(
      (await Deno.readTextFile(`${dir}/lib.rs`)).includes("pub fn language() -> Language { // grammar"),
    );
    assert.equal(
      await Deno.readTextFile(`${dir}/pkg/util.py`),
      "def util():\n    return 1\n\n\ndef other():\n    return 2\n",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("edit_dry_run with a failing op is not ok: every op's outcome and the applied ops' diffs in details", async () => {
  const ws = await fixtureWorkspace(["lib.rs"]);
  const r = await ws.call("edit_dry_run", {
    plan: [
      { tool: "edit_apply_node", args: { path: "lib.rs", selector: "no_such_fn", new_text: "fn x() {}" } },
      {
        tool: "edit_apply_node",
        args: { path: "lib.rs", selector: "GRAMMAR", new_text: 'pub const GRAMMAR: &str = "";' },
      },
      {
        tool: "edit_apply_node",
        args: { path: "lib.rs", selector: "language", new_text: "pub fn language( {" },
      },
      { tool: "edit_dry_run", args: { plan: [] } },
      { tool: "no_such_tool", args: {} },
      { tool: "edit_apply_node", args: { path: "lib.rs" } },
    ],
  });
  const e = refused(r);
  assert.equal(e.code, "no_match", "the first failed op's code");
  assert.match(e.message, /^Cannot preview the plan: 5 of 6 ops failed; ops\[0\] \(edit_apply_node\): /);
  assert.match(e.hint, /the 1 op that applied is in details\.changes/);
  const d = e.details as Record<string, unknown>;
  assert.equal(d["status"], "partial");
  // 0-based like every other index (issue 27, item 14): the same numbers as ops[].index.
  assert.deepEqual(d["failed_ops"], [0, 2, 3, 4, 5]);
  const ops = d["ops"] as { ok: boolean; error?: { code: string } }[];
  assert.deepEqual(ops.map((o) => o.ok ? "ok" : o.error!.code), [
    "no_match",
    "ok",
    "syntax_error",
    "invalid_args",
    "not_found",
    "invalid_args",
  ]);
  const indexes = (d["ops"] as { index: number; ok: boolean }[]).filter((o) => !o.ok).map((o) => o.index);
  assert.deepEqual(d["failed_ops"], indexes, "failed_ops names ops by their own index");
  const changes = d["changes"] as { diff: string }[];
  assert.equal(changes.length, 1);
  assert.match(changes[0]!.diff, /^\+pub const GRAMMAR: &str = "";$/m);
  const none = await ws.call("edit_dry_run", {
    plan: [{ tool: "edit_apply_node", args: { path: "lib.rs", selector: "nope", new_text: "x" } }],
  });
  assert.equal(refused(none).code, "no_match");
  assert.equal((refused(none).details as Record<string, unknown>)["status"], "no_ops_applied");
  assert.equal(await stored(ws, "lib.rs"), fixture("lib.rs"));
});

Deno.test("edit_dry_run ops go through dispatch's own validation: the same invalid_args message as a call", async () => {
  const ws = await fixtureWorkspace(["lib.rs"]);
  const args = { path: "lib.rs", selector: "language", new_text: 7 };
  const direct = refused(await ws.call("edit_apply_node", args));
  const plan = refused(await ws.call("edit_dry_run", { plan: [{ tool: "edit_apply_node", args }] }));
  const op = ((plan.details as Record<string, unknown>)["ops"] as { error: { message: string } }[])[0]!;
  assert.equal(op.error.message, direct.message);
  assert.match(direct.message, /"new_text" must be string, not number/);
});

Deno.test("edit_dry_run ops go through the host's route and guard steps", async () => {
  const seen: string[] = [];
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/lib.rs": fixture("lib.rs") }),
    grammars: GRAMMARS,
    steps: [
      {
        name: "log",
        stage: "route",
        run(call) {
          seen.push(call.tool.name);
        },
      },
      {
        name: "no-deletes",
        stage: "guard",
        run(call) {
          if (call.tool.name === "delete_file") {
            throw new RecoverableError("invalid_args", "Cannot delete files in this test", {
              hint: "Do not",
            });
          }
        },
      },
    ],
  });
  const r = await ws.call("edit_dry_run", {
    plan: [
      { tool: "delete_file", args: { path: "lib.rs" } },
      {
        tool: "edit_apply_node",
        args: { path: "lib.rs", selector: "GRAMMAR", new_text: 'pub const GRAMMAR: &str = "";' },
      },
    ],
  });
  assert.deepEqual(seen, ["edit_dry_run", "delete_file", "edit_apply_node"]);
  const ops = (refused(r).details as Record<string, unknown>)["ops"] as {
    ok: boolean;
    error?: { message: string };
  }[];
  assert.equal(ops[0]!.error!.message, "Cannot delete files in this test");
  assert.ok(ops[1]!.ok);
  const direct = await ws.call("delete_file", { path: "lib.rs" });
  assert.equal(refused(direct).message, "Cannot delete files in this test");
  assert.equal(await stored(ws, "lib.rs"), fixture("lib.rs"));
});

Deno.test("edit_dry_run checks each op's syntax against the ops before it", async () => {
  const ws = await fixtureWorkspace(["lib.rs"]);
  // Op 1 breaks the file (syntax_guard off); op 2 is clean relative to op 1 and must not be blamed for op 1's error.
  const r = await ws.call("edit_dry_run", {
    plan: [
      {
        tool: "edit_apply_node",
        args: { path: "lib.rs", selector: "language", new_text: "pub fn language( {", syntax_guard: "off" },
      },
      {
        tool: "edit_apply_node",
        args: { path: "lib.rs", selector: "GRAMMAR", new_text: 'pub const GRAMMAR: &str = "";' },
      },
    ],
  });
  const d = ok(r);
  assert.equal(d["status"], "ok");
  assert.equal(r.ok && r.changes.length, 1);
});

Deno.test("edit_dry_run refuses an empty plan", async () => {
  const ws = await fixtureWorkspace(["lib.rs"]);
  assert.equal(refused(await ws.call("edit_dry_run", { plan: [] })).code, "invalid_args");
});

Deno.test("edit_dry_run previews a moved and edited file as one rename diff that git applies", async () => {
  const ws = await fixtureWorkspace(["lib.rs"]);
  const r = await ws.call("edit_dry_run", {
    plan: [
      // A crate root moves only as bytes: graver rewrites no `mod` declarations or Cargo targets.
      { tool: "move_file", args: { from: "lib.rs", to: "src/grammar.rs", update_imports: false } },
      {
        tool: "edit_safe_text_patch",
        args: {
          path: "src/grammar.rs",
          hunks: [{
            old_text: "pub fn language() -> Language {",
            new_text: "pub fn grammar() -> Language {",
          }],
        },
      },
    ],
  });
  assert.ok(r.ok, JSON.stringify(r));
  assert.equal(r.data["status"], "ok");
  assert.deepEqual(r.changes.map((c) => c.path), ["src/grammar.rs"]);
  const diff = r.changes[0]!.diff;
  assert.match(diff, /^rename from lib\.rs$/m);
  assert.match(diff, /^rename to src\/grammar\.rs$/m);
  assert.match(diff, /^\+pub fn grammar\(\) -> Language \{$/m);
  assert.equal(await stored(ws, "lib.rs"), fixture("lib.rs"));
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/lib.rs`, fixture("lib.rs"));
    assert.equal((await git(dir, "init", "-q")).code, 0);
    await Deno.writeTextFile(`${dir}/plan.diff`, diff);
    const applied = await git(dir, "apply", "plan.diff");
    assert.equal(applied.code, 0, applied.out);
    const moved = await Deno.readTextFile(`${dir}/src/grammar.rs`);
    assert.equal(
      moved,
      fixture("lib.rs").replace("pub fn language() -> Language {", "pub fn grammar() -> Language {"),
    );
    await assert.rejects(Deno.stat(`${dir}/lib.rs`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("edit_dry_run's warnings say what the real calls will do: a rename's derived edits land, an unread edit is refused", async () => {
  // Issue 27, item 11: the plan warned that use.py's lines "were not read ... the edit itself will be refused",
  // and the same rename then landed (a rename is judged on the file it names).
  const files = {
    "utils.py": fixture("click_utils.py"),
    "use.py": "from utils import make_str\n\nprint(make_str(b'x'))\n",
    "other.py": "print('x')\n",
    "third.py": "print('x')\n",
  };
  const ws = await workspaceWith(files);
  const S = { session: "agent" };
  ok(await ws.call("read_file", { path: "utils.py" }, S));
  const rename = { path: "utils.py", name_path: "make_str", new_name: "to_str" };
  const plan = await ws.call("edit_dry_run", { plan: [{ tool: "edit_rename_symbol", args: rename }] }, S);
  assert.ok(plan.ok, JSON.stringify(plan));
  // No warning that the rename will be refused; one that names the lines it changes unseen.
  const unseen = 'This call changed lines this session has not read: "use.py" lines 1, 3. ' +
    "Read them before you edit near them (read_file with start_line/end_line)";
  assert.deepEqual(plan.warnings, [`ops[0] (edit_rename_symbol): ${unseen}`]);
  const real = await ws.call("edit_rename_symbol", rename, S);
  assert.ok(real.ok && real.status === "applied", JSON.stringify(real));
  assert.deepEqual(real.warnings, [unseen], "the real call says the same");
  assert.match(await stored(ws, "use.py"), /print\(to_str\(b'x'\)\)/);
  // An op the real call refuses is warned about as such, at the plan's top level.
  const edit = { path: "other.py", old_string: "print('x')", new_string: "print('y')" };
  const plan2 = await ws.call("edit_dry_run", { plan: [{ tool: "edit_file", args: edit }] }, S);
  assert.ok(plan2.ok, JSON.stringify(plan2));
  assert.deepEqual(plan2.warnings, [
    'ops[0] (edit_file): Line 1 of "other.py" was not read by this session (a preview: the real call will be refused until it is read)',
  ]);
  const refusedCall = await ws.call("edit_file", edit, S);
  assert.equal(refused(refusedCall).code, "unread_range");
  // In warn mode the real call writes with the warning: the preview does not claim a refusal.
  const W = { ...S, readGuard: "warn" as const };
  const edit3 = { ...edit, path: "third.py" };
  const plan3 = await ws.call("edit_dry_run", { plan: [{ tool: "edit_file", args: edit3 }] }, W);
  assert.ok(plan3.ok, JSON.stringify(plan3));
  assert.deepEqual(plan3.warnings, ['ops[0] (edit_file): Line 1 of "third.py" was not read by this session']);
  const warned = await ws.call("edit_file", edit3, W);
  assert.ok(warned.ok && warned.status === "applied", JSON.stringify(warned));
});

Deno.test("edit_dry_run judges an op after earlier ops of the plan as the real calls in a row are judged", async () => {
  // A rename rewrites use.py's lines 1 and 3 (derived edits the session wrote); editing line 3 or the read line 4
  // afterwards lands for real, so the preview warns of neither. Line 2 was never read or written: that is warned.
  const files = {
    "utils.py": fixture("click_utils.py"),
    "use.py": "from utils import make_str\nLABEL = 'x'\nprint(make_str(b'x'))\nprint(2)\n",
  };
  const S = { session: "agent" };
  const rename = { path: "utils.py", name_path: "make_str", new_name: "to_str" };
  const edits = [
    { path: "use.py", old_string: "print(2)", new_string: "print(3)" },
    { path: "use.py", old_string: "print(to_str(b'x'))", new_string: "print(to_str(b'y'))" },
    { path: "use.py", old_string: "LABEL = 'x'", new_string: "LABEL = 'y'" },
  ];
  const ws = await workspaceWith(files);
  ok(await ws.call("read_file", { path: "utils.py" }, S));
  ok(await ws.call("read_file", { path: "use.py", start_line: 4, end_line: 4 }, S));
  const plan = await ws.call("edit_dry_run", {
    plan: [
      { tool: "edit_rename_symbol", args: rename },
      ...edits.map((args) => ({ tool: "edit_file", args })),
    ],
  }, S);
  assert.ok(plan.ok, JSON.stringify(plan));
  assert.deepEqual(plan.warnings, [
    'ops[0] (edit_rename_symbol): This call changed lines this session has not read: "use.py" lines 1, 3. Read them before you edit near them (read_file with start_line/end_line)',
    'ops[3] (edit_file): Line 2 of "use.py" was not read by this session (a preview: the real call will be refused until it is read)',
  ]);
  ok(await ws.call("edit_rename_symbol", rename, S));
  ok(await ws.call("edit_file", edits[0], S));
  ok(await ws.call("edit_file", edits[1], S));
  assert.equal(refused(await ws.call("edit_file", edits[2], S)).code, "unread_range");
});
