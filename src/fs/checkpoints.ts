/**
 * Checkpoints: every committed change recorded as a commit in a shadow git
 * repository whose gitdir is `.graver/checkpoints/` under the workspace root.
 * The user's own `.git` is never read or written: the shadow repository is
 * bare and its objects are written directly (no index, no worktree checkout;
 * `_git_objects.ts` writes, isomorphic-git reads). A checkpoint's tree holds
 * `checkpoint.json` (paths with their before/after blob ids and permission
 * bits, the call that made it) and two one-level trees, `before/` and
 * `after/`, whose entries are the changed files' paths with "/" escaped (an
 * executable is a `100755` entry, and the manifest keeps each file's mode, so
 * an undo gives a script its mode back). Stores written when each folder had
 * a tree of its own read the same way: undo and restore read the manifest.
 * dispatch records a checkpoint from the commit's `onLanded` hook
 * (`src/fs/commit.ts`), under the commit lock: one commit's record never
 * interleaves with another's, and a record that fails rolls its commit back.
 * Past `max` checkpoints the oldest are pruned (git's `shallow` boundary, and
 * their objects deleted). `undo` and `restore` compute the files (and modes)
 * to write back; the caller commits them, and that commit is recorded as a
 * checkpoint of its own.
 *
 * @module
 */
import { git } from "./_git.ts";
import {
  commitBody,
  gitObject,
  type GitObjectType,
  type GitTreeEntry,
  loosePath,
  packPaths,
  type PreparedObject,
  treeBody,
  writePack,
} from "./_git_objects.ts";
import { RecoverableError } from "../errors.ts";
import type { BackendFs } from "./backend.ts";
import { INTERNAL_DIR } from "./sandbox.ts";
import { ignoreInternalDir } from "./internal_dir.ts";

/** Directory (under the root's `.graver/`) of the shadow repository. */
export const CHECKPOINTS_DIR = `${INTERNAL_DIR}/checkpoints`;

const REF = "refs/heads/checkpoints";
const MANIFEST = "checkpoint.json";
const AUTHOR = "graver <graver@localhost>";
const TREE_MODE = "40000";
/** The commit message's last line: the checkpoint's place in the line (how many there are, without a walk). */
const SEQ_TRAILER = "checkpoint: ";

/** How many checkpoints a store keeps by default (the oldest are pruned past it). */
export const DEFAULT_MAX_CHECKPOINTS = 200;

