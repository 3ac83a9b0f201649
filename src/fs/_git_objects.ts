/**
 * Git objects written without isomorphic-git: each object's SHA-1 (WebCrypto), then all the objects of one
 * checkpoint in one pack file and its index (zlib by `CompressionStream("deflate")`, a web standard in every
 * runtime graver runs on). A checkpoint has seven objects; as loose objects that is seven new files inside
 * the commit lock, and creating a file is what a checkpoint spends its time on. Any git (isomorphic-git
 * included) reads a pack; a pack holds every object of its checkpoint, so pruning a checkpoint is deleting
 * its pack.
 *
 * @module
 */
import type { BackendFs } from "./backend.ts";

/** The kinds of object a checkpoint writes. */
export type GitObjectType = "blob" | "tree" | "commit";

/** One entry of a tree. */
export interface GitTreeEntry {
  /** "100644", "100755" or "40000" (a tree). */
  mode: string;
  /** Entry name (no slash). */
  name: string;
  /** 40-hex object id. */
  oid: string;
}

const enc = new TextEncoder();

function hex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * An object's id and its stored bytes before compression (`<type> <size>\0<body>`).
 *
 * @example The id git gives a blob
 * ```ts
 * import assert from "node:assert/strict";
 * import { gitObject } from "./_git_objects.ts";
 *
 * const { oid } = await gitObject("blob", new TextEncoder().encode("hi\n"));
 * assert.equal(oid, "45b983be36b73c0788dc9cbcb76cbb80fc7bb057");
 * ```
 */
export async function gitObject(type: GitObjectType, body: Uint8Array): Promise<PreparedObject> {
  const raw = concat([enc.encode(`${type} ${body.length}\0`), body]);
  return { oid: await sha1(raw), type, body, raw };
}

async function sha1(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-1", bytes)));
}

/** Below this many bytes an object is stored in its zlib stream uncompressed: it would barely shrink. */
const STORE_BELOW = 1024;

/**
 * A zlib stream of `raw`: compressed by `CompressionStream`, or, for a small object, one stored
 * (uncompressed) deflate block, which costs no stream at all and is a valid zlib stream for every reader.
 */
