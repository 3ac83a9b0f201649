import assert from "node:assert/strict";
import { RecoverableError } from "../../../../src/errors.ts";
import { versionOf } from "../../../../src/fs/version.ts";
import { type FileBindings, fileBindings } from "../../../../src/syntax/bindings.ts";
import {
  targetOccurrence,
  unresolvedTarget,
} from "../../../../src/structural/references/reference_target.ts";
import { workspaceWith } from "../_fixtures.ts";

const TEXT = [
  "export class Box {",
  "  size = 0;",
  "  grow(by: number): number {",
  "    const next = this.size + by;",
  "    return next;",
  "  }",
  "}",
  "",
].join("\n");

async function bindingsOf(text: string): Promise<FileBindings> {
  const ws = await workspaceWith({ "box.ts": text });
  const fb = await fileBindings(ws, {
    path: "box.ts",
    language: "typescript",
    version: await versionOf(new TextEncoder().encode(text)),
    text,
  });
  assert.ok(fb);
  return fb;
}

Deno.test("targetOccurrence() finds a name path's declaration and the name at a line and column", async () => {
  const fb = await bindingsOf(TEXT);
  const ws = await workspaceWith({ "box.ts": TEXT });
  const grow = await targetOccurrence(ws, fb, { target: "Box/grow", tool: "test" });
  assert.deepEqual([grow.name, grow.kind, grow.start], ["grow", "member_definition", TEXT.indexOf("grow")]);
  // line 5 `    return next;`: column 12 is inside `next`
  const next = await targetOccurrence(ws, fb, { target: { line: 5, column: 12 }, tool: "test" });
  assert.equal(next.name, "next");
  assert.equal(next.binding?.name, "next");
});

Deno.test("targetOccurrence() refuses a position that holds no name, naming the names on that line", async () => {
  const fb = await bindingsOf(TEXT);
  const ws = await workspaceWith({ "box.ts": TEXT });
  await assert.rejects(
    () => targetOccurrence(ws, fb, { target: { line: 4, column: 1 }, tool: "test" }),
    (e: unknown) =>
      e instanceof RecoverableError && e.code === "not_found" &&
      /names on that line: next \(column 11\)/.test(e.message),
  );
  await assert.rejects(
    () => targetOccurrence(ws, fb, { target: { line: 40, column: 1 }, tool: "test" }),
    (e: unknown) => e instanceof RecoverableError && /the file has 7 line\(s\)/.test(e.message),
  );
});

Deno.test("unresolvedTarget() names the file, the line and column, and what to target instead", async () => {
  const fb = await bindingsOf(TEXT);
  const occ = fb.occurrences.find((o) => o.name === "size")!;
  const e = unresolvedTarget("box.ts", occ, { at: { line: 2, column: 3 }, why: "a member" });
  assert.equal(e.code, "unresolved");
  assert.match(e.message, /"size" at "box\.ts" line 2 column 3: a member/);
  assert.match(e.hint ?? "", /Target the declaration/);
});

Deno.test("a name path the outline lists but whose references are not followed says so, and what to call", async () => {
  const text = "pub trait Stack {\n    type Item;\n    fn push(&mut self, item: Self::Item);\n}\n";
  const ws = await workspaceWith({ "lib.rs": text });
  const fb = await fileBindings(ws, {
    path: "lib.rs",
    language: "rust",
    version: await versionOf(new TextEncoder().encode(text)),
    text,
  });
  assert.ok(fb);
  const err = await targetOccurrence(ws, fb, { target: "Stack/Item", tool: "test" }).then(
    () => assert.fail("an associated type is not followed"),
    (e: unknown) => e,
  );
  assert.ok(err instanceof RecoverableError);
  assert.equal(err.code, "unresolved");
  assert.match(err.message, /"Stack\/Item" \(type, "lib\.rs" line 2\).*follows no references/);
  assert.deepEqual(err.suggestedCall, { tool: "search_text", args: { pattern: "Item", word: true } });
});
