import assert from "node:assert/strict";
import { BackendFs, createMemoryBackend } from "../../../src/mod.ts";
import { afterVersionOf, decodedSide } from "../../../src/fs/change_facts.ts";
import { Sandbox } from "../../../src/fs/sandbox.ts";
import { Stage } from "../../../src/fs/stage.ts";
import { versionOf } from "../../../src/fs/version.ts";
import { enc } from "../../_helpers.ts";

Deno.test("change facts: each change's after-version and decoded sides are computed once and match a fresh computation", async () => {
  const raw = createMemoryBackend({
    "/p/a.py": "\ufeffx = 1\r\n",
    "/p/b.bin": "keep",
    "/p/gone.txt": "bye\n",
  });
  const stage = new Stage(BackendFs.wrap(raw), new Sandbox("/p"));
  await stage.readText("a.py");
  await stage.write("a.py", enc("\ufeffx = 2\r\n"));
  await stage.write("b.bin", new Uint8Array([0xff, 0xfe, 0x00, 0x41]));
  await stage.remove("gone.txt");
  const [a, bin, gone] = stage.changes();
  assert.deepEqual([a!.path, bin!.path, gone!.path], ["a.py", "b.bin", "gone.txt"]);

  const v = afterVersionOf(a!);
  assert.equal(afterVersionOf(a!), v, "the same promise for the same change");
  assert.equal(await v, await versionOf(a!.after!));
  const after = decodedSide(a!, "after");
  assert.equal(decodedSide(a!, "after"), after, "decoded once");
  assert.deepEqual([after.text, after.bom], ["x = 2\r\n", true]);
  assert.equal(decodedSide(a!, "before").text, "x = 1\r\n");

  // A change from the next call is a new object: nothing carries over.
  const [again] = stage.changes();
  assert.notEqual(again, a);
  assert.equal(await afterVersionOf(again!), await v);

  // Bytes that are not text fail the same way each time; a deletion has no after side.
  const first = (() => {
    try {
      decodedSide(bin!, "after");
    } catch (err) {
      return err;
    }
  })();
  assert.ok(first instanceof Error);
  assert.throws(() => decodedSide(bin!, "after"), (err) => err === first);
  assert.throws(() => afterVersionOf(gone!), /deletes the file/);
  assert.throws(() => decodedSide(gone!, "after"), /has no after bytes/);
});
