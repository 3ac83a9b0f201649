import assert from "node:assert/strict";
import { Compass, compassMode, ROUTING_EVENT } from "../../../src/compass/compass.ts";
import type { CompassFiles, CompassSetting, FileFacts, Persona } from "../../../src/compass/types.ts";
import { versionOf } from "../../../src/fs/version.ts";
import { createMemoryBackend, createWorkspace, MemoryTelemetry, outlineOf } from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import type { ToolKind } from "../../../src/tool_kinds.ts";
import { findTool } from "../../../src/tools/catalogue.ts";

/** The kind the catalogue gives a tool (dispatch passes it to the router), for a route input. */
function kindOf(tool: string): { kind?: ToolKind } {
  const kind = findTool(tool)?.kind;
  return kind ? { kind } : {};
}

const SOURCE = "export function total(a: number) {\n  return total(a - 1) + SECRET_VALUE;\n}\n";

/** Real grammars, for the outlines the tool layer gives the compass (FileFacts.outline). */
const PARSING = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });

/** Facts over an in-memory table: path -> [language, text], each text outlined by its real grammar. */
async function filesOver(table: Record<string, [string | null, string | null]>): Promise<CompassFiles> {
  const facts = new Map<string, FileFacts>();
  for (const [path, [language, text]] of Object.entries(table)) {
    const version = text === null ? null : await versionOf(new TextEncoder().encode(text));
    const f: FileFacts = { path, language, text, version };
    if (language !== null && text !== null) {
      f.outline = async (t) =>
        (await outlineOf(PARSING, path, { text: t, version: await versionOf(new TextEncoder().encode(t)) }))
          .symbols;
    }
    facts.set(path, f);
  }
  return { facts: (p) => Promise.resolve(facts.get(p) ?? null) };
}

const FILES = await filesOver({
  "a.ts": ["typescript", SOURCE],
  "notes.txt": [null, "SECRET_VALUE\n"],
  "data.json": ["json", '{"a": 1}\n'],
  "missing.ts": ["typescript", null],
});

/** An edit that changes a definition's shape (a parameter's type), in whole nodes. */
const EDIT = {
  path: "a.ts",
  old_string: "total(a: number)",
  new_string: "total(a: bigint)",
};

/** An edit inside a body: no definition's name or shape changes. */
const BODY_EDIT = {
  path: "a.ts",
  old_string: "total(a - 1) + SECRET_VALUE",
  new_string: "total(a - 2) + SECRET_VALUE",
};

function open(setting: CompassSetting, persona: Persona | null = null) {
  const telemetry = new MemoryTelemetry();
  return { telemetry, compass: new Compass({ setting, persona, telemetry }) };
}

Deno.test("compassMode() and the off spellings: nothing is observed, counted or reminded", async () => {
  assert.equal(compassMode(undefined), "suggest");
  assert.equal(compassMode({}, { name: "p", compass: { mode: "rewrite" } }), "rewrite");
  assert.equal(compassMode({ mode: "suggest" }, { name: "p", compass: { mode: "rewrite" } }), "suggest");
  for (const setting of [false, { enabled: false }, { mode: "off" }] as CompassSetting[]) {
    const { compass, telemetry } = open(setting);
    assert.equal(compass.mode, "off");
    const out = await compass.route(
      { tool: "edit_file", ...kindOf("edit_file"), args: EDIT, session: "s" },
      FILES,
    );
    assert.deepEqual(out, { decision: null, reminders: [] }, JSON.stringify(setting));
    const nog = await compass.route(
      { tool: "edit_file", ...kindOf("edit_file"), args: { ...EDIT, path: "notes.txt" }, session: "s" },
      FILES,
    );
    assert.deepEqual(nog.reminders, [], "conditional providers are off too");
    assert.equal(telemetry.events.length, 0);
    assert.deepEqual(compass.stats(), { suggested: 0, rewritten: 0, fell_back: 0, series: [] });
  }
});

