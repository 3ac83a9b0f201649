/**
 * The storage backend over two stores shaped like a Durable Object's storage
 * (list answers a Map) and a KV namespace (through kvStore: values as
 * ArrayBuffers, paged listings): a workspace commits through it, a second
 * backend over the same store reads everything back (bytes, a file larger than
 * one chunk, modes), and a refused write stores nothing.
 */
import assert from "node:assert/strict";
import { createWorkspace } from "../../src/mod.ts";
import { createStorageBackend, type KeyValueStore, kvStore } from "./storage_backend.ts";

/** A Durable Object storage look-alike: structured values, `list` answers a Map. */
function durableStore(): KeyValueStore & { data: Map<string, Uint8Array> } {
  const data = new Map<string, Uint8Array>();
  return {
    data,
    get: (key) => Promise.resolve(data.get(key)),
    put: (key, value) => Promise.resolve(void data.set(key, value.slice())),
    delete: (key) => Promise.resolve(data.delete(key)),
    list: ({ prefix }) =>
      Promise.resolve(
        new Map([...data].filter(([k]) => k.startsWith(prefix)).sort(([a], [b]) => a < b ? -1 : 1)),
      ),
  };
}

/** A KV namespace look-alike: ArrayBuffer values and listings in pages of 2 keys. */
function kvNamespace() {
  const data = new Map<string, ArrayBuffer>();
  return {
    data,
    get: (key: string, _type: "arrayBuffer") => Promise.resolve(data.get(key) ?? null),
    put: (key: string, value: ArrayBuffer | Uint8Array) =>
      Promise.resolve(void data.set(key, new Uint8Array(value).slice().buffer)),
    delete: (key: string) => Promise.resolve(void data.delete(key)),
    list: ({ prefix, cursor }: { prefix: string; cursor?: string }) => {
      const keys = [...data.keys()].filter((k) => k.startsWith(prefix)).sort();
      const from = cursor ? Number(cursor) : 0;
      const page = keys.slice(from, from + 2).map((name) => ({ name }));
      const done = from + 2 >= keys.length;
      return Promise.resolve(
        done
          ? { keys: page, list_complete: true }
          : { keys: page, list_complete: false, cursor: String(from + 2) },
      );
    },
  };
}

const BIG = "x".repeat(300 * 1024) + "\n"; // three chunks

for (
  const [label, make] of [["durable object", durableStore], ["kv", () => kvStore(kvNamespace())]] as const
) {
  Deno.test(`storage backend (${label}): commits persist and a new backend reads them back`, async () => {
    const store = make();
    const ws = await createWorkspace({ backend: createStorageBackend(store), root: "/w" });
    let r = await ws.call("create_file", { path: "src/a.ts", content: "export const a = 1;\n" });
    assert.ok(r.ok, JSON.stringify(r));
    r = await ws.call("create_file", { path: "big.txt", content: BIG });
    assert.ok(r.ok, JSON.stringify(r));
    r = await ws.call("create_file", { path: "old/x.txt", content: "x\n" });
    assert.ok(r.ok, JSON.stringify(r));
    r = await ws.call("move_file", { from: "old/x.txt", to: "new/x.txt" });
    assert.ok(r.ok, JSON.stringify(r));
    await ws.fs.chmod("/w/src/a.ts", 0o755);
    r = await ws.call("edit_file", { path: "src/a.ts", old_string: "= 1", new_string: "= 2" });
    assert.ok(r.ok, JSON.stringify(r));
    r = await ws.call("write_file", { path: "big.txt", content: "small\n" });
    assert.ok(r.ok, JSON.stringify(r));
    r = await ws.call("write_file", {
      path: "src/a.ts",
      content: "nope\n",
      expected_version: "0".repeat(64),
    });
    assert.ok(!r.ok && r.error.code === "stale_base", JSON.stringify(r));

    const again = await createWorkspace({ backend: createStorageBackend(store), root: "/w" });
    const read = async (rel: string) => {
      const b = await again.fs.read(`/w/${rel}`);
      return b === null ? null : new TextDecoder().decode(b);
    };
    assert.equal(await read("src/a.ts"), "export const a = 2;\n");
    assert.equal(await again.fs.mode("/w/src/a.ts"), 0o755, "the mode is stored");
    assert.equal(await read("big.txt"), "small\n", "the chunks of the old bytes are gone");
    assert.equal(await read("old/x.txt"), null);
    assert.equal(await read("new/x.txt"), "x\n");
    assert.equal(await again.fs.kind("/w/.graver"), null, "no lock, journal or temp file left in the store");
  });
}

Deno.test("storage backend: a file larger than one value is stored in chunks and read back whole", async () => {
  const store = durableStore();
  const backend = createStorageBackend(store);
  await backend.mkdir("/d", { recursive: true });
  await backend.writeFile("/d/big.txt", new TextEncoder().encode(BIG));
  assert.deepEqual([...store.data.keys()].filter((k) => k.startsWith("d:")).length, 3);
  for (const v of store.data.values()) assert.ok(v.length <= 120 * 1024);
  const back = createStorageBackend(store);
  assert.equal(new TextDecoder().decode(await back.readFile("/d/big.txt") as Uint8Array), BIG);
  // A rewrite to fewer chunks removes the ones it no longer needs.
  await backend.writeFile("/d/small.txt", new TextEncoder().encode(BIG));
  await backend.writeFile("/d/small.txt", new TextEncoder().encode("small\n"));
  assert.deepEqual([...store.data.keys()].filter((k) => k.startsWith("d:/d/small.txt:")), [
    "d:/d/small.txt:0",
  ]);
  await backend.unlink("/d/small.txt");
  assert.deepEqual([...store.data.keys()].filter((k) => k.includes("/d/small.txt")), []);
  // A refused exclusive write stores nothing.
  await assert.rejects(backend.writeFile("/d/big.txt", new Uint8Array([1]), { flag: "wx" }));
  assert.equal(
    new TextDecoder().decode(await createStorageBackend(store).readFile("/d/big.txt") as Uint8Array),
    BIG,
  );
});
