import assert from "node:assert/strict";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";

const bytesOf = async (p: Promise<Uint8Array | string>) => {
  const data = await p;
  return typeof data === "string" ? new TextEncoder().encode(data) : new Uint8Array(data);
};

Deno.test("createMemoryBackend() seeds text as UTF-8 and bytes unchanged", async () => {
  const raw = new Uint8Array([0xef, 0xbb, 0xbf, 0x63, 0xe9, 0x00, 0xff]);
  const backend = createMemoryBackend({ "/t.txt": "café\r\n", "/b.bin": raw });
  assert.deepEqual(await bytesOf(backend.readFile("/t.txt")), new TextEncoder().encode("café\r\n"));
  assert.deepEqual(await bytesOf(backend.readFile("/b.bin")), raw);
});

Deno.test("createMemoryBackend() creates nested directories for seeded paths", async () => {
  const backend = createMemoryBackend({ "/a/b/c/d.ts": "d", "/a/e.ts": "e", "/top.ts": "t" });
  assert.deepEqual((await backend.readdir("/")).map(String).sort(), ["a", "top.ts"]);
  assert.deepEqual((await backend.readdir("/a")).map(String).sort(), ["b", "e.ts"]);
  assert.ok((await backend.stat("/a/b/c")).isDirectory());
  assert.ok((await backend.stat("/a/b/c/d.ts")).isFile());
});

Deno.test("createMemoryBackend() without files is empty, and each backend is its own volume", async () => {
  const empty = createMemoryBackend();
  assert.deepEqual(await empty.readdir("/"), []);
  const one = createMemoryBackend({ "/x.txt": "one" });
  const two = createMemoryBackend({ "/x.txt": "two" });
  await one.writeFile("/y.txt", new TextEncoder().encode("y"));
  assert.equal(new TextDecoder().decode(await bytesOf(two.readFile("/x.txt"))), "two");
  await assert.rejects(() => two.readFile("/y.txt"), (e) => (e as { code?: string }).code === "ENOENT");
});

Deno.test("createMemoryBackend() honours the exclusive-create flag graver's lock relies on", async () => {
  const backend = createMemoryBackend({ "/lock": "held" });
  await assert.rejects(
    () => backend.writeFile("/lock", new TextEncoder().encode("mine"), { flag: "wx" }),
    (e) => (e as { code?: string }).code === "EEXIST",
  );
  await backend.writeFile("/free", new TextEncoder().encode("mine"), { flag: "wx" });
  assert.equal(new TextDecoder().decode(await bytesOf(backend.readFile("/free"))), "mine");
});

Deno.test("createMemoryBackend() rename over a file leaves a directory that can be removed once empty", async () => {
  const backend = createMemoryBackend({ "/d/a.txt": "a", "/d/a.tmp": "b" });
  await backend.rename("/d/a.tmp", "/d/a.txt");
  assert.deepEqual(await backend.readdir("/d"), ["a.txt"]);
  assert.equal(new TextDecoder().decode(await backend.readFile("/d/a.txt") as Uint8Array), "b");
  await backend.unlink("/d/a.txt");
  await backend.rmdir!("/d");
  assert.deepEqual(await backend.readdir("/"), []);
  await assert.rejects(() => backend.rename("/missing", "/x"), (e: { code?: string }) => e.code === "ENOENT");
});
