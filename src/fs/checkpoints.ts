/**
 * Checkpoints: every committed change recorded as a commit in a shadow git
 * repository (isomorphic-git) whose gitdir is `.graver/checkpoints/` under the
 * workspace root. The user's own `.git` is never read or written: the shadow
 * repository is bare and its objects are written directly (no index, no
 * worktree checkout). A checkpoint's tree holds `checkpoint.json` (paths with
 * their before/after blob ids, the call that made it), `before/<path>` and
 * `after/<path>` for the files it changed (a file with an execute bit is a
 * `100755` entry, and the manifest keeps each file's permission bits, so an
 * undo gives a script its mode back). dispatch records a checkpoint from the
 * commit's `onLanded` hook (`src/fs/commit.ts`), under the commit lock: one
 * commit's record never interleaves with another's, and a record that fails
 * rolls its commit back. `undo` and `restore` compute the files (and modes)
 * to write back; the caller commits them, and that commit is recorded as a
 * checkpoint of its own.
 *
 * @module
 */
import { git } from "./_git.ts";
import { RecoverableError } from "../errors.ts";
import type { BackendFs } from "./backend.ts";
import { INTERNAL_DIR } from "./sandbox.ts";
import { ignoreInternalDir } from "./internal_dir.ts";

/** Directory (under the root's `.graver/`) of the shadow repository. */
export const CHECKPOINTS_DIR = `${INTERNAL_DIR}/checkpoints`;

const REF = "refs/heads/checkpoints";
const MANIFEST = "checkpoint.json";
const AUTHOR = { name: "graver", email: "graver@localhost" };

/** One file of a change to record: its bytes before and after (null: absent). */
export interface CheckpointChange {
  /** Path relative to the workspace root. */
  path: string;
  /** Bytes before the commit (null: the file did not exist). */
  before: Uint8Array | null;
  /** Bytes after the commit (null: deleted). */
  after: Uint8Array | null;
  /** Permission bits before (absent or null: unknown, the backend's default). */
  beforeMode?: number | null;
  /** Permission bits after (absent or null: unknown, the backend's default). */
  afterMode?: number | null;
}

/** What a checkpoint was made by. */
export interface CheckpointMeta {
  /** The tool whose commit it records. */
  tool: string;
  /** The session of the call. */
  session: string;
  /** The checkpoint this one undid (set by checkpoint_undo's commit). */
  undoes?: string;
}

/** One entry of {@linkcode Checkpoints.list}, newest first. */
export interface CheckpointInfo {
  /** Commit id in the shadow repository (40 hex). */
  id: string;
  /** The commit message. */
  message: string;
  /** Tool of the call. */
  tool: string;
  /** Session of the call. */
  session: string;
  /** Files it changed. */
  paths: string[];
  /** Seconds since the epoch. */
  timestamp: number;
  /** The checkpoint it undid, if it is an undo. */
  undoes?: string;
  /** True when a later undo reverted it. */
  undone: boolean;
}

/** Files to write back (null: delete), computed by undo/restore. */
export interface CheckpointRevert {
  /** The checkpoint reverted (undo) or restored to (restore). */
  id: string;
  /** Path -> bytes to land (null: delete). */
  files: Map<string, Uint8Array | null>;
  /** Path -> permission bits to land with the bytes (absent: unknown, keep what the file has). */
  modes: Map<string, number>;
}

interface ManifestEntry {
  path: string;
  before: string | null;
  after: string | null;
  before_mode?: number;
  after_mode?: number;
}

interface Manifest {
  tool: string;
  session: string;
  undoes?: string;
  files: ManifestEntry[];
}

interface TreeNode {
  /** Name -> blob id and git file mode ("100644" or "100755"). */
  blobs: Map<string, { oid: string; mode: string }>;
  dirs: Map<string, TreeNode>;
}

