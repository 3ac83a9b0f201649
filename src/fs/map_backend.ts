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
  const nodes = new Map<string, Node>([["/", { kind: "dir", children: new Set(), mode: 0o755 }]]);

  function dirFor(path: string, syscall: string): DirNode {
    const parent = nodes.get(parentOf(path));
    if (!parent) throw fsError("ENOENT", syscall, path);
    if (parent.kind !== "dir") throw fsError("ENOTDIR", syscall, path);
    return parent;
  }

  function get(path: string, syscall: string): Node {
    const node = nodes.get(path);
    if (node) return node;
    // ENOTDIR when a parent is a file, as POSIX says.
    for (let p = parentOf(path); p !== "/"; p = parentOf(p)) {
      if (nodes.get(p)?.kind === "file") throw fsError("ENOTDIR", syscall, path);
    }
    throw fsError("ENOENT", syscall, path);
  }

  function put(path: string, node: Node, syscall: string): void {
    dirFor(path, syscall).children.add(baseOf(path));
    nodes.set(path, node);
  }

  function remove(path: string): void {
    const parent = nodes.get(parentOf(path));
    if (parent?.kind === "dir") parent.children.delete(baseOf(path));
    nodes.delete(path);
  }

  function mkdirSync(path: string, recursive: boolean): void {
    const existing = nodes.get(path);
    if (existing) {
      if (recursive && existing.kind === "dir") return;
      throw fsError("EEXIST", "mkdir", path);
    }
    if (recursive && !nodes.has(parentOf(path))) mkdirSync(parentOf(path), true);
    put(path, { kind: "dir", children: new Set(), mode: 0o755 }, "mkdir");
  }

  function writeSync(path: string, data: Uint8Array, exclusive: boolean): void {
    const existing = nodes.get(path);
    if (existing?.kind === "dir") throw fsError("EISDIR", "open", path);
    if (existing && exclusive) throw fsError("EEXIST", "open", path);
    // A copy: the caller may reuse its buffer.
    put(path, { kind: "file", data: data.slice(), mode: existing?.mode ?? 0o644 }, "open");
  }

  for (const [path, content] of Object.entries(files)) {
    const p = normalize(path);
    mkdirSync(parentOf(p), true);
    writeSync(p, typeof content === "string" ? new TextEncoder().encode(content) : content, false);
  }

  /** Move `from` (and, for a directory, everything under it) to `to`. */
  function renameSync(from: string, to: string): void {
    const node = get(from, "rename");
    if (from === to) return;
    if (to.startsWith(from + "/")) throw fsError("EINVAL", "rename", to);
    const target = nodes.get(to);
    dirFor(to, "rename");
    if (target) {
      if (node.kind === "file" && target.kind === "dir") throw fsError("EISDIR", "rename", to);
      if (node.kind === "dir" && target.kind === "file") throw fsError("ENOTDIR", "rename", to);
      if (target.kind === "dir" && target.children.size > 0) throw fsError("ENOTEMPTY", "rename", to);
      remove(to);
    }
    const moved = [...nodes.keys()].filter((k) => k === from || k.startsWith(from + "/"));
    const entries = moved.map((k) => [k, nodes.get(k)!] as const);
    remove(from);
    for (const [k] of entries) nodes.delete(k);
    for (const [k, n] of entries) {
      const dest = to + k.slice(from.length);
      if (dest === to) put(dest, n, "rename");
      else nodes.set(dest, n);
    }
  }

  const run = <T>(fn: () => T): Promise<T> => {
    try {
      return Promise.resolve(fn());
    } catch (err) {
      return Promise.reject(err);
    }
  };

  return {
    readFile: (path) =>
      run(() => {
        const p = normalize(path);
        const node = get(p, "open");
        if (node.kind === "dir") throw fsError("EISDIR", "read", p);
        return node.data.slice();
      }),
    writeFile: (path, data, options) =>
      run(() => {
        const flag = options && typeof options === "object" ? (options as { flag?: string }).flag : undefined;
        const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
        writeSync(normalize(path), bytes, flag === "wx");
      }),
    rename: (from, to) => run(() => renameSync(normalize(from), normalize(to))),
    unlink: (path) =>
      run(() => {
        const p = normalize(path);
        if (get(p, "unlink").kind === "dir") throw fsError("EISDIR", "unlink", p);
        remove(p);
      }),
    mkdir: (path, options) =>
      run(() => {
        const recursive =
          !!(options && typeof options === "object" && (options as { recursive?: boolean }).recursive);
        mkdirSync(normalize(path), recursive);
        return undefined;
      }),
    readdir: (path) =>
      run(() => {
        const p = normalize(path);
        const node = get(p, "scandir");
        if (node.kind !== "dir") throw fsError("ENOTDIR", "scandir", p);
        return [...node.children].sort();
      }),
    stat: (path) => run(() => statsOf(get(normalize(path), "stat"))),
    lstat: (path) => run(() => statsOf(get(normalize(path), "lstat"))),
    rmdir: (path) =>
      run(() => {
        const p = normalize(path);
        const node = get(p, "rmdir");
        if (node.kind !== "dir") throw fsError("ENOTDIR", "rmdir", p);
        if (node.children.size > 0) throw fsError("ENOTEMPTY", "rmdir", p);
        if (p === "/") throw fsError("EBUSY", "rmdir", p);
        remove(p);
      }),
    chmod: (path, mode) =>
      run(() => {
        get(normalize(path), "chmod").mode = mode & 0o7777;
      }),
  };
}
