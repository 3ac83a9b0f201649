/**
 * A small in-memory backend on plain `Map`s: the subset of `fs.promises`
 * graver calls, with POSIX error codes, and nothing else. memfs (the default
 * in-memory backend) needs Node polyfills that weigh ~250 KB minified in web
 * bundles; this one is a few KB, for workers and browser bundles that keep
 * files in memory. No symlinks, no hard links.
 *
 * @module
 */
import type { Backend, BackendStats } from "./backend.ts";

interface FileNode {
  kind: "file";
  data: Uint8Array;
  mode: number;
}

interface DirNode {
  kind: "dir";
  children: Set<string>;
  mode: number;
}

type Node = FileNode | DirNode;

function fsError(code: string, syscall: string, path: string): Error {
  const err = new Error(`${code}: ${syscall} "${path}"`) as Error & {
    code: string;
    syscall: string;
    path: string;
  };
  err.code = code;
  err.syscall = syscall;
  err.path = path;
  return err;
}

function normalize(path: string): string {
  const parts: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") parts.pop();
    else parts.push(seg);
  }
  return "/" + parts.join("/");
}

function parentOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i <= 0 ? "/" : path.slice(0, i);
}

function baseOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function statsOf(node: Node): BackendStats {
  return {
    isFile: () => node.kind === "file",
    isDirectory: () => node.kind === "dir",
    isSymbolicLink: () => false,
    size: node.kind === "file" ? node.data.byteLength : 0,
    mode: (node.kind === "file" ? 0o100000 : 0o40000) | node.mode,
  };
}

/**
 * Create an in-memory backend on `Map`s, optionally seeded with files
 * (parent directories are made).
 *
 * @example Seed, write through a workspace, read back
 * ```ts
 * import { createMapBackend, createWorkspace } from "@graver/core";
 * import assert from "node:assert/strict";
 *
 * const backend = createMapBackend({ "/src/a.txt": "one\n" });
 * const ws = await createWorkspace({ backend });
 * const res = await ws.call("write_file", { path: "src/a.txt", content: "two\n" });
 * assert.ok(res.ok);
 * assert.equal(new TextDecoder().decode(await backend.readFile("/src/a.txt") as Uint8Array), "two\n");
 * assert.deepEqual(await backend.readdir("/src"), ["a.txt"]);
 * ```
 *
 * @param files Absolute paths to text or bytes.
 * @returns An fs.promises-shaped backend.
 */
export function createMapBackend(files: Record<string, string | Uint8Array> = {}): Backend {
  const tree = new MapTree();
  for (const [path, content] of Object.entries(files)) {
    const p = normalize(path);
    tree.mkdir(parentOf(p), true);
    tree.write(p, typeof content === "string" ? new TextEncoder().encode(content) : content, false);
  }
  return backendOver(tree);
}

/** The nodes of one in-memory tree by absolute path, and the POSIX rules of changing them. */
class MapTree {
  readonly nodes = new Map<string, Node>([["/", { kind: "dir", children: new Set(), mode: 0o755 }]]);

  /** The directory `path` goes in; ENOENT or ENOTDIR when there is none. */
  dirFor(path: string, syscall: string): DirNode {
    const parent = this.nodes.get(parentOf(path));
    if (!parent) throw fsError("ENOENT", syscall, path);
    if (parent.kind !== "dir") throw fsError("ENOTDIR", syscall, path);
    return parent;
  }

  /** The node at `path`; ENOTDIR when a parent is a file, as POSIX says, else ENOENT. */
  get(path: string, syscall: string): Node {
    const node = this.nodes.get(path);
    if (node) return node;
    for (let p = parentOf(path); p !== "/"; p = parentOf(p)) {
      if (this.nodes.get(p)?.kind === "file") throw fsError("ENOTDIR", syscall, path);
    }
    throw fsError("ENOENT", syscall, path);
  }

  /** Put a node at `path`, listed in its directory. */
  put(path: string, node: Node, syscall: string): void {
    this.dirFor(path, syscall).children.add(baseOf(path));
    this.nodes.set(path, node);
  }

  /** Remove the node at `path` from its directory (not the nodes under it). */
  remove(path: string): void {
    const parent = this.nodes.get(parentOf(path));
    if (parent?.kind === "dir") parent.children.delete(baseOf(path));
    this.nodes.delete(path);
  }

