/**
 * Sandbox: maps tool paths (relative to the workspace root) to backend paths,
 * and refuses everything that would leave the root or touch graver's
 * internals.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { type BackendFs, errnoCode } from "./backend.ts";

/** Directory under the root where graver keeps its journal and temp files. */
export const INTERNAL_DIR = ".graver";

/**
 * Version-control metadata refused by default: a write into `.git/hooks/` or
 * `.git/config` runs code on the user's next `git` command. A name matches
 * that path segment at any depth (nested repositories, submodules).
 */
export const DEFAULT_PROTECTED_PATHS: readonly string[] = Object.freeze([
  ".git",
  ".hg",
  ".svn",
  ".jj",
  ".bzr",
]);

/** Options for {@linkcode Sandbox}. */
export interface SandboxOptions {
  /**
   * Paths no tool may read, write, delete or move into or out of (default
   * {@linkcode DEFAULT_PROTECTED_PATHS}; `[]` protects nothing but graver's
   * own `.graver/`). A name without a slash matches that segment at any
   * depth; a path with a slash matches that path from the root and all under it.
   */
  protectedPaths?: readonly string[];
}

/** A path resolved inside the sandbox. */
export interface ResolvedPath {
  /** Relative posix path from the root ("" is the root itself). */
  rel: string;
  /** Backend path. */
  abs: string;
}

const MAX_LINK_HOPS = 32;

function violation(path: string, why: string, hint?: string): RecoverableError {
  return new RecoverableError(
    "sandbox_violation",
    `Cannot use path "${path}": ${why}`,
    {
      hint: hint ?? 'Pass a path relative to the workspace root, e.g. "src/main.ts"',
      details: { path },
    },
  );
}

/** The refusal of a path that goes on below a file (ENOTDIR), before anything is read or written. */
function notADirectory(path: string, prefix: string): RecoverableError {
  return new RecoverableError(
    "not_found",
    `Cannot use path "${path}": "${prefix}" is a file, not a directory`,
    {
      hint: `Pass a path below a directory; call list_files to see what exists`,
      suggestedCall: {
        tool: "list_files",
        args: { path: prefix.includes("/") ? prefix.slice(0, prefix.lastIndexOf("/")) : "" },
      },
      details: { path, file: prefix },
    },
  );
}

/** Split and normalise a posix path into segments, failing on escapes. */
function normalizeSegments(
  segments: string[],
  original: string,
): string[] {
  const out: string[] = [];
  for (const seg of segments) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length === 0) throw violation(original, 'it escapes the workspace root with ".."');
      out.pop();
      continue;
    }
    out.push(seg);
  }
  return out;
}

/**
 * Maps tool paths to backend paths under one root.
 *
 * @example Refuse an escape
 * ```ts
 * import { Sandbox } from "@graver/core/fs";
 * import assert from "node:assert/strict";
 *
 * const sb = new Sandbox("/work");
 * assert.equal(sb.lexical("src/a.ts").abs, "/work/src/a.ts");
 * assert.throws(() => sb.lexical("../etc/passwd"), (e: any) => e.code === "sandbox_violation");
 * ```
 */
export class Sandbox {
  /** The backend path of the workspace root (absolute, posix, no trailing slash). */
  readonly root: string;
  /** The protected paths in force (see {@linkcode SandboxOptions.protectedPaths}). */
  readonly protectedPaths: readonly string[];
  readonly #names: Set<string>;
  readonly #paths: string[][];
  /** Other absolute paths that name the root: its real path when the root is reached through a link. */
  readonly #aliases: string[] = [];

  /**
   * Map tool paths under a root. A root reached through a link must learn its real path before a walk lists
   * or reads under it ({@linkcode Sandbox.learnRealRoot}, as a workspace does when it opens): the disk says
   * where it listed or read, and what it names under the real path is refused otherwise.
   *
   * @param root Absolute posix backend path of the root.
   * @param options Protected paths.
   */
  constructor(root: string, options: SandboxOptions = {}) {
    if (!root.startsWith("/")) throw new TypeError(`Cannot use root "${root}": must be absolute`);
    this.root = root.length > 1 ? root.replace(/\/+$/, "") : root;
    this.protectedPaths = Object.freeze([...(options.protectedPaths ?? DEFAULT_PROTECTED_PATHS)]);
    this.#names = new Set();
    this.#paths = [];
    for (const p of this.protectedPaths) {
      const segments = p.replaceAll("\\", "/").split("/").filter((s) => s !== "" && s !== ".");
      if (segments.length === 0) continue;
      if (segments.length === 1 && !p.includes("/")) this.#names.add(segments[0]!);
      else this.#paths.push(segments);
    }
  }

