/**
 * Stage: a copy-on-write overlay of pending file states over the backend.
 * Nothing reaches the backend until {@linkcode commitStage}; a dry run is a
 * stage that is dropped.
 *
 * @module
 */
import { isRecoverable, RecoverableError } from "../errors.ts";
import { type BackendFs, specialFileError } from "./backend.ts";
import { globBase, globMatcher, looksLikeGlob } from "./_glob.ts";
import { type Landing, landingIn } from "./landing.ts";
import type { Sandbox } from "./sandbox.ts";
import type { LinkTarget, ListedKind } from "./walk.ts";
import { decodeText, encodeText, type TextFile } from "./text.ts";
import { shortVersion, type Version, versionMatches, versionOf } from "./version.ts";

/** A file as seen through the stage. */
export interface StagedFile {
  /** Relative path. */
  path: string;
  /** Exact bytes. */
  bytes: Uint8Array;
  /** SHA-256 of the bytes. */
  version: Version;
}

/** A pending change, as handed to commit. */
export interface PendingChange {
  /** Relative path. */
  path: string;
  /** Version the backend held when the stage first touched it (null: absent). */
  baseVersion: Version | null;
  /** Bytes the backend held then (null: absent). */
  before: Uint8Array | null;
  /** Bytes to land (null: delete). */
  after: Uint8Array | null;
  /**
   * Permission bits the file gets (`0o755`). Absent: an existing file keeps
   * its own, a new one gets the backend's default.
   */
  mode?: number;
}

/**
 * A file as the stage sees it. Versions (SHA-256) are computed when asked for:
 * a project-wide search reads hundreds of files it never edits. `base.version`
 * is undefined until known (null: the file did not exist), and is settled
 * before the first write, so that {@linkcode Stage.changes} has it.
 */
interface Entry {
  base: { bytes: Uint8Array | null; version: Version | null | undefined };
  current: Uint8Array | null;
  /** The current bytes' version, null until computed. */
  currentVersion: Version | null;
  written: boolean;
  /** Permission bits set by {@linkcode Stage.write} (undefined: keep the file's own). */
  mode?: number | undefined;
}

/** Compute an entry's base version if it is not known yet (before its first write). */
async function settleBase(entry: Entry): Promise<void> {
  if (entry.base.version !== undefined) return;
  entry.base.version = !entry.written && entry.currentVersion !== null
    ? entry.currentVersion
    : await versionOf(entry.base.bytes!);
}

/** The version a caller holds and the one the staged view has (null: the file does not exist). */
export interface StaleVersions {
  /** The version the caller passed. */
  expected: Version;
  /** The staged view's version, or null. */
  actual: Version | null;
}

/**
 * The `stale_base` refusal of an edit whose caller holds an older version: both versions, and the read
 * that gets the current one.
 *
 * @param rel Relative path.
 * @param versions The version expected and the one found.
 * @returns The error to throw.
 */
export function staleBaseError(rel: string, { expected, actual }: StaleVersions): RecoverableError {
  return new RecoverableError(
    "stale_base",
    actual === null
      ? `Cannot edit "${rel}": expected version "${shortVersion(expected)}" but the file does not exist`
      : `Cannot edit "${rel}": expected version "${shortVersion(expected)}", found "${
        shortVersion(actual)
      }" (details.current_version has all 64 characters)`,
    {
      hint:
        `The file changed since you read it; call read_file with {"path": "${rel}"} and redo the edit against the current content`,
      suggestedCall: { tool: "read_file", args: { path: rel } },
      details: { path: rel, expected_version: expected, current_version: actual },
    },
  );
}

/**
 * A copy-on-write overlay over one backend and sandbox.
 *
 * @example Stage a write without touching the backend
 * ```ts
 * import { BackendFs, createMemoryBackend, Sandbox, Stage } from "@graver/core/fs";
 * import assert from "node:assert/strict";
 *
 * const fs = BackendFs.wrap(createMemoryBackend({ "/a.txt": "one\n" }));
 * const stage = new Stage(fs, new Sandbox("/"));
 * await stage.writeText("a.txt", { text: "two\n", bom: false });
 * assert.equal((await stage.readText("a.txt")).text, "two\n");
 * assert.equal(new TextDecoder().decode((await fs.read("/a.txt"))!), "one\n");
 * ```
 */