async function deflate(raw: Uint8Array): Promise<Uint8Array> {
  if (raw.length < STORE_BELOW) return storedZlib(raw);
  const stream = new Blob([raw as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
    new CompressionStream("deflate"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** zlib header, one final stored block (length, its complement, the bytes), Adler-32. */
function storedZlib(raw: Uint8Array): Uint8Array {
  const n = raw.length;
  const out = new Uint8Array(2 + 5 + n + 4);
  out.set([0x78, 0x01, 0x01, n & 0xff, n >>> 8, ~n & 0xff, (~n >>> 8) & 0xff]);
  out.set(raw, 7);
  let a = 1;
  let b = 0;
  for (const byte of raw) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  out.set(u32(((b << 16) | a) >>> 0), 7 + n);
  return out;
}

/** The backend path of a loose object in `gitdir`. */
export function loosePath(gitdir: string, oid: string): string {
  return `${gitdir}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
}

/** An object ready to write: its id, its type and body, and its loose form (compressed on write). */
export interface PreparedObject {
  /** 40-hex object id. */
  oid: string;
  /** Its type. */
  type: GitObjectType;
  /** Its body. */
  body: Uint8Array;
  /** `<type> <size>\0<body>`. */
  raw: Uint8Array<ArrayBuffer>;
}

/** Git's order of tree entries: by name, a tree's name compared as if it ended in "/". */
function treeOrder(a: GitTreeEntry, b: GitTreeEntry): number {
  const ka = a.mode === "40000" ? `${a.name}/` : a.name;
  const kb = b.mode === "40000" ? `${b.name}/` : b.name;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/**
 * The body of a tree object holding `entries` (sorted here).
 *
 * @param entries The entries, in any order, names unique.
 * @returns The tree's body.
 */
export function treeBody(entries: readonly GitTreeEntry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const e of [...entries].sort(treeOrder)) {
    parts.push(enc.encode(`${e.mode} ${e.name}\0`));
    const id = new Uint8Array(20);
    for (let i = 0; i < 20; i++) id[i] = parseInt(e.oid.slice(i * 2, i * 2 + 2), 16);
    parts.push(id);
  }
  return concat(parts);
}

/** What a commit object says. */
export interface GitCommitFields {
  /** The tree's id. */
  tree: string;
  /** Parent commit ids. */
  parents: readonly string[];
  /** Author and committer, as `Name <email>`. */
  who: string;
  /** Seconds since the epoch (UTC). */
  timestamp: number;
  /** The message. */
  message: string;
}

/**
 * The body of a commit object.
 *
 * @param fields Tree, parents, author, time and message.
 * @returns The commit's body.
 */
export function commitBody(fields: GitCommitFields): Uint8Array {
  const stamp = `${fields.who} ${fields.timestamp} +0000`;
  const head = [`tree ${fields.tree}`, ...fields.parents.map((p) => `parent ${p}`)];
  return enc.encode(`${head.join("\n")}\nauthor ${stamp}\ncommitter ${stamp}\n\n${fields.message}`);
}

const PACK_TYPES: Record<GitObjectType, number> = { commit: 1, tree: 2, blob: 3 };

/** A pack entry's header: its type and its body's size, as git's variable-length integer. */
function packHeader(type: GitObjectType, size: number): Uint8Array {
  const out = [(PACK_TYPES[type] << 4) | (size & 0x0f)];
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    out[out.length - 1]! |= 0x80;
    out.push(rest & 0x7f);
    rest = Math.floor(rest / 128);
  }
  return new Uint8Array(out);
}

function u32(n: number): Uint8Array {
  return new Uint8Array([(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
}

function unhex(oid: string): Uint8Array {
  const out = new Uint8Array(20);
  for (let i = 0; i < 20; i++) out[i] = parseInt(oid.slice(i * 2, i * 2 + 2), 16);
  return out;
}

let crcTable: Uint32Array | undefined;

/** CRC-32 (as zlib computes it), which a pack index keeps for each entry. */
function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The backend paths of a pack and its index named `name` in `gitdir`. */
export function packPaths(gitdir: string, name: string): { pack: string; idx: string } {
  const base = `${gitdir}/objects/pack/pack-${name}`;
  return { pack: `${base}.pack`, idx: `${base}.idx` };
}

/** A pack file (version 2, every entry whole) and its index (version 2), in memory. */
async function packAndIndex(
  objects: readonly PreparedObject[],
): Promise<{ pack: Uint8Array; idx: Uint8Array }> {
  const parts: Uint8Array[] = [enc.encode("PACK"), u32(2), u32(objects.length)];
  let offset = 12;
  const rows: { oid: string; crc: number; offset: number }[] = [];
  const streams = await Promise.all(objects.map((o) => deflate(o.body)));
  for (const [i, o] of objects.entries()) {
    const entry = concat([packHeader(o.type, o.body.length), streams[i]!]);
    rows.push({ oid: o.oid, crc: crc32(entry), offset });
    parts.push(entry);
    offset += entry.length;
  }
  const body = concat(parts);
  const packSum = unhex(await sha1(body));
  rows.sort((a, b) => (a.oid < b.oid ? -1 : a.oid > b.oid ? 1 : 0));
  const fanout = new Array<number>(256).fill(0);
  for (const r of rows) fanout[parseInt(r.oid.slice(0, 2), 16)]!++;
  for (let i = 1; i < 256; i++) fanout[i]! += fanout[i - 1]!;
  const idx = concat([
    new Uint8Array([0xff, 0x74, 0x4f, 0x63]),
    u32(2),
    ...fanout.map(u32),
    ...rows.map((r) => unhex(r.oid)),
    ...rows.map((r) => u32(r.crc)),
    ...rows.map((r) => u32(r.offset)),
    packSum,
  ]);
  return { pack: concat([body, packSum]), idx: concat([idx, unhex(await sha1(idx))]) };
}

/**
 * Write objects as one pack (and its index) named `name`: two files, however many objects, where loose
 * objects would be one file each. The pack is written first and its index last, so a reader (which finds
 * packs by their index) never sees half of one; each is created exclusively.
 *
 * @example Read back by isomorphic-git
 * ```ts
 * import assert from "node:assert/strict";
 * import * as git from "isomorphic-git";
 * import { BackendFs, createMemoryBackend } from "./mod.ts";
 * import { gitObject, writePack } from "./_git_objects.ts";
 *
 * const fs = BackendFs.wrap(createMemoryBackend({}));
 * const blob = await gitObject("blob", new TextEncoder().encode("hi\n"));
 * await writePack(fs, "/g", { name: blob.oid, objects: [blob] });
 * // deno-lint-ignore no-explicit-any
 * const { blob: back } = await git.readBlob({ fs: { promises: fs.raw as any }, gitdir: "/g", oid: blob.oid });
 * assert.equal(new TextDecoder().decode(back), "hi\n");
 * ```
 *
 * @param fs Wrapped backend.
 * @param gitdir Backend path of the repository (bare).
 * @param options `name` (the pack's file name after `pack-`) and the objects.
 */
export async function writePack(
  fs: BackendFs,
  gitdir: string,
  options: { name: string; objects: readonly PreparedObject[] },
): Promise<void> {
  const { pack, idx } = await packAndIndex(options.objects);
  const paths = packPaths(gitdir, options.name);
  await fs.writeExclusive(paths.pack, pack);
  await fs.writeExclusive(paths.idx, idx);
}
