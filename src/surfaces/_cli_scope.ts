/**
 * Where `graver grep` and `graver sg` search, from the PATH their command line names, taken as ripgrep and
 * ast-grep take it: relative to the current folder or absolute, `./` and `..` allowed, anywhere. A PATH inside
 * the workspace root (`--root`, or the current folder) is searched there; one outside it, with no `--root`
 * given, is searched as a workspace of its own (the folder it names, or a file's folder). Found paths are
 * printed as those tools print them: under PATH as it was written (`./src/a.ts` for `./src`, `/tmp/x/a.ts`
 * for `/tmp/x`), the tool's own root-relative paths left to `--json`.
 *
 * @module
 */
import type { Backend } from "../fs/backend.ts";
import type { CliHost } from "./_cli_contract.ts";
import type { ToolResult } from "../tools/types.ts";
import { resolveHostPath, resolveRoot } from "./_cli_workspace.ts";

/** Where a command searches, and how it prints what it found. */
export interface CliScope {
  /** The `--root` to open: the one given, PATH's own folder when PATH lies outside it, or undefined (cwd). */
  root: string | undefined;
  /** The tool's `path`, relative to that root; undefined for the whole root. */
  path: string | undefined;
  /** A found path (relative to the root) as the command line named it. */
  shown(path: string): string;
}

/** PATH as written, without the slashes a shell's completion leaves at its end ("/" stays). */
function trimmed(path: string): string {
  const t = path.replace(/\/+$/, "");
  return t === "" ? "/" : t;
}

/** `under` + a root-relative path below `rel` (`rel` itself, or "" for the root, as `under` names it). */
function shownUnder(written: string, rel: string): (path: string) => string {
  const prefix = trimmed(written);
  if (rel === "") return (p) => (prefix === "/" ? `/${p}` : `${prefix}/${p}`);
  return (p) => (p === rel ? prefix : p.startsWith(`${rel}/`) ? prefix + p.slice(rel.length) : p);
}

/** The path of `abs` relative to `root`, or null when it is not `root` or under it. */
function relativeTo(root: string, abs: string): string | null {
  if (abs === root) return "";
  const prefix = root === "/" ? "/" : `${root}/`;
  return abs.startsWith(prefix) ? abs.slice(prefix.length) : null;
}

/**
 * The scope of a search command.
 *
 * @example A path under the current folder, written with `./`
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryBackend } from "@graver/core/fs";
 * import { cliScope } from "./_cli_scope.ts";
 *
 * const scope = await cliScope({ cwd: "/w", backend: createMemoryBackend({}) }, { path: "./src" });
 * assert.ok(!("problem" in scope));
 * assert.equal(scope.path, "src");
 * assert.equal(scope.shown("src/a.ts"), "./src/a.ts");
 * ```
 *
 * @param host The current folder, and the disk (to tell a file from a folder outside the root).
 * @param given The `--root` and PATH of the command line, if any.
 * @returns The scope, or the problem to report as a usage error.
 */
export async function cliScope(
  host: { cwd: string; backend: Pick<Backend, "stat"> },
  given: { root?: string | undefined; path?: string | undefined },
): Promise<CliScope | { problem: string }> {
  const { root, path } = given;
  if (path === undefined || path === "") return { root, path: undefined, shown: (p) => p };
  const rootAbs = resolveRoot(host.cwd, root);
  const abs = resolveHostPath(host.cwd, path);
  const rel = relativeTo(rootAbs, abs);
  if (rel !== null) return { root, path: rel === "" ? undefined : rel, shown: shownUnder(path, rel) };
  if (root !== undefined) {
    return {
      problem: `PATH "${path}" is outside the workspace root "${rootAbs}" (--root): name a path inside it, ` +
        "or a --root that holds it",
    };
  }
  const st = await host.backend.stat(abs).catch(() => null);
  if (st === null) return { problem: `PATH "${path}": no such file or folder (resolved to "${abs}")` };
  if (st.isDirectory()) return { root: abs, path: undefined, shown: shownUnder(path, "") };
  const slash = abs.lastIndexOf("/");
  const name = abs.slice(slash + 1);
  return { root: abs.slice(0, slash) || "/", path: name, shown: shownUnder(path, name) };
}

/**
 * The scopes of a command's PATHs, in the order written (each searched on its own, as rg and ast-grep search
 * theirs one after another), or the first problem; no PATH is the whole root.
 *
 * @param host The current folder, and the disk.
 * @param given The `--root`, and the PATHs of the command line.
 * @returns One scope per PATH (one for none), or the problem to report as a usage error.
 */
export async function cliScopes(
  host: { cwd: string; backend: Pick<Backend, "stat"> },
  given: { root?: string | undefined; paths: readonly string[] },
): Promise<CliScope[] | { problem: string }> {
  const scopes: CliScope[] = [];
  for (const path of given.paths.length === 0 ? [undefined] : given.paths) {
    const scope = await cliScope(host, { root: given.root, path });
    if ("problem" in scope) return scope;
    scopes.push(scope);
  }
  return scopes;
}

