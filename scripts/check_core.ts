/**
 * Type-check the core (src/ minus adapters) against web-standard libs only —
 * ESNext + DOM, no Deno namespace — so any `Deno.` or Node global in core
 * fails the check. Part of `deno task check`.
 *
 * @module
 */
const ROOT = new URL("../", import.meta.url).pathname;
const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
const checkConfig = {
  imports: config.imports,
  nodeModulesDir: config.nodeModulesDir,
  compilerOptions: { ...config.compilerOptions, lib: ["ESNext", "DOM", "DOM.Iterable"] },
};
const path = `${ROOT}.core-check.deno.json`;
await Deno.writeTextFile(path, JSON.stringify(checkConfig, null, 2));
const entries = [
  "src/mod.ts",
  "src/surfaces/cli.ts",
  "src/surfaces/cli_serve.ts",
  "src/surfaces/http.ts",
  "src/surfaces/mcp.ts",
  ...Deno.args,
];
try {
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--config", path, ...entries],
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) {
    console.error("check_core: the core must use web standards only (see DESIGN.md, rules of the house)");
    Deno.exit(code);
  }
  console.log("check_core: core type-checks without Deno or Node types");
} finally {
  await Deno.remove(path);
}
