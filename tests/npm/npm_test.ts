/**
 * The npm package end to end: `scripts/build_npm.ts` builds and packs it, the
 * tarball is installed with npm into a temporary project (from npm's cache
 * where it can), every asset listed in its `sha256.json` is checked, and
 * `smoke.mjs` runs a read, an edit and a structural edit from Node and from Bun
 * through `@graver/core` and `@graver/core/adapters/node`; `typed.ts` is
 * type-checked against the installed declarations with the pinned typescript.
 *
 *   deno test -A tests/npm/   (after deno task setup:all: Bun comes from tools/)
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { buildNpm, packNpm } from "../../scripts/build_npm.ts";
import { versionOf } from "../../src/fs/version.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const HERE = fileURLToPath(new URL(".", import.meta.url));

async function run(cmd: string, args: string[], cwd: string): Promise<string> {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(
      `Cannot run ${cmd} ${args.join(" ")}: exit ${out.code}\n${stdout}\n${
        new TextDecoder().decode(out.stderr)
      }`,
    );
  }
  return stdout;
}

const EXPECTED = [
  "export function greet(name: string): string {",
  "  return `hello ${name}`;",
  "}",
  "",
  "export const answer = 42;",
  "",
].join("\n");

Deno.test("npm package: installed from its tarball, it reads, edits and edits structurally in Node and Bun", async () => {
  const bun = `${ROOT}tools/node_modules/.bin/bun`;
  await Deno.stat(bun).catch(() => {
    throw new Error(`Cannot find "${bun}": run "deno task setup:all" first`);
  });
  await buildNpm();
  const tgz = await packNpm();
  const project = await Deno.makeTempDir({ prefix: "graver-npm-project-" });
  try {
    await Deno.writeTextFile(`${project}/package.json`, JSON.stringify({ private: true, type: "module" }));
    await run("npm", [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--loglevel=error",
      tgz,
    ], project);
    const installed = `${project}/node_modules/@graver/core`;

    // every wasm, manifest and query file is there, byte for byte
    const sums = JSON.parse(await Deno.readTextFile(`${installed}/sha256.json`)) as Record<string, string>;
    assert.ok(Object.keys(sums).includes("wasm/web-tree-sitter.wasm"));
    assert.ok(Object.keys(sums).includes("grammars/wasm/typescript.wasm"));
    assert.ok(Object.keys(sums).some((p) => p.endsWith("/queries/tags.scm")));
    for (const [rel, sum] of Object.entries(sums)) {
      assert.equal(await versionOf(await Deno.readFile(`${installed}/${rel}`)), sum, rel);
    }

    for (const f of ["smoke.mjs", "typed.ts", "tsconfig.json"]) {
      await Deno.copyFile(`${HERE}${f}`, `${project}/${f}`);
    }
    // Node, Bun and the type check side by side (each is a process of its own)
    const [node, bunOut] = await Promise.all([
      run("node", ["smoke.mjs"], project),
      run(bun, ["smoke.mjs"], project),
      // the declarations type-check a consumer (tsc from the pinned typescript in node_modules/)
      run("node", [`${ROOT}node_modules/typescript/bin/tsc`, "-p", "."], project),
    ]);
    for (const [runtime, out] of [["node", node], ["bun", bunOut]] as const) {
      const line = out.trim().split("\n").pop()!;
      const result = JSON.parse(line) as Record<string, unknown>;
      assert.equal(result["runtime"], runtime);
      assert.match(String(result["read"]), /answer = 41;/, line);
      assert.equal(result["edit"], "applied", line);
      assert.equal(result["structural"], "applied", line);
      assert.equal(result["text"], EXPECTED, line);
    }
  } finally {
    await Deno.remove(project, { recursive: true });
  }
});
