import assert from "node:assert/strict";
import {
  createMemoryBackend,
  createWorkspace,
  MemoryTelemetry,
  type PipelineStep,
  type ToolResult,
} from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import type { CompassSetting } from "../../../src/compass/types.ts";

const TS =
  "export function total(items: number[]): number {\n  let sum = 0;\n  for (const i of items) sum += i;\n  return sum;\n}\n\nexport const LIMIT = total([1, 2]);\n";
const FILES: Record<string, string> = {
  "/w/src/calc.ts": TS,
  "/w/src/crlf.py": "def f(x):\r\n    return x + 1\r\n",
  "/w/notes.txt": "remember the milk\n",
  "/w/.graver/personas/fixer.json": JSON.stringify({
    edit_strategy: { prefer: ["edit_apply_node"] },
    reminders: { providers: { compass_ast_edits: true } },
  }),
};

async function open(compass: CompassSetting, options: { steps?: PipelineStep[] } = {}) {
  const backend = createMemoryBackend(FILES);
  const telemetry = new MemoryTelemetry();
  const ws = await createWorkspace({
    backend,
    root: "/w",
    wasm: createWasmLoader(),
    telemetry,
    readGuard: "off", // the router alone: the session's guards have their own tests
    ...(compass === undefined ? {} : { compass }),
    ...(options.steps ? { steps: options.steps } : {}),
  });
  const read = async (path: string) => new TextDecoder().decode((await ws.fs.read(`/w/${path}`))!);
  return { ws, telemetry, read };
}

/** A result without its reminders, as JSON. */
function bare(r: ToolResult): string {
  const { reminders: _, ...rest } = r;
  return JSON.stringify(rest);
}

/** Freeform calls of every recognised shape, successes and refusals. */
const CALLS: [string, Record<string, unknown>][] = [
  ["edit_file", { path: "src/calc.ts", old_string: "let sum = 0;", new_string: "let sum = 10;" }],
  ["edit_file", { path: "src/calc.ts", old_str: "total(items", new_str: "sumAll(items" }],
  ["edit_file", { path: "src/calc.ts", old_text: "no such text", new_text: "x" }],
  ["edit_file", { path: "src/calc.ts", old_string: "sum", new_string: "acc" }],
  ["edit_file", {
    path: "src/crlf.py",
    old_string: "def f(x):\n    return x + 1",
    new_string: "def f(x):\n    return x + 2",
  }],
  ["edit_safe_text_patch", { path: "src/calc.ts", hunks: [{ old_text: "[1, 2]", new_text: "[1, 2, 3]" }] }],
  ["write_file", { path: "src/calc.ts", content: TS.replace("LIMIT", "MAX") }],
  ["apply_edits", {
    text: "src/calc.ts\n<<<<<<< SEARCH\n  return sum;\n=======\n  return sum * 2;\n>>>>>>> REPLACE\n",
  }],
  ["edit_file", { path: "notes.txt", old_string: "milk", new_string: "bread" }],
  ["edit_file", { path: "src/calc.ts", old_string: "return sum;", new_string: "return sum", dry_run: true }],
];

Deno.test("suggest mode: every result is byte-for-byte the router-off result, plus the reminder", async () => {
  const off = await open(false);
  const on = await open({ mode: "suggest" });
  let suggested = 0;
  for (const [tool, args] of CALLS) {
    const a = await off.ws.call(tool, args);
    const b = await on.ws.call(tool, args);
    assert.equal(bare(b), bare(a), `${tool} ${JSON.stringify(args)}`);
    assert.deepEqual(a.reminders, []);
    if (b.reminders.some((r) => r.provider === "compass_router")) suggested++;
    for (const p of ["src/calc.ts", "src/crlf.py", "notes.txt"]) {
      assert.equal(await on.read(p), await off.read(p));
    }
  }
  assert.equal(on.ws.compass.stats().suggested, suggested);
  assert.ok(suggested >= 7, `suggested ${suggested}`);
  assert.equal(off.telemetry.total("graver.compass.suggested"), 0);
  assert.equal(on.telemetry.total("graver.compass.suggested"), suggested);
  assert.equal(on.telemetry.events.filter((e) => e.name === "compass_routing_decision").length, suggested);
});

