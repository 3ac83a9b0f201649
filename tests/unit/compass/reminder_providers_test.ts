import assert from "node:assert/strict";
import {
  CANONICAL_PROVIDERS,
  COMPASS_AST_EDITS,
  NO_MATCH_STREAK,
  ReminderRegistry,
} from "../../../src/compass/reminder_providers.ts";
import type { ReminderContext } from "../../../src/compass/types.ts";

const ctx = (over: Partial<ReminderContext>): ReminderContext => ({
  event: "tool_call",
  session: "s",
  state: new Map(),
  ...over,
});

Deno.test("ReminderRegistry lists every provider's metadata and switch", () => {
  const registry = new ReminderRegistry();
  assert.deepEqual(registry.list().map((p) => [p.id, p.default_enabled, p.preserve_on_compact, p.enabled]), [
    ["compass_ast_edits", false, true, false],
    ["no_grammar_edit", true, false, true],
    ["repeated_no_match", true, false, true],
  ]);
  assert.equal(
    registry.list()[0]!.summary,
    "Steer the agent toward AST edit primitives over freeform text edits.",
  );
  for (const p of CANONICAL_PROVIDERS) assert.ok(p.summary.length > 10 && !p.summary.includes("\n"));
  registry.configure({ providers: { compass_ast_edits: true, no_grammar_edit: false } });
  assert.deepEqual(registry.list().map((p) => p.enabled), [true, false, true]);
  assert.ok(registry.explicitlyEnabled("compass_ast_edits"));
  assert.ok(!registry.explicitlyEnabled("repeated_no_match"), "on by default, not explicitly");
  assert.ok(!registry.enabled("nope"));
});

Deno.test("compass_ast_edits: opt-in, at session start and resume only, names graver's tools, survives compaction", () => {
  const off = new ReminderRegistry();
  assert.deepEqual(off.collect(ctx({ event: "session_start" })), []);
  const on = new ReminderRegistry({ providers: { compass_ast_edits: true } });
  for (const event of ["session_start", "resume"] as const) {
    const [r] = on.collect(ctx({ event }));
    assert.equal(r!.provider, "compass_ast_edits");
    assert.equal(r!.preserve_on_compact, true);
    for (
      const tool of [
        "edit_apply_node",
        "edit_insert_at_anchor",
        "edit_rename_symbol",
        "edit_extract_function",
        "edit_dry_run",
        "edit_safe_text_patch",
      ]
    ) assert.ok(r!.text.includes(tool), tool);
  }
  assert.equal(COMPASS_AST_EDITS.collect(ctx({ event: "tool_call" })), null);
});

Deno.test("no_grammar_edit speaks once per file and session, not for the text patch itself", () => {
  const registry = new ReminderRegistry();
  const state = new Map<string, unknown>();
  const file = { path: "notes.txt", language: null, text: "hi\n", version: "v" };
  const first = registry.collect(ctx({ tool: "edit_file", file, state }));
  assert.equal(first.length, 1);
  assert.match(first[0]!.text, /"notes\.txt" has no grammar.*edit_safe_text_patch.*expected_hash/s);
  assert.deepEqual(registry.collect(ctx({ tool: "edit_file", file, state })), [], "said once");
  assert.deepEqual(
    registry.collect(
      ctx({ tool: "edit_safe_text_patch", kind: "text_patch", file: { ...file, path: "b.txt" } }),
    ),
    [],
  );
  assert.deepEqual(registry.collect(ctx({ tool: "edit_file", file: { ...file, language: "python" } })), []);
  assert.deepEqual(
    registry.collect(ctx({ tool: "edit_file", file: { ...file, text: null } })),
    [],
    "absent file",
  );
});

Deno.test("repeated_no_match speaks at the second no_match in a row on one file; a success resets it", () => {
  const registry = new ReminderRegistry();
  const state = new Map<string, unknown>();
  const fail = (path: string) =>
    registry.collect(
      ctx({ event: "tool_result", tool: "edit_file", result: { ok: false, code: "no_match", path }, state }),
    );
  assert.deepEqual(fail("a.ts"), []);
  assert.deepEqual(fail("b.ts"), [], "another file has its own streak");
  const said = fail("a.ts");
  assert.equal(said.length, 1);
  assert.match(
    said[0]!.text,
    new RegExp(`^${NO_MATCH_STREAK} edits of "a\\.ts" in a row found no match.*read_file`, "s"),
  );
  assert.deepEqual(fail("a.ts"), [], "once per streak");
  registry.collect(ctx({ event: "tool_result", result: { ok: true, path: "a.ts" }, state }));
  assert.deepEqual(fail("a.ts"), []);
  assert.equal(fail("a.ts").length, 1, "a new streak");
  assert.deepEqual(
    registry.collect(
      ctx({ event: "tool_result", result: { ok: false, code: "ambiguous", path: "c.ts" }, state }),
    ),
    [],
  );
});
