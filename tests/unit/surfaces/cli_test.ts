import assert from "node:assert/strict";

const CLI = new URL("../../../src/adapters/deno/cli.ts", import.meta.url).pathname;

async function graver(args: string[], cwd: string, stdin?: string) {
  const cmd = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, ...args],
    cwd,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const child = cmd.spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await child.output();
  const stdout = new TextDecoder().decode(out.stdout);
  if (stdout === "") console.error(new TextDecoder().decode(out.stderr));
  return { code: out.code, stdout };
}

Deno.test("graver call prints one JSON object and exits 0 / 1 / 2", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.py`, "x = 1\n");
    const read = await graver(["call", "read_file", '{"path":"a.py"}'], dir);
    assert.equal(read.code, 0);
    const obj = JSON.parse(read.stdout);
    assert.equal(obj.ok, true);
    assert.equal(obj.data.content, "1\tx = 1");

    const write = await graver(
      ["call", "write_file", "-", "--root", dir],
      "/",
      JSON.stringify({
        path: "a.py",
        content: "x = 2\n",
        expected_version: obj.data.version,
      }),
    );
    assert.equal(write.code, 0, write.stdout);
    assert.equal(await Deno.readTextFile(`${dir}/a.py`), "x = 2\n");

    const stale = await graver([
      "call",
      "write_file",
      JSON.stringify({
        path: "a.py",
        content: "x = 3\n",
        expected_version: obj.data.version,
      }),
    ], dir);
    assert.equal(stale.code, 1);
    assert.equal(JSON.parse(stale.stdout).error.code, "stale_base");
    assert.equal(await Deno.readTextFile(`${dir}/a.py`), "x = 2\n");

    const escape = await graver(["call", "read_file", '{"path":"../../etc/passwd"}'], dir);
    assert.equal(escape.code, 1);
    assert.equal(JSON.parse(escape.stdout).error.code, "sandbox_violation");

    const usage = await graver(["call", "read_file", "{not json"], dir);
    assert.equal(usage.code, 2);
    assert.equal(JSON.parse(usage.stdout).ok, false);
    assert.equal((await graver(["frobnicate"], dir)).code, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver tools --json prints the catalogue", async () => {
  const res = await graver(["tools", "--json"], "/");
  assert.equal(res.code, 0);
  const tools = JSON.parse(res.stdout) as { name: string; inputSchema: { type: string } }[];
  assert.ok(tools.some((t) => t.name === "read_file" && t.inputSchema.type === "object"));
});

Deno.test("two graver processes writing from the same version: exactly one lands", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/n.txt`, "0\n");
    const read = JSON.parse((await graver(["call", "read_file", '{"path":"n.txt"}'], dir)).stdout);
    const version = read.data.version;
    const results = await Promise.all(
      [1, 2, 3, 4].map((i) =>
        graver([
          "call",
          "write_file",
          JSON.stringify({ path: "n.txt", content: `${i}\n`, expected_version: version }),
        ], dir)
      ),
    );
    const landed = results.filter((r) => r.code === 0);
    assert.equal(landed.length, 1, results.map((r) => r.stdout).join("\n"));
    for (const r of results.filter((r) => r.code !== 0)) {
      assert.equal(JSON.parse(r.stdout).error.code, "stale_base");
    }
    const winner = JSON.parse(landed[0]!.stdout).changes[0].diff as string;
    assert.match(winner, new RegExp(`\\+${(await Deno.readTextFile(`${dir}/n.txt`)).trim()}`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// In-process: runCli with a host that records stdout/stderr, on the real disk backend.
import { createDiskBackend, createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { exitCodeOf, parseFlags, runCli, VERSION } from "../../../src/surfaces/cli.ts";
import "../../../src/surfaces/cli_commands.ts";
import type { ToolResult } from "../../../src/tools/types.ts";
import denoJson from "../../../deno.json" with { type: "json" };

async function inProcess(args: string[], cwd = "/", stdin = "") {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    stdout: (t) => stdout += t,
    stderr: (t) => stderr += t,
    readStdin: () => Promise.resolve(stdin),
    readHostFile: (p) => Deno.readTextFile(p),
    cwd,
    backend: createDiskBackend(),
    wasm: createWasmLoader(),
  });
  return { code, stdout, stderr };
}

/** The one JSON object on stdout, or a failure naming what was printed. */
// deno-lint-ignore no-explicit-any
function json(out: { stdout: string }): Record<string, any> {
  try {
    return JSON.parse(out.stdout);
  } catch {
    throw new Error(`stdout is not one JSON object: ${out.stdout}`);
  }
}

Deno.test("graver --root at a file answers one invalid_args JSON object and exit 2, as a real process", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.py`, "x = 1\n");
    const res = await graver(["call", "read_file", '{"path":"a.py"}', "--root", `${dir}/a.py`], dir);
    assert.equal(res.code, 2);
    const err = JSON.parse(res.stdout).error;
    assert.equal(err.code, "invalid_args");
    assert.match(err.message, /is a file, not a directory/);
    assert.equal(await Deno.readTextFile(`${dir}/a.py`), "x = 1\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver refuses a --root that does not exist and creates nothing there", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (
      const [tool, args] of [
        ["read_file", { path: "a.py" }],
        ["list_files", {}],
        ["create_file", { path: "deep/er/a.py", content: "x\n" }],
      ] as const
    ) {
      const res = await inProcess(["call", tool, JSON.stringify(args), "--root", "typo/src"], dir);
      assert.equal(res.code, 2, res.stdout);
      const err = json(res).error;
      assert.equal(err.code, "invalid_args");
      assert.match(err.message, /^Cannot open root "typo\/src": no such directory/);
      assert.deepEqual([...Deno.readDirSync(dir)], [], `${tool} created nothing`);
    }
    const apply = await inProcess(
      ["apply", "-", "--root", "nope"],
      dir,
      "a.py\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n",
    );
    assert.equal(apply.code, 2);
    assert.equal(json(apply).error.code, "invalid_args");
    assert.deepEqual([...Deno.readDirSync(dir)], []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver --root=DIR keeps an '=' inside DIR", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/a=b`);
    await Deno.writeTextFile(`${dir}/a=b/f.txt`, "hello\n");
    const res = await inProcess(["call", "read_file", '{"path":"f.txt"}', `--root=${dir}/a=b`]);
    assert.equal(res.code, 0, res.stdout);
    assert.equal(json(res).data.content, "1\thello");
    assert.equal(parseFlags(["--root=x=y=z"], { root: "string" }).flags["root"], "x=y=z");
    // A boolean option is counted each time it is given, grouped or apart (rg's -uu).
    const counted = parseFlags(["-uu", "--unrestricted", "-iu"], { unrestricted: "boolean", i: "boolean" }, {
      shorts: { u: "unrestricted", i: "i" },
    });
    assert.deepEqual(counted.counts, { unrestricted: 4, i: 1 });
    // An option of the tool a command stands in for that it does not take: what to do instead, not a near name.
    const foreign = { shorts: { i: "i" }, foreign: { "-v": "search for what the other lines hold" } };
    for (const argv of [["-v", "x"], ["-iv"], ["-vi"]]) {
      assert.equal(
        parseFlags(argv, { i: "boolean" }, foreign).error,
        `option "-v" is not taken here: search for what the other lines hold`,
        argv.join(" "),
      );
    }
    assert.match(parseFlags(["-x"], { i: "boolean" }, foreign).error!, /unknown option "-x"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver answers every usage failure with one JSON object on stdout, never a stack trace", async () => {
  const none = await inProcess([]);
  assert.equal(none.code, 2);
  assert.equal(json(none).error.code, "invalid_args");
  assert.match(none.stderr, /usage:/);
  const unknownFlag = await inProcess(["call", "list_files", "{}", "--dry_run"]);
  assert.equal(unknownFlag.code, 2);
  assert.match(json(unknownFlag).error.message, /unknown option "--dry_run" \(did you mean "--dry-run"\?\)/);
  const value = await inProcess(["tools", "--json=yes"]);
  assert.equal(value.code, 2);
  assert.match(json(value).error.message, /option "--json" takes no value/);
  const missing = await inProcess(["call", "list_files", "{}", "--root"]);
  assert.equal(missing.code, 2);
  assert.match(json(missing).error.message, /option "--root" needs a value/);
});

