/**
 * find_references and edit_rename_symbol in Rust, Go and TypeScript where a
 * name is reached through a grouped or nested Rust `use`, a receiver whose
 * type is written, or a JSDoc type (issue 27).
 *
 * @module
 */
import assert from "node:assert/strict";
import { Stage } from "../../../../src/fs/stage.ts";
import { findReferences, type ReferenceTarget } from "../../../../src/structural/references/references.ts";
import { ok, textOf, workspaceOf } from "../../tools/_bindings_fixtures.ts";
import { COBRA, IGNORE_CRATE, VALUE_BAG } from "../../tools/_language_fixtures.ts";

/** `path:line:column:kind` of every site and every unresolved candidate of a search. */
async function search(
  files: Record<string, string>,
  path: string,
  target: ReferenceTarget,
): Promise<{ sites: string[]; unresolved: string[] }> {
  const ws = await workspaceOf(files);
  const res = await findReferences(ws, new Stage(ws.fs, ws.sandbox), { path, target, tool: "test" });
  const show = (s: { path: string; line: number; column: number; kind: string }) =>
    `${s.path}:${s.line}:${s.column}:${s.kind}`;
  return { sites: res.sites.map(show), unresolved: res.unresolved.map(show) };
}

/**
 * A small crate whose modules import `helper` through every grouped form: `use crate::{util::helper}`,
 * a `pub use` group re-exporting it at the crate root, `use super::{helper}` through that re-export,
 * `util::{self, …}`, `use crate::util::{self}`, `super::super::{util::{helper}}` and a bare group inside a
 * group with an alias.
 * It compiles with `rustc --crate-type lib --edition 2021 src/lib.rs`, and again after the rename.
 */
const GROUPED_USES: Record<string, string> = {
  "/src/lib.rs": [
    "mod b;",
    "mod c;",
    "mod nested;",
    "mod util;",
    "",
    "pub use crate::{util::{helper, Counter}};",
    "",
    "pub fn root() -> u32 {",
    "    helper(1) + nested::deep::twice(2) + nested::go() + b::run() + c::three()",
    "}",
    "",
  ].join("\n"),
  "/src/util.rs":
    "pub fn helper(x: u32) -> u32 {\n    x + 1\n}\n\npub struct Counter {\n    pub n: u32,\n}\n",
  "/src/b.rs": [
    "use crate::{util::helper};",
    "use crate::{nested::deep::{twice as double}, util::{self, Counter}};",
    "",
    "pub fn run() -> u32 {",
    "    helper(1) + util::helper(2) + double(Counter { n: 3 }.n)",
    "}",
    "",
  ].join("\n"),
  "/src/c.rs": "use crate::util::{self};\n\npub fn three() -> u32 {\n    util::helper(2)\n}\n",
  "/src/nested/mod.rs": "pub mod deep;\n\nuse super::{helper};\n\npub fn go() -> u32 {\n    helper(0)\n}\n",
  "/src/nested/deep.rs": [
    "use super::super::{util::{helper}};",
    "use crate::{b::run, {util::helper as h}};",
    "",
    "pub fn twice(x: u32) -> u32 {",
    "    h(x) * 2 + helper(0) + run() * 0",
    "}",
    "",
  ].join("\n"),
};

Deno.test("edit_rename_symbol() renames a Rust function imported through grouped and nested use lists", async () => {
  const ws = await workspaceOf(GROUPED_USES);
  const res = ok(
    await ws.call("edit_rename_symbol", { path: "src/util.rs", target: "helper", new_name: "assist" }),
  );
  assert.deepEqual(res.data["unresolved"], []);
  const renamed = (path: string) => GROUPED_USES[`/${path}`]!.replaceAll("helper", "assist");
  for (
    const path of [
      "src/lib.rs",
      "src/util.rs",
      "src/b.rs",
      "src/c.rs",
      "src/nested/mod.rs",
      "src/nested/deep.rs",
    ]
  ) {
    assert.equal(await textOf(ws, path), renamed(path), path);
  }
});