export class Stage {
  /** The wrapped backend. */
  readonly fs: BackendFs;
  /** The sandbox mapping tool paths. */
  readonly sandbox: Sandbox;
  /**
   * Where a real path's file may be read or its folder listed other than at that path: the same path under
   * the root's real path (`landingIn` the sandbox; a read or listing that landed elsewhere is refused).
   */
  readonly landing: Landing;
  #entries = new Map<string, Entry>();
  /** The stage this one was forked from: its current state is this one's base. */
  #parent: Stage | null = null;

  /**
   * Make an empty stage over the backend.
   *
   * @param fs Wrapped backend.
   * @param sandbox Root mapping.
   */
  constructor(fs: BackendFs, sandbox: Sandbox) {
    this.fs = fs;
    this.sandbox = sandbox;
    this.landing = landingIn(sandbox);
  }

  /**
   * A child stage whose base is this stage's current view: its changes are
   * relative to what this stage holds now, and {@linkcode Stage.merge} folds
   * them back. Plans preview one step after another this way.
   *
   * @returns The child stage.
   */
  fork(): Stage {
    const child = new Stage(this.fs, this.sandbox);
    child.#parent = this;
    return child;
  }

  /**
   * Fold a child's writes into this stage (the child must come from
   * {@linkcode Stage.fork} on this stage).
   *
   * @param child The forked stage.
   */
  async merge(child: Stage): Promise<void> {
    if (child.#parent !== this) throw new TypeError("Cannot merge a stage that was not forked from this one");
    for (const [rel, e] of child.#entries) {
      if (!e.written) continue;
      if (e.current === null) await this.remove(rel);
      else await this.write(rel, e.current, e.mode !== undefined ? { mode: e.mode } : {});
    }
  }

  /** Resolve a tool path (following links, refusing escapes) to its relative path. */
  async resolve(path: string): Promise<string> {
    return (await this.sandbox.resolve(this.fs, path)).rel;
  }

  /**
   * Where the symbolic link at `rel` leads: its real relative path and what is there, or null when the
   * target leaves the root or lies in graver's internals or a protected path (the walk's rule for links).
   *
   * @param rel Relative path of the link.
   * @returns The target inside the root, or null.
   */
  async follow(rel: string): Promise<LinkTarget | null> {
    let real: string;
    try {
      real = await this.resolve(rel);
    } catch (err) {
      if (isRecoverable(err, "sandbox_violation")) return null;
      throw err;
    }
    const listed = await this.#kindOf(real);
    return { rel: real, kind: listed === "symlink" ? null : listed };
  }

  /** What the staged view holds at a real path: a staged file, or what the backend has. */
  async #kindOf(rel: string): Promise<"file" | "dir" | "symlink" | "other" | null> {
    const staged = this.#entries.get(rel);
    if (staged?.written) return staged.current === null ? null : "file";
    if (this.#parent) return await this.#parent.#kindOf(rel);
    return await this.fs.kind(this.sandbox.abs(rel));
  }

  async #entry(rel: string): Promise<Entry> {
    let entry = this.#entries.get(rel);
    if (entry) return entry;
    if (this.#parent) {
      const seen = await this.#parent.#entry(rel);
      const bytes = seen.current;
      const version = bytes === null ? null : seen.currentVersion ?? undefined;
      entry = { base: { bytes, version }, current: bytes, currentVersion: version ?? null, written: false };
      this.#entries.set(rel, entry);
      return entry;
    }
    const abs = this.sandbox.abs(rel);
    const kind = await this.fs.kind(abs);
    if (kind === "dir") {
      throw new RecoverableError("is_directory", `Cannot use "${rel}" as a file: it is a directory`, {
        hint: `Call list_files with {"path": "${rel}"} to see what it holds`,
        details: { path: rel },
        suggestedCall: { tool: "list_files", args: { path: rel } },
      });
    }
    if (kind === "symlink" || kind === "other") await this.#refuseUnsafe(rel, kind);
    const bytes = kind === null ? null : await this.fs.read(abs);
    entry = {
      base: { bytes, version: bytes === null ? null : undefined },
      current: bytes,
      currentVersion: null,
      written: false,
    };
    this.#entries.set(rel, entry);
    return entry;
  }