Deno.test("suggest mode names the primitive for each shape", async () => {
  const { ws } = await open({});
  const router = async (tool: string, args: Record<string, unknown>) =>
    (await ws.call(tool, args)).reminders.filter((r) => r.provider === "compass_router").map((r) => r.text);
  assert.match(
    (await router("edit_file", {
      path: "src/calc.ts",
      old_string: "total(",
      new_string: "sumAll(",
      replace_all: true,
    }))[0]!,
    /renamed "total" to "sumAll".*edit_rename_symbol/,
  );
  assert.match(
    (await router("write_file", { path: "src/calc.ts", content: TS }))[0]!,
    /rewrote the whole of "src\/calc\.ts".*edit_apply_node/,
  );
  assert.deepEqual(
    await router("write_file", { path: "src/new.ts", content: "export {};\n" }),
    [],
    "a new file: nothing to route",
  );
  assert.deepEqual(
    await router("edit_file", { path: "notes.txt", old_string: "milk", new_string: "tea" }),
    [],
    "no grammar",
  );
  assert.deepEqual(
    await router("edit_apply_node", {
      path: "src/calc.ts",
      selector: { pattern: "total($A)" },
      new_text: "total($A)",
    }),
    [],
  );
});

Deno.test("rewrite mode: an exact edit_file runs as edit_safe_text_patch and lands the same bytes", async () => {
  const off = await open(false);
  const on = await open({ mode: "rewrite" });
  const args = { path: "src/calc.ts", old_string: "let sum = 0;", new_string: "let sum = 10;" };
  const a = await off.ws.call("edit_file", args);
  const b = await on.ws.call("edit_file", args);
  assert.ok(a.ok && b.ok);
  assert.equal(b.tool, "edit_safe_text_patch");
  assert.deepEqual(b.reminders, [], "silent");
  assert.deepEqual(b.changes, a.changes, "same diff and versions");
  assert.equal(await on.read("src/calc.ts"), await off.read("src/calc.ts"));
  const crlf = {
    path: "src/crlf.py",
    old_string: "return x + 1",
    new_string: "return (\n        x + 1\n    )",
  };
  const c = await off.ws.call("edit_file", crlf);
  const d = await on.ws.call("edit_file", crlf);
  assert.ok(c.ok && d.ok && d.tool === "edit_safe_text_patch");
  assert.equal(await on.read("src/crlf.py"), await off.read("src/crlf.py"));
  assert.equal(
    on.telemetry.total("graver.compass.rewritten", { tool: "edit_file", target: "edit_safe_text_patch" }),
    2,
  );
  const [event] = on.telemetry.events.filter((e) => e.name === "compass_routing_decision");
  assert.deepEqual({ ...event!.attributes, toolCallId: "" }, {
    toolCallId: "",
    mode: "rewrite",
    action: "rewritten",
    persona: "none",
    originalTool: "edit_file",
    routedTool: "edit_safe_text_patch",
    targetTool: "edit_safe_text_patch",
    path: "src/calc.ts",
  });
  // a rename and a whole-file write fall back: the original call runs, with a suggestion
  const rename = await on.ws.call("edit_file", {
    path: "src/calc.ts",
    old_string: "LIMIT",
    new_string: "MAX",
  });
  assert.ok(rename.ok && rename.tool === "edit_file");
  assert.match(rename.reminders[0]!.text, /edit_rename_symbol/);
  const whole = await on.ws.call("write_file", { path: "src/calc.ts", content: TS });
  assert.ok(whole.ok && whole.tool === "write_file");
  assert.equal(on.ws.compass.stats().fell_back, 2);
});

/** A guard step that, when armed, changes a file behind the call's back (a concurrent writer). */
function concurrentWriter(): PipelineStep & { arm(path: string): void } {
  let armed: string | null = null;
  return {
    name: "concurrent-writer",
    stage: "guard",
    arm(path) {
      armed = path;
    },
    async run(_call, host) {
      if (armed === null) return;
      const abs = host.sandbox.abs(armed);
      const text = new TextDecoder().decode((await host.fs.read(abs))!);
      await host.fs.write(abs, new TextEncoder().encode(text + "// written by someone else\n"));
      armed = null;
    },
  };
}

Deno.test("rewrite mode: a file changed after the router read it is refused stale_base; the freeform call clobbers", async () => {
  const writerOff = concurrentWriter();
  const writerOn = concurrentWriter();
  const off = await open(false, { steps: [writerOff] });
  const on = await open({ mode: "rewrite" }, { steps: [writerOn] });
  const args = { path: "src/calc.ts", old_string: "let sum = 0;", new_string: "let sum = 10;" };
  writerOff.arm("src/calc.ts");
  writerOn.arm("src/calc.ts");
  const a = await off.ws.call("edit_file", args);
  assert.ok(a.ok && a.status === "applied", "edit_file edits whatever is there now");
  const b = await on.ws.call("edit_file", args);
  assert.ok(!b.ok);
  assert.equal(b.error.code, "stale_base"); // dispatch names the tool called in a refusal: edit_file
  assert.match(b.error.message, /Cannot patch "src\/calc\.ts": expected hash/);
  assert.equal(on.ws.compass.stats().rewritten, 1);
  assert.equal(
    await on.read("src/calc.ts"),
    TS + "// written by someone else\n",
    "the other writer's bytes stand",
  );
});