  /**
   * The protected path a relative path lies in, or null. graver's own
   * `.graver/` is not reported here (it is always refused).
   *
   * @param rel Relative posix path.
   * @returns The protected entry it matches, e.g. ".git", or null.
   */
  protectedBy(rel: string): string | null {
    const segments = rel === "" ? [] : rel.split("/");
    for (const seg of segments) if (this.#names.has(seg)) return seg;
    for (const p of this.#paths) {
      if (p.length <= segments.length && p.every((s, i) => segments[i] === s)) return p.join("/");
    }
    return null;
  }

  /**
   * Whether the entry `name` of the folder `dirRel` lies in a protected path, given that the folder itself does
   * not ({@linkcode Sandbox.protectedBy} of `dirRel` is null): a listing's check of each of its entries, which
   * looks at the folder's own segments once, not once per entry.
   *
   * @param dirRel Relative posix path of a folder no protected path holds ("" for the root).
   * @param name The entry's name.
   * @returns Whether `dirRel/name` lies in a protected path.
   */
  protectsEntry(dirRel: string, name: string): boolean {
    if (this.#names.has(name)) return true;
    return this.#paths.length > 0 && this.protectedBy(dirRel === "" ? name : `${dirRel}/${name}`) !== null;
  }

  /** Refuse a path inside graver's internals or a protected path. */
  #guard(path: string, segments: string[], how = "it is"): void {
    if (segments[0] === INTERNAL_DIR) {
      throw violation(
        path,
        `${how} inside "${INTERNAL_DIR}/", which holds graver's journal and is not editable`,
      );
    }
    const hit = this.protectedBy(segments.join("/"));
    if (hit === null) return;
    if (DEFAULT_PROTECTED_PATHS.includes(hit)) {
      throw violation(
        path,
        `${how} inside "${hit}", which is protected version-control metadata`,
        `Edit the project's files, not "${hit}"; use the version-control tool itself (e.g. git) for history, hooks and config`,
      );
    }
    throw violation(
      path,
      `${how} inside "${hit}", which this workspace protects`,
      `Edit files outside "${hit}"; the embedder listed it in protectedPaths`,
    );
  }

  /** Backend path for a relative path. */
  abs(rel: string): string {
    if (rel === "") return this.root;
    return this.root === "/" ? `/${rel}` : `${this.root}/${rel}`;
  }

  /** Relative path of a backend path inside the root (or under its real path), or null when outside. */
  relOf(abs: string): string | null {
    for (const root of [this.root, ...this.#aliases]) {
      if (abs === root) return "";
      const prefix = root === "/" ? "/" : `${root}/`;
      if (abs.startsWith(prefix)) return abs.slice(prefix.length);
    }
    return null;
  }

  /**
   * Learn the root's real path on the backend, when the root is reached through a symbolic link
   * (`/tmp/link` → `/tmp/real`), so that an absolute path or a link target under either names the same
   * file. Errors leave the sandbox as it was.
   *
   * @param fs The wrapped backend.
   * @returns The real path of the root.
   */
  async learnRealRoot(fs: BackendFs): Promise<string> {
    const real = await realPathOf(fs, this.root).catch(() => this.root);
    if (real !== this.root && !this.#aliases.includes(real)) this.#aliases.push(real);
    return real;
  }

  /**
   * Resolve a tool path without touching the backend: refuses NUL bytes,
   * drive letters, `..` escapes, absolute paths outside the root, graver's
   * internal directory and the protected paths.
   *
   * @param path The tool path.
   * @param options `allowRoot` accepts "" / "." as the root itself.
   * @returns The resolved path.
   */
  lexical(path: string, options: { allowRoot?: boolean } = {}): ResolvedPath {
    if (typeof path !== "string") throw violation(String(path), "it is not a string");
    if (path.includes("\0")) throw violation(path.replaceAll("\0", "\\0"), "it contains a NUL byte");
    if (/^[a-zA-Z]:/.test(path) || path.startsWith("\\\\")) {
      throw violation(path, "drive letters and UNC paths are not workspace paths");
    }
    const slashed = path.replaceAll("\\", "/");
    let segments: string[];
    if (slashed.startsWith("/")) {
      const parts = normalizeSegments(slashed.split("/"), path);
      const inside = this.relOf("/" + parts.join("/"));
      if (inside === null) {
        throw violation(path, `it is outside the workspace root "${this.root}"`);
      }
      segments = inside === "" ? [] : inside.split("/");
    } else {
      segments = normalizeSegments(slashed.split("/"), path);
    }
    this.#guard(path, segments);
    if (segments.length === 0 && !options.allowRoot) {
      throw violation(path, "it names the workspace root, not a file");
    }
    const rel = segments.join("/");
    return { rel, abs: this.abs(rel) };
  }

  /**
   * Resolve a tool path and follow symbolic links on the backend, refusing
   * any link whose target leaves the root.
   *
   * @param fs The wrapped backend.
   * @param path The tool path.
   * @param options `allowRoot` accepts the root itself.
   * @returns The real location inside the root.
   */
  async resolve(
    fs: BackendFs,
    path: string,
    options: { allowRoot?: boolean } = {},
  ): Promise<ResolvedPath> {
    const first = this.lexical(path, options);
    let segments = first.rel === "" ? [] : first.rel.split("/");
    let hops = 0;
    for (let i = 0; i < segments.length; i++) {
      const prefix = segments.slice(0, i + 1).join("/");
      const kind = await fs.kind(this.abs(prefix));
      if (kind === null) break; // the rest does not exist yet
      if (kind !== "symlink") {
        if (kind !== "dir" && i < segments.length - 1) throw notADirectory(path, prefix);
        continue;
      }
      if (++hops > MAX_LINK_HOPS) throw violation(path, "too many levels of symbolic links");
      const target = await fs.readlink(this.abs(prefix)).catch((err) => {
        const code = errnoCode(err);
        if (code === "ENOENT" || code === "EINVAL") return undefined; // no longer a link: look again
        throw err;
      });
      if (target === undefined) {
        i = -1;
        continue;
      }
      if (target === null) throw violation(path, `"${prefix}" is a symbolic link this backend cannot read`);
      const base = target.startsWith("/") ? target : `${this.abs(segments.slice(0, i).join("/"))}/${target}`;
      const inside = this.relOf("/" + normalizeLinkTarget(base));
      if (inside === null) {
        throw violation(
          path,
          `"${prefix}" is a symbolic link to "${target}", outside the workspace root`,
          "Edit files inside the workspace root only; symbolic links that leave it are refused",
        );
      }
      const rest = segments.slice(i + 1);
      segments = [...(inside === "" ? [] : inside.split("/")), ...rest];
      this.#guard(path, segments, "it resolves to a path");
      i = -1; // re-walk the new path from the top
    }
    const rel = segments.join("/");
    return { rel, abs: this.abs(rel) };
  }
}

/** The real path of an absolute backend path: each symbolic link on the way resolved (bounded hops). */
async function realPathOf(fs: BackendFs, path: string): Promise<string> {
  let segments = path.split("/").filter((s) => s !== "");
  let hops = 0;
  for (let i = 0; i < segments.length; i++) {
    const prefix = `/${segments.slice(0, i + 1).join("/")}`;
    const kind = await fs.kind(prefix);
    if (kind === null) break;
    if (kind !== "symlink") continue;
    const target = await fs.readlink(prefix);
    if (target === null || ++hops > MAX_LINK_HOPS) return path;
    const base = target.startsWith("/") ? target : `/${segments.slice(0, i).join("/")}/${target}`;
    segments = [...normalizeLinkTarget(base).split("/").filter((s) => s !== ""), ...segments.slice(i + 1)];
    i = -1;
  }
  return `/${segments.join("/")}`;
}

/** Normalise an absolute link target lexically (".." above "/" stays at "/"). */
function normalizeLinkTarget(abs: string): string {
  const out: string[] = [];
  for (const seg of abs.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return out.join("/");
}