Deno.test("findReferences() follows grouped `use crate::{a::{self, B}, C}` in a real crate (value-bag)", async () => {
  // value-bag 1.0.0-alpha.9: internal/fmt.rs has `use crate::{fill::Slot, std::{any::Any, fmt}, Error, ValueBag}`.
  const slot = await search(VALUE_BAG, "src/fill.rs", "Slot");
  assert.deepEqual(slot.sites.filter((s) => !s.startsWith("src/fill.rs")), [
    "src/internal/fmt.rs:7:11:definition",
    "src/internal/fmt.rs:108:14:reference",
    "src/internal/mod.rs:7:18:definition",
    "src/internal/mod.rs:116:49:reference",
    "src/internal/sval/v1.rs:7:11:definition",
    "src/internal/sval/v1.rs:61:14:reference",
  ]);
  assert.deepEqual(slot.unresolved, []);
  // visit.rs: `use crate::{internal::{self, InternalVisitor}, Error, ValueBag}`; internal/fmt.rs takes it by
  // `use super::{Internal, InternalVisitor}`, where super is internal/mod.rs (not the crate root, which is
  // `super` from internal/mod.rs itself).
  const visitor = await search(VALUE_BAG, "src/internal/mod.rs", "InternalVisitor");
  assert.deepEqual(visitor.sites.filter((s) => !s.startsWith("src/internal/mod.rs")), [
    "src/fill.rs:43:22:definition",
    "src/fill.rs:67:26:reference",
    "src/fill.rs:77:44:reference",
    "src/fill.rs:83:28:reference",
    "src/internal/fmt.rs:12:23:definition",
    "src/internal/fmt.rs:136:30:reference",
    "src/internal/fmt.rs:233:30:reference",
    "src/internal/sval/v1.rs:8:26:definition",
    "src/internal/sval/v1.rs:82:30:reference",
    "src/internal/sval/v1.rs:169:23:reference",
    "src/internal/sval/v1.rs:171:46:reference",
    "src/visit.rs:62:22:definition",
    "src/visit.rs:266:21:reference",
  ]);
});

Deno.test("findReferences() lists the uses of ripgrep's pathutil functions in the modules that import them in groups", async () => {
  // ignore 0.4.18 (ripgrep's crates/ignore), uses grouped by rustfmt's imports_granularity=Crate: gitignore.rs has
  // `use crate::{pathutil::{is_file_name, strip_prefix}, Error, Match, PartialErrorBuilder};`.
  const others = async (path: string, name: string) =>
    (await search(IGNORE_CRATE, path, name)).sites.filter((s) => !s.startsWith(path));
  assert.deepEqual(await others("src/pathutil.rs", "strip_prefix"), [
    "src/dir.rs:28:27:definition",
    "src/dir.rs:362:26:reference",
    "src/gitignore.rs:25:30:definition",
    "src/gitignore.rs:283:26:reference",
    "src/gitignore.rs:295:30:reference",
    "src/gitignore.rs:298:34:reference",
    "src/gitignore.rs:327:19:reference",
  ]);
  assert.deepEqual(await others("src/pathutil.rs", "file_name"), [
    "src/types.rs:93:53:definition",
    "src/types.rs:276:26:reference",
  ]);
  assert.deepEqual(await others("src/pathutil.rs", "is_file_name"), [
    "src/gitignore.rs:25:16:definition",
    "src/gitignore.rs:294:44:reference",
  ]);
  assert.deepEqual(await others("src/lib.rs", "PartialErrorBuilder"), [
    "src/dir.rs:31:19:definition",
    "src/dir.rs:197:24:reference",
    "src/dir.rs:245:24:reference",
    "src/dir.rs:757:20:reference",
    "src/gitignore.rs:26:19:definition",
    "src/gitignore.rs:111:24:reference",
    "src/gitignore.rs:369:36:reference",
    "src/gitignore.rs:397:24:reference",
  ]);
});

Deno.test("findReferences() ties a Go method call to its type through a typed parameter (cobra)", async () => {
  // cobra 1.6.1: args.go's `func legacyArgs(cmd *Command, args []string)` calls `cmd.HasSubCommands()`;
  // command.go's `debugflags = func(x *Command)` calls `x.HasSubCommands()`.
  const res = await search(COBRA, "command.go", "Command/HasSubCommands");
  assert.deepEqual(res.sites, [
    "args.go:30:10:member_property",
    "command.go:1159:8:member_this",
    "command.go:1410:8:member_property",
    "command.go:1481:19:member_definition",
  ]);
  assert.deepEqual(res.unresolved, []);
  // From the call on the typed parameter (Command is declared in another file of the package): the same.
  assert.deepEqual(await search(COBRA, "args.go", { line: 30, column: 14 }), res);
});

