/**
 * A {@linkcode CallRunner} that runs tool calls in a Deno worker holding its
 * own workspace on the same root (`graver serve --isolate`). The server's
 * event loop only passes messages, so it keeps answering (health, events,
 * other routes) while a call works; and a call still running at the time
 * limit is stopped for real: the worker is ended, every call waiting in it
 * is answered `limit_exceeded`, every session's ledger is lost (the session
 * table is told), and the next call starts a fresh worker, whose workspace
 * finishes or rolls back a commit the ended one left half-done (the
 * journal). Without it a call stuck in synchronous work blocks the server
 * until it ends, and a time limit cannot fire.
 *
 * @module
 */
import { RecoverableError } from "../../errors.ts";
import type { LedgerData } from "../../guards/ledger.ts";
import type { CallRunner } from "../../surfaces/call_runner.ts";
import type { Attributes, TelemetrySink } from "../../telemetry.ts";
import type { DispatchOptions } from "../../tools/dispatch.ts";
import type { ToolResult } from "../../tools/types.ts";
import type { WorkspaceOptions } from "../../workspace.ts";

/** Options of {@linkcode createWorkerRunner}. */
export interface WorkerRunnerOptions {
  /** The workspace root (a disk path). */
  root: string;
  /** The worker's workspace options that can be sent (policies: readGuard, definitionGate, compass, …). */
  workspace?: Partial<
    Omit<WorkspaceOptions, "backend" | "root" | "wasm" | "grammars" | "telemetry" | "steps">
  >;
  /** Stop a call still running after this many ms (0: never). */
  timeoutMs: number;
  /** Where the worker's counters and events go (the server's event feed). */
  telemetry: TelemetrySink;
}

/** A worker's runner; `close()` ends the worker. */
export interface WorkerRunner extends CallRunner {
  /** How many times a worker was ended at the time limit and replaced. */
  readonly recycled: number;
  /** End the worker. */
  close(): void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * Run calls in a worker, stopping one at the time limit.
 *
 * @example
 * ```ts ignore
 * const runner = createWorkerRunner({ root: "/srv/project", timeoutMs: 60_000, telemetry: events });
 * const surface = createHttpApp({ workspace, events, runner });
 * ```
 *
 * @param options Root, policies, time limit, telemetry.
 * @returns The runner.
 */
export function createWorkerRunner(options: WorkerRunnerOptions): WorkerRunner {
  const host = new WorkerHost(options);
  return {
    stopsCalls: options.timeoutMs > 0,
    get recycled() {
      return host.recycled;
    },
    call: (tool: string, args: unknown, callOptions: DispatchOptions) =>
      host.send<ToolResult>({ op: "call", tool, args, options: callOptions }, tool),
    hasSession: (session: string) => host.send<boolean>({ op: "has", session }),
    exportSession: (session: string) => host.send<LedgerData>({ op: "export", session }),
    importSession: (session: string, data: unknown) => host.send<void>({ op: "import", session, data }),
    forgetSession: (session: string) => host.send<void>({ op: "forget", session }),
    onReset: (listener: () => void) => void host.resetListeners.push(listener),
    close: () => host.close(),
  };
}

/** A message from the worker: ready, telemetry, or the answer to one operation. */
interface WorkerMessage {
  type: string;
  id: number;
  value?: unknown;
  message?: string;
  name?: string;
  attributes?: Attributes;
}

/** The worker of a runner, the operations waiting in it, and how it is replaced at the time limit. */
class WorkerHost {
  worker: Worker | null = null;
  /** Resolves when the current worker's workspace is open (its start does not count against a call). */
  ready: Promise<void> = Promise.resolve();
  nextId = 1;
  recycled = 0;
  readonly pending = new Map<number, Pending>();
  readonly resetListeners: (() => void)[] = [];

  constructor(readonly options: WorkerRunnerOptions) {}

  /** Start a worker and ask it to open its workspace. */
  start(): Worker {
    const w = new Worker(new URL("./_call_worker_main.ts", import.meta.url), { type: "module" });
    let opened = () => {};
    this.ready = new Promise((resolve) => opened = resolve);
    w.onmessage = (event: MessageEvent) => this.receive(event.data as WorkerMessage, opened);
    w.postMessage({ type: "init", root: this.options.root, options: this.options.workspace ?? {} });
    return w;
  }

  /** One message from the worker: the workspace is open, telemetry to pass on, or an operation's answer. */
  receive(m: WorkerMessage, opened: () => void): void {
    const telemetry = this.options.telemetry;
    if (m.type === "ready") return opened();
    if (m.type === "event") return telemetry.event(m.name!, m.attributes ?? {});
    if (m.type === "counter") return telemetry.counter(m.name!, m.value as number, m.attributes ?? {});
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    clearTimeout(p.timer);
    if (m.type === "done") p.resolve(m.value);
    else p.reject(new Error(m.message));
  }

  /** End the worker: every call in it is answered `limit_exceeded`; the sessions are gone. */
  recycle(tool: string): void {
    const timeoutMs = this.options.timeoutMs;
    this.worker?.terminate();
    this.worker = null;
    this.recycled++;
    const err = new RecoverableError(
      "limit_exceeded",
      `Cannot answer the call: ${tool} ran past the ${timeoutMs} ms time limit and was stopped`,
      {
        hint:
          "The server restarted its worker: every session's ledger is empty (read again before editing), and a commit that was under way is finished or rolled back before the next call. Split the work into smaller calls",
        details: { time_limit_ms: timeoutMs, stopped: true },
      },
    );
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      this.pending.delete(id);
      p.reject(err);
    }
    this.options.telemetry.event("graver.worker.recycled", { tool, time_limit_ms: timeoutMs });
    for (const listener of this.resetListeners) listener();
  }

  /** Send an operation (starting a worker if none runs); a call (`limit`: its tool) is timed once the worker is ready. */
  send<T>(message: Record<string, unknown>, limit?: string): Promise<T> {
    const worker = this.worker ??= this.start();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const p: Pending = { resolve: resolve as (v: unknown) => void, reject };
      const timeoutMs = this.options.timeoutMs;
      if (limit !== undefined && timeoutMs > 0) {
        void this.ready.then(() => {
          if (this.pending.get(id) === p) p.timer = setTimeout(() => this.recycle(limit), timeoutMs);
        });
      }
      this.pending.set(id, p);
      worker.postMessage({ ...message, type: "op", id });
    });
  }

  /** End the worker; every operation waiting is refused. */
  close(): void {
    this.worker?.terminate();
    this.worker = null;
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(new Error("the server is stopping"));
    }
    this.pending.clear();
  }
}
