import assert from "node:assert/strict";
import {
  applyHunks,
  definitionChange,
  definitionSignatures,
} from "../../../src/compass/definition_change.ts";
import type { FileFacts } from "../../../src/compass/types.ts";
import { versionOf } from "../../../src/fs/version.ts";
import { createMemoryBackend, createWorkspace, outlineOf } from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";

const PARSING = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });

const PY =
  "class Cart:\n    def add(self, item):\n        self.items.append(item)\n\n    def total(self):\n        return sum(self.items)\n";

async function facts(path: string, text: string): Promise<FileFacts> {
  const v = (t: string) => versionOf(new TextEncoder().encode(t));
  return {
    path,
    language: "python",
    text,
    version: await v(text),
    outline: async (t) => (await outlineOf(PARSING, path, { text: t, version: await v(t) })).symbols,
  };
}

Deno.test("applyHunks() replaces the first exact occurrence, every one with all, else lines matched without indentation", () => {
  assert.equal(applyHunks("a a", [{ oldText: "a", newText: "b" }]), "b a");
  assert.equal(applyHunks("a a", [{ oldText: "a", newText: "b" }], { all: true }), "b b");
  assert.equal(
    applyHunks("def f():\n    return 1\n", [{ oldText: "return 1", newText: "return 2" }]),
    "def f():\n    return 2\n",
  );
  assert.equal(
    applyHunks("def f():\n    x = 1\n    return x\n", [{
      oldText: "  x = 1\n  return x",
      newText: "    return 1",
    }]),
    "def f():\n    return 1\n",
    "indentation drifted: the lines still say where",
  );
  assert.equal(applyHunks("x\nx\n", [{ oldText: " x", newText: "y" }]), null, "two places: unknown");
  assert.equal(applyHunks("x\n", [{ oldText: "z", newText: "y" }]), null);
});

Deno.test("definitionChange() tells a body edit, a shape change and a definition's rename apart on a real outline", async () => {
  const file = await facts("cart.py", PY);
  assert.deepEqual(
    await definitionChange(file, {
      hunks: [{ oldText: "sum(self.items)", newText: "len(self.items)" }],
      renames: true,
    }),
    { kind: "body" },
  );
  assert.deepEqual(
    await definitionChange(file, {
      hunks: [{ oldText: "return sum(", newText: "return total(" }],
      renames: true,
    }),
    { kind: "body" },
    "a call renamed, no definition",
  );
  assert.deepEqual(
    await definitionChange(file, {
      hunks: [{ oldText: "def total(self)", newText: "def sum(self)" }],
      renames: true,
    }),
    { kind: "rename", from: "total", to: "sum" },
  );
  assert.deepEqual(
    await definitionChange(file, {
      hunks: [{ oldText: "def add(self, item)", newText: "def add(self, item, n)" }],
    }),
    { kind: "shape" },
  );
  assert.deepEqual(await definitionChange(file, { after: PY + "\ndef extra():\n    pass\n" }), {
    kind: "shape",
  });
  assert.deepEqual(await definitionChange(file, { hunks: [{ oldText: "nowhere", newText: "x" }] }), {
    kind: "unknown",
  });
  const { outline: _, ...bare } = file;
  assert.deepEqual(await definitionChange(bare, { after: "" }), { kind: "unknown" }, "no outline: unknown");
  const signatures = definitionSignatures(
    PY,
    (await outlineOf(PARSING, "cart.py", { text: PY, version: file.version! })).symbols,
  );
  assert.deepEqual(signatures, [
    "class Cart class Cart:",
    "method Cart/add def add(self, item):",
    "method Cart/total def total(self):",
  ]);
});

Deno.test("definitionChange() reads a local's declaration renamed in the old text as a rename, a use of it alone as a body edit", async () => {
  const text = "def total(items):\n    acc = 0\n    for i in items:\n        acc += i\n    return acc\n";
  const file = { ...(await facts("t.py", text)) };
  file.declarations = () =>
    Promise.resolve([{ name: "acc", start: text.indexOf("acc"), end: text.indexOf("acc") + 3 }]);
  const whole = { oldText: text.slice(text.indexOf("    acc = 0"), -1), newText: "" };
  whole.newText = whole.oldText.replaceAll("acc", "sum");
  assert.deepEqual(await definitionChange(file, { hunks: [whole], renames: true }), {
    kind: "rename",
    from: "acc",
    to: "sum",
  });
  assert.deepEqual(
    await definitionChange(file, {
      hunks: [{ oldText: "return acc", newText: "return sum" }],
      renames: true,
    }),
    { kind: "body" },
  );
});