Deno.test("unconfigured, the compass routes only calls that name a session", async () => {
  const { compass } = open(undefined);
  assert.ok(!compass.configured);
  assert.deepEqual(
    await compass.route({ tool: "edit_file", ...kindOf("edit_file"), args: EDIT, session: "default" }, FILES),
    {
      decision: null,
      reminders: [],
    },
  );
  const out = await compass.route({
    tool: "edit_file",
    ...kindOf("edit_file"),
    args: EDIT,
    session: "agent-1",
  }, FILES);
  assert.equal(out.decision?.action, "suggested");
  assert.ok(open({}).compass.routesFor("default"), "configured: every call");
  assert.ok(new Compass({ persona: { name: "p" } }).routesFor("default"), "a persona configures it");
});

Deno.test("suggest: one reminder naming the primitive; the call is not rewritten; counted and reported", async () => {
  const { compass, telemetry } = open({ mode: "suggest" });
  const out = await compass.route(
    { tool: "edit_file", ...kindOf("edit_file"), args: EDIT, session: "s" },
    FILES,
  );
  assert.equal(out.rewrite, undefined);
  assert.deepEqual(out.decision, {
    toolCallId: "s:1",
    mode: "suggest",
    action: "suggested",
    persona: "none",
    originalTool: "edit_file",
    routedTool: "edit_file",
    targetTool: "edit_apply_node",
    path: "a.ts",
  });
  assert.equal(out.reminders.length, 1);
  assert.equal(out.reminders[0]!.provider, "compass_router");
  assert.equal(out.reminders[0]!.preserve_on_compact, false);
  assert.match(out.reminders[0]!.text, /^edit_file edited "a\.ts" by matching text\. .*edit_apply_node/);
  assert.equal(
    telemetry.total("graver.compass.suggested", {
      persona: "none",
      tool: "edit_file",
      target: "edit_apply_node",
    }),
    1,
  );
  assert.deepEqual(telemetry.events, [{ name: ROUTING_EVENT, attributes: { ...out.decision } }]);
  assert.equal(compass.stats().suggested, 1);
});

Deno.test("each shape maps to its primitive", async () => {
  const { compass } = open({});
  const target = async (
    tool: string,
    args: Record<string, unknown>,
    edits?: { paths: string[]; hunks?: Record<string, { oldText: string; newText: string }[]> },
  ) =>
    (await compass.route({
      tool,
      ...kindOf(tool),
      args,
      session: "s",
      ...(edits ? { editPaths: edits.paths, ...(edits.hunks ? { editHunks: edits.hunks } : {}) } : {}),
    }, FILES)).decision?.targetTool;
  assert.equal(await target("edit_file", EDIT), "edit_apply_node", "a header changed, in whole nodes: nodes");
  assert.equal(
    await target("edit_file", { path: "a.ts", old_string: "function total(", new_string: "function sum(" }),
    "edit_rename_symbol",
    "a definition renamed",
  );
  assert.equal(
    await target("edit_file", {
      path: "a.ts",
      old_string: "}\n",
      new_string: "}\n\nexport function twice(n: number) {\n  return n * 2;\n}\n",
    }),
    "edit_insert_at_anchor",
    "a definition added after the old text",
  );
  assert.equal(
    await target("edit_file", {
      path: "a.ts",
      old_string: "total(a: number) {\n  return",
      new_string: "total(a: bigint) {\n  void",
    }),
    "edit_safe_text_patch",
    "a header changed by text cutting through nodes",
  );
  assert.equal(await target("write_file", { path: "a.ts", content: "x" }), "edit_apply_node");
  assert.equal(await target("create_file", { path: "a.ts", content: "x" }), "edit_apply_node");
  assert.equal(
    await target("write_file", { path: "a.ts", content: SOURCE.replace("a - 1", "a - 2") }),
    "edit_safe_text_patch",
    "a whole-file write that changes a body only",
  );
  assert.equal(
    await target("apply_edits", { text: "…" }, {
      paths: ["notes.txt", "a.ts"],
      hunks: { "a.ts": [{ oldText: "(a: number)", newText: "(a: number, b: number)" }] },
    }),
    "edit_apply_node",
  );
  assert.equal(
    await target("apply_edits", { text: "…" }, {
      paths: ["a.ts"],
      hunks: { "a.ts": [{ oldText: "a - 1", newText: "a - 2" }] },
    }),
    "edit_safe_text_patch",
    "an apply_edits text that edits a body",
  );
  assert.equal(
    await target("apply_edits", { text: "…" }, { paths: ["a.ts"] }),
    "edit_safe_text_patch",
    "unknown",
  );
  assert.equal(
    await target("edit_safe_text_patch", { path: "a.ts", hunks: [{ old_text: "total", new_text: "sum" }] }),
    "edit_rename_symbol",
  );
  assert.equal(
    await target("edit_safe_text_patch", {
      path: "a.ts",
      hunks: [{ old_text: "{\n  return", new_text: "{ return" }],
    }),
    undefined,
    "the call already is the primitive the compass would name: inert",
  );
  // rename needs a rename-capable language: JSON has a grammar, not renames
  assert.equal(
    await target("edit_file", { path: "data.json", old_string: '"a"', new_string: '"b"' }),
    "edit_apply_node",
  );
});

