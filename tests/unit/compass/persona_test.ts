import assert from "node:assert/strict";
import { loadPersona, parsePersona } from "../../../src/compass/persona.ts";
import { BackendFs } from "../../../src/fs/backend.ts";
import { Sandbox } from "../../../src/fs/sandbox.ts";
import { createMemoryBackend } from "../../../src/mod.ts";

Deno.test("parsePersona() keeps prefer, reminder switches and mode; refuses wrong fields", () => {
  assert.deepEqual(
    parsePersona({
      edit_strategy: { prefer: ["edit_apply_node"] },
      reminders: { providers: { compass_ast_edits: true } },
      compass: { mode: "rewrite" },
    }, "fixer"),
    {
      name: "fixer",
      edit_strategy: { prefer: ["edit_apply_node"] },
      reminders: { providers: { compass_ast_edits: true } },
      compass: { mode: "rewrite" },
    },
  );
  assert.equal(parsePersona({ name: "Fixer 2" }, "fixer").name, "Fixer 2");
  for (
    const bad of [[], null, { edit_strategy: 1 }, { reminders: { providers: { a: "yes" } } }, {
      compass: { mode: "loud" },
    }]
  ) {
    assert.throws(() => parsePersona(bad, "p"), { code: "invalid_args" }, JSON.stringify(bad));
  }
});

Deno.test("loadPersona() reads .graver/personas/NAME.json under the root; names the known ones when absent", async () => {
  const fs = BackendFs.wrap(createMemoryBackend({
    "/w/.graver/personas/fixer.json": JSON.stringify({ edit_strategy: { prefer: ["replace_symbol"] } }),
    "/w/.graver/personas/broken.json": "{",
  }));
  const sandbox = new Sandbox("/w");
  assert.deepEqual((await loadPersona(fs, sandbox, "fixer")).edit_strategy?.prefer, ["replace_symbol"]);
  await assert.rejects(
    () => loadPersona(fs, sandbox, "nobody"),
    (e: Error & { code: string; hint: string }) => {
      assert.equal(e.code, "not_found");
      assert.match(e.hint, /Known personas: broken, fixer/);
      return true;
    },
  );
  await assert.rejects(() => loadPersona(fs, sandbox, "broken"), { code: "invalid_args" });
  await assert.rejects(() => loadPersona(fs, sandbox, "../x"), { code: "invalid_args" });
});
