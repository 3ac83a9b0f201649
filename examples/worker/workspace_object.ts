/**
 * One workspace per Durable Object: the object owns a graver workspace whose
 * files persist in the object's storage (through
 * {@linkcode createStorageBackend}), and serves graver's HTTP API over it.
 * Cloudflare runs one instance of an object at a time, and graver's commit
 * queue serialises the commits of its one workspace, so two requests to the
 * same object never interleave a compare-and-swap: the second sees the first's
 * result (a stale `expected_version` is refused `stale_base`). Different
 * objects are different workspaces and scale apart: the path past one machine.
 *
 * @module
 */
import { createWorker, type GraverWorker, type WorkerEnv } from "../../src/adapters/workerd/worker.ts";
import type { ModuleWasmOptions } from "../../src/adapters/workerd/mod.ts";
import { createStorageBackend, type KeyValueStore } from "./storage_backend.ts";

/** What a Durable Object's constructor receives as its state (the parts used here). */
export interface DurableObjectStateLike {
  /** The object's transactional storage: a {@linkcode KeyValueStore} as it is. */
  storage: KeyValueStore;
  /** Hold other events until `fn` settles (the first load of the files). */
  blockConcurrencyWhile<T>(fn: () => Promise<T>): Promise<T>;
}

/**
 * The Durable Object class, over the wasm modules the worker imported.
 *
 * @param wasm The tree-sitter runtime and grammar modules.
 * @returns A class to export from the worker module under the name the wrangler config binds.
 */
export function workspaceObjectClass(wasm: ModuleWasmOptions): new (
  state: DurableObjectStateLike,
  env: WorkerEnv,
) => { fetch(request: Request): Promise<Response> } {
  return class WorkspaceObject {
    readonly #env: WorkerEnv;
    readonly #worker: GraverWorker;

    constructor(state: DurableObjectStateLike, env: WorkerEnv) {
      this.#env = env;
      const backend = createStorageBackend(state.storage);
      // Load the files before the first request is let in.
      void state.blockConcurrencyWhile(() => backend.ready());
      this.#worker = createWorker({ wasm, backend });
    }

    /** Serve one request of graver's HTTP API (`/v1/...`) on this object's workspace. */
    fetch(request: Request): Promise<Response> {
      return this.#worker.fetch(request, this.#env);
    }
  };
}
