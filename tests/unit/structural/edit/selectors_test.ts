import assert from "node:assert/strict";
import { RecoverableError, type Workspace } from "../../../../src/mod.ts";
import { Stage } from "../../../../src/fs/stage.ts";
import { selectTargets } from "../../../../src/structural/edit/selectors.ts";
import { loadSource } from "../../../../src/structural/edit/source.ts";
import { fixtureWorkspace, workspaceWith } from "../_fixtures.ts";

async function open(ws: Workspace, path: string) {
  const stage = new Stage(ws.fs, ws.sandbox);
  return await loadSource(ws, stage, { path, tool: "test" });
}

function rejectsWith(code: string) {
  return (e: unknown) => e instanceof RecoverableError && e.code === code && e.hint.length > 0;
}

Deno.test("selectTargets() resolves a tree-sitter query capture and reports every candidate when ambiguous", async () => {
  const ws = await fixtureWorkspace(["analyze.go"]);
  const file = await open(ws, "analyze.go");
  const query =
    '((call_expression function: (selector_expression field: (field_identifier) @f)) @call (#eq? @f "Exit"))';
  await assert.rejects(
    selectTargets(ws, file, { selector: { query } }),
    (e) =>
      rejectsWith("invalid_query")(e) &&
      [...((e as RecoverableError).details!["captures"] as string[])].sort().join() === "call,f",
  );
  let err: RecoverableError | undefined;
  try {
    await selectTargets(ws, file, { selector: { query, capture: "call" } });
  } catch (e) {
    err = e as RecoverableError;
  }
  assert.equal(err?.code, "ambiguous");
  const cands = err!.details!["candidates"] as { start_line: number; snippet: string }[];
  assert.deepEqual(cands.map((c) => c.start_line), [41, 99, 134, 155]);
  assert.deepEqual(cands.map((c) => c.snippet), ["os.Exit(1)", "os.Exit(1)", "os.Exit(0)", "os.Exit(0)"]);
  const first = await selectTargets(ws, file, { selector: { query, capture: "call" }, select: "first" });
  assert.equal(first.targets[0]!.node.startPosition.row + 1, 41);
  const all = await selectTargets(ws, file, { selector: { query, capture: "call" }, select: "all" });
  assert.equal(all.targets.length, 4);
  assert.equal(all.total, 4);
  const nth = await selectTargets(ws, file, { selector: { query, capture: "call" }, select: "nth", n: 2 });
  assert.equal(nth.targets[0]!.node.startPosition.row + 1, 99);
  await assert.rejects(
    selectTargets(ws, file, { selector: { query, capture: "call" }, select: "nth", n: 5 }),
    rejectsWith("no_match"),
  );
});

Deno.test("selectTargets() refuses a bad query with invalid_query and the position of the error", async () => {
  const ws = await fixtureWorkspace(["dereference.ts"]);
  const file = await open(ws, "dereference.ts");
  let err: RecoverableError | undefined;
  try {
    await selectTargets(ws, file, { selector: { query: "(function_declaration\n  name: (identifer) @n)" } });
  } catch (e) {
    err = e as RecoverableError;
  }
  assert.equal(err?.code, "invalid_query");
  assert.equal(err!.details!["line"], 2);
  assert.equal(err!.details!["column"], 10);
  assert.equal(err!.details!["word"], "identifer");
  await assert.rejects(
    selectTargets(ws, file, { selector: { query: "(function_declaration)" } }),
    rejectsWith("invalid_query"),
  );
  await assert.rejects(
    selectTargets(ws, file, { selector: { query: "(function_declaration) @f", capture: "g" } }),
    rejectsWith("invalid_query"),
  );
});

Deno.test("selectTargets() answers no_match with the nearest nodes for a pattern, and with did-you-mean for a name path", async () => {
  const ws = await fixtureWorkspace(["MSVSUserFile.py"]);
  const file = await open(ws, "MSVSUserFile.py");
  let err: RecoverableError | undefined;
  try {
    await selectTargets(ws, file, { selector: { pattern: "os.path.join(path, $X, $Y)" } });
  } catch (e) {
    err = e as RecoverableError;
  }
  assert.equal(err?.code, "no_match");
  const nearest = err!.details!["nearest"] as { start_line: number; snippet: string }[];
  assert.equal(nearest[0]!.snippet, "os.path.join(path, command)");
  assert.equal(nearest[0]!.start_line, 32);
  try {
    await selectTargets(ws, file, { selector: "Writer/AddConfg" });
  } catch (e) {
    err = e as RecoverableError;
  }
  assert.equal(err?.code, "no_match");
  assert.ok((err!.details!["did_you_mean"] as string[]).includes("Writer/AddConfig"));
});

