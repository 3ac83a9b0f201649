/**
 * Extract function in Go and Rust on real code bases: go-cmp 0.5.9 and the
 * semver crate 1.0.14 (tests/fixtures/bindings). Each extraction's output is
 * checked byte for byte against the hand-edited file and re-parses without
 * new syntax errors; each refusal is met on real code and writes nothing.
 * (Compiling the results needs go and rustc: scripts/extract_compile_check.ts,
 * run locally.)
 */
import assert from "node:assert/strict";
import { RecoverableError } from "../../../../src/errors.ts";
import { Stage } from "../../../../src/fs/stage.ts";
import { type ExtractPlan, planExtract } from "../../../../src/structural/extract/extract.ts";
import { assertReparses, ok, textOf, workspaceOf } from "../../tools/_bindings_fixtures.ts";
import { GO_CMP, SEMVER } from "../../tools/_language_fixtures.ts";

const DIFF_GO = "cmp/internal/diff/diff.go";
const TEXT_GO = "cmp/report_text.go";

function filesOf(path: string): Record<string, string> {
  return path.endsWith(".go") ? GO_CMP : SEMVER;
}

async function extract(
  path: string,
  start_line: number,
  end_line: number,
  name: string,
): Promise<ExtractPlan> {
  const files = filesOf(path);
  const ws = await workspaceOf(files);
  const plan = await planExtract(ws, new Stage(ws.fs, ws.sandbox), {
    path,
    range: { start_line, end_line },
    name,
    tool: "test",
  });
  const before = files[`/${path}`]!;
  await assertReparses(path.endsWith(".go") ? "go" : "rust", before, plan.text, path);
  assert.equal(await textOf(ws, path), before, "planning writes nothing");
  return plan;
}

async function refusal(
  path: string,
  start_line: number,
  end_line: number,
  name: string,
): Promise<RecoverableError> {
  const files = filesOf(path);
  const ws = await workspaceOf(files);
  const res = await ws.call("edit_extract_function", { path, range: { start_line, end_line }, name });
  assert.ok(!res.ok, `expected a refusal: ${JSON.stringify(res).slice(0, 300)}`);
  assert.equal(await textOf(ws, path), files[`/${path}`]!, "a refused call writes nothing");
  assert.ok(res.error.hint.length > 0);
  assert.match(
    res.error.message,
    new RegExp(`lines ${start_line}-${end_line} of "${path.replace(/\./g, "\\.")}"`),
  );
  return new RecoverableError(res.error.code, res.error.message, { hint: res.error.hint });
}

/**
 * `text` with edits in diff's terms: replace lines `from..to` (1-based, inclusive; `to = from - 1` inserts
 * before `from`) with `lines`.
 */
function spliced(text: string, edits: [number, number, string[]][]): string {
  const all = text.split("\n");
  for (const [from, to, lines] of [...edits].sort((a, b) => b[0] - a[0])) {
    all.splice(from - 1, to - from + 1, ...lines);
  }
  return all.join("\n");
}

Deno.test("planExtract() Go: statements using the receiver become a method with the same receiver (go-cmp diff.go)", async () => {
  const plan = await extract(DIFF_GO, 348, 353, "appendRest");
  assert.equal(plan.kind, "method");
  assert.deepEqual(plan.parameters, ["dst"]);
  assert.deepEqual(plan.returns, []);
  assert.equal(plan.call, "p.appendRest(dst)");
  assert.equal(
    plan.text,
    spliced(GO_CMP[`/${DIFF_GO}`]!, [
      [348, 353, ["\t\tp.appendRest(dst)"]],
      [376, 375, [
        "",
        "func (p *path) appendRest(dst point) {",
        "\tfor dst.X > p.X {",
        "\t\tp.append(UniqueX)",
        "\t}",
        "\tfor dst.Y > p.Y {",
        "\t\tp.append(UniqueY)",
        "\t}",
        "}",
      ]],
    ]),
  );
  assert.equal(plan.line, 372);
});

Deno.test("planExtract() Go: a range ending the body returns through the call with the enclosing result types (report_text.go)", async () => {
  const plan = await extract(TEXT_GO, 132, 135, "wrapTo");
  assert.equal(plan.call, "return s.wrapTo(b, d, n)");
  assert.deepEqual(plan.parameters, ["b", "d", "n"]);
  assert.equal(
    plan.text,
    spliced(GO_CMP[`/${TEXT_GO}`]!, [
      [132, 135, [
        "\treturn s.wrapTo(b, d, n)",
        "}",
        "",
        "func (s *textWrap) wrapTo(b []byte, d diffMode, n indentMode) []byte {",
        "\tb = append(b, s.Prefix...)",
        "\tb = s.Value.formatExpandedTo(b, d, n)",
        "\tb = append(b, s.Suffix...)",
        "\treturn b",
      ]],
    ]),
  );
  // Locals declared with their type (`var d diffMode`) stay inside; the method takes no parameter.
  const str = await extract(TEXT_GO, 113, 119, "stringOf");
  assert.equal(str.call, "return s.stringOf()");
  assert.ok(
    str.text.includes("\treturn s.stringOf()\n}\nfunc (s *textWrap) stringOf() string {\n\tvar d diffMode\n"),
  );
});