/** Options of {@linkcode Checkpoints}. */
export interface CheckpointsOptions {
  /** Checkpoints kept at most (default {@linkcode DEFAULT_MAX_CHECKPOINTS}); the oldest are pruned past it. */
  max?: number | undefined;
}

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
  readonly #max: number;
  #chain: Promise<unknown> = Promise.resolve();
  #ready = false;
  /** Checkpoint id -> its place in the line (commits never change, so this never goes stale). */
  readonly #seqs = new Map<string, number>();
  /** Checkpoint id -> its parent (none for the first), so pruning walks the line without reading commits. */
  readonly #parents = new Map<string, string | undefined>();
  /** Checkpoint id -> the objects it holds (for pruning). */
  readonly #objects = new Map<string, string[]>();
  #cache: object = {};

  /**
   * Open the shadow repository of a root (created on the first record).
   *
   * @param fs The workspace's wrapped backend.
   * @param root Backend path of the workspace root.
   * @param options `max`: checkpoints kept at most.
   */
  constructor(fs: BackendFs, root: string, options: CheckpointsOptions = {}) {
    const max = options.max ?? DEFAULT_MAX_CHECKPOINTS;
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError(
        `Cannot keep checkpoints: the bound must be a whole number of at least 1, not ${max}`,
      );
    }
    this.#max = max;
    this.#fs = fs;

    this.#root = root === "/" ? "" : root.replace(/\/+$/, "");
    this.#gitdir = `${this.#root}/${CHECKPOINTS_DIR}`;
  }

  /** The backend path of the shadow repository's gitdir. */
  get gitdir(): string {
    return this.#gitdir;
  }

  // deno-lint-ignore no-explicit-any
  get #git(): { fs: any; gitdir: string; cache: object } {
    return { fs: { promises: this.#fs.raw }, gitdir: this.#gitdir, cache: this.#cache };
  }

  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = () => {
      // isomorphic-git's cache of pack indexes lives for one operation: packs come and go between them.
      this.#cache = {};
      return fn();
    };
    const next = this.#chain.then(run, run);
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
    const loose = await this.#fs.read(`${this.#gitdir}/${REF}`);
    const text = loose ? new TextDecoder().decode(loose).trim() : "";
    if (/^[0-9a-f]{40}$/.test(text)) return text;
    try {
      // A store someone packed with git keeps the branch in packed-refs.
      return await git.resolveRef({ ...this.#git, ref: REF });
    } catch {
      return null;
    }
  }

  /**
   * A checkpoint's place in the line of checkpoints (the first is 1): the trailer of its commit message, or,
   * for a checkpoint written before commits carried it, the number of checkpoints from it back to the first.
   */
  async #seqOf(id: string): Promise<number> {
    const known = this.#seqs.get(id);
    if (known !== undefined) return known;
    const { message } = await this.#commit(id);
    const trailer = message.split("\n").find((l) => l.startsWith(SEQ_TRAILER));
    const seq = trailer
      ? Number(trailer.slice(SEQ_TRAILER.length))
      : (await git.log({ ...this.#git, ref: id })).length;
    this.#seqs.set(id, seq);
    return seq;
  }

  /** The oldest checkpoint kept (git's `shallow` file), or null when none was ever pruned. */
  async #oldestKept(): Promise<string | null> {
    const bytes = await this.#fs.read(`${this.#gitdir}/shallow`);
    const first = bytes ? new TextDecoder().decode(bytes).split("\n")[0]!.trim() : "";
    return /^[0-9a-f]{40}$/.test(first) ? first : null;
  }

  /**
   * Keep at most `max` checkpoints: past it, the oldest go, down to nine tenths of the bound at once (so a
   * long session prunes once every tenth of the bound, not on every commit). The oldest kept becomes git's
   * `shallow` boundary (a log, ours or git's, stops there), then the objects only the dropped checkpoints
   * held are deleted; a blob or tree a kept checkpoint shares stays.
   */
  async #prune(head: string, seq: number): Promise<void> {
    const oldest = await this.#oldestKept();
    const count = seq - (oldest ? await this.#seqOf(oldest) : 1) + 1;
    if (count <= this.#max) return;
    const keep = Math.max(1, this.#max - Math.floor(this.#max / 10));
    const parentOf = async (id: string) => {
      if (id === oldest) return undefined;
      if (!this.#parents.has(id)) this.#parents.set(id, (await this.#commit(id)).parent[0]);
      return this.#parents.get(id);
    };
    const kept: string[] = [];
    let at: string | undefined = head;
    while (at && kept.length < keep) {
      kept.push(at);
      at = await parentOf(at);
    }
    const dropped: string[] = [];
    for (; at; at = await parentOf(at)) dropped.push(at);
    if (dropped.length === 0) return;
    await this.#writeFileAtomically(`${this.#gitdir}/shallow`, `${kept[kept.length - 1]}\n`);
    const loose: string[] = [];
    for (const id of dropped) {
      const paths = packPaths(this.#gitdir, id);
      // The index first: a reader finds a pack by its index, so it never meets an index without its pack.
      if ((await this.#fs.kind(paths.idx)) === "file") {
        await this.#fs.remove(paths.idx);
        await this.#fs.remove(paths.pack).catch(() => {});
      } else loose.push(id);
    }
    if (loose.length) await this.#pruneLoose(kept, loose);
    for (const id of dropped) {
      this.#parents.delete(id);
      this.#seqs.delete(id);
    }
  }

  /**
   * Delete the loose objects of dropped checkpoints written before checkpoints were packs, but not one a kept
   * checkpoint holds (two checkpoints may share a blob or a tree). Every dropped checkpoint's objects are read
   * before any is deleted.
   */
  async #pruneLoose(kept: readonly string[], dropped: readonly string[]): Promise<void> {
    const live = new Set<string>();
    for (const id of kept) for (const oid of await this.#objectsOf(id)) live.add(oid);
    const gone = new Set<string>();
    for (const id of dropped) for (const oid of await this.#objectsOf(id)) if (!live.has(oid)) gone.add(oid);
    for (const oid of gone) await this.#fs.remove(loosePath(this.#gitdir, oid)).catch(() => {});
    for (const id of dropped) this.#objects.delete(id);
  }

  async #commit(id: string): Promise<{ tree: string; parent: string[]; message: string }> {
    return (await git.readCommit({ ...this.#git, oid: id })).commit;
  }

  /** Every object one checkpoint holds: its commit and all under its tree (cached: objects never change). */
  async #objectsOf(id: string): Promise<string[]> {
    const cached = this.#objects.get(id);
    if (cached) return cached;
    const out = [id];
    const walk = async (tree: string): Promise<void> => {
      out.push(tree);
      for (const e of (await git.readTree({ ...this.#git, oid: tree })).tree) {
        if (e.type === "tree") await walk(e.oid);
        else out.push(e.oid);
      }
    };
    await walk((await this.#commit(id)).tree);
    this.#objects.set(id, out);
    return out;
  }

  /**
   * Record one committed change as a checkpoint (nothing when no file changed), then prune the oldest
   * checkpoints when there are more than the bound.
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
      const objects: PreparedObject[] = [];
      const { tree, paths } = await checkpointTree(real, { meta, into: objects });
      const parent = await this.#head();
      const seq = parent ? (await this.#seqOf(parent)) + 1 : 1;
      const verb = meta.undoes ? `undo ${meta.undoes.slice(0, 7)}` : meta.tool;
      const message = `${verb}: ${paths.join(", ")}\n\ntool: ${meta.tool}\nsession: ${meta.session}\n` +
        `${SEQ_TRAILER}${seq}\n`;
      const commit = await gitObject(
        "commit",
        commitBody({
          tree,
          parents: parent ? [parent] : [],
          who: AUTHOR,
          timestamp: Math.floor(Date.now() / 1000),
          message,
        }),
      );
      objects.push(commit);
      // Every object in one pack named after the checkpoint (two files, whatever the count), and the branch's
      // next value beside it; the branch moves last; until then the pack is unreferenced (a failure leaves
      // no checkpoint).
      const ref = `${this.#gitdir}/${REF}`;
      const next = `${ref}.tmp-${crypto.randomUUID().slice(0, 8)}`;
      try {
        await Promise.all([
          writePack(this.#fs, this.#gitdir, { name: commit.oid, objects }),
          this.#fs.write(next, new TextEncoder().encode(`${commit.oid}\n`)),
        ]);
        await this.#fs.rename(next, ref, { parentExists: true });
      } catch (err) {
        await this.#fs.remove(next).catch(() => {});
        throw err;
      }
      this.#seqs.set(commit.oid, seq);
      this.#parents.set(commit.oid, parent ?? undefined);
      await this.#prune(commit.oid, seq);
      return commit.oid;
    });
  }

  /** Write a small file of the repository (a ref, `shallow`) under a temporary name, then rename it. */
  async #writeFileAtomically(path: string, text: string): Promise<void> {
    const tmp = `${path}.tmp-${crypto.randomUUID().slice(0, 8)}`;
    await this.#fs.write(tmp, new TextEncoder().encode(text));
    await this.#fs.rename(tmp, path, { parentExists: true });
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

/**
 * The objects of one checkpoint, added to `into`: the blobs, `checkpoint.json`, and the trees `before/` and
 * `after/`, each one level deep (a file's path is its entry's name, "/" written "%2F"), so a checkpoint has
 * three trees whatever folders its files are in; the manifest names every blob, which is what undo reads.
 */
async function checkpointTree(
  real: readonly CheckpointChange[],
  options: { meta: CheckpointMeta; into: PreparedObject[] },
): Promise<{ tree: string; paths: string[] }> {
  const { meta, into } = options;
  const put = async (type: GitObjectType, body: Uint8Array): Promise<string> => {
    const object = await gitObject(type, body);
    if (!into.some((o) => o.oid === object.oid)) into.push(object);
    return object.oid;
  };
  const sorted = [...real].sort((a, b) => (a.path < b.path ? -1 : 1));
  const before: GitTreeEntry[] = [];
  const after: GitTreeEntry[] = [];
  const files: ManifestEntry[] = [];
  for (const c of sorted) {
    const b = c.before ? await put("blob", c.before) : null;
    const a = c.after ? await put("blob", c.after) : null;
    if (b) before.push({ mode: fileMode(c.beforeMode), name: entryName(c.path), oid: b });
    if (a) after.push({ mode: fileMode(c.afterMode), name: entryName(c.path), oid: a });
    const entry: ManifestEntry = { path: c.path, before: b, after: a };
    if (b && typeof c.beforeMode === "number") entry.before_mode = c.beforeMode;
    if (a && typeof c.afterMode === "number") entry.after_mode = c.afterMode;
    files.push(entry);
  }
  const manifest: Manifest = { tool: meta.tool, session: meta.session, files };
  if (meta.undoes) manifest.undoes = meta.undoes;
  const json = new TextEncoder().encode(JSON.stringify(manifest, null, 2) + "\n");
  const top: GitTreeEntry[] = [{ mode: "100644", name: MANIFEST, oid: await put("blob", json) }];
  if (before.length) top.push({ mode: TREE_MODE, name: "before", oid: await put("tree", treeBody(before)) });
  if (after.length) top.push({ mode: TREE_MODE, name: "after", oid: await put("tree", treeBody(after)) });
  return { tree: await put("tree", treeBody(top)), paths: files.map((f) => f.path) };
}

/** A file's git mode: executable ("100755") when any execute bit is set. */
function fileMode(mode: number | null | undefined): string {
  return mode && (mode & 0o111) ? "100755" : "100644";
}

/** A path as the name of an entry of a one-level tree ("%" and "/" escaped, so names stay unique). */
function entryName(path: string): string {
  return path.replaceAll("%", "%25").replaceAll("/", "%2F");
}

function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === b) return true;
  if (a === null || b === null || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