Deno.test("selectTargets() resolves name paths to the definition with its decorations and doc comment", async () => {
  const ws = await fixtureWorkspace(["lib.rs", "Find-VisualStudio.cs"]);
  const rs = await open(ws, "lib.rs");
  const [t] = (await selectTargets(ws, rs, { selector: "tests/can_load_grammar" })).targets;
  assert.equal(t!.node.type, "function_item");
  assert.equal(rs.text.slice(t!.fullStart, t!.start).trim(), "#[test]");
  const cs = await open(ws, "Find-VisualStudio.cs");
  const [i] = (await selectTargets(ws, cs, { selector: { name_path: "IEnumSetupInstances" } })).targets;
  // C# attributes are inside the declaration node: the selected span starts with them.
  assert.match(
    cs.text.slice(i!.fullStart, i!.end),
    /^\[Guid\("6380BCFF[^]*public interface IEnumSetupInstances/,
  );
});

Deno.test("selectTargets() takes in decorations and doc comments of a node found by a query", async () => {
  const ws = await fixtureWorkspace(["lib.rs"]);
  const file = await open(ws, "lib.rs");
  const [t] = (await selectTargets(ws, file, {
    selector: {
      query: '((function_item name: (identifier) @n) @f (#eq? @n "language"))',
      capture: "f",
    },
  }))
    .targets;
  assert.match(file.text.slice(t!.fullStart, t!.start), /^\/\/\/ Returns the tree-sitter/);
});

Deno.test("selectTargets() refuses files with no grammar, naming edit_safe_text_patch", async () => {
  const ws = await workspaceWith({ "notes.txt": "hello\n" });
  const stage = new Stage(ws.fs, ws.sandbox);
  await assert.rejects(loadSource(ws, stage, { path: "notes.txt", tool: "edit_apply_node" }), (e) => {
    assert.ok(e instanceof RecoverableError);
    assert.equal(e.code, "unsupported_language");
    assert.equal(e.suggestedCall?.tool, "edit_safe_text_patch");
    return true;
  });
});

Deno.test("selectTargets() refuses a selector with no kind or two kinds", async () => {
  const ws = await fixtureWorkspace(["lib.rs"]);
  const file = await open(ws, "lib.rs");
  await assert.rejects(selectTargets(ws, file, { selector: {} }), rejectsWith("invalid_args"));
  await assert.rejects(
    selectTargets(ws, file, { selector: { pattern: "fn $F() {}", name_path: "x" } }),
    rejectsWith("invalid_args"),
  );
});

Deno.test("selectTargets() narrows a pattern or query to the symbol named by within", async () => {
  const ws = await fixtureWorkspace(["analyze.go"]);
  const file = await open(ws, "analyze.go");
  await assert.rejects(
    selectTargets(ws, file, { selector: { pattern: "os.Exit($X)" } }),
    rejectsWith("ambiguous"),
  );
  const inParse = await selectTargets(ws, file, { selector: { pattern: "os.Exit($X)", within: "parse" } });
  assert.deepEqual(inParse.targets.map((t) => t.node.startPosition.row + 1), [41]);
  await assert.rejects(
    selectTargets(ws, file, { selector: { pattern: "os.Exit($X)", within: "visit" } }),
    rejectsWith("no_match"),
  );
  const inMain = await selectTargets(ws, file, {
    selector: { pattern: "os.Exit($X)", within: "main" },
    select: "all",
  });
  assert.deepEqual(inMain.targets.map((t) => t.node.startPosition.row + 1), [99, 134, 155]);
  const q = await selectTargets(ws, file, {
    selector: { query: "(call_expression) @c", within: "parse" },
    select: "all",
  });
  assert.ok(q.targets.every((t) => t.node.startPosition.row + 1 >= 36 && t.node.startPosition.row + 1 <= 45));
  await assert.rejects(
    selectTargets(ws, file, { selector: { pattern: "os.Exit($X)", within: "mian" } }),
    rejectsWith("no_match"),
  );
});

Deno.test("selectTargets() evaluates a query's #match? in linear time, and refuses look-around", async () => {
  const ws = await workspaceWith({ "m.ts": `const ${"a".repeat(80)} = 1;\nconst aac = 2;\n` });
  const file = await open(ws, "m.ts");
  const query = '((identifier) @id (#match? @id "^(a|aa)+c$"))';
  const found = await selectTargets(ws, file, { selector: { query } });
  assert.deepEqual(found.targets.map((t) => t.node.text), ["aac"]);
  await assert.rejects(
    selectTargets(ws, file, { selector: { query: '((identifier) @id (#match? @id "a(?=c)"))' } }),
    (e) => rejectsWith("invalid_query")(e) && /look-ahead/.test((e as RecoverableError).message),
  );
});
