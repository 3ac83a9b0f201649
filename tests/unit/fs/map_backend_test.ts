import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { errnoCode } from "../../../src/fs/backend.ts";
import { createMapBackend } from "../../../src/fs/map_backend.ts";
import { describeFailures, runConformance } from "../../conformance/suite.ts";
import { backendSmoke } from "../../runtimes/_backend_smoke.ts";

Deno.test("the whole conformance suite passes on the Map backend, symbolic links aside (it has none)", async () => {
  const report = await runConformance({ wasm: createWasmLoader(), makeBackend: createMapBackend });
  assert.deepEqual(describeFailures(report), [
    "FAILED sandbox.symlinks: CheckError: Expected the in-memory backend to support symbolic links",
  ]);
  assert.equal(report.passed, report.total - 1);
});

Deno.test("the backend smoke test passes on the Map backend", async () => {
  assert.match(await backendSmoke(createMapBackend(), "/work"), /ok$/);
});

Deno.test("createMapBackend() answers with POSIX error codes", async () => {
  const fs = createMapBackend({ "/d/a.txt": "a", "/d/sub/b.txt": new Uint8Array([1, 2]) });
  const code = async (p: Promise<unknown>) => errnoCode(await p.then(() => null, (e) => e));
  assert.equal(await code(fs.readFile("/nope")), "ENOENT");
  assert.equal(await code(fs.readFile("/d/a.txt/x")), "ENOTDIR");
  assert.equal(await code(fs.readFile("/d")), "EISDIR");
  assert.equal(await code(fs.writeFile("/missing/x", new Uint8Array())), "ENOENT");
  assert.equal(await code(fs.writeFile("/d/a.txt", new Uint8Array(), { flag: "wx" })), "EEXIST");
  assert.equal(await code(fs.mkdir("/d")), "EEXIST");
  assert.equal(await code(fs.rmdir!("/d")), "ENOTEMPTY");
  assert.equal(await code(fs.unlink("/d")), "EISDIR");
  assert.equal(await code(fs.rename("/d", "/d/sub/x")), "EINVAL");
  await fs.mkdir("/e/f/g", { recursive: true });
  assert.ok((await fs.stat("/e/f/g")).isDirectory());
  // a directory moves with everything under it
  await fs.rename("/d", "/e/moved");
  assert.deepEqual(await fs.readdir("/e"), ["f", "moved"]);
  assert.deepEqual(await fs.readFile("/e/moved/sub/b.txt"), new Uint8Array([1, 2]));
  assert.equal(await code(fs.stat("/d/a.txt")), "ENOENT");
  await fs.chmod!("/e/moved/a.txt", 0o755);
  assert.equal(Number((await fs.stat("/e/moved/a.txt")).mode) & 0o7777, 0o755);
  // writes copy the caller's bytes
  const buf = new Uint8Array([7]);
  await fs.writeFile("/e/c", buf);
  buf[0] = 9;
  assert.deepEqual(await fs.readFile("/e/c"), new Uint8Array([7]));
});
