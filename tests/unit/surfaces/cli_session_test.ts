/**
 * `--session` through the real CLI, one process per call, as an agent harness drives it: the ledger
 * persists in `.graver/sessions/ID.json` between processes.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../../../src/adapters/deno/cli.ts", import.meta.url));
const PKG = fileURLToPath(new URL("../../../node_modules/.deno/", import.meta.url));

/** A real file of a pinned package, by its path inside the package. */
function packageFile(pkg: string, path: string): string {
  const name = pkg.slice(0, pkg.lastIndexOf("@"));
  return `${PKG}${pkg}/node_modules/${name}/${path}`;
}

// deno-lint-ignore no-explicit-any
async function graver(args: string[], cwd: string): Promise<{ code: number; out: Record<string, any> }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, ...args],
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  try {
    return { code: out.code, out: JSON.parse(text) };
  } catch {
    throw new Error(`not one JSON object: ${text}\n${new TextDecoder().decode(out.stderr)}`);
  }
}

Deno.test("graver --session: partial read, blocked edit with the unread lines, identical retry lands", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const source = await Deno.readTextFile(packageFile("diff@9.0.0", "libesm/diff/base.js"));
    await Deno.writeTextFile(`${dir}/base.js`, source);
    const lines = source.split("\n");
    const s = ["--session", "agent-7"];
    // 1. The agent reads the top of the file only.
    const read = await graver(
      ["call", "read_file", JSON.stringify({ path: "base.js", end_line: 40 }), ...s],
      dir,
    );
    assert.equal(read.code, 0);
    const saved = JSON.parse(await Deno.readTextFile(`${dir}/.graver/sessions/agent-7.json`));
    assert.deepEqual(saved.files["base.js"].seen, [[1, 40]]);
    // 2. It edits a line it never saw (the definition of castInput, below line 40).
    const at = lines.findIndex((l) => l.includes("castInput(value, options)")) + 1;
    assert.ok(at > 40);
    const edit = JSON.stringify({
      path: "base.js",
      old_text: lines[at - 1],
      new_text: lines[at - 1] + " // cast as is",
    });
    const blocked = await graver(["call", "edit_file", edit, ...s], dir);
    assert.equal(blocked.code, 1);
    const err = blocked.out.error;
    assert.equal(err.code, "unread_range");
    assert.equal(err.message, `Cannot edit "base.js": line ${at} was not read`);
    assert.deepEqual(err.details.lines, [{ start_line: at, end_line: at }]);
    assert.equal(err.details.unread[0].content, `${at}\t${lines[at - 1]}`);
    assert.deepEqual(err.suggested_call, { tool: "edit_file", args: JSON.parse(edit) });
    assert.equal(await Deno.readTextFile(`${dir}/base.js`), source, "nothing written");
    // 3. The identical retry succeeds: the refusal showed the line, which now counts as read.
    const retry = await graver(["call", "edit_file", edit, ...s], dir);
    assert.equal(retry.code, 0, JSON.stringify(retry.out));
    assert.equal(retry.out.status, "applied");
    assert.equal(
      (await Deno.readTextFile(`${dir}/base.js`)).split("\n")[at - 1],
      lines[at - 1] + " // cast as is",
    );
    // 4. Without a session no edit is guarded (a one-shot call has no memory to judge by), as before.
    const other = JSON.stringify({
      path: "base.js",
      old_text: lines[at - 1] + " // cast as is",
      new_text: lines[at - 1] + " // unguarded",
    });
    assert.equal((await graver(["call", "edit_file", other], dir)).code, 0);
    // The ledger file is not a tool's business.
    const peek = await graver(["call", "read_file", '{"path":".graver/sessions/agent-7.json"}', ...s], dir);
    assert.equal(peek.out.error.code, "sandbox_violation");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver --session reads a 6,927-line file capped, naming the unseen lines and their definitions", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const source = await Deno.readTextFile(packageFile("isomorphic-git@1.44.11", "managers/index.js"));
    await Deno.writeTextFile(`${dir}/managers.js`, source);
    const total = source.split("\n").length - (source.endsWith("\n") ? 1 : 0);
    assert.ok(total >= 3000, `${total} lines`);
    const read = await graver(["call", "read_file", '{"path":"managers.js"}', "--session", "big"], dir);
    assert.equal(read.code, 0);
    const d = read.out.data;
    assert.equal(d.truncated, true);
    const from = d.end_line + 1;
    assert.deepEqual([d.not_shown.start_line, d.not_shown.end_line], [from, total]);
    assert.equal(d.not_shown.method, "outline");
    // The same symbols, from the outline tool: the outermost definitions whose own line is unseen (inside
    // the definition the cut falls in, its members that start after the cut).
    const outline = await graver([
      "call",
      "outline",
      '{"path":"managers.js","detail":"full","max_symbols":100000}',
    ], dir);
    // deno-lint-ignore no-explicit-any
    const expected: any[] = [];
    // deno-lint-ignore no-explicit-any
    const walk = (symbols: any[]) => {
      for (const s of symbols) {
        if (s.range.start_line >= from) expected.push(s);
        else if (s.full_range.end_line >= from) walk(s.children);
      }
    };
    walk(outline.out.data.symbols);
    const listed = d.not_shown.symbols.length + d.not_shown.more;
    assert.equal(listed, expected.length);
    for (const [i, s] of d.not_shown.symbols.entries()) {
      assert.equal(s.name_path, expected[i].name_path);
      assert.equal(s.line, expected[i].range.start_line);
      const name = s.name_path.split("/").at(-1);
      assert.ok(source.split("\n")[s.line - 1]!.includes(name), `${s.name_path} at L${s.line}`);
    }
    const first = d.not_shown.symbols[0];
    assert.ok(d.notice.startsWith(`[Lines ${from}–${total} not shown (continues `), d.notice);
    // A member is listed under its container, named once: `Class: method() L12, other() L20`.
    const cut = first.name_path.lastIndexOf("/");
    const listedAs = cut < 0
      ? `${first.kind} ${first.name_path}`
      : `${first.name_path.slice(0, cut)}: ${first.name_path.slice(cut + 1)}`;
    assert.ok(d.notice.includes(` — contains: ${listedAs}`), d.notice);
    assert.match(d.notice, new RegExp(`and ${d.not_shown.more} more\\]$`));
    // The ledger holds exactly what was shown.
    const saved = JSON.parse(await Deno.readTextFile(`${dir}/.graver/sessions/big.json`));
    assert.deepEqual(saved.files["managers.js"].seen, [[1, d.end_line]]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver undo --session: the session's own undo is its write, not a change by someone else", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.txt`, "one\ntwo\nthree\n");
    const s = ["--session", "agent-9", "--checkpoints"];
    assert.equal((await graver(["call", "read_file", '{"path":"a.txt"}', ...s], dir)).code, 0);
    const edit = (from: string, to: string) =>
      JSON.stringify({ path: "a.txt", old_string: from, new_string: to });
    assert.equal((await graver(["call", "edit_file", edit("two", "2"), ...s], dir)).code, 0);
    const undo = await graver(["undo", "--session", "agent-9", "--json"], dir);
    assert.equal(undo.code, 0, JSON.stringify(undo.out));
    assert.equal(await Deno.readTextFile(`${dir}/a.txt`), "one\ntwo\nthree\n");
    const again = await graver(["call", "edit_file", edit("three", "3"), ...s], dir);
    assert.equal(again.code, 0, JSON.stringify(again.out));
    const warnings = (again.out.warnings as string[]).join("\n");
    assert.doesNotMatch(warnings, /by someone else/, "the undo was the session's own");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver call --session records checkpoints by default; --no-checkpoints turns it off", async () => {
  for (const off of [false, true]) {
    const dir = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(`${dir}/a.txt`, "one\n");
      const flags = ["--session", "agent-5", ...(off ? ["--no-checkpoints"] : [])];
      assert.equal((await graver(["call", "read_file", '{"path":"a.txt"}', ...flags], dir)).code, 0);
      const edit = JSON.stringify({ path: "a.txt", old_string: "one", new_string: "1" });
      assert.equal((await graver(["call", "edit_file", edit, ...flags], dir)).code, 0);
      const listed = await graver(["call", "checkpoint_list", "{}"], dir);
      if (off) assert.equal(listed.out.error?.code, "invalid_args", "no checkpoint recorded");
      else assert.equal((listed.out.data.checkpoints as unknown[]).length, 1, JSON.stringify(listed.out));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("graver call --max-checkpoints N keeps at most N checkpoints, the newest; a bad N is refused", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.txt`, "0\n");
    const flags = ["--session", "agent-9", "--max-checkpoints", "2"];
    assert.equal((await graver(["call", "read_file", '{"path":"a.txt"}', ...flags], dir)).code, 0);
    for (let i = 0; i < 4; i++) {
      const edit = JSON.stringify({ path: "a.txt", old_string: `${i}`, new_string: `${i + 1}` });
      assert.equal((await graver(["call", "edit_file", edit, ...flags], dir)).code, 0);
    }
    const listed = (await graver(["call", "checkpoint_list", "{}"], dir)).out.data.checkpoints as {
      message: string;
    }[];
    assert.ok(listed.length >= 1 && listed.length <= 2, JSON.stringify(listed));
    const undone = await graver(["call", "checkpoint_undo", "{}", ...flags], dir);
    assert.equal(undone.code, 0, JSON.stringify(undone.out));
    assert.equal(await Deno.readTextFile(`${dir}/a.txt`), "3\n", "the newest edit was kept and undone");
    const bad = await graver(["call", "read_file", '{"path":"a.txt"}', "--max-checkpoints", "0"], dir);
    assert.equal(bad.out.error?.code, "invalid_args");
    assert.match(bad.out.error?.hint, /--max-checkpoints N/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
