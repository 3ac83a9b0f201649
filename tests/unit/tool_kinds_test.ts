/**
 * Tools declare what they are (src/tool_kinds.ts), and the policies read those facts, not tool names:
 * a tool of a known kind under a name no policy lists is judged like its kind.
 */
import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace, isRecoverable } from "../../src/mod.ts";
import { createWasmLoader } from "../../src/adapters/deno/mod.ts";
import type { PendingChange } from "../../src/fs/stage.ts";
import { versionOf } from "../../src/fs/version.ts";
import { createReadGuard, type GuardedCall } from "../../src/guards/read_guard.ts";
import { editsByStructure, TOOL_KINDS } from "../../src/tool_kinds.ts";
import { TOOLS } from "../../src/tools/catalogue.ts";
import { definitionGate } from "../../src/tools/definition_gate_step.ts";
import { editFile } from "../../src/tools/edit_file.ts";
import type { CallInProgress } from "../../src/tools/types.ts";

const enc = new TextEncoder();
const TEXT = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

/** A workspace with two files, a.txt and b.txt (12 lines each). */
async function host() {
  return await createWorkspace({ backend: createMemoryBackend({ "/a.txt": TEXT, "/b.txt": TEXT }) });
}

/** A staged change of one line (line 7) of a file holding TEXT. */
async function changeOf(path: string): Promise<PendingChange> {
  const before = enc.encode(TEXT);
  return {
    path,
    baseVersion: await versionOf(before),
    before,
    after: enc.encode(TEXT.replace("line 7", "x")),
  };
}

/** A mutating call of a tool no policy has ever heard of, in a named session. */
function callOf(tool: GuardedCall["tool"], changes: PendingChange[], path = "a.txt"): GuardedCall {
  return {
    tool,
    args: { path },
    session: "s",
    explicitSession: true,
    dryRun: false,
    nested: false,
    warnings: [],
    changes,
  };
}

Deno.test("every catalogue tool declares a kind, its result's data shape, and an alias what it forwards to", () => {
  for (const t of TOOLS) {
    assert.ok(t.kind && TOOL_KINDS.includes(t.kind), `${t.name} declares a kind`);
    if (t.forward) {
      assert.equal(t.kind, "alias", t.name);
      assert.ok(t.forwardsTo && t.forwardsTo.length > 0, `${t.name} says what it forwards to`);
      assert.equal(t.resultData, undefined, `${t.name} answers with the real tool's data`);
    } else {
      assert.ok(t.resultData, `${t.name} declares resultData`);
      assert.equal(t.mutates, !["read"].includes(t.kind!) && t.name !== "checkpoint_list", t.name);
    }
  }
  assert.deepEqual(TOOLS.filter((t) => t.kind === "derived").map((t) => t.name), ["edit_rename_symbol"]);
  assert.deepEqual(TOOLS.filter((t) => t.kind === "freeform_edit").map((t) => t.name), [
    "apply_edits",
    "edit_file",
  ]);
  assert.ok(TOOLS.filter((t) => editsByStructure(t.kind)).every((t) => t.mutates));
});

Deno.test("the read guard judges a derived tool on the file its path names, by kind, whatever its name", async () => {
  const ws = await host();
  const guard = createReadGuard();
  const changes = [await changeOf("a.txt"), await changeOf("b.txt")];
  // Only b.txt was never read: a derived tool naming a.txt (read) is judged on a.txt alone.
  guard.ledgers.get("s").recordRead("a.txt", { version: changes[0]!.baseVersion!, lines: TEXT.split("\n") }, {
    start: 1,
    end: 12,
  });
  await guard.run(callOf({ name: "my_rename", mutates: true, kind: "derived" }, changes), ws);
  // The same changes from a structural tool are judged everywhere: b.txt was not read.
  const err = await guard.run(callOf({ name: "my_refactor", mutates: true, kind: "structural" }, changes), ws)
    .then(() => null, (e: unknown) => e);
  assert.ok(isRecoverable(err, "unread_range"), String(err));
  assert.equal(err.details?.["path"], "b.txt");
});

