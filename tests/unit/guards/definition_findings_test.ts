import assert from "node:assert/strict";
import { definitionGateError, type DefinitionGateVerdict } from "../../../src/guards/definition_findings.ts";

const replace: DefinitionGateVerdict = {
  path: "src/a.ts",
  language: "typescript",
  findings: [{
    edit: "replace",
    before_lines: { start_line: 3, end_line: 3 },
    after_lines: { start_line: 3, end_line: 3 },
    definitions: [{
      kind: "function",
      name: "area",
      name_path: "area",
      side: "before",
      lines: { start_line: 3, end_line: 5 },
    }],
    suggested_call: { tool: "replace_symbol", args: { path: "src/a.ts", name_path: "area", new_text: "…" } },
    tool: "replace_symbol",
  }],
};

Deno.test("definitionGateError() says what the edit does to which definition, where, and the call to make instead", () => {
  const e = definitionGateError(replace, { tool: "edit_file" });
  assert.equal(e.code, "definition_gate");
  assert.match(e.message, /^Cannot edit "src\/a\.ts" with edit_file: .*area.*; use replace_symbol$/);
  assert.deepEqual(e.suggestedCall, replace.findings[0]!.suggested_call);
  assert.deepEqual((e.details as { findings: unknown }).findings, replace.findings);
});

Deno.test("definitionGateError() counts the other findings, and needs one at least", () => {
  const two = { ...replace, findings: [replace.findings[0]!, replace.findings[0]!] };
  assert.match(
    definitionGateError(two).message,
    /with a text edit: .* \(and 1 more definition edit in this file\)$/,
  );
  assert.throws(() => definitionGateError({ ...replace, findings: [] }), TypeError);
});
