import assert from "node:assert/strict";
import { Stage } from "../../../../src/fs/stage.ts";
import { openBound } from "../../../../src/structural/shared/bound_source.ts";
import { dataFlow, scopeOfNode } from "../../../../src/structural/shared/data_flow.ts";
import { statementsInRange } from "../../../../src/structural/shared/statement_ranges.ts";
import { workspaceWith } from "../_fixtures.ts";

/** The data flow of lines `from..to` of a one-file workspace, the new function going to the module. */
async function flowOf(path: string, text: string, [from, to]: [number, number]) {
  const ws = await workspaceWith({ [path]: text });
  const { file, fb, rules } = await openBound(ws, new Stage(ws.fs, ws.sandbox), {
    path,
    tool: "t",
    doing: "extracting",
    languages: ["typescript", "python"],
  });
  const run = statementsInRange(file, rules, { start_line: from, end_line: to });
  return dataFlow(file, fb, { run, rules, outer: scopeOfNode(fb, file.tree.rootNode) });
}

const TS = [
  "function f(a: number, b: number): number {", // 1
  "  const c = a * 2;", // 2
  "  let d = c + b;", // 3
  "  d += 1;", // 4
  "  return d + c;", // 5
  "}", // 6
  "",
].join("\n");

Deno.test("dataFlow() passes in what the statements read from before them, returns what is read after them", async () => {
  const flow = await flowOf("f.ts", TS, [2, 4]);
  const by = (pick: (v: { param: boolean; output: boolean }) => boolean) =>
    flow.variables.filter(pick).map((v) => v.name);
  assert.deepEqual(by((v) => v.param), ["a", "b"]);
  assert.deepEqual(by((v) => v.output), ["c", "d"]);
  assert.deepEqual(flow.variables.filter((v) => v.declared).map((v) => v.name), ["c", "d"]);
});

Deno.test("dataFlow() in Python: a module name the statements assign is declared global in the new function", async () => {
  const py = [
    "count = 0", // 1
    "def add(x):", // 2
    "    global count", // 3
    "    count += x", // 4
    "    return count", // 5
    "",
  ].join("\n");
  const flow = await flowOf("m.py", py, [4, 4]);
  assert.deepEqual(flow.globals, ["count"]);
  assert.deepEqual(flow.nonlocals, []);
  assert.deepEqual(flow.variables.filter((v) => v.param).map((v) => v.name), ["x"]);
});
