/**
 * The staged, hash-guarded filesystem: backends, sandbox, versions, stage and
 * atomic commit.
 *
 * ```ts
 * import { versionOf } from "@graver/core/fs";
 * import assert from "node:assert/strict";
 *
 * assert.equal((await versionOf(new Uint8Array())).length, 64);
 * ```
 *
 * @module
 */
export * from "./backend.ts";
export * from "./commit.ts";
export * from "./commit_lock.ts";
export * from "./memory_backend.ts";
export * from "./sandbox.ts";
export * from "./stage.ts";
export * from "./text.ts";
export * from "./unified_diff.ts";
export * from "./version.ts";
export * from "./lines.ts";
