/**
 * Go's example functions carry the names they document: `ExampleF`, `ExampleT`, `ExampleT_M`, each with an
 * optional `_suffix` starting with a lower-case letter (`go vet`'s tests check that every name an example
 * embeds exists). A rename of a package-level function or type renames the examples of it in the test files
 * beside it, as a user renaming by hand would, so `go vet` stays clean.
 *
 * @module
 */
import { lineNumberAt } from "../../fs/lines.ts";
import type { Stage } from "../../fs/stage.ts";

/** One example function renamed. */
export interface ExampleRename {
  /** The test file. */
  path: string;
  /** 1-based line of its `func`. */
  line: number;
  /** Its name before. */
  from: string;
  /** Its name after. */
  to: string;
}

/** The tail after `Example<Name>` that still makes it an example of Name: a method and/or a suffix. */
const EXAMPLE_TAIL = /^(?:_[A-Z]\w*)?(?:_[a-z]\w*)?$/;

/**
 * The example functions of `oldName` in the `_test.go` files of `dir`, renamed in `texts` (the texts the
 * rename already built, else the files as staged).
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryBackend, BackendFs, Sandbox, Stage } from "../../fs/mod.ts";
 * import { renameGoExamples } from "./_go_examples.ts";
 *
 * const fs = BackendFs.wrap(createMemoryBackend({
 *   "/p/opt_test.go": "package p_test\n\nfunc ExampleOption_sorted() {}\nfunc ExampleOptions() {}\n",
 * }));
 * const texts = new Map<string, { text: string; edits: number }>();
 * const done = await renameGoExamples(new Stage(fs, new Sandbox("/")), { dir: "p", oldName: "Option", newName: "Choice", texts });
 * assert.deepEqual(done.map((d) => d.to), ["ExampleChoice_sorted"]);
 * assert.match(texts.get("p/opt_test.go")!.text, /func ExampleChoice_sorted\(\) \{\}\nfunc ExampleOptions\(\)/);
 * ```
 *
 * @param stage The call's stage.
 * @param at The package's directory, the old and new names, and the texts to update in place.
 * @returns The examples renamed.
 */
export async function renameGoExamples(
  stage: Stage,
  at: { dir: string; oldName: string; newName: string; texts: Map<string, { text: string; edits: number }> },
): Promise<ExampleRename[]> {
  const { dir, oldName, newName, texts } = at;
  const done: ExampleRename[] = [];
  const prefix = `Example${oldName}`;
  for (const entry of await stage.list(dir)) {
    if (entry.kind !== "file" || !entry.name.endsWith("_test.go")) continue;
    const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
    const current = texts.get(rel) ?? { text: (await stage.readText(rel)).text, edits: 0 };
    let count = 0;
    const text = current.text.replace(/^func (Example\w*)\(/gm, (whole, name: string, offset: number) => {
      if (!name.startsWith(prefix) || !EXAMPLE_TAIL.test(name.slice(prefix.length))) return whole;
      const to = `Example${newName}${name.slice(prefix.length)}`;
      done.push({ path: rel, line: lineNumberAt(current.text, offset), from: name, to });
      count++;
      return `func ${to}(`;
    });
    if (count > 0) texts.set(rel, { text, edits: current.edits + count });
  }
  return done;
}
