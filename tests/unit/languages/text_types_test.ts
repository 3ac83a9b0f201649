import assert from "node:assert/strict";
import { TEXT_FILE_TYPES } from "../../../src/languages/text_types.ts";
import { ripgrepPath } from "../search/_rg.ts";

/** `rg --type-list` as type name -> its globs. */
async function rgTypes(rg: string): Promise<Map<string, string[]>> {
  const out = await new Deno.Command(rg, { args: ["--type-list"], stdout: "piped" }).output();
  const types = new Map<string, string[]>();
  for (const line of new TextDecoder().decode(out.stdout).split("\n")) {
    const colon = line.indexOf(": ");
    if (colon > 0) types.set(line.slice(0, colon), line.slice(colon + 2).split(", "));
  }
  return types;
}

Deno.test("text types: each extension and file name is one ripgrep's --type-list gives for that type", async () => {
  const rg = await ripgrepPath();
  if (rg === null) return; // CI installs rg (scripts/install_runtimes.ts); without it there is nothing to compare
  const theirs = await rgTypes(rg);
  for (const [name, type] of Object.entries(TEXT_FILE_TYPES)) {
    const globs = theirs.get(name);
    assert.ok(globs, `ripgrep has a type "${name}"`);
    for (const ext of type.extensions) assert.ok(globs.includes(`*${ext}`), `${name}: *${ext} in ${globs}`);
    for (const file of type.filenames ?? []) {
      // ripgrep writes some names with a class for the first letter: [Mm]akefile, [Gg][Nn][Uu]makefile.
      const asRegExp = (g: string) => new RegExp(`^${g.replace(/\./g, "\\.").replace(/\*/g, ".*")}$`);
      const hit = globs.some((g) => asRegExp(g).test(file));
      assert.ok(hit, `${name}: ${file} matches one of ${globs}`);
    }
  }
});
