/**
 * Workspace = backend + sandbox + grammars + parse cache + telemetry. Every
 * tool call goes through {@linkcode Workspace.call}, i.e. `dispatch`.
 *
 * @module
 */
import { Compass } from "./compass/compass.ts";
import { loadPersona } from "./compass/persona.ts";
import type { CompassSetting } from "./compass/types.ts";
import { type Backend, BackendFs } from "./fs/backend.ts";
import { recoverJournal } from "./fs/commit.ts";
import { journalPresent } from "./fs/journal.ts";
import { RecoverableError } from "./errors.ts";
import { describeHolder, type LockOptions, lockPath } from "./fs/commit_lock.ts";
import { Checkpoints } from "./fs/checkpoints.ts";
import { INTERNAL_DIR, Sandbox } from "./fs/sandbox.ts";
import { Grammars, type WasmLoader } from "./syntax/grammars.ts";
import { TreeCache } from "./syntax/trees.ts";
import type { MatchPool } from "./structural/search/match_pool.ts";
import type { SyntaxGuardMode } from "./syntax/types.ts";
import { NOOP_TELEMETRY, type TelemetrySink } from "./telemetry.ts";
import { closeReadCache, forgoReadCache, readCacheOf } from "./project/session_caches.ts";
import { checkpointStep } from "./tools/checkpoint_step.ts";
import { compassStep } from "./tools/compass_step.ts";
import { definitionGate, type DefinitionGateMode } from "./tools/definition_gate_step.ts";
import { dispatch, type DispatchOptions } from "./tools/dispatch.ts";
import { type EditStream, type EditStreamOptions, openEditStream } from "./tools/edit_stream.ts";
import { Stage } from "./fs/stage.ts";
import type { PipelineStep, ReadBudget, ToolResult } from "./tools/types.ts";
import { DEFAULT_RESULT_CHARS } from "./tools/result_fit.ts";
import {
  createReadGuard,
  type ReadGuard,
  type ReadGuardMode,
  type ReadGuardOptions,
} from "./guards/read_guard.ts";
import type { Ledger, LedgerData } from "./guards/ledger.ts";

export type { SyntaxGuardMode } from "./syntax/types.ts";

/**
 * How long a call waits for another process's commit in flight before it
 * runs anyway and says the tree is mid-commit (a commit takes milliseconds;
 * a holder that died is recognised at once and its journal recovered).
 */
const MID_COMMIT_WAIT_MS = 500;

/**
 * Run a journal check; a store that fails to answer (an I/O error) does not fail the call, which meets the
 * same store itself: the check's failure becomes a warning.
 */
async function journalWarnings(check: () => Promise<string[]>): Promise<string[]> {
  try {
    return await check();
  } catch (err) {
    return [
      `Cannot check "${INTERNAL_DIR}/journal.json" for a commit in flight: ${
        err instanceof Error ? err.message : err
      }`,
    ];
  }
}