/**
 * Open each scope's workspace once: PATHs under one root share it (its read cache and parsed trees).
 *
 * @param open How the command opens a workspace on a root.
 * @returns The opener, remembering what it opened.
 */
export function openOnce<W>(
  open: (root: string | undefined) => Promise<W>,
): (root: string | undefined) => Promise<W> {
  const opened = new Map<string | undefined, Promise<W>>();
  return (root) => {
    let ws = opened.get(root);
    if (ws === undefined) opened.set(root, ws = open(root));
    return ws;
  };
}

/**
 * Whether a search's failure would fail the next PATH the same way (a refused pattern, glob or argument), so
 * the command stops there; a PATH's own failure (absent, outside the root, a special file) does not stop the
 * others, as rg goes on past a PATH it cannot read.
 *
 * @param result A PATH's result.
 * @returns True when the command should stop.
 */
export function failsEveryPath(result: ToolResult): boolean {
  return !result.ok && !["not_found", "sandbox_violation", "binary_file"].includes(result.error.code);
}

/**
 * A command's search over each of its scopes in turn, as rg and ast-grep search their PATHs: each with the
 * arguments and its scope's `path`, PATHs under one root sharing a workspace; a PATH's own failure does not
 * stop the others, a refused query (it would fail every PATH the same way) stops at the first.
 *
 * @param scopes The scopes ({@linkcode cliScopes}).
 * @param run `open`: how the command opens a workspace on a root; `args`: the tool's arguments but `path`;
 *   `search`: one scope's call and printing, answering its exit code and result.
 * @returns Each scope's exit code, in order (fewer when a refused query stopped the command).
 */
export async function searchEachScope<W>(
  scopes: readonly CliScope[],
  run: {
    open: (root: string | undefined) => Promise<W>;
    args: Record<string, unknown>;
    search: (scope: CliScope, call: { ws: W; args: Record<string, unknown> }) => Promise<ScopeAnswer>;
  },
): Promise<number[]> {
  const openRoot = openOnce(run.open);
  const codes: number[] = [];
  for (const scope of scopes) {
    const args = { ...run.args, ...(scope.path === undefined ? {} : { path: scope.path }) };
    const { code, result } = await run.search(scope, { ws: await openRoot(scope.root), args });
    codes.push(code);
    if (failsEveryPath(result)) break;
  }
  return codes;
}

/** What one scope's search answers {@linkcode searchEachScope}: its exit code, and the tool's result. */
export interface ScopeAnswer {
  /** 0 found, 1 none, 2 an error. */
  code: number;
  /** The call's result. */
  result: ToolResult;
}

/**
 * The exit code of a command over several PATHs, as rg and ast-grep give it: 2 when one failed, else 0 when one
 * found something, else 1.
 *
 * @param codes Each PATH's code.
 * @returns The command's.
 */
export function exitOfAll(codes: readonly number[]): number {
  return codes.includes(2) ? 2 : codes.includes(0) ? 0 : 1;
}

/**
 * Print a search result's paths as the command line named them: each `path` of its `matches`, `files` and
 * `counts` (a copy; the result itself is left as the tool gave it).
 *
 * @param data The result's data.
 * @param shown How a root-relative path is printed.
 * @returns The data with those paths rewritten.
 */
export function withShownPaths(
  data: Record<string, unknown>,
  shown: (path: string) => string,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...data };
  for (const key of ["matches", "files", "counts"]) {
    const list = data[key] as { path: string }[] | undefined;
    if (Array.isArray(list)) out[key] = list.map((entry) => ({ ...entry, path: shown(entry.path) }));
  }
  return out;
}

/**
 * Why a rewrite over several PATHs is refused, and what to run instead: one PATH keeps it one atomic commit, so
 * the PATHs become `-g` globs under their common root (a folder's `DIR/**`), or, under different roots, one
 * rewrite each.
 *
 * @param host The current folder, and the disk (to tell a folder from a file).
 * @param scopes The command's scopes (more than one).
 * @returns The usage problem, naming the command to run instead.
 */
export async function oneRewritePath(host: CliHost, scopes: CliScope[]): Promise<string> {
  const why = `a rewrite is one atomic change over one PATH (got ${scopes.length})`;
  if (new Set(scopes.map((s) => s.root)).size > 1) {
    return `${why}, and these lie under different roots: rewrite each`;
  }
  const root = resolveRoot(host.cwd, scopes[0]!.root);
  const globs: string[] = [];
  for (const { path } of scopes) {
    if (path === undefined) return `${why}: one of them is the whole root, so name none and pass -g globs`;
    const escaped = path.replace(/[*?[\]{}!\\]/g, (c) => `\\${c}`);
    const dir = await host.backend.stat(`${root}/${path}`).then((st) => st.isDirectory(), () => false);
    globs.push(dir ? `${escaped}/**` : escaped);
  }
  return `${why}: name their folder and narrow it with -g instead (graver sg -p … -r …${
    globs.map((g) => ` -g '${g}'`).join("")
  }${scopes[0]!.root === undefined ? "" : ` --root ${root}`})`;
}