Deno.test("planExtract() Rust: self makes a method of the inherent impl taking &self; a tail value returns (identifier.rs)", async () => {
  const before = SEMVER["/src/identifier.rs"]!;
  const plan = await extract("src/identifier.rs", 157, 163, "empty_repr");
  assert.equal(plan.kind, "method");
  assert.deepEqual(plan.parameters, ["self"]);
  assert.equal(plan.call, "self.empty_repr()");
  assert.equal(
    plan.text,
    spliced(before, [
      [157, 156, ["        self.empty_repr()", "    }", "", "    fn empty_repr(&self) -> bool {"]],
    ]),
  );
  // An if/else as the body's value, returning a borrow of self (lifetime elided through &self).
  const str = await extract("src/identifier.rs", 177, 185, "repr_str");
  assert.equal(
    str.text,
    spliced(before, [[177, 176, [
      "        self.repr_str()",
      "    }",
      "",
      "    fn repr_str(&self) -> &str {",
    ]]]),
  );
});

Deno.test("planExtract() Rust: a free function after the enclosing one, parameters typed from the signature (eval.rs)", async () => {
  const plan = await extract("src/eval.rs", 17, 23, "any_pre_compatible");
  assert.equal(plan.kind, "function");
  assert.deepEqual(plan.parameters, ["req", "ver"]);
  assert.equal(
    plan.text,
    spliced(SEMVER["/src/eval.rs"]!, [
      [17, 16, [
        "    any_pre_compatible(req, ver)",
        "}",
        "",
        "fn any_pre_compatible(req: &VersionReq, ver: &Version) -> bool {",
      ]],
    ]),
  );
});

Deno.test("planExtract() Rust: a body with ? keeps the enclosing Result type when the range ends it (parse.rs)", async () => {
  const plan = await extract("src/parse.rs", 210, 212, "pre_parts");
  assert.equal(plan.call, "pre_parts(input)");
  assert.equal(
    plan.text,
    spliced(SEMVER["/src/parse.rs"]!, [
      [210, 209, [
        "    pre_parts(input)",
        "}",
        "",
        "fn pre_parts(input: &str) -> Result<(Prerelease, &str), Error> {",
      ]],
    ]),
  );
  // Two statements of three: the values that flow out (`rest`, `identifier`) have no written or certain type.
  const partial = await refusal("src/parse.rs", 210, 211, "pre_parts");
  assert.equal(partial.code, "types_required");
});

Deno.test("edit_extract_function() Go and Rust refusals on real code: code, where, hint, nothing written", async () => {
  const cases: [string, number, number, string, string, RegExp][] = [
    // Go
    [DIFF_GO, 180, 183, "frontiers", "types_required", /the type of "fwdFrontier" \(declared at line 182\)/],
    [DIFF_GO, 316, 320, "joinPaths", "types_required", /"fwdPath" of type path has a method called on it/],
    [
      DIFF_GO,
      223,
      227,
      "pickDirection",
      "control_flow_escapes",
      /the goto at line 224 jumps to a label outside/,
    ],
    [
      "cmp/compare.go",
      238,
      239,
      "pushStep",
      "control_flow_escapes",
      /the defer at line 239 would run when the new function returns/,
    ],
    [
      TEXT_GO,
      184,
      193,
      "sameList",
      "control_flow_escapes",
      /the return at line 185 leaves the enclosing function/,
    ],
    [DIFF_GO, 348, 353, "append", "name_clash", /already has a member "append"/],
    [
      TEXT_GO,
      113,
      119,
      "Equal",
      "name_clash",
      /already has a member "Equal"|a field or method named "Equal"/,
    ],
    // A free function named like a function of another file of the package (compare.go's Equal).
    [
      "cmp/report_references.go",
      102,
      106,
      "Equal",
      "name_clash",
      /the package already declares "Equal" \(cmp\/compare\.go:\d+\)/,
    ],
    [DIFF_GO, 377, 387, "appendOne", "invalid_args", /the method_declaration at lines 377-388/],
    // Rust
    ["src/parse.rs", 178, 184, "finish", "types_required", /the type of "len" \(declared at line 158\)/],
    ["src/parse.rs", 161, 176, "digits", "control_flow_escapes", /the return at line 166/],
    ["src/parse.rs", 84, 105, "parse_req", "types_required", /would name Self/],
    [
      "src/display.rs",
      6,
      29,
      "display",
      "unresolved",
      /they use "self" \(line 7\) in a trait impl, which cannot take another method/,
    ],
    [
      "src/identifier.rs",
      157,
      163,
      "fill",
      "name_clash",
      /a field or method named "fill" is declared or called there \(src\/display\.rs:146\)/,
    ],
    ["src/parse.rs", 394, 397, "limit", "invalid_args", /the const_item at line 394/],
    ["src/identifier.rs", 401, 405, "varint", "invalid_args", /the attribute_item at line 400/],
  ];
  for (const [path, from, to, name, code, message] of cases) {
    const e = await refusal(path, from, to, name);
    assert.equal(e.code, code, `${path}:${from}-${to}: ${e.message}`);
    assert.match(e.message, message);
  }
});

