/**
 * graver's HTTP tool API as a Cloudflare Worker module. Two ways to hold files:
 *
 * - `/objects/<name>/v1/...`: the workspace `<name>`, one Durable Object each
 *   (binding `WORKSPACES`, class `WorkspaceObject`); its files
 *   persist in the object's storage and its commits are serialised.
 * - `/v1/...`: a scratch workspace in the isolate's memory, seeded with a
 *   sample file; it is gone when the isolate is.
 *
 * Every request but `/v1/health` carries `Authorization: Bearer <GRAVER_TOKEN>`
 * (a secret of 16+ characters). The wasm is imported as modules (workerd
 * cannot compile wasm from bytes): `build.ts` writes the entry that imports
 * them and hands them to {@linkcode graverWorker} and
 * {@linkcode workspaceObjectClass}, bundles it, and copies the wasm next to
 * the bundle (see README.md).
 *
 * @module
 */
import { createWorker, type GraverWorker, type WorkerEnv } from "../../src/adapters/workerd/worker.ts";
import type { ModuleWasmOptions } from "../../src/adapters/workerd/mod.ts";

/** A Durable Object namespace binding (the parts used here). */
export interface DurableObjectNamespaceLike {
  /** The id of the object named `name`. */
  idFromName(name: string): unknown;
  /** A stub to send requests to. */
  get(id: unknown): { fetch(request: Request): Promise<Response> };
}

/** The worker's bindings. */
export interface Env extends WorkerEnv {
  /** The Durable Object namespace of the workspaces (wrangler.toml `durable_objects`). */
  WORKSPACES?: DurableObjectNamespaceLike;
}

/** The sample file the scratch workspace starts with. */
export const SAMPLE: Record<string, string> = {
  "/src/hello.ts": 'export function hello(name: string): string {\n  return "hi " + name;\n}\n',
};

/** `/objects/<name>/<rest>`: the workspace's name and the API path. */
const OBJECT_PATH = /^\/objects\/([A-Za-z0-9._-]{1,64})(\/.*)$/;

/**
 * The worker's fetch handler: `/objects/<name>/...` goes to that workspace's
 * Durable Object, anything else to the scratch workspace in memory.
 *
 * @param wasm The runtime and grammar modules the entry imported.
 * @returns The module's default export.
 */
export function graverWorker(
  wasm: ModuleWasmOptions,
): { fetch(request: Request, env: Env): Promise<Response> } {
  const scratch: GraverWorker = createWorker({ wasm, files: SAMPLE });
  return {
    async fetch(request: Request, env: Env): Promise<Response> {
      const url = new URL(request.url);
      const m = OBJECT_PATH.exec(url.pathname);
      if (!m) return await scratch.fetch(request, env);
      if (!env.WORKSPACES) {
        return Response.json({
          ok: false,
          error: {
            code: "not_found",
            message: `Cannot open workspace "${m[1]}": the worker has no WORKSPACES Durable Object binding`,
            hint:
              "Add the durable_objects binding of wrangler.toml, or call /v1/... for the scratch workspace",
          },
        }, { status: 404 });
      }
      url.pathname = m[2]!;
      const stub = env.WORKSPACES.get(env.WORKSPACES.idFromName(m[1]!));
      return await stub.fetch(new Request(url, request));
    },
  };
}

export { workspaceObjectClass } from "./workspace_object.ts";