/**
 * The shadow checkpoint repository of one workspace root.
 *
 * @example Record a change and undo it
 * ```ts
 * import { BackendFs, createMemoryBackend } from "@graver/core/fs";
 * import { Checkpoints } from "./checkpoints.ts";
 * import assert from "node:assert/strict";
 *
 * const fs = BackendFs.wrap(createMemoryBackend({ "/p/a.txt": "two" }));
 * const cps = new Checkpoints(fs, "/p");
 * const enc = new TextEncoder();
 * await cps.record([{ path: "a.txt", before: enc.encode("one"), after: enc.encode("two") }], { tool: "edit_file", session: "s" });
 * const revert = await cps.undo();
 * assert.equal(new TextDecoder().decode(revert.files.get("a.txt")!), "one");
 * ```
 */
export class Checkpoints {
  readonly #fs: BackendFs;
  readonly #root: string;
  readonly #gitdir: string;
  #chain: Promise<unknown> = Promise.resolve();
  #ready = false;

  /**
   * Open the shadow repository of a root (created on the first record).
   *
   * @param fs The workspace's wrapped backend.
   * @param root Backend path of the workspace root.
   */
  constructor(fs: BackendFs, root: string) {
    this.#fs = fs;
    this.#root = root === "/" ? "" : root.replace(/\/+$/, "");
    this.#gitdir = `${this.#root}/${CHECKPOINTS_DIR}`;
  }

  /** The backend path of the shadow repository's gitdir. */
  get gitdir(): string {
    return this.#gitdir;
  }

  // deno-lint-ignore no-explicit-any
  get #git(): { fs: any; gitdir: string } {
    return { fs: { promises: this.#fs.raw }, gitdir: this.#gitdir };
  }

  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.#chain.then(fn, fn);
    this.#chain = next.catch(() => {});
    return next;
  }

