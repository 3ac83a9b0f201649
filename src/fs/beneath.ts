/**
 * Writes that stay beneath the root while the tree changes under them. The sandbox checks a path when a
 * tool resolves it; a commit writes it later. A directory on the way swapped for a symbolic link in between
 * (the check-then-use race) would send the write outside. {@linkcode confineBackend} closes that window:
 * every write, rename, removal, directory creation, mode change and read under the root goes to a directory
 * reached from the root one component at a time without following links.
 *
 * - A backend with {@linkcode Backend.holdDir} (the disk backend on Linux, in Deno, Node and Bun: each
 *   directory is opened with `O_NOFOLLOW | O_DIRECTORY` relative to its parent's descriptor, and the
 *   operation names the held directory as `/proc/self/fd/N/name`): a link swapped in anywhere on the way is
 *   refused (`sandbox_violation`) and nothing lands outside, whenever the swap happens.
 * - Any other backend (memfs, lightning-fs, a disk without `/proc`): every directory on the way of a write is
 *   checked with `lstat` just before it, and of a rename into place just before and just after it; a link
 *   found is refused.
 *   That narrows the window to the operation itself; it does not close it (see docs/safety.md).
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { type Backend, BackendFs, dirname, errnoCode, type HeldDir, heldDirsOf } from "./backend.ts";

/** Confined views, per raw backend and root, so that a root always gets the same object. */
const VIEWS = new WeakMap<Backend, Map<string, Backend>>();

/** The error for a directory on the way that is not a directory any more (a link or a file took its place). */
function swapped(path: string, dir: string): RecoverableError {
  return new RecoverableError(
    "sandbox_violation",
    `Cannot write "${path}": the directory "${dir}" on its way is no longer a directory (a symbolic link or a file took its place after the path was checked), so the write could leave the workspace root`,
    {
      hint:
        "Nothing was written there; make sure nothing swaps directories of the workspace for links, then retry",
      details: { path, directory: dir },
    },
  );
}

/** The error for a directory that went away between its creation and the write into it. */
function vanished(path: string, dir: string, cause: unknown): RecoverableError {
  return new RecoverableError(
    "not_found",
    `Cannot write "${path}": the directory "${dir}" on its way disappeared while the commit ran (something else is changing the workspace)`,
    {
      hint: "Nothing was written there; retry once the other process is done",
      details: { path, directory: dir },
      cause,
    },
  );
}

/** An ENOENT error, for what cannot be beneath the root because the way to it is gone. */
function absent(path: string, cause: unknown): Error {
  return Object.assign(
    new Error(`ENOENT: no such file or directory beneath the root, '${path}'`, { cause }),
    {
      code: "ENOENT",
    },
  );
}

/** Whether `path` lies strictly beneath `root`. */
function beneath(root: string, path: string): boolean {
  return path.startsWith(root === "/" ? "/" : `${root}/`) && path !== root;
}

/** The directories from `root` (excluded) down to `dir` (included). */
function steps(root: string, dir: string): string[] {
  if (dir === root) return [];
  const rest = dir.slice(root === "/" ? 1 : root.length + 1).split("/");
  return rest.map((_, i) => `${root === "/" ? "" : root}/${rest.slice(0, i + 1).join("/")}`);
}

/** The first directory between `root` and `dir` that is a symbolic link (lstat), or null. */
async function linkOnTheWay(raw: Backend, root: string, dir: string): Promise<string | null> {
  for (const step of steps(root, dir)) {
    try {
      if ((await raw.lstat(step)).isSymbolicLink?.() === true) return step;
    } catch (err) {
      const code = errnoCode(err);
      if (code === "ENOENT" || code === "ENOTDIR") return null;
      throw err;
    }
  }
  return null;
}

/**
 * What an operation does when the way to its directory is not (or no longer) a chain of directories: a
 * write refuses (`sandbox_violation`), a read or a removal finds nothing there (`ENOENT`).
 */
type WhenGone = "refuse" | "absent";

/**
 * The directories held open right now under one root, shared by the operations that run in them at the same
 * time (a commit renames many files into one directory at once): each is opened once, from the root, and
 * closed when its last user is done, so no descriptor outlives the operations that needed it.
 */
class Holds {
  readonly raw: Backend;
  readonly root: string;
  readonly #open = new Map<string, { held: Promise<HeldDir | null>; users: number }>();

  /** The backend's `holdDir`, while the calls it stands for are the backend's own ({@linkcode heldDirsOf}). */
  readonly #hold: Backend["holdDir"];

  constructor(raw: Backend, root: string) {
    this.raw = raw;
    this.root = root;
    this.#hold = heldDirsOf(raw);
  }