Deno.test("findReferences() ties calls in another package to cobra's method through `cmd *cobra.Command`", async () => {
  const files = {
    ...COBRA,
    "/example/run.go": [
      "package main",
      "",
      'import "github.com/spf13/cobra"',
      "",
      "func run(cmd *cobra.Command, args []string) bool {",
      '\tchild := &cobra.Command{Use: "child"}',
      "\tvar other interface{ HasSubCommands() bool }",
      "\treturn cmd.HasSubCommands() || child.HasSubCommands() || other.HasSubCommands()",
      "}",
      "",
    ].join("\n"),
  };
  const res = await search(files, "command.go", "Command/HasSubCommands");
  assert.deepEqual(res.sites.filter((s) => s.startsWith("example/")), [
    "example/run.go:8:13:member_property",
    "example/run.go:8:39:member_property",
  ]);
  assert.deepEqual(
    res.unresolved,
    ["example/run.go:8:65:member_property"],
    "an interface value: a candidate",
  );
  assert.deepEqual(await search(files, "example/run.go", { line: 8, column: 13 }), res, "from the call");
});

Deno.test("findReferences() resolves members on Go values whose type is written; others stay candidates", async () => {
  const files = {
    "/go.mod": "module example.com/shapes\n\ngo 1.21\n",
    "/box.go":
      "package shapes\n\ntype Box struct{ Size int }\n\nfunc (b *Box) Grow() int { return b.Size + 1 }\n",
    "/use.go": [
      "package shapes",
      "",
      "func typed(p *Box, q Box, l []Box) int {",
      "\tvar v Box",
      "\tvar w = &Box{}",
      "\tx := Box{Size: 1}",
      "\ty := &Box{}",
      "\tz := new(Box)",
      "\tu := l[0]",
      "\treturn p.Grow() + q.Grow() + v.Grow() + w.Grow() + x.Grow() + y.Grow() + z.Grow() + u.Grow()",
      "}",
      "",
    ].join("\n"),
  };
  const res = await search(files, "box.go", "Box/Grow");
  assert.deepEqual(res.sites, [
    "box.go:5:15:member_definition",
    ...[11, 22, 33, 44, 55, 66, 77].map((c) => `use.go:10:${c}:member_property`),
  ]);
  assert.deepEqual(res.unresolved, ["use.go:10:88:member_property"], "u's type is not written");
});

Deno.test("findReferences() resolves members on Rust values whose type is written; others stay candidates", async () => {
  const files = {
    "/src/lib.rs": [
      "pub struct Meter {",
      "    pub v: u32,",
      "}",
      "",
      "impl Meter {",
      "    pub fn read(&self) -> u32 {",
      "        self.v",
      "    }",
      "}",
      "",
      "pub fn total(m: &Meter, n: Meter, r: std::rc::Rc<Meter>, f: fn() -> Meter) -> u32 {",
      "    let k: Meter = Meter { v: 1 };",
      "    let j = Meter { v: 2 };",
      "    let q = f();",
      "    m.read() + n.read() + k.read() + j.read() + q.read() + r.read()",
      "}",
      "",
    ].join("\n"),
  };
  const res = await search(files, "src/lib.rs", "Meter/read");
  assert.deepEqual(res.sites, [
    "src/lib.rs:6:12:member_definition",
    ...[7, 18, 29, 40].map((c) => `src/lib.rs:15:${c}:member_property`),
  ]);
  assert.deepEqual(res.unresolved, ["src/lib.rs:15:51:member_property", "src/lib.rs:15:62:member_property"]);
});

