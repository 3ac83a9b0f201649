/**
 * A graver `Backend` over a key-value store: a Durable Object's storage
 * (`state.storage`) as it is, or a KV namespace through {@linkcode kvStore}.
 * Files live in memory (graver's small Map backend) and every change is
 * written through to the store before the call returns; the first call loads
 * every file back from the store, so a workspace outlives its isolate.
 *
 * Keys: `f:<path>` holds a file's record (`{"n": chunks, "m": mode}` as JSON
 * bytes), `d:<path>:<i>` its bytes in chunks of at most 120 KiB (a Durable
 * Object value is limited to 128 KiB). Directories are not stored: a file's
 * parents exist once it is loaded. graver's own files (`.graver/`: the commit
 * lock, journal and temp files) are stored like any other, so an interrupted
 * commit is finished or rolled back when the workspace opens again.
 *
 * @module
 */
import type { Backend } from "../../src/fs/backend.ts";
import { createMapBackend } from "../../src/fs/map_backend.ts";

/**
 * The four calls graver makes on a store. A Durable Object's `state.storage`
 * satisfies it directly; wrap a KV namespace with {@linkcode kvStore}.
 */
export interface KeyValueStore {
  /** The value under `key` (bytes as `Uint8Array` or `ArrayBuffer`), or null/undefined when absent. */
  get(key: string): Promise<unknown>;
  /** Store bytes under `key`. */
  put(key: string, value: Uint8Array): Promise<unknown>;
  /** Remove `key` (absent keys are fine). */
  delete(key: string): Promise<unknown>;
  /** The keys with a prefix: a `Map` of them (Durable Objects) or `{ keys: [{ name }] }` (KV). */
  list(options: { prefix: string }): Promise<Map<string, unknown> | { keys: { name: string }[] }>;
}

/** The parts of a Workers KV namespace {@linkcode kvStore} uses. */
export interface KvNamespaceLike {
  /** KV's `get(key, "arrayBuffer")`. */
  get(key: string, type: "arrayBuffer"): Promise<ArrayBuffer | null>;
  /** KV's `put`. */
  put(key: string, value: ArrayBuffer | Uint8Array): Promise<unknown>;
  /** KV's `delete`. */
  delete(key: string): Promise<unknown>;
  /** KV's paginated `list`. */
  list(options: { prefix: string; cursor?: string }): Promise<
    { keys: { name: string }[]; list_complete: boolean; cursor?: string }
  >;
}

/**
 * A KV namespace as a {@linkcode KeyValueStore}: values read as bytes, every
 * page of a listing followed. KV is eventually consistent across locations, so
 * give one workspace one writer (a Durable Object) when several may commit.
 *
 * @param kv The namespace binding.
 * @returns The store.
 */
export function kvStore(kv: KvNamespaceLike): KeyValueStore {
  return {
    get: (key) => kv.get(key, "arrayBuffer"),
    put: (key, value) => kv.put(key, value),
    delete: (key) => kv.delete(key),
    async list({ prefix }) {
      const keys: { name: string }[] = [];
      let cursor: string | undefined;
      do {
        const page = await kv.list(cursor === undefined ? { prefix } : { prefix, cursor });
        keys.push(...page.keys);
        cursor = page.list_complete ? undefined : page.cursor;
      } while (cursor !== undefined);
      return { keys };
    },
  };
}

/** Largest chunk of a file's bytes in one value. */
const CHUNK = 120 * 1024;

interface FileRecord {
  /** Chunks. */
  n: number;
  /** Permission bits. */
  m: number;
}

const metaKey = (path: string) => `f:${path}`;
const chunkKey = (path: string, i: number) => `d:${path}:${i}`;

function asBytes(value: unknown, key: string): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  throw new Error(`Cannot load "${key}" from the store: it holds no bytes`);
}

async function keysOf(store: KeyValueStore, prefix: string): Promise<string[]> {
  const listed = await store.list({ prefix });
  return listed instanceof Map ? [...listed.keys()] : listed.keys.map((k) => k.name);
}

/** A backend that also says when its store has been loaded. */
export interface StoredBackend extends Backend {
  /** Load every file from the store (once; every call waits for it). */
  ready(): Promise<void>;
}

/**
 * Build a backend whose files persist in `store`.
 *
 * @param store A Durable Object's storage, or a KV namespace through {@linkcode kvStore}.
 * @returns The backend (hand it to `createWorkspace` or `createWorker({ backend })`).
 */