Deno.test("unconfigured: suggest only for calls naming a session; nothing else changes", async () => {
  const { ws, telemetry } = await open(undefined);
  const args = { path: "src/calc.ts", old_string: "let sum = 0;", new_string: "let sum = 1;" };
  const plain = await ws.call("edit_file", args);
  assert.ok(plain.ok);
  assert.deepEqual(plain.reminders, []);
  assert.equal(telemetry.events.filter((e) => e.name === "compass_routing_decision").length, 0);
  const session = await ws.call("edit_file", {
    ...args,
    old_string: "let sum = 1;",
    new_string: "let sum = 2;",
  }, {
    session: "agent-7",
  });
  assert.ok(session.ok);
  assert.equal(session.reminders[0]!.provider, "compass_router");
  const [event] = telemetry.events.filter((e) => e.name === "compass_routing_decision");
  assert.equal(event!.attributes["toolCallId"], "agent-7:1");
});

Deno.test("a plan's ops are not routed (edit_dry_run previews them as written)", async () => {
  const { ws } = await open({ mode: "rewrite" });
  const r = await ws.call("edit_dry_run", {
    plan: [{
      tool: "edit_file",
      args: { path: "src/calc.ts", old_string: "let sum = 0;", new_string: "let sum = 3;" },
    }],
  });
  assert.ok(r.ok, JSON.stringify(r));
  assert.deepEqual(r.reminders, []);
  assert.equal(ws.compass.stats().rewritten, 0);
});

Deno.test("conditional reminders: an edited file without a grammar, and repeated no_match on one file", async () => {
  const { ws } = await open({});
  const txt = await ws.call("edit_file", { path: "notes.txt", old_string: "milk", new_string: "tea" });
  assert.deepEqual(txt.reminders.map((r) => r.provider), ["no_grammar_edit"]);
  const again = await ws.call("edit_file", { path: "notes.txt", old_string: "tea", new_string: "milk" });
  assert.deepEqual(again.reminders, [], "once per file");
  const miss = { path: "src/calc.ts", old_string: "let total = 0;", new_string: "let total = 1;" };
  const first = await ws.call("edit_file", miss);
  assert.ok(!first.ok && first.error.code === "no_match");
  assert.ok(!first.reminders.some((r) => r.provider === "repeated_no_match"));
  const second = await ws.call("edit_file", miss);
  const said = second.reminders.find((r) => r.provider === "repeated_no_match");
  assert.match(said!.text, /2 edits of "src\/calc\.ts" in a row found no match/);
});

Deno.test("a persona from .graver/personas: its prefer, its providers, its name on counters and events", async () => {
  const { ws, telemetry } = await open({ persona: "fixer" });
  assert.equal(ws.compass.persona?.name, "fixer");
  assert.equal(ws.compass.sessionStart()[0]!.provider, "compass_ast_edits");
  assert.match(ws.compass.instructions(), /edit_apply_node/);
  // a header changed by text cutting through nodes: edit_safe_text_patch by default, edit_apply_node for this persona
  const r = await ws.call("edit_file", {
    path: "src/calc.ts",
    old_string: "number[]): number {\n  let sum",
    new_string: "number[]): bigint {\n  let sum",
  }, {
    dryRun: true,
  });
  assert.match(r.reminders[0]!.text, /prefer edit_apply_node/);
  assert.equal(
    telemetry.total("graver.compass.suggested", { persona: "fixer", target: "edit_apply_node" }),
    1,
  );
  await assert.rejects(() => open({ persona: "nobody" }), { code: "not_found" });
});

Deno.test("rewrite mode: a call the router does not recognise is exactly the router-off call, reminders included", async () => {
  const off = await open(false);
  const on = await open({ mode: "rewrite", reminders: { providers: { no_grammar_edit: false } } });
  const inert: [string, Record<string, unknown>][] = [
    ["read_file", { path: "src/calc.ts" }],
    ["edit_apply_node", {
      path: "src/calc.ts",
      selector: { pattern: "total([1, 2])" },
      new_text: "total([3])",
    }],
    ["replace_symbol", { path: "src/calc.ts", name_path: "LIMIT", new_text: "export const LIMIT = 0;" }],
    ["edit_file", { path: "notes.txt", old_string: "milk", new_string: "tea" }],
    ["edit_file", { path: "src/new.ts", old_string: "", new_string: "export {};\n" }],
    ["write_file", { path: "src/other.ts", content: "export const x = 1;\n" }],
    ["apply_edits", { text: "notes.txt\n<<<<<<< SEARCH\ntea\n=======\ncoffee\n>>>>>>> REPLACE\n" }],
  ];
  for (const [tool, args] of inert) {
    const a = await off.ws.call(tool, args);
    const b = await on.ws.call(tool, args);
    assert.equal(JSON.stringify(b), JSON.stringify(a), tool);
  }
  assert.deepEqual(on.ws.compass.stats(), { suggested: 0, rewritten: 0, fell_back: 0, series: [] });
  assert.equal(on.telemetry.events.filter((e) => e.name === "compass_routing_decision").length, 0);
});