/** Options for {@linkcode createWorkspace}. */
export interface WorkspaceOptions {
  /** Where bytes live (fs.promises-shaped or already wrapped). */
  backend: Backend | BackendFs;
  /** Backend path of the workspace root (default "/"). */
  root?: string;
  /** Wasm source for grammars; without it, syntax features answer `unsupported_language`. */
  wasm?: WasmLoader;
  /** A shared grammar registry (overrides `wasm`). */
  grammars?: Grammars;
  /**
   * Workers that parse and match the files of structural searches on other cores (an adapter's
   * `createMatchPool()`, for a long-lived process); without it, searches parse on this thread. The workspace
   * does not end it: its owner calls `close()` (idle workers end on their own).
   */
  matchPool?: MatchPool;
  /** Counters and events sink. */
  telemetry?: TelemetrySink;
  /** Syntax guard at commit (default "refuse"). */
  syntaxGuard?: SyntaxGuardMode;
  /**
   * The largest file parsed, in UTF-8 bytes (default 8 MiB, `DEFAULT_MAX_PARSE_BYTES`): outline, symbol
   * tools, refactors and the syntax guard refuse a larger one with `limit_exceeded` before parsing it;
   * read_file ranges and text edits with `syntax_guard: "off"` still work on it.
   */
  maxParseBytes?: number;
  /**
   * Most characters of source whose trees the parse cache holds (default 8 Mi, `DEFAULT_MAX_TREE_CHARS`: about
   * 160 MiB of wasm memory); the least recently used trees go first.
   */
  maxTreeChars?: number;
  /** Commit-lock timing (stale after, wait for). */
  lock?: LockOptions;
  /** Steps plugged into dispatch before the handler (`route`, then `guard`), in order. */
  steps?: readonly PipelineStep[];
  /**
   * Let the low-confidence fuzzy tier of apply_edits and edit_file write when a call does not pass `fuzzy`
   * (default false: a block only it places fails as `no_match`, the window as did-you-mean).
   */
  fuzzy?: boolean;
  /**
   * Paths no tool may read, write, delete or move into or out of (default
   * `DEFAULT_PROTECTED_PATHS`: `.git`, `.hg`, `.svn`, `.jj`, `.bzr`
   * at any depth). A name without a slash matches a path segment at any depth;
   * a path with a slash matches from the root. graver's `.graver/` is always refused.
   */
  protectedPaths?: readonly string[];
  /**
   * The compass router (docs/compass.md): `false`, `{ enabled: false }` or `{ mode: "off" }` turn it off;
   * `{ mode: "suggest" }` (the default once configured) adds a reminder naming the structural tool;
   * `{ mode: "rewrite" }` swaps a provably equivalent edit_file for edit_safe_text_patch. Absent, it
   * suggests only for calls that name a session. `persona` names `.graver/personas/NAME.json` or is one.
   */
  compass?: CompassSetting;
  // --- read ledger and edit guard ---
  /**
   * The read guard for calls of a named session (`call(…, { session })`):
   * "refuse" (default), "warn" or "off", or options (mode, scoped auto-expand
   * and its bounds). Calls without a session are never guarded.
   */
  readGuard?: ReadGuardMode | ReadGuardOptions;
  /** The size cap of one read_file answer (default 15,000 tokens, counted as characters / 4). */
  readBudget?: ReadBudget;
  /**
   * Most characters one tool result holds as JSON (default 100,000): longer diffs and texts are shortened,
   * saying so and how to get the rest (`src/tools/result_fit.ts`).
   */
  resultChars?: number;
  /**
   * The definition gate (docs/definition-gate.md) for calls of a named session: "refuse" (default),
   * "warn" or "off". Calls without a session are gated only when they ask (`call(…, { gate })`).
   */
  definitionGate?: DefinitionGateMode;
  /**
   * Record every applied commit as a checkpoint in a shadow git repository under
   * `.graver/checkpoints/` (docs/checkpoints.md), for checkpoint_undo and checkpoint_restore
   * (default false). The user's own `.git` is never touched.
   */
  checkpoints?: boolean;
  /**
   * Checkpoints kept at most (default 200): past it the oldest are pruned, down to nine tenths of it at
   * once, objects and all (docs/checkpoints.md).
   */
  maxCheckpoints?: number;
  /**
   * Let searches watch the tree for changes where the backend can (`Backend.watchFolders`: the disk in Deno), from
   * the end of a root's first search on, so that a later search over an unchanged tree stats nothing
   * (docs/search.md; default true). A process that makes one call passes false: it would pay for a watch it
   * never uses. `close()` stops the watch; it never keeps a process alive.
   */
  watch?: boolean;
  /**
   * Keep what searches read for the next search (the read cache, docs/search.md; default true). A process that
   * makes one call passes false: its search then lists and reads the tree without a stat of every folder and
   * file, which only a next search would use (and there is no watch either).
   */
  readCache?: boolean;
}

