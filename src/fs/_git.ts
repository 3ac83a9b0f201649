/**
 * isomorphic-git, imported on first use. Only checkpoints need it, and they
 * are off unless asked for: a workspace without them never loads its 270 KB
 * of JS (with pako and Buffer), and a bundle that splits code (the workerd
 * worker's) keeps it in a chunk the worker never evaluates.
 *
 * @module
 */
import type * as IsomorphicGit from "isomorphic-git";

/** The isomorphic-git functions graver calls (each async, so a lazy wrapper keeps its type). */
export type Git = Pick<
  typeof IsomorphicGit,
  | "hashBlob"
  | "init"
  | "log"
  | "readBlob"
  | "readCommit"
  | "readTree"
  | "resolveRef"
  | "writeBlob"
  | "writeCommit"
  | "writeRef"
  | "writeTree"
>;

let loaded: Promise<typeof IsomorphicGit> | undefined;

/**
 * isomorphic-git's functions, each importing the package on its first call.
 *
 * @example
 * ```ts
 * import { git } from "./_git.ts";
 * import assert from "node:assert/strict";
 *
 * const { oid } = await git.hashBlob({ object: new TextEncoder().encode("hi\n") });
 * assert.equal(oid, "45b983be36b73c0788dc9cbcb76cbb80fc7bb057");
 * ```
 */
export const git: Git = new Proxy({} as Git, {
  get: (_target, name: string) => async (...args: unknown[]) => {
    // deno-lint-ignore no-explicit-any
    const mod = (await (loaded ??= import("isomorphic-git"))) as any;
    return await mod[name](...args);
  },
});