Deno.test("rewrite mode does not carry a freeform edit past the definition gate", async () => {
  const { definitionGate } = await import("../../../src/tools/definition_gate_step.ts");
  const { ws, read } = await open({ mode: "rewrite" }, { steps: [definitionGate({ mode: "refuse" })] });
  // removing a whole function by text: exact and unique, so the compass swaps in edit_safe_text_patch
  const r = await ws.call("edit_file", {
    path: "src/calc.ts",
    old_string: TS.slice(0, TS.indexOf("\n\nexport const")),
    new_string: "",
  });
  assert.ok(!r.ok, JSON.stringify(r));
  assert.equal(r.error.code, "definition_gate");
  assert.match(r.error.message, /edit_file/);
  assert.equal(ws.compass.stats().rewritten, 1);
  assert.equal(await read("src/calc.ts"), TS, "nothing written");
  // the explicit text tool the agent calls itself stays ungated, as before
  const own = await ws.call("edit_safe_text_patch", {
    path: "src/calc.ts",
    hunks: [{ old_text: "let sum = 0;", new_text: "let sum = 1;" }],
  });
  assert.ok(own.ok, JSON.stringify(own));
});

Deno.test("a call-site typo fix is not named a rename, a one-line body edit not a node edit; a definition's rename and shape are", async () => {
  const go = [
    "package card",
    "",
    "type Card struct{ name string }",
    "",
    "func (c *Card) DisplayName() string { return c.name }",
    "",
    "func Show(c *Card) string {",
    "\treturn c.displayName()",
    "}",
    "",
  ].join("\n");
  const backend = createMemoryBackend({ "/w/card.go": go, "/w/src/calc.ts": TS });
  const ws = await createWorkspace({
    backend,
    root: "/w",
    wasm: createWasmLoader(),
    readGuard: "off",
    compass: { mode: "suggest" },
  });
  const router = async (tool: string, args: Record<string, unknown>) => {
    const r = await ws.call(tool, { ...args, dry_run: true });
    assert.ok(r.ok, JSON.stringify(r));
    return r.reminders.filter((x) => x.provider === "compass_router").map((x) => x.text).join("\n");
  };
  const typo = await router("edit_file", {
    path: "card.go",
    old_string: "c.displayName()",
    new_string: "c.DisplayName()",
  });
  assert.doesNotMatch(typo, /edit_rename_symbol|renamed/);
  assert.match(typo, /prefer edit_safe_text_patch/);
  const body = await router("edit_file", {
    path: "src/calc.ts",
    old_string: "let sum = 0;",
    new_string: "let sum = 1;",
  });
  assert.doesNotMatch(body, /edit_apply_node/);
  assert.match(body, /prefer edit_safe_text_patch/);
  const patch = await router("apply_edits", {
    text: "src/calc.ts\n<<<<<<< SEARCH\n  return sum;\n=======\n  return sum * 2;\n>>>>>>> REPLACE\n",
  });
  assert.doesNotMatch(patch, /edit_apply_node/);
  // A local renamed where it is declared is a definition's rename; a use of it alone is not.
  assert.match(
    await router("edit_file", {
      path: "src/calc.ts",
      old_string: "  let sum = 0;\n  for (const i of items) sum += i;\n  return sum;",
      new_string: "  let acc = 0;\n  for (const i of items) acc += i;\n  return acc;",
    }),
    /renamed "sum" to "acc".*edit_rename_symbol/,
  );
  assert.doesNotMatch(
    await router("edit_file", {
      path: "src/calc.ts",
      old_string: "  return sum;",
      new_string: "  return acc;",
    }),
    /edit_rename_symbol/,
  );
  // A definition renamed, or its shape changed, still gets the structural tool.
  assert.match(
    await router("edit_file", {
      path: "card.go",
      old_string: "func (c *Card) DisplayName()",
      new_string: "func (c *Card) Label()",
    }),
    /renamed "DisplayName" to "Label".*edit_rename_symbol/,
  );
  assert.match(
    await router("edit_file", {
      path: "src/calc.ts",
      old_string: "total(items: number[])",
      new_string: "total(items: bigint[])",
    }),
    /prefer edit_apply_node/,
  );
});