/** An open workspace. Create with {@linkcode createWorkspace}. */
export class Workspace {
  /** Wrapped backend. */
  readonly fs: BackendFs;
  /** Root mapping. */
  readonly sandbox: Sandbox;
  /** Language registry, or null when no wasm loader was given. */
  readonly grammars: Grammars | null;
  /** Parse cache, or null without grammars. */
  readonly trees: TreeCache | null;
  /** The structural searches' worker pool, or null (they parse on this thread). */
  readonly matchPool: MatchPool | null;
  /** Telemetry sink. */
  readonly telemetry: TelemetrySink;
  /** Syntax guard mode. */
  readonly syntaxGuard: SyntaxGuardMode;
  /** Commit-lock timing. */
  readonly lock: LockOptions;
  /** Steps plugged into dispatch: the embedder's, then the read guard. */
  readonly steps: readonly PipelineStep[];
  /** Whether the fuzzy tier may write when a call does not say. */
  readonly fuzzy: boolean;
  /** The compass: reminder providers, router decisions (`stats()`), session-start reminders. */
  readonly compass: Compass;
  /** The read guard step (last of {@linkcode Workspace.steps}) and the session ledgers it keeps. */
  readonly readGuard: ReadGuard;
  /** The size cap of one read_file answer. */
  readonly readBudget: ReadBudget;
  /** Most characters one tool result holds as JSON. */
  readonly resultChars: number;
  /** The shadow checkpoint repository (null unless the `checkpoints` option is on). */
  readonly checkpoints: Checkpoints | null;
  /**
   * What opening did with an interrupted journal ("busy": another process was committing; "refused": a
   * journal graver did not write here, left alone: reads warn, writes are refused until it is removed).
   */
  recovered: "none" | "busy" | "rolled_back" | "finished" | "refused" = "none";

  /**
   * Open a workspace (prefer {@linkcode createWorkspace}, which also recovers an interrupted commit).
   *
   * @param options See {@linkcode WorkspaceOptions}.
   */
  constructor(options: WorkspaceOptions) {
    this.fs = BackendFs.wrap(options.backend);
    if (options.readCache === false) forgoReadCache(this.fs);
    else if (options.watch === false) readCacheOf(this.fs, { watchAfter: Infinity });
    this.sandbox = new Sandbox(
      options.root ?? "/",
      options.protectedPaths ? { protectedPaths: options.protectedPaths } : {},
    );
    this.grammars = options.grammars ?? (options.wasm ? new Grammars(options.wasm) : null);
    this.matchPool = options.matchPool ?? null;
    this.trees = this.grammars
      ? new TreeCache(this.grammars, {
        ...(options.maxParseBytes !== undefined ? { maxParseBytes: options.maxParseBytes } : {}),
        ...(options.maxTreeChars !== undefined ? { maxTreeChars: options.maxTreeChars } : {}),
      })
      : null;
    this.telemetry = options.telemetry ?? NOOP_TELEMETRY;
    this.syntaxGuard = options.syntaxGuard ?? "refuse";
    this.lock = options.lock ?? {};
    const persona = options.compass ? options.compass.persona : undefined;
    this.compass = new Compass({
      setting: options.compass,
      persona: typeof persona === "object" ? persona : null,
      telemetry: this.telemetry,
    });
    this.fuzzy = options.fuzzy ?? false;
    const guard = options.readGuard;
    this.readGuard = createReadGuard(typeof guard === "string" ? { mode: guard } : guard ?? {});
    // The embedder's steps (its pre-call hooks) first, then the compass router (before every guard), the
    // definition gate, then the read guard (a gate refusal spends no auto-expand).
    this.steps = [
      ...options.steps ?? [],
      compassStep(this.compass),
      definitionGate({ mode: options.definitionGate ?? "refuse", sessionsOnly: true }),
      this.readGuard,
    ];
    this.checkpoints = options.checkpoints
      ? new Checkpoints(this.fs, this.sandbox.root, { max: options.maxCheckpoints })
      : null;
    if (this.checkpoints) this.steps = [...this.steps, checkpointStep()];
    this.readBudget = options.readBudget ?? {};
    this.resultChars = options.resultChars ?? DEFAULT_RESULT_CHARS;
  }

