/**
 * `--color WHEN` for `graver grep` and `graver sg` (rg's and ast-grep's values), `--heading` and `--globs` for
 * `graver sg` (ast-grep's names), through the real CLI entry on real files.
 */
import assert from "node:assert/strict";
import {
  headingProblem,
  jsonStyleOf,
  styledJson,
  withColorFlag,
} from "../../../src/surfaces/_cli_display.ts";
import type { CliHost } from "../../../src/surfaces/_cli_contract.ts";
import { inProcess, project, stripAnsi } from "./_cli.ts";
import { astGrepPath, runAstGrep } from "../search/_astgrep.ts";

const ESC = "\x1b[";

Deno.test("withColorFlag and headingProblem read rg's and ast-grep's values", () => {
  const host = { color: true } as CliHost;
  assert.equal(withColorFlag(host, {}), host);
  assert.equal(withColorFlag(host, { color: "auto" }), host);
  assert.equal((withColorFlag(host, { color: "never" }) as CliHost).color, false);
  for (const when of ["always", "ansi"]) {
    assert.equal((withColorFlag({ color: false } as CliHost, { color: when }) as CliHost).color, true);
  }
  assert.match((withColorFlag(host, { color: "on" }) as { problem: string }).problem, /not "on"/);
  assert.equal(headingProblem({ heading: "never" }), undefined);
  assert.equal(headingProblem({ heading: "auto" }), undefined);
  assert.match(headingProblem({ heading: "always" })!, /path:line:column:text/);
  assert.match(headingProblem({ heading: "sometimes" })!, /takes auto, always or never/);
});

Deno.test("graver grep and graver sg: --color always colours into a pipe, never keeps a terminal plain", async () => {
  const dir = await project({ "src/string.js": "fixtures/text/string.js" });
  try {
    for (const args of [["grep", "return"], ["sg", "-p", "return $X"]]) {
      const plain = await inProcess([...args, "src"], { cwd: dir });
      assert.equal(plain.code, 0, plain.stderr);
      assert.ok(!plain.stdout.includes(ESC), "a pipe is plain by default");
      const always = await inProcess([...args, "--color", "always", "src"], { cwd: dir });
      assert.ok(always.stdout.includes(ESC), `${args[0]} --color always`);
      assert.equal(stripAnsi(always.stdout), plain.stdout, "the same text, coloured");
      const never = await inProcess([...args, "--color=never", "src"], { cwd: dir, color: true });
      assert.equal(never.stdout, plain.stdout, `${args[0]} --color=never on a terminal`);
      const bad = await inProcess([...args, "--color", "yes", "src"], { cwd: dir });
      assert.equal(bad.code, 2);
      assert.match(bad.stderr + bad.stdout, /--color takes one of auto, always, ansi, never, not \\"yes\\"/);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver sg: --globs is --glob (ast-grep's name); --heading never is taken, always refused", async () => {
  const dir = await project({
    "src/string.js": "fixtures/text/string.js",
    "lib/string.js": "fixtures/text/string.js",
  });
  try {
    const both = await inProcess(["sg", "-p", "return $X"], { cwd: dir });
    const onlySrc = await inProcess(["sg", "-p", "return $X", "--globs", "src/**"], { cwd: dir });
    const notSrc = await inProcess(["sg", "-p", "return $X", "--globs", "!src/**", "--heading", "never"], {
      cwd: dir,
    });
    const lines = (t: string) => t.split("\n").filter((l) => /^\S+:\d+:\d+:/.test(l));
    assert.ok(lines(both.stdout).length >= 2, both.stdout);
    assert.ok(lines(onlySrc.stdout).length > 0 && lines(onlySrc.stdout).every((l) => l.startsWith("src/")));
    assert.ok(lines(notSrc.stdout).length > 0 && lines(notSrc.stdout).every((l) => l.startsWith("lib/")));
    assert.equal(lines(onlySrc.stdout).length + lines(notSrc.stdout).length, lines(both.stdout).length);
    const heading = await inProcess(["sg", "-p", "return $X", "--heading", "always"], { cwd: dir });
    assert.equal(heading.code, 2);
    assert.match(heading.stderr + heading.stdout, /--heading always is not taken/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver sg --json=compact|stream|pretty prints ast-grep's JSON in its style; bare --json the ToolResult", async () => {
  assert.deepEqual(jsonStyleOf({ json: "compact", "-p": "x" }), {
    flags: { "-p": "x", format: "ast-grep" },
    style: "compact",
  });
  assert.match((jsonStyleOf({ json: "yaml" }) as { problem: string }).problem, /pretty, compact or stream/);
  assert.match(
    (jsonStyleOf({ json: "stream", format: "sarif" }) as { problem: string }).problem,
    /without --format sarif/,
  );
  assert.equal(styledJson([{ a: 1 }, { b: 2 }], "stream"), '{"a":1}\n{"b":2}\n');
  const dir = await project({ "src/string.js": "fixtures/text/string.js" });
  const bin = await astGrepPath();
  try {
    const bare = await inProcess(["sg", "-p", "return $X", "--json", "src"], { cwd: dir });
    assert.equal((JSON.parse(bare.stdout) as { tool: string }).tool, "search_structural");
    for (const style of ["compact", "stream", "pretty"]) {
      const ours = await inProcess(["sg", "-p", "return $X", `--json=${style}`, "src"], { cwd: dir });
      assert.equal(ours.code, 0, ours.stderr);
      const lines = ours.stdout.trimEnd().split("\n");
      if (style === "compact") assert.equal(lines.length, 1);
      if (style === "stream") {
        assert.ok(lines.length > 3 && lines.every((l) => JSON.parse(l).file === "src/string.js"));
      }
      if (bin === null) continue;
      const text = (await runAstGrep(bin, ["run", "-p", "return $X", `--json=${style}`, "src"], { cwd: dir }))
        .stdout;
      // compact and stream byte for byte; pretty as the same JSON (ast-grep indents its array's items less).
      if (style === "pretty") assert.deepEqual(JSON.parse(ours.stdout), JSON.parse(text));
      else assert.equal(ours.stdout, text, style);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