  async #init(): Promise<void> {
    if (this.#ready) return;
    if (!(await this.#fs.read(`${this.#gitdir}/HEAD`))) {
      await this.#fs.mkdirp(this.#gitdir);
      await ignoreInternalDir(this.#fs, `${this.#root}/${INTERNAL_DIR}`);
      await git.init({ ...this.#git, bare: true, defaultBranch: "checkpoints" });
      await git.writeRef({ ...this.#git, ref: "HEAD", value: REF, symbolic: true, force: true });
    }
    this.#ready = true;
  }

  async #head(): Promise<string | null> {
    try {
      return await git.resolveRef({ ...this.#git, ref: REF });
    } catch {
      return null;
    }
  }

  /**
   * Record one committed change as a checkpoint (nothing when no file changed).
   *
   * @param changes The files, before and after.
   * @param meta Tool and session (and the checkpoint an undo reverted).
   * @returns The new checkpoint's id, or null when nothing changed.
   */
  record(changes: readonly CheckpointChange[], meta: CheckpointMeta): Promise<string | null> {
    return this.#serial(async () => {
      const real = changes.filter((c) =>
        !sameBytes(c.before, c.after) ||
        (c.after !== null && (c.beforeMode ?? null) !== (c.afterMode ?? null))
      );
      if (real.length === 0) return null;
      await this.#init();
      const before: TreeNode = node();
      const after: TreeNode = node();
      const files: ManifestEntry[] = [];
      for (const c of [...real].sort((a, b) => (a.path < b.path ? -1 : 1))) {
        const b = c.before ? await git.writeBlob({ ...this.#git, blob: c.before }) : null;
        const a = c.after ? await git.writeBlob({ ...this.#git, blob: c.after }) : null;
        if (b) place(before, c.path, b, c.beforeMode);
        if (a) place(after, c.path, a, c.afterMode);
        const entry: ManifestEntry = { path: c.path, before: b, after: a };
        if (b && typeof c.beforeMode === "number") entry.before_mode = c.beforeMode;
        if (a && typeof c.afterMode === "number") entry.after_mode = c.afterMode;
        files.push(entry);
      }
      const manifest: Manifest = { tool: meta.tool, session: meta.session, files };
      if (meta.undoes) manifest.undoes = meta.undoes;
      const manifestOid = await git.writeBlob({
        ...this.#git,
        blob: new TextEncoder().encode(JSON.stringify(manifest, null, 2) + "\n"),
      });
      const top: TreeNode = node();
      top.blobs.set(MANIFEST, { oid: manifestOid, mode: "100644" });
      if (before.blobs.size || before.dirs.size) top.dirs.set("before", before);
      if (after.blobs.size || after.dirs.size) top.dirs.set("after", after);
      const tree = await this.#writeTree(top);
      const parent = await this.#head();
      const verb = meta.undoes ? `undo ${meta.undoes.slice(0, 7)}` : meta.tool;
      const message = `${verb}: ${
        files.map((f) => f.path).join(", ")
      }\n\ntool: ${meta.tool}\nsession: ${meta.session}\n`;
      const id = await git.writeCommit({
        ...this.#git,
        commit: {
          tree,
          parent: parent ? [parent] : [],
          message,
          author: { ...AUTHOR, timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 },
          committer: { ...AUTHOR, timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 },
        },
      });
      // The last write: until the branch moves, the objects above are unreferenced (a failure leaves no checkpoint).
      await git.writeRef({ ...this.#git, ref: REF, value: id, force: true });
      return id;
    });
  }

  async #writeTree(n: TreeNode): Promise<string> {
    const entries: { mode: string; path: string; oid: string; type: "blob" | "tree" }[] = [];
    for (const [name, { oid, mode }] of n.blobs) entries.push({ mode, path: name, oid, type: "blob" });
    for (const [name, child] of n.dirs) {
      entries.push({ mode: "040000", path: name, oid: await this.#writeTree(child), type: "tree" });
    }
    return await git.writeTree({ ...this.#git, tree: entries });
  }

  async #manifest(id: string): Promise<Manifest> {
    const { blob } = await git.readBlob({ ...this.#git, oid: id, filepath: MANIFEST });
    return JSON.parse(new TextDecoder().decode(blob)) as Manifest;
  }

  async #blob(oid: string | null): Promise<Uint8Array | null> {
    if (oid === null) return null;
    return (await git.readBlob({ ...this.#git, oid })).blob;
  }

  /** The checkpoints, newest first (empty before the first record). */
  list(): Promise<CheckpointInfo[]> {
    return this.#serial(() => this.#list());
  }

  async #list(): Promise<CheckpointInfo[]> {
    const head = await this.#head();
    if (!head) return [];
    const log = await git.log({ ...this.#git, ref: REF });
    const out: CheckpointInfo[] = [];
    const undone = new Set<string>();
    for (const entry of log) {
      const m = await this.#manifest(entry.oid);
      const info: CheckpointInfo = {
        id: entry.oid,
        message: entry.commit.message.split("\n")[0]!,
        tool: m.tool,
        session: m.session,
        paths: m.files.map((f) => f.path),
        timestamp: entry.commit.committer.timestamp,
        undone: undone.has(entry.oid),
      };
      if (m.undoes) {
        info.undoes = m.undoes;
        if (!info.undone) undone.add(m.undoes);
      }
      out.push(info);
    }
    return out;
  }

  /**
   * The files that revert the newest checkpoint not yet undone (undos are
   * skipped, so repeated undos walk back). Hash-guarded: refused `stale_base`
   * when a file's current bytes are not what that checkpoint wrote.
   *
   * @param path Only a checkpoint that changed this file (relative path); absent: the newest of all.
   * @returns The checkpoint and the before-bytes to land; the caller commits them.
   */
  undo(path?: string): Promise<CheckpointRevert> {
    return this.#serial(async () => {
      const target = (await this.#list()).find((c) =>
        !c.undone && !c.undoes && (path === undefined || c.paths.includes(path))
      );
      if (!target) {
        const what = path === undefined ? "" : ` of "${path}"`;
        throw new RecoverableError("not_found", `Cannot undo: there is no checkpoint${what} left to undo`, {
          hint:
            "Call checkpoint_list to see the checkpoints; edits made before checkpoints were on cannot be undone",
        });
      }
      const m = await this.#manifest(target.id);
      const revert: CheckpointRevert = { id: target.id, files: new Map(), modes: new Map() };
      for (const f of m.files) {
        await this.#guard(f.path, f.after, target.id);
        await this.#take(revert, f, "before");
      }
      return revert;
    });
  }

  /**
   * The files that bring every path changed after checkpoint `id` back to
   * its state right after `id`. Hash-guarded like {@linkcode Checkpoints.undo}.
   *
   * @param id A checkpoint id (or a unique prefix of at least 4 hex digits).
   * @returns The checkpoint and the bytes to land; the caller commits them.
   */
  restore(id: string): Promise<CheckpointRevert> {
    return this.#serial(async () => {
      const all = await this.#list();
      const hits = id.length >= 4 ? all.filter((c) => c.id.startsWith(id.toLowerCase())) : [];
      if (hits.length !== 1) {
        throw new RecoverableError(
          "not_found",
          `Cannot restore checkpoint "${id}": ${
            hits.length ? "the prefix is ambiguous" : "no such checkpoint"
          }`,
          {
            hint: "Call checkpoint_list and pass one of its ids",
            details: { id },
          },
        );
      }
      const target = hits[0]!;
      const newer = all.slice(0, all.indexOf(target));
      const revert: CheckpointRevert = { id: target.id, files: new Map(), modes: new Map() };
      const latestAfter = new Map<string, { oid: string | null; id: string }>();
      // Newest first: the first seen after-state is what the files hold now; the last seen
      // before-state (the oldest newer checkpoint) is the state right after the target.
      for (const c of newer) {
        for (const f of (await this.#manifest(c.id)).files) {
          if (!latestAfter.has(f.path)) latestAfter.set(f.path, { oid: f.after, id: c.id });
          await this.#take(revert, f, "before");
        }
      }
      for (const [path, { oid, id: by }] of latestAfter) await this.#guard(path, oid, by);
      return revert;
    });
  }

  /** Put one file's bytes and mode (its state `side` of a checkpoint) into a revert. */
  async #take(revert: CheckpointRevert, f: ManifestEntry, side: "before" | "after"): Promise<void> {
    revert.files.set(f.path, await this.#blob(f[side]));
    const mode = f[`${side}_mode`];
    if (typeof mode === "number" && f[side] !== null) revert.modes.set(f.path, mode);
    else revert.modes.delete(f.path);
  }

  async #guard(path: string, expected: string | null, id: string): Promise<void> {
    const bytes = await this.#fs.read(this.#root ? `${this.#root}/${path}` : `/${path}`);
    const current = bytes ? await git.hashBlob({ object: bytes }) : null;
    if ((current?.oid ?? null) !== expected) {
      throw new RecoverableError(
        "stale_base",
        `Cannot revert "${path}": it changed since checkpoint ${id.slice(0, 7)} wrote it`,
        {
          hint:
            `Read "${path}" and edit it by hand, or restore an older checkpoint after saving your changes; nothing was written`,
          details: { path, checkpoint: id },
        },
      );
    }
  }
}

function node(): TreeNode {
  return { blobs: new Map(), dirs: new Map() };
}

/** Put a blob at `path` in a tree, executable ("100755") when any execute bit is set. */
function place(root: TreeNode, path: string, oid: string, mode: number | null | undefined): void {
  const parts = path.split("/");
  let n = root;
  for (const dir of parts.slice(0, -1)) {
    let child = n.dirs.get(dir);
    if (!child) n.dirs.set(dir, child = node());
    n = child;
  }
  n.blobs.set(parts[parts.length - 1]!, { oid, mode: mode && (mode & 0o111) ? "100755" : "100644" });
}

function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === b) return true;
  if (a === null || b === null || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
