/**
 * Codex's `apply_patch`, driven with the shape Codex's function tool
 * documents (`{"input": "*** Begin Patch ..."}`), on a real Ruby file
 * (tests/fixtures/real/native_modules.rb, from @react-native-community/cli-platform-ios).
 */
import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace, type Workspace } from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";

const SOURCE = await Deno.readTextFile(new URL("../../fixtures/real/native_modules.rb", import.meta.url));

async function open(): Promise<Workspace> {
  return await createWorkspace({
    backend: createMemoryBackend({ "/w/ios/native_modules.rb": SOURCE, "/w/old.txt": "gone\n" }),
    root: "/w",
    wasm: createWasmLoader(),
  });
}

async function text(ws: Workspace, path: string): Promise<string | null> {
  const bytes = await ws.fs.read(`/w/${path}`);
  return bytes === null ? null : new TextDecoder().decode(bytes);
}

const UPDATE = `*** Begin Patch
*** Update File: ios/native_modules.rb
@@ def use_native_modules!(config = nil)
   if (config.is_a? String)
-    Pod::UI.warn("Passing custom root to use_native_modules! is deprecated.",
+    Pod::UI.warn("Passing a custom root to use_native_modules! is deprecated.",
*** Add File: ios/NOTES.md
+# Notes
+native_modules.rb came from the React Native CLI.
*** Delete File: old.txt
*** End Patch
`;

Deno.test("apply_patch {input} updates, adds and deletes files in one commit through apply_edits", async () => {
  const ws = await open();
  const r = await ws.call("apply_patch", { input: UPDATE });
  assert.ok(r.ok, JSON.stringify(r));
  assert.equal(r.tool, "apply_edits");
  assert.equal(r.data["format"], "apply-patch");
  assert.deepEqual(r.changes.map((c) => c.path), ["ios/NOTES.md", "ios/native_modules.rb", "old.txt"]);
  assert.equal(
    await text(ws, "ios/native_modules.rb"),
    SOURCE.replace("Passing custom root", "Passing a custom root"),
  );
  assert.equal(
    await text(ws, "ios/NOTES.md"),
    "# Notes\nnative_modules.rb came from the React Native CLI.\n",
  );
  assert.equal(await text(ws, "old.txt"), null);
});

Deno.test("apply_patch takes Codex's heredoc form, the patch alias, dry_run and expected_versions", async () => {
  const ws = await open();
  const heredoc = `apply_patch <<'EOF'\n${UPDATE}EOF\n`;
  const dry = await ws.call("apply_patch", { patch: heredoc, dry_run: true });
  assert.ok(dry.ok && dry.status === "dry_run", JSON.stringify(dry));
  assert.equal(await text(ws, "ios/native_modules.rb"), SOURCE);
  const stale = await ws.call("apply_patch", {
    input: UPDATE,
    expected_versions: { "ios/native_modules.rb": "0".repeat(64) },
  });
  assert.ok(!stale.ok && stale.error.code === "stale_base", JSON.stringify(stale));
  assert.equal(stale.tool, "apply_patch");
});

Deno.test("apply_patch refuses a hunk that matches nowhere, and malformed input, writing nothing", async () => {
  const ws = await open();
  const miss = await ws.call("apply_patch", {
    input: UPDATE.replace("-    Pod::UI.warn(", "-    Pod::UI.error("),
  });
  assert.ok(!miss.ok && miss.error.code === "no_match", JSON.stringify(miss));
  assert.equal(await text(ws, "old.txt"), "gone\n", "all files or none");
  const bad = await ws.call("apply_patch", { input: "*** Update File: a.rb\n" });
  assert.ok(
    !bad.ok && bad.error.code === "invalid_args" && /Begin Patch/.test(bad.error.hint),
    JSON.stringify(bad),
  );
  const empty = await ws.call("apply_patch", {});
  assert.ok(
    !empty.ok && empty.error.code === "invalid_args" && /"input" is required/.test(empty.error.message),
  );
});
