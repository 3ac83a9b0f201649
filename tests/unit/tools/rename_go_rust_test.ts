import assert from "node:assert/strict";
import { assertReparses, ok, textOf, workspaceOf } from "./_bindings_fixtures.ts";
import { edited, GO_CMP, SEMVER } from "./_language_fixtures.ts";

type Site = { line: number; column: number; kind: string };
type Files = { path: string; references: Site[] }[];

/** Every (path, line, column) of a result's `files` (or `unresolved`), in order. */
function sites(files: unknown): string[] {
  return (files as Files).flatMap((f) => f.references.map((r) => `${f.path}:${r.line}:${r.column}`));
}

/** A one-crate workspace: `Cargo.toml` naming the crate, and its files (`/src/lib.rs`, `/tests/t.rs` …). */
function crateOf(name: string, files: Record<string, string>) {
  return workspaceOf({ "/Cargo.toml": `[package]\nname = "${name}"\nversion = "0.1.0"\n`, ...files });
}

Deno.test("edit_rename_symbol() renames a Go package's exported function in every importing package (go-cmp)", async () => {
  const ws = await workspaceOf(GO_CMP);
  const res = ok(
    await ws.call("edit_rename_symbol", {
      path: "cmp/internal/diff/diff.go",
      target: "Difference",
      new_name: "ComputeEdits",
    }),
  );
  assert.deepEqual(res.changes.map((c) => c.path).sort(), [
    "cmp/compare.go",
    "cmp/internal/diff/diff.go",
    "cmp/report_slices.go",
  ]);
  const expected: Record<string, [number, number, string, string][]> = {
    "cmp/internal/diff/diff.go": [[138, 6, "Difference", "ComputeEdits"]],
    "cmp/compare.go": [[477, 16, "Difference", "ComputeEdits"]],
    "cmp/report_slices.go": [
      [142, 20, "Difference", "ComputeEdits"],
      [145, 20, "Difference", "ComputeEdits"],
      [364, 13, "Difference", "ComputeEdits"],
    ],
  };
  for (const [path, edits] of Object.entries(expected)) {
    const after = await textOf(ws, path);
    assert.equal(after, edited(GO_CMP[`/${path}`]!, edits), path);
    await assertReparses("go", GO_CMP[`/${path}`]!, after, path);
  }
  // Comments keep the old name and are listed.
  const text = res.data["text_occurrences"] as { path: string; line: number; in: string }[];
  assert.ok(text.some((t) => t.path === "cmp/compare.go" && t.line === 454 && t.in === "comment"));
  assert.ok(text.some((t) => t.path === "cmp/internal/diff/diff.go" && t.line === 124));
});

