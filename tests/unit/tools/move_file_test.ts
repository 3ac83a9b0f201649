import assert from "node:assert/strict";
import { snapshot } from "../../_helpers.ts";
import { code, open } from "./_files.ts";
import { workspaceOf } from "./_bindings_fixtures.ts";
import { GO_CMP, SEMVER } from "./_language_fixtures.ts";

Deno.test("move_file() renames in one commit with a git-style rename diff", async () => {
  const { ws, backend } = await open();
  const mv = await ws.call("move_file", { from: "src/a.ts", to: "lib/a.ts" });
  assert.ok(mv.ok);
  assert.match(mv.changes[0]!.diff, /rename from src\/a.ts\nrename to lib\/a.ts/);
  const snap = await snapshot(backend, "/w");
  assert.equal(snap["/w/lib/a.ts"], "export const a = 1;\n");
  assert.equal(snap["/w/src/a.ts"], undefined);
});

Deno.test("move_file() refuses an existing destination unless overwrite is true", async () => {
  const { ws, backend } = await open();
  const r = await ws.call("move_file", { from: "src/a.ts", to: "src/crlf.py" });
  assert.equal(code(r), "already_exists");
  assert.ok(!r.ok && r.error.suggested_call?.args["overwrite"] === true);
  assert.equal((await snapshot(backend, "/w"))["/w/src/crlf.py"], "x = 1\r\ny = 2\r\n");
  assert.ok((await ws.call("move_file", { from: "src/a.ts", to: "src/crlf.py", overwrite: true })).ok);
  const snap = await snapshot(backend, "/w");
  assert.equal(snap["/w/src/crlf.py"], "export const a = 1;\n");
  assert.equal(snap["/w/src/a.ts"], undefined);
});

Deno.test("move_file() onto itself changes nothing and warns", async () => {
  const { ws, backend } = await open();
  const before = await snapshot(backend, "/w");
  const r = await ws.call("move_file", { from: "src/a.ts", to: "./src/a.ts" });
  assert.ok(r.ok, JSON.stringify(r));
  assert.equal(r.changes.length, 0);
  assert.match(r.warnings.join("\n"), /same path/);
  assert.deepEqual(await snapshot(backend, "/w"), before);
});

Deno.test("move_file() refuses a missing source", async () => {
  const { ws } = await open();
  assert.equal(code(await ws.call("move_file", { from: "nope.ts", to: "b.ts" })), "not_found");
});

Deno.test("move_file() refuses to move a Rust module or crate root away from the path its `mod` names (semver)", async () => {
  const ws = await workspaceOf(SEMVER);
  for (
    const [from, to] of [["src/identifier.rs", "src/identifier_soak.rs"], ["src/lib.rs", "src/lib_soak.rs"]]
  ) {
    const r = await ws.call("move_file", { from, to });
    assert.equal(code(r), "unsupported_language", from);
    assert.ok(!r.ok && /mod|crate root/.test(r.error.message) && /update_imports: false/.test(r.error.hint));
  }
  // an integration test is found by its directory: it moves; and update_imports: false moves anything
  const extra = await workspaceOf(SEMVER, { "tests/test_a.rs": "#[test]\nfn t() {}\n" });
  assert.ok((await extra.call("move_file", { from: "tests/test_a.rs", to: "tests/test_b.rs" })).ok);
  const bytes = await extra.call("move_file", {
    from: "src/eval.rs",
    to: "src/eval2.rs",
    update_imports: false,
  });
  assert.ok(bytes.ok, JSON.stringify(bytes));
});

Deno.test("move_file() moves a Go file within its package but refuses a new package or a changed `_test`/GOOS suffix (go-cmp)", async () => {
  const ws = await workspaceOf(GO_CMP, { "cmp/x_test.go": "package cmp_test\n" });
  for (const to of ["cmp/internal/diff/path.go", "cmp/path_test.go", "cmp/path_linux.go"]) {
    assert.equal(code(await ws.call("move_file", { from: "cmp/path.go", to })), "unsupported_language", to);
  }
  assert.equal(
    code(await ws.call("move_file", { from: "cmp/x_test.go", to: "cmp/x_test_soak.go" })),
    "unsupported_language",
  );
  assert.ok((await ws.call("move_file", { from: "cmp/x_test.go", to: "cmp/x_soak_test.go" })).ok);
  assert.ok((await ws.call("move_file", { from: "cmp/path.go", to: "cmp/paths.go" })).ok);
});