Deno.test("graver did-you-mean for mistyped commands, and a tool name used as a command", async () => {
  const typo = await inProcess(["aply"]);
  assert.equal(typo.code, 2);
  assert.match(json(typo).error.hint, /Did you mean "graver apply"\?/);
  assert.deepEqual(json(typo).error.details.did_you_mean, ["apply"]);
  const tool = await inProcess(["read_file"]);
  assert.equal(tool.code, 2);
  assert.match(json(tool).error.hint, /graver call read_file/);
  const flag = await inProcess(["--verison"]);
  assert.equal(flag.code, 2);
  assert.match(json(flag).error.message, /did you mean "--version"/);
});

Deno.test("graver refuses extra positional arguments, naming them", async () => {
  const call = await inProcess(["call", "read_file", "{", '"path":"a"}']);
  assert.equal(call.code, 2);
  assert.match(json(call).error.message, /unexpected argument "\\"path\\":\\"a\\"}"/);
  assert.deepEqual(json(call).error.details.unexpected, ['"path":"a"}']);
  const tools = await inProcess(["tools", "read_file", "write_file"]);
  assert.equal(tools.code, 2);
  assert.match(json(tools).error.message, /unexpected argument "write_file"/);
  const apply = await inProcess(["apply", "a.txt", "b.txt"]);
  assert.equal(apply.code, 2);
  assert.match(json(apply).error.message, /unexpected argument "b.txt"/);
});