Deno.test("findReferences() resolves members on TypeScript parameters typed with a class, across files", async () => {
  const files = {
    "/context.ts": "export class Context {\n  json(): number {\n    return 1;\n  }\n}\n",
    "/app.ts": [
      'import { Context } from "./context";',
      "export function handler(c: Context, d?: Context, o?: { json(): number }): number {",
      "  const e = new Context();",
      "  const f: Context = c;",
      "  return c.json() + (d?.json() ?? 0) + e.json() + f.json() + (o?.json() ?? 0);",
      "}",
      "",
    ].join("\n"),
  };
  const res = await search(files, "context.ts", "Context/json");
  assert.deepEqual(res.sites, [
    ...[12, 25, 42, 53].map((c) => `app.ts:5:${c}:member_property`),
    "context.ts:2:3:member_definition",
  ]);
  assert.deepEqual(res.unresolved, ["app.ts:5:66:member_property"], "o's type is no class");
  // From a call on the parameter, whose class is imported: the same.
  assert.deepEqual(await search(files, "app.ts", { line: 5, column: 12 }), res);
});

Deno.test("findReferences() resolves members on a TypeScript parameter typed through a namespace import", async () => {
  const files = {
    "/context.ts": "export class Context {\n  json(): number {\n    return 1;\n  }\n}\n",
    "/app.ts":
      'import * as hono from "./context";\nexport const h = (c: hono.Context): number => c.json();\n',
  };
  const res = await search(files, "context.ts", "Context/json");
  assert.deepEqual(res.sites, ["app.ts:2:49:member_property", "context.ts:2:3:member_definition"]);
  assert.deepEqual(res.unresolved, []);
  assert.deepEqual(await search(files, "app.ts", { line: 2, column: 49 }), res, "from the call");
});

/** A class used in JSDoc types of a TypeScript and a JavaScript file, with prose and a record key named like it. */
const JSDOC_TYPES: Record<string, string> = {
  "/context.ts":
    "export class Context {\n  json(): number {\n    return 1;\n  }\n}\nexport class HTTPException extends Error {}\n",
  "/app.ts": [
    'import { Context, HTTPException } from "./context";',
    "/**",
    " * Handle a request. The Context is passed in; see {@link Context}.",
    " * @param {Context} c the context",
    " * @param {Array<Context>|null} cs more",
    " * @returns {Context} the same",
    " * @throws {HTTPException} when it fails",
    " */",
    "export function handler(c: Context, cs: Context[] | null): Context {",
    "  /** @type {Context} */",
    "  const d = c;",
    "  if (!cs) throw new HTTPException();",
    "  return d;",
    "}",
    "",
  ].join("\n"),
  "/plain.js": [
    'import { Context } from "./context";',
    "/**",
    " * @param {Context} c",
    " * @param {{Context: number}} o a record whose key is named Context",
    " * @returns {Promise<Context>}",
    " */",
    "export async function h(c, o) { return c; }",
    '/** @param {import("./context").Context} x */',
    "export function g(x) { return x; }",
    "",
  ].join("\n"),
  "/only.js": [
    "/**",
    " * @param {import('./context').Context} c a Context",
    ' * @returns {import("./other").Context} another module\'s Context',
    " */",
    "export function only(c) { return c; }",
    "",
  ].join("\n"),
  "/other.ts": "export class Context {}\n",
};