Deno.test("a call-site typo fix is not a rename and a one-line body edit is not a node edit: the text patch is named", async () => {
  const { compass } = open({});
  const target = async (args: Record<string, unknown>) =>
    (await compass.route({ tool: "edit_file", ...kindOf("edit_file"), args, session: "s" }, FILES)).decision
      ?.targetTool;
  assert.equal(
    await target({ path: "a.ts", old_string: "return total(a - 1)", new_string: "return sum(a - 1)" }),
    "edit_safe_text_patch",
    "one identifier changed at a call site: no definition renamed",
  );
  assert.equal(await target(BODY_EDIT), "edit_safe_text_patch", "a one-line body edit");
  assert.equal(
    await target({ path: "a.ts", old_string: "  return", new_string: "  debugger;\n  return" }),
    "edit_safe_text_patch",
    "a statement added to a body",
  );
  const text =
    (await compass.route({ tool: "edit_file", ...kindOf("edit_file"), args: BODY_EDIT, session: "s" }, FILES))
      .reminders[0]!.text;
  assert.match(
    text,
    /^edit_file edited "a\.ts" by matching text\. For a text edit, prefer edit_safe_text_patch/,
  );
});

Deno.test("inert (no decision, nothing counted) for no-grammar files, missing files, structural calls, odd shapes", async () => {
  const { compass, telemetry } = open({ mode: "rewrite" });
  const calls: [string, Record<string, unknown>][] = [
    ["edit_file", { ...EDIT, path: "notes.txt" }],
    ["edit_file", { ...EDIT, path: "missing.ts" }],
    ["edit_file", { ...EDIT, path: "../outside.ts" }],
    ["edit_apply_node", { path: "a.ts", selector: { pattern: "total($A)" }, new_text: "sum($A)" }],
    ["replace_symbol", { path: "a.ts", name_path: "total", new_text: "x" }],
    ["edit_file", { path: "a.ts", old_string: "", new_string: "x" }],
    ["read_file", { path: "a.ts" }],
  ];
  for (const [tool, args] of calls) {
    const out = await compass.route({ tool, ...kindOf(tool), args, session: "s" }, FILES);
    assert.equal(out.decision, null, tool);
    assert.equal(out.rewrite, undefined);
  }
  assert.deepEqual(compass.stats(), { suggested: 0, rewritten: 0, fell_back: 0, series: [] });
  assert.equal(telemetry.events.length, 0);
});