  /**
   * The live ledger of a session: what it has seen of each file
   * (`view(path)`), `markEvicted()` after a context compaction.
   *
   * @param session Session id.
   * @returns Its ledger (created empty on first use).
   */
  ledger(session: string): Ledger {
    return this.readGuard.ledgers.get(session);
  }

  /**
   * Serialise a session's ledger, to resume it later or hand it to a sub-agent.
   *
   * @param session Session id.
   * @returns JSON-safe data for {@linkcode Workspace.importSession}.
   */
  exportSession(session: string): LedgerData {
    return this.readGuard.ledgers.export(session);
  }

  /**
   * Restore a session's ledger (replacing what this workspace holds for it).
   *
   * @param session Session id.
   * @param data From {@linkcode Workspace.exportSession}.
   * @throws TypeError when `data` is not a graver ledger.
   */
  importSession(session: string, data: unknown): void {
    this.readGuard.ledgers.import(session, data);
  }

  /**
   * Forget a session: its ledger and the compass's state for it. A server
   * calls this when it drops a session (one-shot calls, idle or surplus
   * sessions); a later call of the same id starts empty.
   *
   * @param session Session id.
   */
  forgetSession(session: string): void {
    this.readGuard.ledgers.delete(session);
    this.compass.forget(session);
  }

  /** How many session ledgers this workspace holds (the compass's per-session state: `compass.sessions`). */
  get sessionCount(): number {
    return this.readGuard.ledgers.size;
  }

  /** The calls in flight, one after another (see {@linkcode Workspace.call}). */
  #queue: Promise<void> = Promise.resolve();

  /**
   * Run one tool call through dispatch. Calls made together run one after
   * another, in the order they were made.
   *
   * @param tool Tool name from the catalogue.
   * @param args The tool's single args object.
   * @param options Session id and dry run.
   * @returns One JSON-serialisable result.
   */
  call(tool: string, args: unknown, options: DispatchOptions = {}): Promise<ToolResult> {
    // One call at a time: calls share the parse cache, whose trees one call may re-parse (and free) while
    // another still walks them. Calls made together run in the order they were made.
    const run = async () => {
      const warnings = await journalWarnings(() => this.#settleJournal());
      const result = await dispatch(this, { tool, args }, options);
      // A commit of another process that began while this call read: what it read may not last.
      if (warnings.length === 0 && result.ok && result.status !== "applied") {
        warnings.push(...await journalWarnings(() => this.#midCommit()));
      }
      return warnings.length > 0 && result.ok
        ? { ...result, warnings: [...result.warnings, ...warnings] }
        : result;
    };
    const result = this.#queue.then(run, run);
    this.#queue = result.then(() => {}, () => {});
    return result;
  }

  /**
   * Before a call: a journal under `.graver/` means a commit is in flight or crashed. A crashed one (its
   * writer is gone) is finished or rolled back first; a live one is waited for up to
   * {@linkcode MID_COMMIT_WAIT_MS}, after which the call runs and its result says the tree is mid-commit.
   * A journal graver cannot trust is left alone and named in `warnings` (the commit refuses writes).
   */
  async #settleJournal(): Promise<string[]> {
    if (!(await journalPresent(this.fs, this.sandbox))) return [];
    try {
      const outcome = await recoverJournal(this.fs, this.sandbox, {
        ...this.lock,
        waitMs: MID_COMMIT_WAIT_MS,
      });
      if (outcome === "busy") return await this.#midCommit();
      if (outcome !== "none") this.telemetry.event("graver.journal.recovered", { outcome });
      return [];
    } catch (err) {
      if (!(err instanceof RecoverableError)) throw err;
      return [`${err.message}. ${err.hint}`];
    }
  }

  /** The warning for a tree another process is committing to right now (none when no journal is there). */
  async #midCommit(): Promise<string[]> {
    if (!(await journalPresent(this.fs, this.sandbox))) return [];
    const holder = await describeHolder(this.fs, this.sandbox) ?? "another graver process";
    return [
      `The tree is mid-commit: ${holder} holds "${lockPath(this.sandbox)}" and has a journal open; ` +
      "what this call read may change when that commit lands or rolls back. Call again once it is done",
    ];
  }

  /**
   * Open an edit stream: feed a model's edit text as it is generated, read
   * each block's placement (or refusal) as it closes, and commit all or
   * nothing at `end()` through {@linkcode Workspace.call}.
   *
   * @param options The tool (`apply_edits`, `apply_patch`, `edit_file`, the text editor), its other
   * arguments, and `stopOnRefusal`.
   * @returns The open stream.
   *
   * @example Stream SEARCH/REPLACE blocks into an in-memory workspace
   * ```ts
   * import { createMemoryBackend, createWorkspace } from "@graver/core";
   * import assert from "node:assert/strict";
   *
   * const ws = await createWorkspace({ backend: createMemoryBackend({ "a.txt": "one\ntwo\n" }) });
   * const stream = ws.stream({ tool: "apply_edits" });
   * for (const chunk of ["a.txt\n<<<<<<< SEA", "RCH\ntwo\n=======\n2\n>>>>>>> REPLACE\n"]) {
   *   await stream.write(chunk);
   * }
   * const result = await stream.end();
   * assert.equal(result.ok, true);
   * ```
   */
  stream(options: EditStreamOptions): EditStream {
    return openEditStream({
      call: (tool, args, dispatchOptions) => this.call(tool, args, dispatchOptions),
      openStage: () => new Stage(this.fs, this.sandbox),
      fuzzy: this.fuzzy,
    }, options);
  }

  /**
   * Free the parse trees this workspace caches in wasm memory (the garbage
   * collector cannot). A dropped workspace frees them when it is collected;
   * call this in servers that open a workspace per session to free them at
   * once. It also stops the watch its searches keep of the tree (a backend
   * with `watchFolders`). It waits for the calls already made; the workspace
   * stays usable: later calls parse (and watch) again.
   *
   * @returns When the trees are freed.
   */
  close(): Promise<void> {
    const done = this.#queue.then(async () => {
      this.trees?.clear();
      await closeReadCache(this.fs); // its watches of the tree, if a search began any
    });
    this.#queue = done;
    return done;
  }
}