Deno.test("edit_rename_symbol() renames JSDoc type references with the class, as TypeScript's rename does; prose stays", async () => {
  // typescript@5.9.3's findRenameLocations on `class Context` (allowJs, checkJs) answers exactly these places in
  // the comments: app.ts 3:59 ({@link}), 4:12, 5:18, 6:14, 10:14, plain.js 3:12, 5:22, 8:33 and only.js 2:32
  // (`import('./context').Context` in a file that imports nothing); not the prose (app.ts 3:26), the record key
  // (plain.js 4:13) nor other.ts's Context (only.js 3:30).
  const res = await search(JSDOC_TYPES, "context.ts", "Context");
  assert.deepEqual(res.sites.filter((s) => s.endsWith(":doc")), [
    "app.ts:3:59:doc",
    "app.ts:4:12:doc",
    "app.ts:5:18:doc",
    "app.ts:6:14:doc",
    "app.ts:10:14:doc",
    "only.js:2:32:doc",
    "plain.js:3:12:doc",
    "plain.js:5:22:doc",
    "plain.js:8:33:doc",
  ]);
  const thrown = await search(JSDOC_TYPES, "context.ts", "HTTPException");
  assert.ok(thrown.sites.includes("app.ts:7:13:doc"), "@throws {HTTPException}");
  const ws = await workspaceOf(JSDOC_TYPES);
  const renamed = ok(
    await ws.call("edit_rename_symbol", {
      path: "context.ts",
      target: "Context",
      new_name: "RequestContext",
    }),
  );
  const app = (await textOf(ws, "app.ts")).split("\n");
  assert.equal(app[2], " * Handle a request. The Context is passed in; see {@link RequestContext}.");
  assert.deepEqual(app.slice(3, 6), [
    " * @param {RequestContext} c the context",
    " * @param {Array<RequestContext>|null} cs more",
    " * @returns {RequestContext} the same",
  ]);
  assert.equal(app[9], "  /** @type {RequestContext} */");
  const plain = (await textOf(ws, "plain.js")).split("\n");
  assert.deepEqual(plain.slice(2, 5), [
    " * @param {RequestContext} c",
    " * @param {{Context: number}} o a record whose key is named Context",
    " * @returns {Promise<RequestContext>}",
  ]);
  assert.equal(plain[7], '/** @param {import("./context").RequestContext} x */');
  assert.deepEqual((await textOf(ws, "only.js")).split("\n").slice(1, 3), [
    " * @param {import('./context').RequestContext} c a Context",
    ' * @returns {import("./other").Context} another module\'s Context',
  ]);
  // The prose and the record key keep the old name and are reported.
  const text = renamed.data["text_occurrences"] as { path: string; line: number }[];
  assert.ok(text.some((t) => t.path === "app.ts" && t.line === 3));
  assert.ok(text.some((t) => t.path === "plain.js" && t.line === 4));
});

Deno.test("findReferences() on hono's own JSDoc (`@param {Hono} app`, `@returns {Hono}`, `@param {Context} c`) answers what TypeScript's rename does", async () => {
  // hono@4.13.19's dist/types (a pinned dependency): hono-base.d.ts documents its methods with `@returns {Hono}`,
  // middleware/timing/timing.d.ts imports Context and documents `@param {Context} c`. The expected lists are
  // typescript@5.9.3's findRenameLocations for the same two classes over the same three files.
  const root = new URL(
    "../../../../node_modules/.deno/hono@4.13.19/node_modules/hono/dist/types/",
    import.meta.url,
  );
  const files: Record<string, string> = {};
  for (const path of ["hono-base.d.ts", "context.d.ts", "middleware/timing/timing.d.ts"]) {
    files[`/${path}`] = Deno.readTextFileSync(new URL(path, root));
  }
  const at = (list: string[]) => list.map((s) => s.replace(/:[a-z_]+$/, "")).sort();
  const hono = await search(files, "hono-base.d.ts", { line: 68, column: 15 });
  assert.deepEqual(
    at(hono.sites),
    [
      ...[[104, 158], [104, 213], [111, 16], [118, 52], [125, 16], [135, 42], [142, 16], [151, 46], [
        162,
        16,
      ]],
      ...[[188, 134], [234, 10], [68, 15], [92, 14], [93, 16]],
    ].map(([l, c]) => `hono-base.d.ts:${l}:${c}`).sort(),
  );
  assert.equal(
    hono.sites.filter((s) => s.endsWith(":doc")).length,
    6,
    "@param {Hono} app and five @returns {Hono}",
  );
  const context = await search(files, "context.d.ts", "Context");
  assert.deepEqual(
    at(context.sites),
    [
      "context.d.ts:190:22",
      "hono-base.d.ts:3:10",
      "hono-base.d.ts:62:31",
      ...[[106, 35], [109, 12], [124, 40], [16, 28], [19, 41], [28, 27], [2, 10], [31, 36], [62, 7], [63, 7]]
        .map(([l, c]) => `middleware/timing/timing.d.ts:${l}:${c}`),
      ...[[68, 12], [84, 12], [93, 37], [97, 12]].map(([l, c]) => `middleware/timing/timing.d.ts:${l}:${c}`),
    ].sort(),
  );
  assert.deepEqual(
    context.sites.filter((s) => s.endsWith(":doc")).length,
    6,
    "four `@param {Context} c`, two `@param {boolean | ((c: Context) => boolean)}`",
  );
});