  /** Make a directory (and, recursive, its parents; an existing directory is then fine). */
  mkdir(path: string, recursive: boolean): void {
    const existing = this.nodes.get(path);
    if (existing) {
      if (recursive && existing.kind === "dir") return;
      throw fsError("EEXIST", "mkdir", path);
    }
    if (recursive && !this.nodes.has(parentOf(path))) this.mkdir(parentOf(path), true);
    this.put(path, { kind: "dir", children: new Set(), mode: 0o755 }, "mkdir");
  }

  /** Write a file (exclusive: only a new one), keeping an existing file's mode. */
  write(path: string, data: Uint8Array, exclusive: boolean): void {
    const existing = this.nodes.get(path);
    if (existing?.kind === "dir") throw fsError("EISDIR", "open", path);
    if (existing && exclusive) throw fsError("EEXIST", "open", path);
    // A copy: the caller may reuse its buffer.
    this.put(path, { kind: "file", data: data.slice(), mode: existing?.mode ?? 0o644 }, "open");
  }

  /** Move `from` (and, for a directory, everything under it) to `to`. */
  rename(from: string, to: string): void {
    const node = this.get(from, "rename");
    if (from === to) return;
    if (to.startsWith(from + "/")) throw fsError("EINVAL", "rename", to);
    const target = this.nodes.get(to);
    this.dirFor(to, "rename");
    if (target) {
      if (node.kind === "file" && target.kind === "dir") throw fsError("EISDIR", "rename", to);
      if (node.kind === "dir" && target.kind === "file") throw fsError("ENOTDIR", "rename", to);
      if (target.kind === "dir" && target.children.size > 0) throw fsError("ENOTEMPTY", "rename", to);
      this.remove(to);
    }
    const moved = [...this.nodes.keys()].filter((k) => k === from || k.startsWith(from + "/"));
    const entries = moved.map((k) => [k, this.nodes.get(k)!] as const);
    this.remove(from);
    for (const [k] of entries) this.nodes.delete(k);
    for (const [k, n] of entries) {
      const dest = to + k.slice(from.length);
      if (dest === to) this.put(dest, n, "rename");
      else this.nodes.set(dest, n);
    }
  }

  /** Remove an empty directory (never the root). */
  rmdir(path: string): void {
    const node = this.get(path, "rmdir");
    if (node.kind !== "dir") throw fsError("ENOTDIR", "rmdir", path);
    if (node.children.size > 0) throw fsError("ENOTEMPTY", "rmdir", path);
    if (path === "/") throw fsError("EBUSY", "rmdir", path);
    this.remove(path);
  }
}

/** A synchronous step as a promise: its value, or its error as a rejection. */
function run<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (err) {
    return Promise.reject(err);
  }
}

/** The `fs.promises` subset over a tree, each path normalised first. */
function backendOver(tree: MapTree): Backend {
  return {
    readFile: (path) =>
      run(() => {
        const p = normalize(path);
        const node = tree.get(p, "open");
        if (node.kind === "dir") throw fsError("EISDIR", "read", p);
        return node.data.slice();
      }),
    writeFile: (path, data, options) =>
      run(() => {
        const flag = options && typeof options === "object" ? (options as { flag?: string }).flag : undefined;
        const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
        tree.write(normalize(path), bytes, flag === "wx");
      }),
    rename: (from, to) => run(() => tree.rename(normalize(from), normalize(to))),
    unlink: (path) =>
      run(() => {
        const p = normalize(path);
        if (tree.get(p, "unlink").kind === "dir") throw fsError("EISDIR", "unlink", p);
        tree.remove(p);
      }),
    mkdir: (path, options) =>
      run(() => {
        const recursive =
          !!(options && typeof options === "object" && (options as { recursive?: boolean }).recursive);
        tree.mkdir(normalize(path), recursive);
        return undefined;
      }),
    readdir: (path) =>
      run(() => {
        const p = normalize(path);
        const node = tree.get(p, "scandir");
        if (node.kind !== "dir") throw fsError("ENOTDIR", "scandir", p);
        return [...node.children].sort();
      }),
    stat: (path) => run(() => statsOf(tree.get(normalize(path), "stat"))),
    lstat: (path) => run(() => statsOf(tree.get(normalize(path), "lstat"))),
    rmdir: (path) => run(() => tree.rmdir(normalize(path))),
    chmod: (path, mode) =>
      run(() => {
        tree.get(normalize(path), "chmod").mode = mode & 0o7777;
      }),
  };
}
