import assert from "node:assert/strict";
import { nativeMoveRefusal } from "../../../../src/structural/move_file/native_file_moves.ts";

Deno.test("nativeMoveRefusal() refuses moving a Go file to another package's directory, not within its own", () => {
  const refusal = nativeMoveRefusal({ language: "go", from: "pkg/a/x.go", to: "pkg/b/x.go" });
  assert.equal(refusal?.code, "unsupported_language");
  assert.match(refusal!.message, /Cannot move "pkg\/a\/x\.go" to "pkg\/b\/x\.go"/);
  assert.deepEqual(refusal!.details, { from: "pkg/a/x.go", to: "pkg/b/x.go", language: "go" });
  assert.equal(nativeMoveRefusal({ language: "go", from: "pkg/a/x.go", to: "pkg/a/y.go" }), null);
});

Deno.test("nativeMoveRefusal() refuses renaming a Rust module file; other languages move freely here", () => {
  assert.equal(
    nativeMoveRefusal({ language: "rust", from: "src/util.rs", to: "src/helpers.rs" })?.code,
    "unsupported_language",
  );
  assert.equal(nativeMoveRefusal({ language: "typescript", from: "a.ts", to: "lib/a.ts" }), null);
  assert.equal(nativeMoveRefusal({ language: "lua", from: "a.lua", to: "b.lua" }), null);
});
