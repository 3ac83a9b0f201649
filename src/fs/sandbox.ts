/**
 * Sandbox: maps tool paths (relative to the workspace root) to backend paths,
 * and refuses everything that would leave the root or touch graver's
 * internals.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import type { BackendFs } from "./backend.ts";

/** Directory under the root where graver keeps its journal and temp files. */
export const INTERNAL_DIR = ".graver";

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

  /** @param root Absolute posix backend path of the root. */
  constructor(root: string) {
    if (!root.startsWith("/")) throw new TypeError(`Cannot use root "${root}": must be absolute`);
    this.root = root.length > 1 ? root.replace(/\/+$/, "") : root;
  }

  /** Backend path for a relative path. */
  abs(rel: string): string {
    if (rel === "") return this.root;
    return this.root === "/" ? `/${rel}` : `${this.root}/${rel}`;
  }

  /** Relative path of a backend path inside the root, or null when outside. */
  relOf(abs: string): string | null {
    if (abs === this.root) return "";
    const prefix = this.root === "/" ? "/" : `${this.root}/`;
    return abs.startsWith(prefix) ? abs.slice(prefix.length) : null;
  }

  /**
   * Resolve a tool path without touching the backend: refuses NUL bytes,
   * drive letters, `..` escapes, absolute paths outside the root and graver's
   * internal directory.
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
    if (segments[0] === INTERNAL_DIR) {
      throw violation(path, `"${INTERNAL_DIR}/" holds graver's journal and is not editable`);
    }
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
      if (kind !== "symlink") continue;
      if (++hops > MAX_LINK_HOPS) throw violation(path, "too many levels of symbolic links");
      const target = await fs.readlink(this.abs(prefix));
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
      if (segments[0] === INTERNAL_DIR) throw violation(path, `it resolves into "${INTERNAL_DIR}/"`);
      i = -1; // re-walk the new path from the top
    }
    const rel = segments.join("/");
    return { rel, abs: this.abs(rel) };
  }
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