Deno.test("graver --help, help CMD and CMD --help describe every command; --version prints deno.json's version", async () => {
  const top = await inProcess(["--help"]);
  assert.equal(top.code, 0);
  for (const c of ["call", "tools", "apply", "help"]) {
    assert.match(top.stdout, new RegExp(`\\n  ${c} `), `${c} listed`);
    const a = await inProcess(["help", c]);
    const b = await inProcess([c, "--help"]);
    assert.equal(a.code, 0);
    assert.equal(b.code, 0);
    assert.equal(a.stdout, b.stdout);
    assert.match(a.stdout, new RegExp(`^usage: graver ${c}`));
    assert.match(a.stdout, /--help/);
  }
  assert.match((await inProcess(["call", "--help"])).stdout, /--root DIR/);
  assert.match((await inProcess(["apply", "-h"])).stdout, /exit 3 when any failed/);
  const help = await inProcess(["help", "cal"]);
  assert.equal(help.code, 2);
  assert.match(json(help).error.hint, /"graver call"/);
  const version = await inProcess(["--version"]);
  assert.equal(version.code, 0);
  assert.equal(version.stdout, `graver ${denoJson.version}\n`);
  assert.equal(VERSION, denoJson.version);
});

Deno.test("graver tools NAME prints one tool's description and schema", async () => {
  const text = await inProcess(["tools", "read_file"]);
  assert.equal(text.code, 0);
  assert.match(text.stdout, /^read_file\n\nRead a text file/);
  assert.match(text.stdout, /\n {2}path +string, required/);
  assert.match(text.stdout, /"properties"/);
  const one = await inProcess(["tools", "read_file", "--json"]);
  assert.equal(one.code, 0);
  const tool = json(one);
  assert.equal(tool.name, "read_file");
  assert.equal(tool.inputSchema.type, "object");
  assert.ok(tool.description.length > 0);
  const typo = await inProcess(["tools", "raed_file"]);
  assert.equal(typo.code, 2);
  assert.deepEqual(json(typo).error.details.did_you_mean, ["read_file"]);
});

Deno.test("graver refuses a malformed --session id, an unknown --guard mode and --guard without a session", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.py`, "x = 1\n");
    const cases: [string[], RegExp][] = [
      [["call", "read_file", '{"path":"a.py"}', "--session", "../x"], /session id "\.\.\/x" is not valid/],
      [
        ["call", "read_file", '{"path":"a.py"}', "--session", "s", "--guard", "loud"],
        /unknown guard mode "loud"/,
      ],
      [["apply", "--guard=refuse"], /"--guard refuse" needs "--session ID"/],
    ];
    for (const [args, want] of cases) {
      const res = await inProcess(args, dir, "x");
      assert.equal(res.code, 2, res.stdout);
      const err = json(res).error;
      assert.equal(err.code, "invalid_args");
      assert.match(err.message, want);
    }
    assert.equal(await Deno.readTextFile(`${dir}/a.py`), "x = 1\n");
    await assert.rejects(Deno.stat(`${dir}/.graver`), "no session file for a refused call");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver apply --session applies unguarded (another harness's format) and records the writes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.py`, "x = 1\ny = 2\n");
    const edits = "a.py\n<<<<<<< SEARCH\ny = 2\n=======\ny = 3\n>>>>>>> REPLACE\n";
    const res = await inProcess(["apply", "--session", "s1", "--json"], dir, edits);
    assert.equal(res.code, 0, res.stdout);
    assert.equal(await Deno.readTextFile(`${dir}/a.py`), "x = 1\ny = 3\n");
    const ledger = JSON.parse(await Deno.readTextFile(`${dir}/.graver/sessions/s1.json`));
    assert.deepEqual(ledger.files["a.py"].seen, [[2, 2]], "the line it wrote, nothing else");
    // Asked for, the guard judges apply too: line 1 was never read.
    const again = "a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 0\n>>>>>>> REPLACE\n";
    const guarded = await inProcess(["apply", "--session", "s1", "--guard", "refuse", "--json"], dir, again);
    assert.equal(guarded.code, 1);
    assert.equal(json(guarded).error.code, "unread_range");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("exitCodeOf: not ok is 1 whatever the tool, applied in part is 3", () => {
  const base = { tool: "edit_dry_run", changes: [], warnings: [], reminders: [] };
  assert.equal(
    exitCodeOf({ ...base, ok: false, error: { code: "no_match", message: "m", hint: "h" } } as ToolResult),
    1,
  );
  assert.equal(exitCodeOf({ ...base, ok: true, status: "applied", data: {} } as ToolResult), 0);
  assert.equal(exitCodeOf({ ...base, ok: true, status: "applied", data: { failed: 0 } } as ToolResult), 0);
  assert.equal(exitCodeOf({ ...base, ok: true, status: "applied", data: { failed: 2 } } as ToolResult), 3);
});

Deno.test("graver turns an unexpected exception into one internal JSON object, exit 1", async () => {
  let stdout = "";
  const code = await runCli(["call", "read_file", "-"], {
    stdout: (t) => stdout += t,
    stderr: () => {},
    readStdin: () => Promise.reject(new Error("stdin closed")),
    readHostFile: (p) => Deno.readTextFile(p),
    cwd: "/",
    backend: createDiskBackend(),
    wasm: createWasmLoader(),
  });
  assert.equal(code, 1);
  const err = JSON.parse(stdout).error;
  assert.equal(err.code, "internal");
  assert.equal(err.message, "Cannot run graver call: stdin closed");
});