Deno.test("edit_extract_function() Go: dry_run previews and the call commits the same text", async () => {
  const ws = await workspaceOf(GO_CMP);
  const args = { path: DIFF_GO, range: { start_line: 348, end_line: 353 }, name: "appendRest" };
  const dry = ok(await ws.call("edit_extract_function", { ...args, dry_run: true }));
  assert.equal(dry.status, "dry_run");
  assert.equal(await textOf(ws, DIFF_GO), GO_CMP[`/${DIFF_GO}`]!);
  const res = ok(await ws.call("edit_extract_function", args));
  assert.equal(res.data["call"], "p.appendRest(dst)");
  assert.equal(res.data["kind"], "method");
  assert.ok((await textOf(ws, DIFF_GO)).includes("func (p *path) appendRest(dst point) {"));
});

Deno.test("edit_extract_function() Go composes in an edit_dry_run plan: extract, then rename the new function", async () => {
  const ws = await workspaceOf(GO_CMP);
  const path = "cmp/report_references.go";
  const res = ok(
    await ws.call("edit_dry_run", {
      plan: [
        {
          tool: "edit_extract_function",
          args: { path, range: { start_line: 102, end_line: 106 }, name: "leafParts" },
        },
        { tool: "edit_rename_symbol", args: { path, target: "leafParts", new_name: "leafPrefix" } },
      ],
    }),
  );
  assert.equal(res.data["status"], "ok");
  const diff = res.changes[0]!.diff;
  assert.match(diff, /\+\tout, prefix := leafPrefix\(printAddress, p\)/);
  assert.match(diff, /\+func leafPrefix\(printAddress bool, p value\.Pointer\) \(\*textWrap, string\) \{/);
  assert.match(diff, /\+\treturn out, prefix/);
  assert.equal(await textOf(ws, path), GO_CMP[`/${path}`]!, "a plan writes nothing");
});

Deno.test("edit_extract_function() Rust: a `let mut` returned to a caller that changes it in a macro's tokens stays mut (smallvec's test_retain)", async () => {
  const lib = [
    "#[test]",
    "fn test_retain() {",
    "    let mut sv: Vec<i32> = Vec::from([1, 2, 3, 3, 4]);",
    "    sv.retain(|&mut i| i != 3);",
    "    assert_eq!(sv.pop(), Some(4));",
    "}",
    "",
  ].join("\n");
  const ws = await workspaceOf({ "/Cargo.toml": '[package]\nname = "x"\n', "/src/lib.rs": lib });
  ok(
    await ws.call("edit_extract_function", {
      path: "src/lib.rs",
      range: { start_line: 3, end_line: 4 },
      name: "retained",
    }),
  );
  assert.match(await textOf(ws, "src/lib.rs"), /^ {4}let mut sv = retained\(\);$/m);
});

Deno.test("edit_extract_function() Rust: refuses statements whose function declares a `use` outside them: a trait's methods would be out of scope (smallvec's test_borrow_mut)", async () => {
  const lib = [
    "#[test]",
    "fn test_borrow_mut() {",
    "    use std::borrow::BorrowMut;",
    "",
    "    let mut a: Vec<u32> = Vec::new();",
    "    a.push(1);",
    "    assert_eq!(a.borrow_mut(), &mut [1]);",
    "    a.push(2);",
    "}",
    "",
  ].join("\n");
  const ws = await workspaceOf({ "/Cargo.toml": '[package]\nname = "x"\n', "/src/lib.rs": lib });
  const r = await ws.call("edit_extract_function", {
    path: "src/lib.rs",
    range: { start_line: 5, end_line: 7 },
    name: "filled",
  });
  assert.ok(!r.ok && r.error.code === "unresolved", JSON.stringify(r));
  assert.match(r.error.message, /declares `use std::borrow::BorrowMut;` at line 3/);
  assert.equal(await textOf(ws, "src/lib.rs"), lib);
});
