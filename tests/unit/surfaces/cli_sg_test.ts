/** `graver sg` through the real CLI entry, on a project of real files: ast-grep's flags, output and exit codes. */
import assert from "node:assert/strict";
import { assertRefusedAs, inProcess, json, project, stripAnsi } from "./_cli.ts";

const FILES = {
  "gyp/MSVSUserFile.py": "fixtures/real/MSVSUserFile.py",
  "src/string.js": "fixtures/text/string.js",
  "vendor/ignored.js": "fixtures/text/string.js",
};

Deno.test("graver sg -p prints path:line:column:text per match and exits 0; 1 when none; 2 on a bad pattern", async () => {
  const dir = await project(FILES, { ".gitignore": "vendor/\n" });
  try {
    const run = await inProcess(["sg", "-p", "self.AddConfig($NAME)"], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(stripAnsi(run.stdout), "gyp/MSVSUserFile.py:134:13:self.AddConfig(config_name)\n");
    const js = await inProcess(["sg", "-p", "function $F($$$P) { $$$B }", "-l", "js", "--json"], {
      cwd: dir,
    });
    const matches = json(js)["data"]["matches"] as {
      path: string;
      metavariables: Record<string, { text: string }>;
    }[];
    assert.ok(matches.length > 3 && matches.every((m) => m.path === "src/string.js"), "vendor/ is ignored");
    assert.equal(matches[0]!.metavariables["F"]!.text, "longestCommonPrefix");
    const none = await inProcess(["sg", "-p", "noSuchCall($A)"], { cwd: dir });
    assert.equal(none.code, 1);
    assert.equal(none.stdout, "");
    const bad = await inProcess(["sg", "-p", "print($A", "-l", "py"], { cwd: dir });
    assert.equal(bad.code, 2);
    assert.match(stripAnsi(bad.stderr), /invalid_query.*grammar reads it as/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver sg -r rewrites every match in one commit; --dry-run prints the diff and writes nothing", async () => {
  const dir = await project(FILES);
  try {
    const before = await Deno.readTextFile(`${dir}/gyp/MSVSUserFile.py`);
    const dry = await inProcess(
      ["sg", "-p", "self.AddConfig($NAME)", "-r", "self.add_config($NAME)", "--dry-run", "gyp"],
      { cwd: dir },
    );
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(stripAnsi(dry.stdout), /\+\s+self\.add_config\(config_name\)\n[\s\S]*would rewrite 1 match/);
    assert.equal(await Deno.readTextFile(`${dir}/gyp/MSVSUserFile.py`), before);
    const run = await inProcess(["sg", "-p", "self.AddConfig($NAME)", "-r", "self.add_config($NAME)", "-U"], {
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      await Deno.readTextFile(`${dir}/gyp/MSVSUserFile.py`),
      before.replace("self.AddConfig(config_name)", "self.add_config(config_name)"),
    );
    const missing = await inProcess(["sg", "-r", "x"], { cwd: dir });
    assert.equal(missing.code, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver sg --rule takes an ast-grep rule object; a rule that is not JSON is a usage error", async () => {
  const dir = await project(FILES);
  try {
    const run = await inProcess(
      [
        "sg",
        "--rule",
        '{"pattern": "self.AddConfig($N)", "inside": {"kind": "if_statement", "stopBy": "end"}}',
      ],
      { cwd: dir },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(stripAnsi(run.stdout), "gyp/MSVSUserFile.py:134:13:self.AddConfig(config_name)\n");
    const bad = await inProcess(["sg", "--rule", "{kind:"], { cwd: dir });
    assert.equal(bad.code, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver sg --format ast-grep prints ast-grep's JSON matches; with -r their replacements, and writes nothing", async () => {
  const dir = await project(FILES, { ".gitignore": "vendor/\n" });
  try {
    const before = await Deno.readTextFile(`${dir}/gyp/MSVSUserFile.py`);
    const run = await inProcess(
      ["sg", "-p", "self.AddConfig($NAME)", "-r", "self.add_config($NAME)", "--format", "ast-grep"],
      { cwd: dir },
    );
    assert.equal(run.code, 0, run.stderr);
    const [m, ...rest] = JSON.parse(run.stdout) as Record<string, unknown>[];
    assert.equal(rest.length, 0);
    assert.deepEqual(Object.keys(m!), [
      "text",
      "range",
      "file",
      "lines",
      "charCount",
      "replacement",
      "replacementOffsets",
      "language",
      "metaVariables",
    ]);
    assert.equal(m!["file"], "gyp/MSVSUserFile.py");
    assert.equal(m!["language"], "Python");
    assert.equal(m!["replacement"], "self.add_config(config_name)");
    assert.deepEqual((m!["range"] as { start: unknown }).start, { line: 133, column: 12 });
    assert.equal(await Deno.readTextFile(`${dir}/gyp/MSVSUserFile.py`), before);
    const bad = await inProcess(["sg", "-p", "f($A)", "--format", "yaml"], { cwd: dir });
    assert.equal(bad.code, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver sg --format ast-grep prints a long match whole (no result budget cuts it)", async () => {
  const args = Array.from({ length: 20_000 }, (_, i) => `a${i}`).join(", ");
  const dir = await project({}, { "src/big.js": `call(${args});\n` });
  try {
    const run = await inProcess(["sg", "-p", "call($$$A)", "-l", "js", "--format", "ast-grep"], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    const [m] = JSON.parse(run.stdout) as { text: string; metaVariables: { multi: { A: unknown[] } } }[];
    assert.equal(m!.text, `call(${args})`);
    assert.equal(m!.metaVariables.multi.A.length, 2 * 20_000 - 1); // every argument and every comma
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver sg --files-with-matches prints each file with a match once (ast-grep's flag); with -r it is a usage error", async () => {
  const dir = await project({ ...FILES, "src/copy.js": "fixtures/text/string.js" }, {
    "package.json": '{ "name": "x" }\n',
  });
  try {
    const run = await inProcess(["sg", "-p", "function $F($$$P) { $$$B }", "--files-with-matches"], {
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(stripAnsi(run.stdout), "src/copy.js\nsrc/string.js\nvendor/ignored.js\n");
    // A pattern JavaScript reads but no file holds: nothing found (exit 1), not refused because JSON cannot read it.
    const none = await inProcess(["sg", "-p", "noSuchCall($A)", "--files-with-matches"], { cwd: dir });
    assert.equal(none.code, 1, none.stderr);
    assert.equal(none.stdout, "");
    const both = await inProcess(["sg", "-p", "f($A)", "-r", "g($A)", "--files-with-matches"], { cwd: dir });
    assert.equal(both.code, 2);
    assert.match(stripAnsi(both.stdout + both.stderr), /--files-with-matches lists files/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver sg takes PATH as ast-grep does: outside the current folder too, printed as written", async () => {
  const dir = await project(FILES);
  try {
    const run = await inProcess(["sg", "-p", "self.AddConfig($NAME)", `${dir}/gyp`], { cwd: "/" });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(stripAnsi(run.stdout), `${dir}/gyp/MSVSUserFile.py:134:13:self.AddConfig(config_name)\n`);
    const json = await inProcess(["sg", "-p", "self.AddConfig($NAME)", "./gyp", "--json"], { cwd: dir });
    const matches = JSON.parse(json.stdout)["data"]["matches"] as { path: string }[];
    assert.deepEqual(
      matches.map((m) => m.path),
      ["gyp/MSVSUserFile.py"],
      "--json keeps the tool's root-relative paths",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver sg takes several PATHs as ast-grep does; a rewrite over several is refused, naming the -g to use", async () => {
  const dir = await project({ ...FILES, "src/other.py": "fixtures/real/MSVSUserFile.py" });
  try {
    const sg = (...args: string[]) => inProcess(["sg", "-p", "self.AddConfig($NAME)", ...args], { cwd: dir });
    const two = await sg("src/other.py", "./gyp");
    assert.equal(two.code, 0, two.stderr);
    assert.deepEqual(stripAnsi(two.stdout).trimEnd().split("\n"), [
      "src/other.py:134:13:self.AddConfig(config_name)",
      "gyp/MSVSUserFile.py:134:13:self.AddConfig(config_name)", // ./gyp printed as ast-grep prints it
    ]);
    // ast-grep's JSON: one array for every PATH.
    const astGrep = await sg("src/other.py", "gyp", "--format", "ast-grep");
    assert.deepEqual((JSON.parse(astGrep.stdout) as { file: string }[]).map((m) => m.file), [
      "src/other.py",
      "gyp/MSVSUserFile.py",
    ]);
    // A rewrite is one atomic change: over two PATHs it is refused, nothing written, with the globs to pass.
    const before = await Deno.readTextFile(`${dir}/gyp/MSVSUserFile.py`);
    const rewrite = await sg("-r", "self.AddConfig($NAME, 1)", "src/other.py", "gyp");
    assert.equal(rewrite.code, 2);
    assert.match(
      stripAnsi(rewrite.stdout),
      /one atomic change over one PATH .*-g 'src\/other\.py' -g 'gyp\/\*\*'/,
    );
    // The command it names rewrites both in one commit.
    const suggested = await sg(
      "-r",
      "self.AddConfig($NAME, 1)",
      "-g",
      "src/other.py",
      "-g",
      "gyp/**",
      "--dry-run",
    );
    assert.equal(suggested.code, 0, suggested.stderr);
    assert.match(stripAnsi(suggested.stdout), /2 match\(es\) in 2 file\(s\)/);
    assert.equal(await Deno.readTextFile(`${dir}/gyp/MSVSUserFile.py`), before);
    const absent = await sg("nothing-here", "gyp");
    assert.equal(absent.code, 2);
    assert.match(stripAnsi(absent.stdout), /^gyp\/MSVSUserFile\.py:134:/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver sg takes ast-grep's `run` before its arguments, unless a folder named run is there", async () => {
  const dir = await project(FILES);
  try {
    const asAstGrep = await inProcess(["sg", "run", "-p", "self.AddConfig($NAME)", "gyp"], { cwd: dir });
    assert.equal(asAstGrep.code, 0, asAstGrep.stderr);
    assert.equal(stripAnsi(asAstGrep.stdout), "gyp/MSVSUserFile.py:134:13:self.AddConfig(config_name)\n");
    // Once a folder is named run, it is the PATH.
    await Deno.mkdir(`${dir}/run`);
    await Deno.writeTextFile(`${dir}/run/a.py`, "self.AddConfig(x)\n");
    const folder = await inProcess(["sg", "-p", "self.AddConfig($NAME)", "run"], { cwd: dir });
    assert.equal(stripAnsi(folder.stdout), "run/a.py:1:1:self.AddConfig(x)\n");
    // Two PATHs are two searches (none finds `x` alone): 1.
    const two = await inProcess(["sg", "-p", "x", "gyp", "src"], { cwd: dir });
    assert.equal(two.code, 1, two.stdout + two.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver sg accepts ast-grep's -j and -A; its options it does not take say what to do instead", async () => {
  const dir = await project(FILES);
  try {
    const run = (args: string[]) => inProcess(["sg", "-p", "self.AddConfig($NAME)", ...args], { cwd: dir });
    assert.equal((await run(["-j", "4", "gyp"])).code, 0);
    assert.equal((await run(["-A", "2", "gyp"])).code, 0);
    await assertRefusedAs(run, [
      [
        ["-i", "-r", "x"],
        /"-i" is not taken here: a rewrite here is all or nothing: preview it with --dry-run/,
      ],
      [["-A", "2", "-r", "x"], /--after prints lines around a search's matches/],
      [["--stdin"], /--stdin needs the code's language/],
      [["--selector", "call"], /"--selector" is not taken here: .*inside/],
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver sg --debug-query prints each language's reading of the pattern on stderr", async () => {
  const dir = await project(FILES);
  try {
    const run = await inProcess(["sg", "-p", "self.AddConfig($NAME)", "--debug-query", "gyp"], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(stripAnsi(run.stdout), "gyp/MSVSUserFile.py:134:13:self.AddConfig(config_name)\n");
    assert.match(
      stripAnsi(run.stderr),
      /the python grammar reads the pattern as \(call \(attribute \(identifier "self"\) "\." \(identifier "AddConfig"\)\) \(argument_list "\(" \$NAME "\)"\)\)/,
    );
    // ast-grep's formats (--debug-query=ast …) are taken, the value only after "=" (gyp stays a PATH).
    const ast = await inProcess(["sg", "-p", "self.AddConfig($NAME)", "--debug-query=ast", "gyp"], {
      cwd: dir,
    });
    assert.equal(ast.stdout, run.stdout);
    assert.match(stripAnsi(ast.stderr), /the python grammar reads the pattern as \(call/);
    const bad = await inProcess(["sg", "-p", "self.AddConfig($NAME)", "--debug-query=tree", "gyp"], {
      cwd: dir,
    });
    assert.equal(bad.code, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver sg scan --inline-rules takes ast-grep's rule config (here as JSON); its fix is previewed unless -U", async () => {
  const dir = await project(FILES, { ".gitignore": "vendor/\n" });
  const config = (extra: Record<string, unknown>) =>
    JSON.stringify({
      id: "add-config",
      language: "Python",
      severity: "warning",
      message: "rename",
      rule: { pattern: "self.AddConfig($N)", inside: { kind: "if_statement", stopBy: "end" } },
      ...extra,
    });
  try {
    const run = await inProcess(["sg", "scan", "--inline-rules", config({})], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    // ast-grep's short report: path:line:column: label[id]: message.
    assert.equal(stripAnsi(run.stdout), "gyp/MSVSUserFile.py:134:13: warning[add-config]: rename\n");
    // Without the word scan, the configs run as run does: path:line:column:text.
    const asRun = await inProcess(["sg", "--inline-rules", config({})], { cwd: dir });
    assert.equal(stripAnsi(asRun.stdout), "gyp/MSVSUserFile.py:134:13:self.AddConfig(config_name)\n");
    // ignores are excluding globs; constraints go with the rule.
    const ignored = await inProcess(["sg", "--inline-rules", config({ ignores: ["gyp/**"] })], { cwd: dir });
    assert.equal(ignored.code, 1, ignored.stderr);
    const constrained = await inProcess([
      "sg",
      "--inline-rules",
      config({ constraints: { N: { regex: "^nothing$" } } }),
    ], { cwd: dir });
    assert.equal(constrained.code, 1, constrained.stderr);
    // A fix is shown, nothing written, as ast-grep's scan shows it; -U applies it.
    const file = `${dir}/gyp/MSVSUserFile.py`;
    const before = await Deno.readTextFile(file);
    const fix = config({ fix: "self.add_config($N)" });
    const shown = await inProcess(["sg", "scan", "--inline-rules", fix], { cwd: dir });
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(stripAnsi(shown.stdout), /^\+ {12}self\.add_config\(config_name\)$/m);
    assert.match(shown.stderr, /the config's fix is previewed, nothing written .* add -U to apply it/);
    assert.equal(await Deno.readTextFile(file), before);
    const applied = await inProcess(["sg", "scan", "--inline-rules", fix, "-U"], { cwd: dir });
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal(
      await Deno.readTextFile(file),
      before.replace("self.AddConfig(config_name)", "self.add_config(config_name)"),
    );
    // Text that is not YAML, a rewriter without its fix, a transform graver does not know and two queries at once: 2.
    for (
      const args of [
        ["--inline-rules", "id: x\nlanguage: py\nrule: {kind: call"],
        ["--inline-rules", config({ rewriters: [{ id: "r", rule: { kind: "call" } }] })],
        ["--inline-rules", config({ fix: "$X", transform: { X: { trim: {} } } })],
        ["--inline-rules", config({ fix: "x" }), "-r", "y"],
        ["--inline-rules", config({}), "-p", "f($A)"],
      ]
    ) {
      const bad = await inProcess(["sg", ...args], { cwd: dir });
      assert.equal(bad.code, 2, args.join(" "));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver sg parses in the host's pool, starting its workers only for a search with much to parse, and closes it", async () => {
  const { MatchPool } = await import("../../../src/structural/search/match_pool.ts");
  const { createWasmLoader } = await import("../../../src/adapters/deno/mod.ts");
  const url = new URL("../../../src/adapters/deno/_match_worker_main.ts", import.meta.url);
  let spawned = 0;
  const pools: InstanceType<typeof MatchPool>[] = [];
  const matchPool = (warm: boolean) => async () => {
    const pool = new MatchPool({
      spawn: () => (spawned++, new Worker(url, { type: "module" }) as never),
      wasm: createWasmLoader(),
      size: 2,
      startChars: 200_000,
    });
    pools.push(pool);
    if (warm) await pool.warm(); // a test's first worker type-checks its module: seconds, not a real start
    return pool;
  };
  const dir = await project({}, {});
  try {
    // 30 files of 60,000 characters, 100 matches each.
    const fn = (i: number) =>
      `export function f${i}(a) {\n  const b = [${"1, ".repeat(190)}a];\n  return b;\n}\n`;
    const body = Array.from({ length: 100 }, (_, i) => fn(i)).join("");
    for (let i = 0; i < 30; i++) await Deno.writeTextFile(`${dir}/m${i}.js`, body);
    const pooled = await inProcess(["sg", "-p", "return $X", "--json"], {
      cwd: dir,
      matchPool: matchPool(true),
    });
    const alone = await inProcess(["sg", "-p", "return $X", "--json"], { cwd: dir });
    assert.equal(pooled.code, 0, pooled.stderr);
    assert.equal((json(pooled)["data"]["matches"] as unknown[]).length, 30 * 100);
    assert.deepEqual(json(pooled)["data"]["matches"], json(alone)["data"]["matches"]);
    assert.ok(pools[0]!.matched > 0, "the workers matched files");
    assert.equal(pools[0]!.ready, 0, "the command closed its pool");
    // A search of 180,000 characters is over before the pool's start (200,000; the default is 100,000): no
    // worker is started.
    spawned = 0;
    const small = await inProcess(["sg", "-p", "return $X", "-g", "m[012].js"], {
      cwd: dir,
      matchPool: matchPool(false),
    });
    assert.equal(small.code, 0, small.stderr);
    assert.equal(spawned, 0);
    assert.equal(pools[1]!.matched, 0);
  } finally {
    for (const pool of pools) pool.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver sg --max-parse-size: a file over it is left out, said so with the option; a larger one searches it", async () => {
  const dir = await project({}, {});
  try {
    const filler = "const a = [" + "1, ".repeat(40_000) + "];\n"; // 120,000 characters
    await Deno.writeTextFile(`${dir}/big.js`, filler + "console.log(a);\n");
    const under = await inProcess(["sg", "-p", "console.log($A)", "--max-parse-size", "100K"], { cwd: dir });
    assert.equal(under.code, 1, under.stderr);
    assert.match(
      stripAnsi(under.stderr),
      /over the parse limit \(8M unless graver sg is given a larger --max-parse-size\)/,
    );
    const over = await inProcess(["sg", "-p", "console.log($A)", "--max-parse-size", "1M"], { cwd: dir });
    assert.equal(over.code, 0, over.stderr);
    assert.equal(stripAnsi(over.stdout), "big.js:2:1:console.log(a)\n");
    const bad = await inProcess(["sg", "-p", "console.log($A)", "--max-parse-size", "1 MB"], { cwd: dir });
    assert.equal(bad.code, 2);
    assert.match(stripAnsi(bad.stdout + bad.stderr), /max-parse-size\W{0,4} takes a size in bytes/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
