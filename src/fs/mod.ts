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
export { BackendFs } from "./backend.ts";
export type { Backend, BackendStats, HeldDir } from "./backend.ts";
export { confineBackend } from "./beneath.ts";
export { createMapBackend } from "./map_backend.ts";
export { Checkpoints, CHECKPOINTS_DIR, DEFAULT_MAX_CHECKPOINTS } from "./checkpoints.ts";
export type {
  CheckpointChange,
  CheckpointInfo,
  CheckpointMeta,
  CheckpointRevert,
  CheckpointsOptions,
} from "./checkpoints.ts";
export { createMemoryBackend } from "./memory_backend.ts";
export { DEFAULT_PROTECTED_PATHS, INTERNAL_DIR, Sandbox } from "./sandbox.ts";
export type { ResolvedPath } from "./sandbox.ts";
export { lendSha256, shortVersion, versionMatches, versionOf, versionOfNow } from "./version.ts";
export type { SyncSha256, Version } from "./version.ts";
export { decodeText, dominantEol, encodeText, eolStyle, textShape } from "./text.ts";
export type { TextFile, TextShape } from "./text.ts";
export { Stage } from "./stage.ts";
export type { PendingChange, StagedFile } from "./stage.ts";
export { commitChanges, describeChanges, recoverJournal } from "./commit.ts";
export type { CommitOptions, CommittedChange, DescribeOptions, LandedChange } from "./commit.ts";
export type { LockOptions } from "./commit_lock.ts";
export type { ProcessIdentity } from "./process_identity.ts";
export { unifiedDiff } from "./unified_diff.ts";
export { walkProject } from "./walk.ts";
export type {
  LinkTarget,
  ListedKind,
  WalkEntry,
  WalkOptions,
  WalkResult,
  WalkSkipped,
  WalkSource,
} from "./walk.ts";