Deno.test("the read guard asks a whole-file tool, by kind, for all of an existing file read", async () => {
  const ws = await host();
  const guard = createReadGuard();
  const [change] = [await changeOf("a.txt")];
  guard.ledgers.get("s").recordRead("a.txt", { version: change!.baseVersion!, lines: TEXT.split("\n") }, {
    start: 5,
    end: 9,
  });
  // Line 7 was seen: enough for a line edit, not for a whole-file write.
  await guard.run(callOf({ name: "my_patch", mutates: true, kind: "text_patch" }, [change!]), ws);
  const err = await guard.run(callOf({ name: "my_writer", mutates: true, kind: "whole_file" }, [change!]), ws)
    .then(() => null, (e: unknown) => e);
  assert.ok(isRecoverable(err, "unread_range"), String(err));
  assert.equal(err.details?.["reason"], "whole_file");
});

Deno.test("the read guard records what a call showed from call.shown: lines, an outline, a window", async () => {
  const ws = await host();
  const guard = createReadGuard();
  const call = callOf({ name: "my_view", mutates: false, kind: "read" }, []);
  call.shown = [
    { path: "a.txt", lines: [{ start_line: 2, end_line: 4 }] },
    { path: "b.txt", lines: [], outline: true },
    { path: "b.txt", lines: [{ start_line: 10, end_line: 10 }], version: "not-the-version" },
  ];
  // A refusal's window is recorded too, with nothing in its details to parse.
  await guard.after(call, { ok: false, error: { code: "no_match" } }, ws);
  const ledger = guard.ledgers.get("s");
  assert.deepEqual(ledger.view("a.txt").seen, [{ start: 2, end: 4 }]);
  assert.deepEqual(ledger.view("b.txt").seen, [], "outline: signatures only; a stale version: not recorded");
});

Deno.test("a did-you-mean refusal carries the window it showed as data, and the ledger counts it as read", async () => {
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/a.txt": TEXT }),
    wasm: createWasmLoader(),
  });
  const s = { session: "agent" };
  const wrong = { path: "a.txt", old_text: "line 6\nline seven\nline 8\n", new_text: "x\n" };
  const miss = await ws.call("edit_file", wrong, s);
  assert.ok(!miss.ok && miss.error.code === "no_match", JSON.stringify(miss));
  const window = miss.error.details?.["did_you_mean"] as { start_line: number; end_line: number };
  assert.deepEqual([window.start_line, window.end_line], [6, 8]);
  assert.equal("shown" in miss.error, false, "the window's lines are no field of the wire error");
  const seen = ws.readGuard.ledgers.get("agent").view("a.txt").seen;
  assert.deepEqual(seen, [{ start: 6, end: 8 }]);
  // The edit of those lines, spelled right, is not refused as unread.
  const right = { path: "a.txt", old_text: "line 6\nline 7\nline 8\n", new_text: "x\n" };
  const fixed = await ws.call("edit_file", right, s);
  assert.ok(fixed.ok, JSON.stringify(fixed));
});

Deno.test("the definition gate judges a freeform edit by kind, whatever the tool is called", async () => {
  const source = "def f():\n    return 1\n\n\ndef g():\n    return 2\n";
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/a.py": source }),
    wasm: createWasmLoader(),
  });
  const before = enc.encode(source);
  const change: PendingChange = {
    path: "a.py",
    baseVersion: await versionOf(before),
    before,
    after: enc.encode("def f():\n    return 1\n"),
  };
  const call = (tool: CallInProgress["tool"]): CallInProgress => ({
    tool,
    calledTool: tool.name,
    args: { path: "a.py" },
    session: "s",
    explicitSession: true,
    dryRun: false,
    warnings: [],
    reminders: [],
    changes: [change],
    nested: false,
  });
  const gate = definitionGate({ mode: "refuse" });
  const err = await Promise.resolve(gate.run(call({ ...editFile, name: "my_str_replace" } as never), ws))
    .then(() => null, (e: unknown) => e);
  assert.ok(isRecoverable(err, "definition_gate"), String(err));
  // The same change from a text patch is not the gate's business.
  await gate.run(call({ ...editFile, name: "my_patch", kind: "text_patch" } as never), ws);
});
