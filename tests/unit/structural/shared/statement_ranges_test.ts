import assert from "node:assert/strict";
import { RecoverableError } from "../../../../src/errors.ts";
import { Stage } from "../../../../src/fs/stage.ts";
import { openBound } from "../../../../src/structural/shared/bound_source.ts";
import {
  familyOf,
  flowFacts,
  lineOf,
  statementsInRange,
} from "../../../../src/structural/shared/statement_ranges.ts";
import { workspaceWith } from "../_fixtures.ts";

const TS = [
  "function f(xs: number[]): number {", // 1
  "  let total = 0;", // 2
  "  // add them", // 3
  "  for (const x of xs) {", // 4
  "    if (x < 0) break;", // 5
  "    total += x;", // 6
  "  }", // 7
  "  return total;", // 8
  "}", // 9
  "",
].join("\n");

async function opened(path: string, text: string) {
  const ws = await workspaceWith({ [path]: text });
  return await openBound(ws, new Stage(ws.fs, ws.sandbox), {
    path,
    tool: "t",
    doing: "extracting",
    languages: ["typescript", "go"],
  });
}

Deno.test("statementsInRange() takes the whole sibling statements of a range, loose comments trimmed", async () => {
  const { file, rules } = await opened("f.ts", TS);
  const run = statementsInRange(file, rules, { start_line: 2, end_line: 7 });
  assert.equal(run.container.type, "statement_block");
  assert.deepEqual(run.statements.filter((s) => s.type !== "comment").map((s) => s.type), [
    "lexical_declaration",
    "for_in_statement",
  ]);
  assert.deepEqual([lineOf(TS, run.start), lineOf(TS, run.end)], [2, 7]);
});

Deno.test("statementsInRange() refuses a range that cuts a statement, and one with no statement", async () => {
  const { file, rules } = await opened("f.ts", TS);
  const cut = (start_line: number, end_line: number) => () =>
    Promise.resolve().then(() => statementsInRange(file, rules, { start_line, end_line }));
  await assert.rejects(cut(4, 5), (e: unknown) => e instanceof RecoverableError && e.code === "invalid_args");
  await assert.rejects(
    cut(3, 3),
    (e: unknown) => e instanceof RecoverableError && /hold no statement/.test(e.message),
  );
  await assert.rejects(
    cut(6, 2),
    (e: unknown) => e instanceof RecoverableError && /before start_line/.test(e.message),
  );
});

Deno.test("flowFacts() finds the jumps that leave the statements and the returns of the function", async () => {
  const { file, rules } = await opened("f.ts", TS);
  const inner = flowFacts(statementsInRange(file, rules, { start_line: 5, end_line: 6 }), rules);
  assert.deepEqual(inner.escapes.map((n) => n.type), ["break_statement"]);
  const whole = flowFacts(statementsInRange(file, rules, { start_line: 4, end_line: 8 }), rules);
  assert.deepEqual(whole.escapes, []);
  assert.equal(whole.returns.length, 1);
  assert.equal(whole.awaits, false);
});

Deno.test("familyOf() is the profile's flow rules; Go's defer is a fact of the statements", async () => {
  assert.equal(familyOf("tsx")?.family, "ecmascript");
  assert.equal(familyOf("lua"), null);
  const go = "package m\n\nfunc f() {\n\tdefer g()\n\tg()\n}\n\nfunc g() {}\n";
  const { file, rules } = await opened("m.go", go);
  const facts = flowFacts(statementsInRange(file, rules, { start_line: 4, end_line: 5 }), rules);
  assert.equal(facts.defers.length, 1);
});