Deno.test("rewrite: an exact single match becomes edit_safe_text_patch pinned to the version read", async () => {
  const { compass, telemetry } = open({ mode: "rewrite" });
  const version = (await FILES.facts("a.ts"))!.version!;
  const out = await compass.route({
    tool: "edit_file",
    ...kindOf("edit_file"),
    args: { ...EDIT, dry_run: true, syntax_guard: "warn", start_line: 2 },
    session: "s",
  }, FILES);
  assert.equal(out.decision?.action, "rewritten");
  assert.equal(out.decision?.routedTool, "edit_safe_text_patch");
  assert.deepEqual(out.rewrite, {
    tool: "edit_safe_text_patch",
    args: {
      path: "a.ts",
      hunks: [{ old_text: EDIT.old_string, new_text: EDIT.new_string }],
      expected_hash: version,
      dry_run: true,
      syntax_guard: "warn",
    },
  });
  assert.deepEqual(out.reminders, [], "silent");
  assert.equal(telemetry.total("graver.compass.rewritten", { target: "edit_safe_text_patch" }), 1);
  // the caller's own expected_version, when it names the version read, is kept as the pin
  const pinned = await compass.route({
    tool: "edit_file",
    ...kindOf("edit_file"),
    args: { ...EDIT, expected_version: version.slice(0, 16) },
    session: "s",
  }, FILES);
  assert.equal(pinned.decision?.action, "rewritten");
});

Deno.test("rewrite falls back to a suggestion when equivalence is not provable", async () => {
  const { compass, telemetry } = open({ mode: "rewrite" });
  const cases: [string, Record<string, unknown>, string][] = [
    [
      "edit_file",
      { path: "a.ts", old_string: "function total(", new_string: "function sum(" },
      "edit_rename_symbol",
    ],
    ["edit_file", { path: "a.ts", old_string: "total", new_string: "total2 " }, "edit_insert_at_anchor"], // 2 matches
    [
      "edit_file",
      { path: "a.ts", old_string: "  return  total(a - 1)", new_string: "return 0" },
      "edit_safe_text_patch",
    ], // ladder: not in the file as written, so no definition change is known
    ["edit_file", { ...EDIT, expected_version: "0".repeat(64) }, "edit_apply_node"], // stale: edit_file refuses itself
    ["write_file", { path: "a.ts", content: "x" }, "edit_apply_node"],
    [
      "edit_safe_text_patch",
      { path: "a.ts", hunks: [{ old_text: "a: number", new_text: "a: bigint" }] },
      "edit_apply_node",
    ],
    ["str_replace", EDIT, "edit_apply_node"], // a str_replace shape of an unknown matcher
  ];
  for (const [tool, args, target] of cases) {
    const out = await compass.route({ tool, ...kindOf(tool), args, session: "s" }, FILES);
    assert.equal(out.decision?.action, "fell_back", JSON.stringify(args));
    assert.equal(out.decision?.targetTool, target, JSON.stringify(args));
    assert.equal(out.decision?.routedTool, tool);
    assert.equal(out.rewrite, undefined);
    assert.equal(out.reminders.length, 1);
  }
  assert.equal(telemetry.total("graver.compass.fell_back"), cases.length);
  assert.equal(compass.stats().fell_back, cases.length);
});

Deno.test("prefer orders the named primitive: option over persona over the default", async () => {
  const route = async (setting: CompassSetting, persona: Persona | null, args: Record<string, unknown>) =>
    (await new Compass({ setting, persona }).route({
      tool: "edit_file",
      ...kindOf("edit_file"),
      args,
      session: "s",
    }, FILES)).decision
      ?.targetTool;
  const cut = { path: "a.ts", old_string: "number) {\n  return", new_string: "bigint) {\n  void" };
  assert.equal(await route({}, null, cut), "edit_safe_text_patch");
  const nodes: Persona = { name: "fixer", edit_strategy: { prefer: ["edit_apply_node"] } };
  assert.equal(
    await route({}, nodes, cut),
    "edit_apply_node",
    "the persona nudges a plain hunk toward nodes",
  );
  assert.equal(
    await route({ prefer: ["edit_safe_text_patch"] }, nodes, EDIT),
    "edit_safe_text_patch",
    "option wins",
  );
  assert.equal(await route({ prefer: ["replace_symbol", "edit_apply_node"] }, null, EDIT), "replace_symbol");
  assert.equal(
    await route({ prefer: ["edit_rename_symbol"] }, null, EDIT),
    "edit_apply_node",
    "not a candidate: ignored",
  );
  const c = new Compass({ setting: {}, persona: nodes });
  await c.route({ tool: "edit_file", ...kindOf("edit_file"), args: cut, session: "s" }, FILES);
  assert.deepEqual(c.stats().series, [{
    name: "graver.compass.suggested",
    attributes: { persona: "fixer", tool: "edit_file", target: "edit_apply_node" },
    value: 1,
  }]);
});