  /** Hold `dir` (null when the backend cannot hold directories); pair with {@linkcode Holds.release}. */
  async acquire(dir: string): Promise<HeldDir | null> {
    let entry = this.#open.get(dir);
    if (!entry) {
      const created = {
        held: this.#hold ? this.#hold(dir, { root: this.root }) : Promise.resolve(null),
        users: 0,
      };
      created.held.catch(() => this.#open.get(dir) === created && this.#open.delete(dir));
      this.#open.set(dir, entry = created);
    }
    entry.users++;
    try {
      return await entry.held;
    } catch (err) {
      entry.users--;
      throw err;
    }
  }

  /** Done with `dir`: the last user closes it. */
  async release(dir: string): Promise<void> {
    const entry = this.#open.get(dir);
    if (!entry || --entry.users > 0) return;
    this.#open.delete(dir);
    await (await entry.held.catch(() => null))?.release();
  }
}

/** Hold `dir` beneath the root, or null when the backend cannot; a link or a gap on the way per `gone`. */
async function hold(holds: Holds, dir: string, path: string, gone: WhenGone): Promise<HeldDir | null> {
  try {
    return await holds.acquire(dir);
  } catch (err) {
    const code = errnoCode(err);
    // ELOOP / ENOTDIR: a link (or a file) where a directory was; ENOENT: the directory went away.
    if (code !== "ELOOP" && code !== "ENOTDIR" && code !== "ENOENT") throw err;
    if (gone === "absent") throw absent(path, err);
    if (code === "ENOENT") throw vanished(path, dir, err);
    throw swapped(path, dir);
  }
}

/**
 * Where a backend cannot hold a directory, which operations check the directories on the way with `lstat`:
 * none, before, or before and after. Only what puts bytes into the tree is checked (a write before, a rename
 * into place before and after), so that a commit over memfs pays a few `lstat`s per file, not per call.
 */
type Check = "none" | "before" | "around";

/**
 * Hold `dir` (reached from `root` without following links) while `op` runs on the name of `path` in it.
 * Falls back to checking the directories (per `check`) when the backend cannot hold one.
 */
async function within<T>(
  holds: Holds,
  path: string,
  op: (at: string) => Promise<T>,
  options: { gone?: WhenGone | undefined; check?: Check } = {},
): Promise<T> {
  const { raw, root } = holds;
  const gone = options.gone ?? "refuse";
  if (!beneath(root, path)) return await op(path);
  const dir = dirname(path);
  const held = await hold(holds, dir, path, gone);
  if (held === null) {
    const check = async () => {
      const link = await linkOnTheWay(raw, root, dir);
      if (link === null) return;
      if (gone === "absent") throw absent(path, null);
      throw swapped(path, link);
    };
    const when = options.check ?? "none";
    if (when !== "none") await check();
    const out = await op(path);
    if (when === "around") await check();
    return out;
  }
  try {
    return await op(`${held.path}/${path.slice(dir === "/" ? 1 : dir.length + 1)}`);
  } catch (err) {
    // The held directory was removed meanwhile: nothing can land in it.
    if (gone === "refuse" && errnoCode(err) === "ENOENT") throw vanished(path, dir, err);
    throw err;
  } finally {
    await holds.release(dir);
  }
}

/**
 * A view of `raw` whose writes, renames, removals, directory creations, mode changes and reads under `root`
 * never follow a symbolic link between the root and the file (the root itself is trusted as given). Paths
 * outside `root` pass through unchanged. The same backend and root always give the same view.
 *
 * @example A link swapped in under the root is refused
 * ```ts
 * import { confineBackend, createMemoryBackend } from "@graver/core/fs";
 * import assert from "node:assert/strict";
 *
 * const raw = createMemoryBackend({ "/w/.keep": "", "/outside/.keep": "" });
 * await (raw as any).symlink("/outside", "/w/src");
 * const fs = confineBackend(raw, "/w");
 * await assert.rejects(fs.writeFile("/w/src/a.txt", new Uint8Array()), (e: any) => e.code === "sandbox_violation");
 * assert.deepEqual(await raw.readdir("/outside"), [".keep"]);
 * ```
 *
 * @param raw The backend.
 * @param root Absolute backend path of the workspace root.
 * @returns The confined backend.
 */
export function confineBackend(raw: Backend, root: string): Backend {
  let byRoot = VIEWS.get(raw);
  if (!byRoot) VIEWS.set(raw, byRoot = new Map());
  const known = byRoot.get(root);
  if (known) return known;
  const holds = new Holds(raw, root);
  const at = <T>(path: string, op: (p: string) => Promise<T>, gone?: WhenGone) =>
    within(holds, path, op, { gone });
  const writing = <T>(path: string, op: (p: string) => Promise<T>) =>
    within(holds, path, op, { check: "before" });
  const view: Backend = {
    readFile: (path) => at(path, (p) => raw.readFile(p), "absent"),
    writeFile: (path, data, options) => writing(path, (p) => raw.writeFile(p, data, options)),
    // A rename is what lands a file in the tree: checked again after it where no directory can be held.
    rename: (from, to) => at(from, (f) => within(holds, to, (t) => raw.rename(f, t), { check: "around" })),
    unlink: (path) => at(path, (p) => raw.unlink(p), "absent"),
    mkdir: (path, options) => at(path, (p) => raw.mkdir(p, options)),
    readdir: (path) => raw.readdir(path),
    stat: (path) => raw.stat(path),
    lstat: (path) => raw.lstat(path),
  };
  if (raw.readlink) view.readlink = (path) => raw.readlink!(path);
  if (raw.rmdir) view.rmdir = (path) => at(path, (p) => raw.rmdir!(p), "absent");
  if (raw.chmod) view.chmod = (path, mode) => at(path, (p) => raw.chmod!(p, mode));
  if (raw.flush) view.flush = () => raw.flush!();
  if (raw.openReader) view.openReader = (path) => at(path, (p) => raw.openReader!(p), "absent");
  const hold = heldDirsOf(raw);
  if (hold) view.holdDir = (dir, options) => hold(dir, options);
  byRoot.set(root, view);
  return view;
}

/**
 * The wrapped backend a commit writes through: {@linkcode confineBackend} of `fs` under `root`.
 *
 * @param fs The workspace's backend.
 * @param root Absolute backend path of the workspace root.
 * @returns A wrapped, confined backend.
 */
export function confined(fs: BackendFs, root: string): BackendFs {
  return BackendFs.wrap(confineBackend(fs.raw, root));
}