export function createStorageBackend(store: KeyValueStore): StoredBackend {
  const mem = createMapBackend();
  /** Chunks each stored file has, so a rewrite removes the ones it no longer needs. */
  const chunks = new Map<string, number>();
  let loaded: Promise<void> | undefined;

  async function load(): Promise<void> {
    for (const key of await keysOf(store, "f:")) {
      const path = key.slice(2);
      const record = JSON.parse(new TextDecoder().decode(asBytes(await store.get(key), key))) as FileRecord;
      const parts = await Promise.all(
        Array.from({ length: record.n }, (_, i) => store.get(chunkKey(path, i))),
      );
      const bytes = new Uint8Array(
        parts.reduce((n: number, p, i) => n + asBytes(p, chunkKey(path, i)).length, 0),
      );
      let at = 0;
      parts.forEach((p, i) => {
        const b = asBytes(p, chunkKey(path, i));
        bytes.set(b, at);
        at += b.length;
      });
      await mem.mkdir(path.slice(0, path.lastIndexOf("/")) || "/", { recursive: true });
      await mem.writeFile(path, bytes);
      await mem.chmod!(path, record.m);
      chunks.set(path, record.n);
    }
  }

  function ready(): Promise<void> {
    loaded ??= load().catch((err) => {
      loaded = undefined; // the next call tries again
      throw err;
    });
    return loaded;
  }

  /** Write a file's record and chunks; every put is issued before any is awaited (one atomic batch in a DO). */
  async function persist(path: string, bytes: Uint8Array, mode: number): Promise<void> {
    const n = Math.max(1, Math.ceil(bytes.length / CHUNK));
    const before = chunks.get(path) ?? 0;
    const record: FileRecord = { n, m: mode };
    const ops: Promise<unknown>[] = [];
    for (let i = 0; i < n; i++) {
      ops.push(store.put(chunkKey(path, i), bytes.slice(i * CHUNK, (i + 1) * CHUNK)));
    }
    for (let i = n; i < before; i++) ops.push(store.delete(chunkKey(path, i)));
    ops.push(store.put(metaKey(path), new TextEncoder().encode(JSON.stringify(record))));
    chunks.set(path, n);
    await Promise.all(ops);
  }

  async function forget(path: string): Promise<void> {
    const n = chunks.get(path) ?? 0;
    chunks.delete(path);
    const ops: Promise<unknown>[] = [store.delete(metaKey(path))];
    for (let i = 0; i < n; i++) ops.push(store.delete(chunkKey(path, i)));
    await Promise.all(ops);
  }

  async function modeOf(path: string): Promise<number> {
    return Number((await mem.stat(path)).mode ?? 0o644) & 0o7777;
  }

  async function bytesOf(path: string): Promise<Uint8Array> {
    return asBytes(await mem.readFile(path), path);
  }

  /** Paths of the stored files at `path` or under it (a renamed directory moves them all). */
  function filesAt(path: string): string[] {
    return [...chunks.keys()].filter((p) => p === path || p.startsWith(`${path}/`));
  }

  return {
    ready,
    async readFile(path) {
      await ready();
      return await mem.readFile(path);
    },
    async writeFile(path, data, options) {
      await ready();
      await mem.writeFile(path, data, options); // refuses first (EEXIST, ENOENT, EISDIR): nothing stored then
      await persist(normal(path), await bytesOf(path), await modeOf(path));
    },
    async rename(from, to) {
      await ready();
      const moved = filesAt(normal(from));
      const snapshots = await Promise.all(
        moved.map(async (p) => ({ p, bytes: await bytesOf(p), mode: await modeOf(p) })),
      );
      await mem.rename(from, to);
      const [src, dest] = [normal(from), normal(to)];
      if (src === dest) return;
      // The new names first, then the old ones gone: a crash in between leaves a copy, never a loss.
      await Promise.all(snapshots.map((s) => persist(dest + s.p.slice(src.length), s.bytes, s.mode)));
      await Promise.all(snapshots.map((s) => forget(s.p)));
    },
    async unlink(path) {
      await ready();
      await mem.unlink(path);
      await forget(normal(path));
    },
    async mkdir(path, options) {
      await ready();
      return await mem.mkdir(path, options);
    },
    async readdir(path) {
      await ready();
      return await mem.readdir(path);
    },
    async stat(path) {
      await ready();
      return await mem.stat(path);
    },
    async lstat(path) {
      await ready();
      return await mem.lstat(path);
    },
    async rmdir(path) {
      await ready();
      await mem.rmdir!(path);
    },
    async chmod(path, mode) {
      await ready();
      await mem.chmod!(path, mode);
      const p = normal(path);
      const n = chunks.get(p);
      if (n === undefined) return; // a directory: not stored
      const record: FileRecord = { n, m: mode & 0o7777 };
      await store.put(metaKey(p), new TextEncoder().encode(JSON.stringify(record)));
    },
  };
}

/** The key form of a path: absolute, single slashes, no trailing slash (as the Map backend keys it). */
function normal(path: string): string {
  const parts: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") parts.pop();
    else parts.push(seg);
  }
  return `/${parts.join("/")}`;
}
