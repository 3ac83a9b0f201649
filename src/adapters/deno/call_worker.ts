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
  let worker: Worker | null = null;
  /** Resolves when the current worker's workspace is open (its start does not count against a call). */
  let ready: Promise<void> = Promise.resolve();
  let nextId = 1;
  let recycled = 0;
  const pending = new Map<number, Pending>();
  const resetListeners: (() => void)[] = [];

  const start = (): Worker => {
    const w = new Worker(new URL("./_call_worker_main.ts", import.meta.url), { type: "module" });
    let opened = () => {};
    ready = new Promise((resolve) => opened = resolve);
    w.onmessage = (event: MessageEvent) => {
      const m = event.data as {
        type: string;
        id: number;
        value?: unknown;
        message?: string;
        name?: string;
        attributes?: Attributes;
      };
      if (m.type === "ready") return opened();
      if (m.type === "event") return options.telemetry.event(m.name!, m.attributes ?? {});
      if (m.type === "counter") {
        return options.telemetry.counter(m.name!, m.value as number, m.attributes ?? {});
      }
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      clearTimeout(p.timer);
      if (m.type === "done") p.resolve(m.value);
      else p.reject(new Error(m.message));
    };
    w.postMessage({ type: "init", root: options.root, options: options.workspace ?? {} });
    return w;
  };

  /** End the worker: every call in it is answered `limit_exceeded`; the sessions are gone. */
  const recycle = (tool: string): void => {
    worker?.terminate();
    worker = null;
    recycled++;
    const err = new RecoverableError(
      "limit_exceeded",
      `Cannot answer the call: ${tool} ran past the ${options.timeoutMs} ms time limit and was stopped`,
      {
        hint:
          "The server restarted its worker: every session's ledger is empty (read again before editing), and a commit that was under way is finished or rolled back before the next call. Split the work into smaller calls",
        details: { time_limit_ms: options.timeoutMs, stopped: true },
      },
    );
    for (const [id, p] of pending) {
      clearTimeout(p.timer);
      pending.delete(id);
      p.reject(err);
    }
    options.telemetry.event("graver.worker.recycled", { tool, time_limit_ms: options.timeoutMs });
    for (const listener of resetListeners) listener();
  };

  const send = <T>(message: Record<string, unknown>, limit?: string): Promise<T> => {
    worker ??= start();
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      const p: Pending = { resolve: resolve as (v: unknown) => void, reject };
      if (limit !== undefined && options.timeoutMs > 0) {
        void ready.then(() => {
          if (pending.get(id) === p) p.timer = setTimeout(() => recycle(limit), options.timeoutMs);
        });
      }
      pending.set(id, p);
      worker!.postMessage({ ...message, type: "op", id });
    });
  };

  return {
    stopsCalls: options.timeoutMs > 0,
    get recycled() {
      return recycled;
    },
    call: (tool: string, args: unknown, callOptions: DispatchOptions) =>
      send<ToolResult>({ op: "call", tool, args, options: callOptions }, tool),
    hasSession: (session: string) => send<boolean>({ op: "has", session }),
    exportSession: (session: string) => send<LedgerData>({ op: "export", session }),
    importSession: (session: string, data: unknown) => send<void>({ op: "import", session, data }),
    forgetSession: (session: string) => send<void>({ op: "forget", session }),
    onReset: (listener: () => void) => void resetListeners.push(listener),
    close: () => {
      worker?.terminate();
      worker = null;
      for (const p of pending.values()) {
        clearTimeout(p.timer);
        p.reject(new Error("the server is stopping"));
      }
      pending.clear();
    },
  };
}