/**
 * Open a workspace: wrap the backend, finish or roll back an interrupted
 * commit journal, and return the workspace.
 *
 * @param options Backend, root, wasm loader, telemetry.
 * @returns The open workspace.
 *
 * @example Read, stage and commit on the in-memory backend
 * ```ts
 * import { createMemoryBackend, createWorkspace } from "@graver/core";
 * import assert from "node:assert/strict";
 *
 * const ws = await createWorkspace({ backend: createMemoryBackend({ "/a.txt": "one\n" }) });
 * const read = await ws.call("read_file", { path: "a.txt" });
 * assert.ok(read.ok);
 * const res = await ws.call("write_file", {
 *   path: "a.txt",
 *   content: "two\n",
 *   expected_version: read.data.version,
 * });
 * assert.ok(res.ok && res.status === "applied");
 * assert.match(res.changes[0]!.diff, /^-one\n\+two$/m);
 * ```
 */
export async function createWorkspace(options: WorkspaceOptions): Promise<Workspace> {
  const ws = new Workspace(options);
  await ws.sandbox.learnRealRoot(ws.fs); // a root reached through a link: absolute paths under its real path too
  const persona = options.compass ? options.compass.persona : undefined;
  if (typeof persona === "string") ws.compass.usePersona(await loadPersona(ws.fs, ws.sandbox, persona));
  try {
    ws.recovered = await recoverJournal(ws.fs, ws.sandbox, { ...ws.lock, waitMs: 0 });
  } catch (err) {
    // A journal graver did not write here (or cannot trust): left alone; calls say so until it is removed.
    if (!(err instanceof RecoverableError)) throw err;
    ws.recovered = "refused";
  }
  if (ws.recovered !== "none") {
    ws.telemetry.event("graver.journal.recovered", { outcome: ws.recovered });
  }
  return ws;
}