Deno.test("events carry routing metadata only, never file contents or edit text", async () => {
  const { compass, telemetry } = open({ mode: "rewrite" });
  await compass.route({ tool: "edit_file", ...kindOf("edit_file"), args: EDIT, session: "s" }, FILES);
  await compass.route(
    {
      tool: "write_file",
      ...kindOf("write_file"),
      args: { path: "a.ts", content: "SECRET_VALUE" },
      session: "s",
    },
    FILES,
  );
  await compass.route({
    tool: "apply_edits",
    ...kindOf("apply_edits"),
    args: { text: "SECRET_VALUE" },
    session: "s",
    editPaths: ["a.ts"],
  }, FILES);
  assert.equal(telemetry.events.length, 3);
  for (const e of telemetry.events) {
    assert.deepEqual(Object.keys(e.attributes).sort(), [
      "action",
      "mode",
      "originalTool",
      "path",
      "persona",
      "routedTool",
      "targetTool",
      "toolCallId",
    ]);
    const text = JSON.stringify(e);
    assert.ok(!text.includes("SECRET_VALUE") && !text.includes("a - 1") && !text.includes("total"), text);
  }
});

Deno.test("counts through an OpenTelemetry-shaped meter too", async () => {
  const added: [string, number, Record<string, string> | undefined][] = [];
  const meter = {
    createCounter: (name: string) => ({
      add: (v: number, a?: Record<string, string>) => added.push([name, v, a]),
    }),
  };
  const compass = new Compass({ setting: { meter } }); // as `createWorkspace({ compass: { meter } })` passes it
  await compass.route({ tool: "edit_file", ...kindOf("edit_file"), args: EDIT, session: "s" }, FILES);
  assert.deepEqual(added, [["graver.compass.suggested", 1, {
    persona: "none",
    tool: "edit_file",
    target: "edit_apply_node",
  }]]);
});

Deno.test("session start: the enabled standing reminders, also as MCP instructions; providers listed", () => {
  assert.deepEqual(new Compass({ setting: {} }).sessionStart(), []);
  assert.equal(new Compass({ setting: {} }).instructions(), "");
  const on = new Compass({ setting: { reminders: { providers: { compass_ast_edits: true } } } });
  const [r] = on.sessionStart({ session: "s", resume: true });
  assert.equal(r!.provider, "compass_ast_edits");
  assert.equal(on.instructions(), r!.text);
  const persona = new Compass({
    persona: { name: "coder", reminders: { providers: { compass_ast_edits: true } } },
  });
  assert.equal(persona.sessionStart().length, 1, "a persona turns it on");
  const overridden = new Compass({
    setting: { reminders: { providers: { compass_ast_edits: false } } },
    persona: { name: "coder", reminders: { providers: { compass_ast_edits: true } } },
  });
  assert.equal(overridden.sessionStart().length, 0, "the option wins over the persona");
  assert.deepEqual(on.providers().map((p) => [p.id, p.enabled]), [
    ["compass_ast_edits", true],
    ["no_grammar_edit", true],
    ["repeated_no_match", true],
  ]);
  // off router: only explicitly enabled providers speak
  const off = new Compass({
    setting: { mode: "off", reminders: { providers: { compass_ast_edits: true } } },
  });
  assert.equal(off.sessionStart().length, 1);
  assert.deepEqual(
    off.observe({ session: "s", tool: "edit_file", ok: false, code: "no_match", path: "a.ts" }),
    [],
  );
  assert.deepEqual(
    off.observe({ session: "s", tool: "edit_file", ok: false, code: "no_match", path: "a.ts" }),
    [],
  );
});
