import assert from "node:assert/strict";
import { formFor, HELD_CALLS, heldDirsOf } from "../../../src/fs/backend_forms.ts";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";

Deno.test("formFor: a form tagged with the call it stands for is used only while that call is the backend's; an untagged one always", () => {
  const readFile = () => Promise.resolve(new Uint8Array());
  const readMany = Object.assign(() => Promise.resolve([]), { of: readFile });
  assert.equal(formFor(readMany, readFile), readMany);
  assert.equal(formFor(readMany, () => Promise.resolve(new Uint8Array())), undefined, "readFile replaced");
  const untagged = () => Promise.resolve([]);
  assert.equal(formFor(untagged, readFile), untagged);
  assert.equal(formFor(undefined, readFile), undefined);
});

Deno.test("heldDirsOf: the disk's holdDir while every call a commit makes by a held path is the disk's own", () => {
  const disk = createDiskBackend();
  if (disk.holdDir === undefined) return; // no /proc here: nothing is held
  assert.equal(heldDirsOf(disk), disk.holdDir);
  assert.deepEqual(Object.keys(disk.holdDir.of ?? {}).sort(), [...HELD_CALLS].sort());
  assert.equal(heldDirsOf({ ...disk }), disk.holdDir, "a copy that replaces nothing still holds");
  for (const call of HELD_CALLS) {
    const wrapped = { ...disk, [call]: () => Promise.reject(new Error("denied")) };
    assert.equal(heldDirsOf(wrapped), undefined, `${call} replaced: its paths are judged by the wrapper`);
  }
  const untagged = Object.assign({}, disk, { holdDir: () => Promise.resolve(null) });
  assert.equal(heldDirsOf(untagged), untagged.holdDir);
});
