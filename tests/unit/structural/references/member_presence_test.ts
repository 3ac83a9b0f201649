import assert from "node:assert/strict";
import { Stage } from "../../../../src/fs/stage.ts";
import { memberPresence, usesOwnMember } from "../../../../src/structural/references/member_presence.ts";
import { fileBindings } from "../../../../src/syntax/bindings.ts";
import { workspaceOf } from "../../tools/_bindings_fixtures.ts";

Deno.test("memberPresence() tells a declared member from one the class's code only uses (email.generator's Generator and BytesGenerator)", async () => {
  const text = Deno.readTextFileSync("/usr/lib/python3.11/email/generator.py");
  const ws = await workspaceOf({ "/email/generator.py": text });
  const t = await new Stage(ws.fs, ws.sandbox).readText("email/generator.py");
  const fb = (await fileBindings(ws, {
    path: "email/generator.py",
    language: "python",
    version: t.version,
    text: t.text,
  }))!;
  const cls = (name: string) =>
    fb.scopes.find((s) => s.kind === "class" && text.startsWith(name, s.nameStart))!;
  const lineOf = (offset: number) => text.slice(0, offset).split("\n").length;
  const lines = text.split("\n");
  // Generator declares _write_lines (a def in its body); BytesGenerator only calls it through self.
  const declared = memberPresence(fb, cls("Generator"), "_write_lines")!;
  assert.equal(declared.declared, true);
  assert.match(lines[lineOf(declared.occurrence.start) - 1]!, /def _write_lines\(self, lines\):/);
  const used = memberPresence(fb, cls("BytesGenerator"), "_write_lines")!;
  assert.equal(used.declared, false);
  assert.match(lines[lineOf(used.occurrence.start) - 1]!, /self\._write_lines\(msg\._payload\)/);
  assert.ok(usesOwnMember(used.occurrence));
  // _fp is assigned in Generator.__init__ (`self._fp = outfp`): an attribute, used, not declared.
  const fp = memberPresence(fb, cls("Generator"), "_fp")!;
  assert.equal(fp.declared, false);
  assert.match(lines[lineOf(fp.occurrence.start) - 1]!, /self\._fp = outfp/);
  assert.equal(memberPresence(fb, cls("BytesGenerator"), "no_such_member"), null);
});