  /**
   * Refuse to open what is not safe to read: a link whose target leaves the root (`sandbox_violation`), a
   * FIFO, socket or device, directly or behind a link (`binary_file`, before anything opens it).
   */
  async #refuseUnsafe(rel: string, kind: "symlink" | "other"): Promise<void> {
    const real = kind === "symlink" ? await this.resolve(rel) : rel;
    const target = kind === "symlink" ? await this.fs.kind(this.sandbox.abs(real)) : kind;
    if (target === "other") throw specialFileError(rel, await this.fs.special(this.sandbox.abs(real)));
  }

  /**
   * A file's size in bytes in the staged view without reading it (a stat of the backend when the stage has
   * not read it yet), or null when it is absent, not a regular file, or the backend reports no size.
   *
   * @param rel Relative path.
   * @returns The size in bytes, or null.
   */
  async size(rel: string): Promise<number | null> {
    const entry = this.#entries.get(rel);
    if (entry) return entry.current?.length ?? null;
    if (this.#parent) return await this.#parent.size(rel);
    try {
      const st = await this.fs.raw.stat(this.sandbox.abs(rel));
      return st.isFile() && st.size !== undefined ? Number(st.size) : null;
    } catch {
      return null; // absent or unreadable: whoever reads it next says why
    }
  }

  /**
   * Whether this stage, or one it was forked from, holds a write of `rel` not yet committed (then the
   * staged view of it differs from the backend's bytes).
   *
   * @param rel Relative path.
   * @returns True when a write of it is staged.
   */
  hasWrite(rel: string): boolean {
    if (this.#entries.get(rel)?.written) return true;
    return this.#parent?.hasWrite(rel) ?? false;
  }

  /**
   * Whether this stage, or one it was forked from, holds any write not yet committed (then its view of the
   * tree may differ from the backend's).
   *
   * @returns True when a write is staged anywhere in the chain.
   */
  hasWrites(): boolean {
    for (const e of this.#entries.values()) if (e.written) return true;
    return this.#parent?.hasWrites() ?? false;
  }

  /** Whether the (relative) path exists as a file in the staged view. */
  async exists(rel: string): Promise<boolean> {
    return (await this.#entry(rel)).current !== null;
  }

  /** Read a file through the overlay, or null when absent. */
  async read(rel: string): Promise<StagedFile | null> {
    const entry = await this.#entry(rel);
    if (entry.current === null) return null;
    entry.currentVersion ??= await versionOf(entry.current);
    if (!entry.written) entry.base.version ??= entry.currentVersion;
    return { path: rel, bytes: entry.current, version: entry.currentVersion };
  }

  /** Read a file that must exist; `not_found` otherwise. */
  async readExisting(rel: string): Promise<StagedFile> {
    const file = await this.read(rel);
    if (file === null) throw await this.notFound(rel);
    return file;
  }

  /**
   * Decode a file of the staged view without computing its version (a search
   * that reads many files to see which contain a word), or null when absent.
   * It is not a guarded read: call {@linkcode Stage.read} for the version an
   * edit is checked against.
   *
   * @param rel Relative path.
   * @returns The decoded text, or null.
   */
  async peekText(rel: string): Promise<TextFile | null> {
    const entry = await this.#entry(rel);
    return entry.current === null ? null : decodeText(entry.current, rel);
  }

  /** Read and decode a text file that must exist. */
  async readText(rel: string): Promise<TextFile & { version: Version; bytes: Uint8Array }> {
    const file = await this.readExisting(rel);
    return { ...decodeText(file.bytes, rel), version: file.version, bytes: file.bytes };
  }

  /**
   * Refuse with `stale_base` unless the staged view of `rel` has `expected`
   * (the full version or a prefix of at least 12 hex characters; a shorter
   * prefix is `invalid_args`). The one rule every tool's version check follows.
   *
   * @param rel Relative path.
   * @param expected The version the caller holds (undefined: no check).
   * @param options `refusal`: the error a tool words in its own argument names (default
   *   {@linkcode staleBaseError}).
   */
  async checkExpected(
    rel: string,
    expected: Version | undefined,
    options: { refusal?: (rel: string, versions: StaleVersions) => RecoverableError } = {},
  ): Promise<void> {
    if (expected === undefined) return;
    const file = await this.read(rel);
    const actual = file?.version ?? null;
    if (versionMatches(actual, expected, rel)) return;
    throw (options.refusal ?? staleBaseError)(rel, { expected, actual });
  }

  /**
   * Stage new bytes for a file.
   *
   * @param rel Relative path.
   * @param bytes The new content.
   * @param options `mode`: permission bits the file gets (default: an existing file keeps its own).
   */
  async write(rel: string, bytes: Uint8Array, options: { mode?: number | null } = {}): Promise<void> {
    const entry = await this.#entry(rel);
    await settleBase(entry);
    entry.current = bytes;
    entry.currentVersion = null;
    entry.written = true;
    if (options.mode !== undefined) entry.mode = options.mode ?? undefined;
  }

  /**
   * A file's permission bits in the staged view (`0o644`), or null when it is
   * absent, new without a mode, or the backend keeps no modes.
   *
   * @param rel Relative path.
   * @returns The permission bits or null.
   */
  async mode(rel: string): Promise<number | null> {
    const entry = await this.#entry(rel);
    if (entry.current === null) return null;
    if (entry.mode !== undefined) return entry.mode;
    if (this.#parent) return await this.#parent.mode(rel);
    return entry.base.bytes === null ? null : await this.fs.mode(this.sandbox.abs(rel));
  }

  /** Stage new text (BOM restored as given). */
  async writeText(rel: string, file: TextFile): Promise<void> {
    await this.write(rel, encodeText(file));
  }

  /** Stage a deletion. */
  async remove(rel: string): Promise<void> {
    const entry = await this.#entry(rel);
    await settleBase(entry);
    entry.current = null;
    entry.currentVersion = null;
    entry.written = true;
    entry.mode = undefined;
  }

  /**
   * List the staged view of a directory: backend entries plus staged
   * creations, minus staged deletions, without graver's internal directory
   * and the sandbox's protected paths. Links and special files are listed as
   * such (`"symlink"`, `"other"`): {@linkcode Stage.follow} says where a link leads.
   *
   * @param dirRel Relative directory ("" for the root).
   * @param options `listTyped`: how the backend's entries of an absolute directory are listed (default
   *   {@linkcode BackendFs.listTyped}; a search passes a cache's, which reuses an unchanged folder's listing).
   * @returns Sorted names with their kind.
   */
  async list(
    dirRel: string,
    options: { listTyped?: (abs: string) => Promise<{ name: string; kind: ListedKind }[]> } = {},
  ): Promise<{ name: string; kind: ListedKind }[]> {
    const listed = this.#parent ? await this.#parent.list(dirRel, options) : await this.#backendListing(
      dirRel,
      options.listTyped ?? ((abs) => this.fs.listTyped(abs, this.landing)),
    );
    const prefix = dirRel === "" ? "" : `${dirRel}/`;
    let names: Map<string, ListedKind> | null = null; // made only when a staged write lies in this folder
    for (const [rel, entry] of this.#entries) {
      if (!rel.startsWith(prefix) || !entry.written) continue;
      names ??= new Map(listed.map((e) => [e.name, e.kind]));
      const rest = rel.slice(prefix.length);
      const slash = rest.indexOf("/");
      if (slash !== -1) {
        if (entry.current !== null) names.set(rest.slice(0, slash), "dir");
        continue;
      }
      if (entry.current === null) names.delete(rest);
      else names.set(rest, "file");
    }
    if (names === null) return listed;
    return [...names].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map(([name, kind]) => ({ name, kind }));
  }

  /** The backend's entries of a folder (sorted), without graver's internal folder and protected paths. */
  async #backendListing(
    dirRel: string,
    listTyped: (abs: string) => Promise<{ name: string; kind: ListedKind }[]>,
  ): Promise<{ name: string; kind: ListedKind }[]> {
    if (dirRel !== "" && this.sandbox.protectedBy(dirRel) !== null) return []; // every entry lies in it
    // Entry types from the listing itself where the backend gives them: no lstat per entry.
    return (await listTyped(this.sandbox.abs(dirRel))).filter(({ name }) =>
      !(dirRel === "" && name === ".graver") && !this.sandbox.protectsEntry(dirRel, name)
    );
  }

  /** Pending changes (only files whose bytes differ from their base). */
  changes(): PendingChange[] {
    const out: PendingChange[] = [];
    for (const [path, e] of this.#entries) {
      if (!e.written || sameBytes(e.base.bytes, e.current)) continue;
      const change: PendingChange = {
        path,
        baseVersion: e.base.version ?? null,
        before: e.base.bytes,
        after: e.current,
      };
      if (e.mode !== undefined && e.current !== null) change.mode = e.mode;
      out.push(change);
    }
    return out.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  }

  /** The files a glob matches in the staged view (walks at most `budget` entries). */
  async #globMatches(glob: string, limit: number, budget = 5000): Promise<string[]> {
    const re = globMatcher(glob);
    const out: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const e of await this.list(dir).catch(() => [])) {
        if (out.length >= limit || --budget < 0) return;
        const child = dir === "" ? e.name : `${dir}/${e.name}`;
        if (e.kind === "file" && re.test(child)) out.push(child);
        else if (e.kind === "dir") await walk(child);
      }
    };
    await walk(globBase(glob));
    return out;
  }

  async #globNotFound(rel: string): Promise<RecoverableError> {
    const limit = 10;
    const matches = await this.#globMatches(rel, limit + 1);
    const base = globBase(rel);
    const listArgs: Record<string, unknown> = rel.includes("**")
      ? { path: base, recursive: true }
      : { path: base };
    const shown = matches.slice(0, limit).map((m) => `"${m}"`).join(", ") +
      (matches.length > limit ? ", …" : "");
    return new RecoverableError(
      "not_found",
      `Cannot find "${rel}": it looks like a glob pattern, and file tools take one path`,
      {
        hint: matches.length === 1
          ? `It matches one file: pass "${matches[0]}" as the path`
          : matches.length > 0
          ? `It matches ${shown}: call the tool once per file, with one of these paths`
          : `It matches no file; call list_files with ${JSON.stringify(listArgs)} to see what exists`,
        suggestedCall: { tool: "list_files", args: listArgs },
        details: { path: rel, glob: true, matches: matches.slice(0, limit) },
      },
    );
  }

  /** Drop every pending change. */
  discard(): void {
    this.#entries.clear();
  }

  /**
   * A `not_found` error with did-you-mean names from the parent directory, or,
   * for a path that looks like a glob (`src/*.ts`), the files it matches.
   */
  async notFound(rel: string): Promise<RecoverableError> {
    if (looksLikeGlob(rel)) return await this.#globNotFound(rel);
    const slash = rel.lastIndexOf("/");
    const dir = slash === -1 ? "" : rel.slice(0, slash);
    const base = rel.slice(slash + 1);
    let siblings: string[] = [];
    try {
      siblings = (await this.list(dir)).filter((e) => e.kind === "file").map((e) => e.name);
    } catch {
      siblings = [];
    }
    const near = nearestNames(base, siblings, 3).map((n) => dir === "" ? n : `${dir}/${n}`);
    return new RecoverableError("not_found", `Cannot find "${rel}": no such file`, {
      hint: near.length > 0
        ? `Did you mean ${near.map((n) => `"${n}"`).join(", ")}? Call list_files to see what exists`
        : `Call list_files with {"path": "${dir}"} to see what exists`,
      suggestedCall: { tool: "list_files", args: { path: dir } },
      details: { path: rel, did_you_mean: near },
    });
  }
}

/** Byte equality (null = absent). */
export function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === b) return true;
  if (a === null || b === null || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Edit distance (Levenshtein), bounded for short names. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}

/**
 * The names closest to `name` (case-insensitive edit distance, substring hits first).
 *
 * @param name What was asked for.
 * @param candidates What exists.
 * @param limit How many to return.
 * @returns Up to `limit` close names, best first.
 */
export function nearestNames(name: string, candidates: string[], limit: number): string[] {
  const lower = name.toLowerCase();
  const scored = candidates.map((c) => {
    const cl = c.toLowerCase();
    const d = cl.includes(lower) || lower.includes(cl) ? 0 : distance(lower, cl);
    return { c, d };
  }).filter(({ c, d }) => d <= Math.max(2, Math.floor(Math.max(c.length, name.length) / 3)));
  scored.sort((x, y) => x.d - y.d || (x.c < y.c ? -1 : 1));
  return scored.slice(0, limit).map(({ c }) => c);
}