Deno.test("edit_rename_symbol() renames an unexported Go function across the files of its package only", async () => {
  const ws = await workspaceOf(GO_CMP);
  const clash = await ws.call("edit_rename_symbol", {
    path: "cmp/path.go",
    target: "isExported",
    new_name: "rootStep",
  });
  assert.ok(!clash.ok && clash.error.code === "name_clash", JSON.stringify(clash));
  assert.match(clash.error.message, /compare\.go" line 139/, "declared in another file of the package");
  const res = ok(
    await ws.call("edit_rename_symbol", {
      path: "cmp/path.go",
      target: "isExported",
      new_name: "isPublicName",
    }),
  );
  assert.deepEqual(res.changes.map((c) => c.path).sort(), [
    "cmp/compare.go",
    "cmp/path.go",
    "cmp/report_reflect.go",
  ]);
  assert.equal(
    await textOf(ws, "cmp/compare.go"),
    edited(GO_CMP["/cmp/compare.go"]!, [[385, 22, "isExported", "isPublicName"]]),
  );
  assert.equal(
    await textOf(ws, "cmp/path.go"),
    edited(GO_CMP["/cmp/path.go"]!, [[377, 6, "isExported", "isPublicName"]]),
    "the doc comment on line 376 is left alone",
  );
  assert.equal(
    await textOf(ws, "cmp/report_reflect.go"),
    edited(GO_CMP["/cmp/report_reflect.go"]!, [[202, 28, "isExported", "isPublicName"]]),
  );
});

Deno.test("edit_rename_symbol() renames a Go parameter, not the type switch's variable that shadows it", async () => {
  const ws = await workspaceOf(GO_CMP);
  // func (s *state) processOption(opt Option) { switch opt := opt.(type) { … opt … } }
  const res = ok(
    await ws.call("edit_rename_symbol", {
      path: "cmp/compare.go",
      target: { line: 194, column: 31 },
      new_name: "option",
    }),
  );
  assert.equal(res.data["renamed"], 2);
  const after = await textOf(ws, "cmp/compare.go");
  assert.equal(
    after,
    edited(GO_CMP["/cmp/compare.go"]!, [[194, 31, "opt", "option"], [195, 16, "opt", "option"]]),
  );
  await assertReparses("go", GO_CMP["/cmp/compare.go"]!, after, "cmp/compare.go");
  // The switch's own variable: its uses in the cases, not the value it switches on.
  const inner = ok(
    await ws.call("find_references", { path: "cmp/compare.go", target: { line: 195, column: 9 } }),
  );
  const lines = sites(inner.data["files"]).map((s) => Number(s.split(":")[1]));
  assert.deepEqual(lines, [195, 198, 205, 206, 208, 210, 212, 214]);
});

Deno.test("find_references() follows a Go method and a field through receivers; other values are unresolved", async () => {
  const ws = await workspaceOf(GO_CMP);
  const field = ok(
    await ws.call("find_references", { path: "cmp/internal/diff/diff.go", target: { line: 97, column: 30 } }),
  );
  assert.deepEqual(sites(field.data["files"]), [
    "cmp/internal/diff/diff.go:97:30", // type Result struct{ NumSame, NumDiff int }
    "cmp/internal/diff/diff.go:104:17", // Result{NumDiff: 2}
    "cmp/internal/diff/diff.go:110:41", // func (r Result) Equal() bool { return r.NumDiff == 0 }
    "cmp/internal/diff/diff.go:119:26", // r.NumSame+1 >= r.NumDiff
  ]);
  assert.ok(sites(field.data["unresolved"]).includes("cmp/compare.go:586:13"), "s.result.NumDiff++");
  const method = ok(
    await ws.call("find_references", { path: "cmp/internal/diff/diff.go", target: { line: 82, column: 22 } }),
  );
  assert.deepEqual(sites(method.data["files"]), ["cmp/internal/diff/diff.go:82:22"]);
  assert.deepEqual(sites(method.data["unresolved"]), [
    "cmp/report_slices.go:148:39",
    "cmp/report_slices.go:149:39",
  ]);
});

Deno.test("edit_rename_symbol() renames a Rust enum across the crate's modules through use paths (semver)", async () => {
  const ws = await workspaceOf(SEMVER);
  const res = ok(
    await ws.call("edit_rename_symbol", {
      path: "src/error.rs",
      target: "ErrorKind",
      new_name: "ParseErrorKind",
    }),
  );
  assert.deepEqual(res.changes.map((c) => c.path).sort(), ["src/error.rs", "src/parse.rs"]);
  const parse = await textOf(ws, "src/parse.rs");
  assert.equal(parse.split("\n")[1], "use crate::error::{ParseErrorKind, Position};");
  assert.equal((parse.match(/\bErrorKind\b/g) ?? []).length, 0);
  assert.equal(
    (parse.match(/\bParseErrorKind\b/g) ?? []).length,
    (SEMVER["/src/parse.rs"]!.match(/\bErrorKind\b/g) ?? []).length,
  );
  for (const path of ["src/error.rs", "src/parse.rs"]) {
    await assertReparses("rust", SEMVER[`/${path}`]!, await textOf(ws, path), path);
  }
});

Deno.test("edit_rename_symbol() renames a Rust enum variant and a method wherever their type is named", async () => {
  const ws = await workspaceOf(SEMVER);
  const variant = ok(
    await ws.call("edit_rename_symbol", {
      path: "src/lib.rs",
      target: { line: 254, column: 5 },
      new_name: "Equal",
    }),
  );
  assert.deepEqual(variant.data["unresolved"], []);
  assert.equal(
    await textOf(ws, "src/eval.rs"),
    edited(SEMVER["/src/eval.rs"]!, [[32, 13, "Exact", "Equal"]]),
  );
  assert.equal(
    await textOf(ws, "src/display.rs"),
    edited(SEMVER["/src/display.rs"]!, [[51, 17, "Exact", "Equal"]]),
  );
  assert.equal(
    await textOf(ws, "src/parse.rs"),
    edited(SEMVER["/src/parse.rs"]!, [[266, 14, "Exact", "Equal"]]),
  );
  // `Identifier::empty()` and `Self::empty()`; the local `let empty` (identifier.rs 157) is another symbol.
  const method = ok(
    await ws.call("edit_rename_symbol", {
      path: "src/identifier.rs",
      target: { line: 90, column: 25 },
      new_name: "blank",
    }),
  );
  assert.equal(method.data["renamed"], 6);
  assert.equal(
    await textOf(ws, "src/identifier.rs"),
    edited(SEMVER["/src/identifier.rs"]!, [
      [90, 25, "empty", "blank"],
      [107, 24, "empty", "blank"],
      [157, 27, "empty", "blank"],
    ]),
  );
  assert.equal(
    await textOf(ws, "src/impls.rs"),
    edited(SEMVER["/src/impls.rs"]!, [[11, 21, "empty", "blank"]]),
  );
});

Deno.test("edit_rename_symbol() keeps Rust's let shadowing apart: `let modified = modified.as_ptr()`", async () => {
  const ws = await workspaceOf(SEMVER);
  const local = ok(
    await ws.call("edit_rename_symbol", {
      path: "src/identifier.rs",
      target: { line: 289, column: 5 },
      new_name: "address",
      dry_run: true,
    }),
  );
  assert.deepEqual(sites(local.data["files"]), [
    "src/identifier.rs:284:9",
    "src/identifier.rs:285:21",
    "src/identifier.rs:288:38",
    "src/identifier.rs:289:5",
  ]);
  assert.equal(
    await textOf(ws, "src/identifier.rs"),
    SEMVER["/src/identifier.rs"],
    "a dry run writes nothing",
  );
  const param = ok(
    await ws.call("edit_rename_symbol", {
      path: "src/identifier.rs",
      target: { line: 282, column: 16 },
      new_name: "tagged",
    }),
  );
  assert.equal(
    await textOf(ws, "src/identifier.rs"),
    edited(SEMVER["/src/identifier.rs"]!, [[282, 16, "modified", "tagged"], [284, 20, "modified", "tagged"]]),
  );
  assert.deepEqual(param.changes.map((c) => c.path), ["src/identifier.rs"]);
});

Deno.test("edit_rename_symbol() refuses Go and Rust reserved words and clashes", async () => {
  const ws = await workspaceOf(SEMVER);
  const reserved = await ws.call("edit_rename_symbol", {
    path: "src/error.rs",
    target: "ErrorKind",
    new_name: "impl",
  });
  assert.ok(!reserved.ok && reserved.error.code === "invalid_args");
  const dollar = await ws.call("edit_rename_symbol", {
    path: "src/error.rs",
    target: "ErrorKind",
    new_name: "a$",
  });
  assert.ok(!dollar.ok && dollar.error.code === "invalid_args");
  const clash = await ws.call("edit_rename_symbol", {
    path: "src/error.rs",
    target: "ErrorKind",
    new_name: "Position",
  });
  assert.ok(!clash.ok && clash.error.code === "name_clash", JSON.stringify(clash));
  assert.equal(await textOf(ws, "src/error.rs"), SEMVER["/src/error.rs"], "a refused call writes nothing");
});

Deno.test("edit_rename_symbol() renames a Go package import in one file by giving it an alias", async () => {
  const ws = await workspaceOf(GO_CMP);
  const res = ok(
    await ws.call("edit_rename_symbol", {
      path: "cmp/report_slices.go",
      target: { line: 142, column: 15 }, // diff in diff.Difference
      new_name: "difflib",
    }),
  );
  assert.deepEqual(res.changes.map((c) => c.path), ["cmp/report_slices.go"], "each file's import is its own");
  const before = GO_CMP["/cmp/report_slices.go"]!;
  const after = await textOf(ws, "cmp/report_slices.go");
  assert.ok(after.includes('\tdifflib "github.com/google/go-cmp/cmp/internal/diff"\n'));
  assert.equal((after.match(/\bdiff\./g) ?? []).length, 0);
  assert.equal((after.match(/\bdifflib\./g) ?? []).length, (before.match(/\bdiff\./g) ?? []).length);
  await assertReparses("go", before, after, "cmp/report_slices.go");
});

Deno.test("edit_rename_symbol() renames a Rust field in impl blocks of other modules, macros and shorthand initialisers", async () => {
  const ws = await workspaceOf(SEMVER);
  const res = ok(
    await ws.call("edit_rename_symbol", {
      path: "src/lib.rs",
      target: { line: 163, column: 9 }, // Version's `pub major: u64`
      new_name: "major_version",
    }),
  );
  assert.deepEqual(sites(res.data["files"]), [
    "src/display.rs:7:48", // write!(formatter, "{}.{}.{}", self.major, …) in impl Display for Version
    "src/display.rs:18:25",
    "src/display.rs:97:35",
    // `ver.major` where `ver: &Version` is a parameter's written type (fn matches_exact(cmp: &Comparator, ver: &Version))
    "src/eval.rs:45:12",
    "src/eval.rs:65:12",
    "src/eval.rs:66:20",
    "src/eval.rs:91:12",
    "src/eval.rs:92:20",
    "src/eval.rs:117:12",
    "src/eval.rs:137:12",
    "src/eval.rs:177:22",
    "src/lib.rs:163:9",
    "src/lib.rs:400:13", // Version { major, … } in Version::new
    "src/parse.rs:71:13", // Ok(Version { major, … })
  ]);
  const lib = await textOf(ws, "src/lib.rs");
  assert.equal(lib.split("\n")[399], "            major_version: major,", "the shorthand keeps its value");
  assert.equal(lib.split("\n")[197], "    pub major: u64,", "Comparator's own major is another field");
  // `cmp.major` (cmp: &Comparator) is another type's field: left alone, a candidate.
  assert.equal((await textOf(ws, "src/eval.rs")).split("\n")[44], "    if ver.major_version != cmp.major {");
  assert.ok(sites(res.data["unresolved"]).includes("src/eval.rs:45:25"));
  for (const path of ["src/display.rs", "src/eval.rs", "src/lib.rs", "src/parse.rs"]) {
    await assertReparses("rust", SEMVER[`/${path}`]!, await textOf(ws, path), path);
  }
});

Deno.test("edit_rename_symbol() leaves a Rust path's first segment and a macro's name alone when a variable shares the name (smallvec's pop, from_vec tests)", async () => {
  const lib = [
    "use core::ptr;",
    "",
    "pub fn pop(v: &mut Vec<u8>) -> Option<u8> {",
    "    let (ptr, len) = (v.as_mut_ptr(), v.len());",
    "    unsafe { Some(ptr::read(ptr.add(len - 1))) }",
    "}",
    "",
    "pub fn build() -> Vec<u8> {",
    "    let vec = vec![1];",
    "    let ptr: ptr::NonNull<u8> = ptr::NonNull::dangling();",
    "    let _ = ptr;",
    "    vec",
    "}",
    "",
  ].join("\n");
  const ws = await crateOf("x", { "/src/lib.rs": lib });
  ok(
    await ws.call("edit_rename_symbol", {
      path: "src/lib.rs",
      target: { line: 4, column: 10 },
      new_name: "p",
    }),
  );
  ok(
    await ws.call("edit_rename_symbol", {
      path: "src/lib.rs",
      target: { line: 9, column: 9 },
      new_name: "v",
    }),
  );
  ok(
    await ws.call("edit_rename_symbol", {
      path: "src/lib.rs",
      target: { line: 10, column: 9 },
      new_name: "q",
    }),
  );
  assert.equal(
    await textOf(ws, "src/lib.rs"),
    edited(lib, [
      [4, 10, "ptr", "p"],
      [5, 29, "ptr", "p"],
      [9, 9, "vec", "v"],
      [12, 5, "vec", "v"],
      [10, 9, "ptr", "q"],
      [11, 13, "ptr", "q"],
    ]),
  );
});

Deno.test("edit_rename_symbol() renames a Go type embedded in a struct with the field it names: `fwdPath.point` (go-cmp's diff.go)", async () => {
  const ws = await workspaceOf(GO_CMP);
  const res = ok(
    await ws.call("edit_rename_symbol", {
      path: "cmp/internal/diff/diff.go",
      target: { line: 390, column: 6 },
      new_name: "pointSoak",
    }),
  );
  const text = await textOf(ws, "cmp/internal/diff/diff.go");
  const code = text.split("\n").filter((l) => !l.trimStart().startsWith("//")).join("\n");
  assert.deepEqual(code.match(/\.point\b/g), null, "every selector of the embedded field follows the type");
  assert.match(text, /^\tpointSoak +\/\/ Leading point of the EditScript path$/m);
  assert.equal((text.match(/fwdPath\.pointSoak/g) ?? []).length, 2);
  assert.deepEqual(res.data["unresolved"] ?? [], []);
});

Deno.test("edit_rename_symbol() refuses a Rust method of a trait impl: its name is the trait's (smallvec's Drop::drop, a workspace trait)", async () => {
  const lib = [
    "pub struct V(u8);",
    "impl Drop for V {",
    "    fn drop(&mut self) {}",
    "}",
    "pub trait Shape {",
    "    fn area(&self) -> u8;",
    "}",
    "impl Shape for V {",
    "    fn area(&self) -> u8 { self.0 }",
    "}",
    "impl V {",
    "    pub fn get(&self) -> u8 { self.0 }",
    "}",
    "",
  ].join("\n");
  const ws = await crateOf("x", { "/src/lib.rs": lib });
  const rename = (line: number, column: number) =>
    ws.call("edit_rename_symbol", { path: "src/lib.rs", target: { line, column }, new_name: "renamed" });
  for (const [line, column] of [[3, 8], [9, 8], [6, 8]]) {
    const r = await rename(line!, column!);
    assert.ok(!r.ok && r.error.code === "overrides_present", `${line}: ${JSON.stringify(r)}`);
    assert.match(
      r.error.message,
      line === 3 ? /implements "Drop", which is not declared/ : /Shape|impl of the trait/,
    );
  }
  ok(await rename(12, 12));
  assert.match(await textOf(ws, "src/lib.rs"), /pub fn renamed\(&self\)/);
});

Deno.test("edit_rename_symbol() follows a Rust crate into its integration tests: `crate::` of tests/x.rs, `mod util;` beside it, `semver::Comparator` paths (semver's tests)", async () => {
  const test = [
    "mod util;",
    "use crate::util::*;",
    "use semver::Version;",
    "fn a() {",
    '    let _ = semver::Comparator::parse("1");',
    '    let _: Version = version("1");',
    "}",
    "",
  ].join("\n");
  const util =
    "use semver::Version;\npub(super) fn version(t: &str) -> Version {\n    Version::parse(t).unwrap()\n}\n";
  const ws = await workspaceOf(SEMVER, { "tests/t.rs": test, "tests/util/mod.rs": util });
  ok(await ws.call("edit_rename_symbol", { path: "tests/util/mod.rs", target: "version", new_name: "v" }));
  ok(await ws.call("edit_rename_symbol", { path: "src/lib.rs", target: "Comparator", new_name: "Cmp" }));
  assert.equal(
    await textOf(ws, "tests/t.rs"),
    edited(test, [[5, 21, "Comparator", "Cmp"], [6, 22, "version", "v"]]),
  );
  assert.match(await textOf(ws, "tests/util/mod.rs"), /pub\(super\) fn v\(/);
});

Deno.test("edit_rename_symbol() refuses Go methods that interfaces may require: an interface's method, one an interface declares, String (go-cmp's options.go)", async () => {
  const ws = await workspaceOf(GO_CMP);
  const rename = (line: number, column: number) =>
    ws.call("edit_rename_symbol", { path: "cmp/options.go", target: { line, column }, new_name: "renamed" });
  const cases: [number, number, RegExp][] = [
    [32, 2, /method of an interface/], // Option.filter
    [68, 21, /interface declaring it at cmp\/options.go line 32/], // Options.filter
    [100, 21, /standard interface/], // Options.String
  ];
  for (const [line, column, why] of cases) {
    const r = await rename(line, column);
    assert.ok(!r.ok && r.error.code === "overrides_present", `${line}: ${JSON.stringify(r)}`);
    assert.match(r.error.message, why);
  }
  assert.equal(await textOf(ws, "cmp/options.go"), GO_CMP["/cmp/options.go"]);
});

Deno.test("edit_rename_symbol() does not take Go's blank identifier `_` for a name (go-cmp's resultFlags consts)", async () => {
  const ws = await workspaceOf(GO_CMP);
  const r = await ws.call("edit_rename_symbol", {
    path: "cmp/options.go",
    target: { line: 471, column: 2 },
    new_name: "renamed",
  });
  assert.ok(!r.ok, JSON.stringify(r));
  assert.equal(await textOf(ws, "cmp/options.go"), GO_CMP["/cmp/options.go"]);
});

Deno.test("edit_rename_symbol() keeps a Rust `if let` binding to its first block: the tested value and the else branch read the outer name (semver's parse.rs)", async () => {
  const ws = await workspaceOf(SEMVER);
  ok(
    await ws.call("edit_rename_symbol", {
      path: "src/parse.rs",
      target: { line: 44, column: 39 },
      new_name: "rest",
    }),
  );
  assert.equal(
    await textOf(ws, "src/parse.rs"),
    edited(SEMVER["/src/parse.rs"]!, [[44, 39, "text", "rest"], [46, 53, "text", "rest"]]),
  );
});

Deno.test("edit_rename_symbol() renames a Go local type where a type of the same `type ( … )` group names it (go-cmp's sort_test.go)", async () => {
  const src = [
    "package value",
    "",
    "func sortKeys() {",
    "\ttype (",
    "\t\tMyArray  [2]int",
    "\t\tMyStruct struct {",
    "\t\t\tB MyArray",
    "\t\t}",
    "\t)",
    "\t_ = MyStruct{B: MyArray{}}",
    "}",
    "",
  ].join("\n");
  const ws = await workspaceOf({ "/go.mod": "module example.com/v\n", "/value/sort.go": src });
  ok(
    await ws.call("edit_rename_symbol", {
      path: "value/sort.go",
      target: { line: 5, column: 3 },
      new_name: "Pair",
    }),
  );
  assert.equal(
    await textOf(ws, "value/sort.go"),
    edited(src, [[5, 3, "MyArray", "Pair"], [7, 6, "MyArray", "Pair"], [10, 18, "MyArray", "Pair"]]),
  );
});

Deno.test("edit_rename_symbol() refuses a Rust name declared again under #[cfg]: which one a use reads depends on the build (semver's bytes_for_varint)", async () => {
  const ws = await workspaceOf(SEMVER);
  const at = SEMVER["/src/identifier.rs"]!.split("\n").findIndex((l) => l.startsWith("fn bytes_for_varint")) +
    1;
  for (const target of [{ line: at + 2, column: 9 }, { line: at, column: 21 }]) {
    const r = await ws.call("edit_rename_symbol", { path: "src/identifier.rs", target, new_name: "n" });
    assert.ok(!r.ok && r.error.code === "unresolved", JSON.stringify(r).slice(0, 400));
    assert.match(r.error.message, /build condition/);
  }
  assert.equal(await textOf(ws, "src/identifier.rs"), SEMVER["/src/identifier.rs"]);
});

Deno.test("edit_rename_symbol() renames a Go type's example functions with it, so go vet stays clean (go-cmp's example_test.go)", async () => {
  // The soak's case: renaming cmp.Option left ExampleOption_equalNaNs & co. naming a type that no longer exists.
  const examples = Deno.readTextFileSync(
    new URL("../../fixtures/bindings/go-cmp-examples/example_test.go", import.meta.url),
  );
  const ws = await workspaceOf({ ...GO_CMP, "/cmp/example_test.go": examples });
  const res = ok(
    await ws.call("edit_rename_symbol", { path: "cmp/options.go", target: "Option", new_name: "Choice" }),
  );
  const renamed = res.data["examples_renamed"] as { path: string; from: string; to: string }[];
  assert.deepEqual(renamed.map((e) => `${e.from} -> ${e.to}`), [
    "ExampleOption_approximateFloats -> ExampleChoice_approximateFloats",
    "ExampleOption_equalNaNs -> ExampleChoice_equalNaNs",
    "ExampleOption_equalNaNsAndApproximateFloats -> ExampleChoice_equalNaNsAndApproximateFloats",
    "ExampleOption_equalEmpty -> ExampleChoice_equalEmpty",
    "ExampleOption_sortedSlice -> ExampleChoice_sortedSlice",
    "ExampleOption_avoidEqualMethod -> ExampleChoice_avoidEqualMethod",
    "ExampleOption_transformComplex -> ExampleChoice_transformComplex",
  ]);
  const after = await textOf(ws, "cmp/example_test.go");
  assert.ok(
    !/func ExampleOption/.test(after) && after.includes("func ExampleDiff_testing("),
    after.slice(0, 300),
  );
  await assertReparses("go", examples, after, "cmp/example_test.go");
});

Deno.test("edit_rename_symbol() keeps a Rust `for` pattern to its body: the iterated value reads the outer name (semver's `for lhs in lhs`)", async () => {
  // The soak's case: renaming the outer `let lhs` left `for lhs in lhs`'s iterable naming nothing (E0425).
  const ws = await workspaceOf(SEMVER);
  ok(
    await ws.call("edit_rename_symbol", {
      path: "src/impls.rs",
      target: { line: 62, column: 13 },
      new_name: "left",
    }),
  );
  assert.equal(
    await textOf(ws, "src/impls.rs"),
    edited(SEMVER["/src/impls.rs"]!, [[62, 13, "lhs", "left"], [65, 20, "lhs", "left"]]),
  );
  // The loop's own variable renames within the body only.
  const loop = ok(
    await ws.call("edit_rename_symbol", {
      path: "src/impls.rs",
      target: { line: 65, column: 13 },
      new_name: "part",
    }),
  );
  assert.ok(loop.changes.length === 1);
  const after = await textOf(ws, "src/impls.rs");
  assert.match(after.split("\n")[64]!, /for part in left \{/);
});

Deno.test("edit_rename_symbol() sees a Rust trait implemented for a type without a name (smallvec's `impl ToSmallVec<A> for [A::Item]`)", async () => {
  // The soak's case: renaming the trait's method answered ok and left the impl's `fn to_smallvec` (E0407).
  const src = [
    "pub trait ToVec<T> {",
    "    fn to_vec_of(&self) -> Vec<T>;",
    "}",
    "",
    "impl<T: Copy> ToVec<T> for [T] {",
    "    fn to_vec_of(&self) -> Vec<T> {",
    "        self.iter().copied().collect()",
    "    }",
    "}",
    "",
    "impl ToVec<u8> for u8 {",
    "    fn to_vec_of(&self) -> Vec<u8> {",
    "        vec![*self]",
    "    }",
    "}",
    "",
  ].join("\n");
  const ws = await crateOf("v", {
    "/src/lib.rs": src,
  });
  for (const line of [2, 6, 12]) {
    const res = await ws.call("edit_rename_symbol", {
      path: "src/lib.rs",
      target: { line, column: 8 },
      new_name: "as_vec",
    });
    assert.ok(!res.ok && res.error.code === "overrides_present", JSON.stringify(res));
  }
  assert.equal(await textOf(ws, "src/lib.rs"), src, "nothing written");
});

Deno.test("edit_rename_symbol() renames a Rust associated function named by a path inside a macro's tokens (smallvec's `assert!(… Self::inline_capacity())`, `$crate::SmallVec::from_vec` in `smallvec!`)", async () => {
  // The soak's cases: both renames answered ok and left the macro's tokens behind (E0599 when expanded).
  const src = [
    "#[macro_export]",
    "macro_rules! tiny {",
    "    ($($x:expr),*) => ({",
    "        $crate::Tiny::from_items(vec![$($x),*])",
    "    });",
    "}",
    "",
    "pub struct Tiny { items: Vec<u8> }",
    "",
    "impl Tiny {",
    "    pub fn from_items(items: Vec<u8>) -> Tiny {",
    '        assert!(items.len() <= Self::capacity(), "at most {}", Self::capacity());',
    "        Tiny { items }",
    "    }",
    "",
    "    fn capacity() -> usize {",
    "        4",
    "    }",
    "}",
    "",
  ].join("\n");
  const ws = await crateOf("tiny", {
    "/src/lib.rs": src,
  });
  const capacity = ok(
    await ws.call("edit_rename_symbol", { path: "src/lib.rs", target: "Tiny/capacity", new_name: "max_len" }),
  );
  assert.deepEqual(sites(capacity.data["files"]), [
    "src/lib.rs:12:38",
    "src/lib.rs:12:70",
    "src/lib.rs:16:8",
  ]);
  const fromItems = ok(
    await ws.call("edit_rename_symbol", {
      path: "src/lib.rs",
      target: "Tiny/from_items",
      new_name: "of_items",
    }),
  );
  assert.deepEqual(sites(fromItems.data["files"]), ["src/lib.rs:4:23", "src/lib.rs:11:12"]);
  const after = await textOf(ws, "src/lib.rs");
  assert.ok(after.includes("$crate::Tiny::of_items(vec![$($x),*])"), after);
  assert.ok(after.includes('Self::max_len(), "at most {}", Self::max_len());'), after);
  await assertReparses("rust", src, after, "src/lib.rs");
});

Deno.test("edit_rename_symbol() leaves a macro called inside another macro's tokens alone when a variable shares its name (smallvec's `assert_eq!(vec.into_vec(), vec![0, 1, 2])`)", async () => {
  // The soak's case: renaming `let vec` renamed `vec![…]` in the assert's tokens too (cannot find macro).
  const src = [
    "pub fn check() {",
    "    let vec = Vec::from([0u8, 1, 2]);",
    "    assert_eq!(vec.clone(), vec![0, 1, 2]);",
    "}",
    "",
  ].join("\n");
  const ws = await crateOf("m", {
    "/src/lib.rs": src,
  });
  const res = ok(
    await ws.call("edit_rename_symbol", {
      path: "src/lib.rs",
      target: { line: 2, column: 9 },
      new_name: "items",
    }),
  );
  assert.deepEqual(sites(res.data["files"]), ["src/lib.rs:2:9", "src/lib.rs:3:16"]);
  assert.equal(
    await textOf(ws, "src/lib.rs"),
    edited(src, [[2, 9, "vec", "items"], [3, 16, "vec", "items"]]),
  );
});

Deno.test("edit_rename_symbol() follows `crate_name::Type` in an integration test whose function has the crate's name (smallvec's tests/macro.rs)", async () => {
  // The soak's case: `fn smallvec()` took the path's first segment, and `smallvec::SmallVec` was left behind.
  const test = [
    "#[test]",
    "fn tiny() {",
    "    let v: tiny::Tiny = tiny::Tiny::new();",
    "    assert_eq!(v.len(), 0);",
    "}",
    "",
  ].join("\n");
  const lib = [
    "pub struct Tiny(Vec<u8>);",
    "impl Tiny {",
    "    pub fn new() -> Tiny {",
    "        Tiny(Vec::new())",
    "    }",
    "    pub fn len(&self) -> usize {",
    "        self.0.len()",
    "    }",
    "}",
    "",
  ].join("\n");
  const ws = await crateOf("tiny", {
    "/src/lib.rs": lib,
    "/tests/t.rs": test,
  });
  ok(await ws.call("edit_rename_symbol", { path: "src/lib.rs", target: "Tiny", new_name: "Small" }));
  assert.equal(
    await textOf(ws, "tests/t.rs"),
    edited(test, [[3, 18, "Tiny", "Small"], [3, 31, "Tiny", "Small"]]),
  );
});

Deno.test("edit_rename_symbol() renames a type parameter inside a macro's tokens, generic arguments included (smallvec's `assert!(mem::size_of::<A>() == A::size() …)`)", async () => {
  // The soak's case: `size_of :: < A` was read as the path `size_of::A` (a query's anchor passes over the `<`),
  // so the rename left `<A>` and `<A::Item>` behind (E0425).
  const src = [
    "use std::mem;",
    "pub trait Array { type Item; fn size() -> usize; }",
    "pub struct Small<A: Array> { len: usize, data: Option<A> }",
    "impl<A: Array> Small<A> {",
    "    pub fn new() -> Small<A> {",
    "        assert!(mem::size_of::<A>() == A::size() * mem::size_of::<A::Item>());",
    "        Small { len: 0, data: None }",
    "    }",
    "}",
    "",
  ].join("\n");
  const ws = await crateOf("s", {
    "/src/lib.rs": src,
  });
  const res = ok(
    await ws.call("edit_rename_symbol", {
      path: "src/lib.rs",
      target: { line: 4, column: 6 },
      new_name: "Arr",
    }),
  );
  assert.equal(res.data["renamed"], 6);
  const after = await textOf(ws, "src/lib.rs");
  assert.ok(
    after.includes("assert!(mem::size_of::<Arr>() == Arr::size() * mem::size_of::<Arr::Item>());"),
    after,
  );
  assert.ok(after.includes("impl<Arr: Array> Small<Arr> {\n    pub fn new() -> Small<Arr> {"), after);
});

Deno.test("edit_rename_symbol() leaves an attribute alone when a function shares its name (semver's `#[test] fn test()`)", async () => {
  // The soak's case: renaming `fn test` renamed `#[test]` above it (cannot find attribute).
  const test = "#[test]\nfn test() {\n    assert!(true);\n}\n\n#[test]\nfn other() {\n    test();\n}\n";
  const ws = await crateOf("t", {
    "/src/lib.rs": "",
    "/tests/t.rs": test,
  });
  const res = ok(
    await ws.call("edit_rename_symbol", {
      path: "tests/t.rs",
      target: { line: 2, column: 4 },
      new_name: "checks",
    }),
  );
  assert.deepEqual(sites(res.data["files"]), ["tests/t.rs:2:4", "tests/t.rs:8:5"]);
  assert.equal(
    await textOf(ws, "tests/t.rs"),
    edited(test, [[2, 4, "test", "checks"], [8, 5, "test", "checks"]]),
  );
});

Deno.test("edit_rename_symbol() refuses a Rust `let ref` declared again under #[cfg] (semver's test_any), and a method of an impl of a path-named generic trait (smallvec's `ops::IndexMut<I>`)", async () => {
  // The soak's cases: renaming `let ref r` under #[cfg(not(…))] left the other build's `r` behind (E0425), and
  // `fn index_mut` of `impl … ops::IndexMut<I> for SmallVec<A>` was renamed as the impl's own (E0407).
  const test = [
    "pub fn test_any() {",
    "    #[cfg(not(no_const_vec_new))]",
    "    let ref r = Vec::<u8>::new();",
    "    #[cfg(no_const_vec_new)]",
    "    let ref r = Vec::<u8>::with_capacity(0);",
    "    assert!(r.is_empty());",
    "}",
    "",
  ].join("\n");
  const lib = [
    "use std::ops;",
    "pub struct Bag(Vec<u8>);",
    "impl<I: std::slice::SliceIndex<[u8]>> ops::Index<I> for Bag {",
    "    type Output = I::Output;",
    "    fn index(&self, index: I) -> &I::Output {",
    "        &self.0[index]",
    "    }",
    "}",
    "",
  ].join("\n");
  const ws = await crateOf("b", {
    "/src/lib.rs": lib,
    "/tests/t.rs": test,
  });
  const r = await ws.call("edit_rename_symbol", {
    path: "tests/t.rs",
    target: { line: 3, column: 13 },
    new_name: "q",
  });
  assert.ok(!r.ok && r.error.code === "unresolved", JSON.stringify(r).slice(0, 400));
  assert.match(r.error.message, /build condition/);
  const m = await ws.call("edit_rename_symbol", {
    path: "src/lib.rs",
    target: { line: 5, column: 8 },
    new_name: "at",
  });
  assert.ok(!m.ok && m.error.code === "overrides_present", JSON.stringify(m).slice(0, 400));
  assert.match(m.error.message, /implements "Index"/);
  assert.equal(await textOf(ws, "tests/t.rs"), test);
  assert.equal(await textOf(ws, "src/lib.rs"), lib);
});

Deno.test("edit_rename_symbol() on a trait's associated type says graver does not follow it and what to call instead (smallvec's `type Item;`)", async () => {
  const src = "pub trait Array {\n    type Item;\n    fn size() -> usize;\n}\n";
  const ws = await crateOf("a", {
    "/src/lib.rs": src,
  });
  const r = await ws.call("edit_rename_symbol", {
    path: "src/lib.rs",
    target: { line: 2, column: 10 },
    new_name: "Elem",
  });
  assert.ok(!r.ok && r.error.code === "unresolved", JSON.stringify(r).slice(0, 300));
  assert.match(r.error.message, /associated type/);
  assert.doesNotMatch(r.error.message, /declared nowhere/);
  assert.match(r.error.hint, /search_text \(pattern "Item", word: true\)/);
  assert.equal(await textOf(ws, "src/lib.rs"), src);
});
