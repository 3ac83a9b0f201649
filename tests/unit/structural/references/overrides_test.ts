import assert from "node:assert/strict";
import { RecoverableError } from "../../../../src/errors.ts";
import { Stage } from "../../../../src/fs/stage.ts";
import { versionOf } from "../../../../src/fs/version.ts";
import { type FileBindings, fileBindings } from "../../../../src/syntax/bindings.ts";
import { checkMemberOverrides } from "../../../../src/structural/references/overrides.ts";
import { workspaceWith } from "../_fixtures.ts";

const SHAPES = [
  "class Shape {", // 1
  "  area(): number { return 0; }", // 2
  "  label(): string { return 'shape'; }", // 3
  "}", // 4
  "class Square extends Shape {", // 5
  "  override area(): number { return 4; }", // 6
  "  side(): number { return 2; }", // 7
  "}", // 8
  "",
].join("\n");

/** The subject of a member of a one-file workspace (`path`'s language), its class the innermost around it. */
async function subjectOf(path: string, text: string, member: string) {
  const ws = await workspaceWith({ [path]: text });
  const fb: FileBindings = (await fileBindings(ws, {
    path,
    language: path.endsWith(".py") ? "python" : "typescript",
    version: await versionOf(new TextEncoder().encode(text)),
    text,
  }))!;
  const occ = fb.occurrences.find((o) =>
    o.name === member && (o.kind === "member_definition" || o.kind === "definition")
  )!;
  const classScope = fb.scopes.filter((s) => s.kind === "class" && s.start <= occ.start && occ.end <= s.end)
    .at(-1)!;
  const line = text.slice(0, occ.start).split("\n").length;
  const subject = { name: member, line, kind: "member" as const, classScope, override: false };
  return { ws, stage: new Stage(ws.fs, ws.sandbox), fb, subject };
}

const options = { tool: "t", action: "rename", hint: "Rename it by hand across the hierarchy" };

Deno.test("checkMemberOverrides() refuses a member a subclass overrides, and one marked override", async () => {
  const area = await subjectOf("shapes.ts", SHAPES, "area");
  await assert.rejects(
    () => checkMemberOverrides(area.ws, area.stage, { fb: area.fb, subject: area.subject, ...options }),
    (e: unknown) =>
      e instanceof RecoverableError && e.code === "overrides_present" &&
      /Cannot rename "area"/.test(e.message),
  );
  await assert.rejects(
    () =>
      checkMemberOverrides(area.ws, area.stage, {
        fb: area.fb,
        subject: { ...area.subject, override: true },
        ...options,
      }),
    (e: unknown) => e instanceof RecoverableError && /marked override/.test(e.message),
  );
});

Deno.test("checkMemberOverrides() refuses a protocol method the runtime calls itself", async () => {
  const py = "class P:\n    def __eq__(self, other):\n        return True\n";
  const eq = await subjectOf("p.py", py, "__eq__");
  await assert.rejects(
    () => checkMemberOverrides(eq.ws, eq.stage, { fb: eq.fb, subject: eq.subject, ...options }),
    (e: unknown) =>
      e instanceof RecoverableError && /__eq__ is a protocol method Python calls itself/.test(e.message),
  );
});

Deno.test("checkMemberOverrides() lets through a member no base or subclass declares again", async () => {
  for (const name of ["label", "side"]) {
    const { ws, stage, fb, subject } = await subjectOf("shapes.ts", SHAPES, name);
    await checkMemberOverrides(ws, stage, { fb, subject, ...options });
  }
});
