/**
 * The worker of `call_worker.ts`: it opens its own workspace on the disk
 * (finishing or rolling back a commit journal a stopped worker left) and
 * runs the calls and ledger operations it is sent, one at a time, sending
 * telemetry back to the server's event feed.
 *
 * Messages in: `{ type: "init", root, options }`, then `{ type: "op", id, op, ... }`.
 * Messages out: `{ type: "ready" }`, `{ type: "done", id, value }` or `{ type: "failed", id, message }`,
 * `{ type: "event", name, attributes }`, `{ type: "counter", name, value, attributes }`.
 *
 * @module
 */
import type { Attributes } from "../../telemetry.ts";
import { createWorkspace, type Workspace, type WorkspaceOptions } from "../../workspace.ts";
import { createDiskBackend, createWasmLoader } from "./mod.ts";

/** The worker's global scope (Deno's checker types `self` as a window). */
const scope = self as unknown as {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
};

/** One operation the server asks for. */
interface Op {
  id: number;
  op: "call" | "has" | "export" | "import" | "forget";
  tool?: string;
  args?: unknown;
  options?: Record<string, unknown>;
  session?: string;
  data?: unknown;
}

let workspace: Promise<Workspace> | null = null;

async function run(ws: Workspace, m: Op): Promise<unknown> {
  switch (m.op) {
    case "call":
      return await ws.call(m.tool!, m.args, m.options ?? {});
    case "has":
      return ws.readGuard.ledgers.has(m.session!);
    case "export":
      return ws.exportSession(m.session!);
    case "import":
      return ws.importSession(m.session!, m.data);
    case "forget":
      return ws.forgetSession(m.session!);
  }
}

scope.onmessage = (event: MessageEvent) => {
  const m = event.data as { type: string; root?: string; options?: Partial<WorkspaceOptions> } & Op;
  if (m.type === "init") {
    workspace = createWorkspace({
      ...m.options,
      backend: createDiskBackend(),
      root: m.root!,
      wasm: createWasmLoader(),
      telemetry: {
        event: (name: string, attributes: Attributes) =>
          scope.postMessage({ type: "event", name, attributes }),
        counter: (name: string, value: number, attributes: Attributes) =>
          scope.postMessage({ type: "counter", name, value, attributes }),
      },
    });
    workspace.then(() => scope.postMessage({ type: "ready" }));
    return;
  }
  if (m.type !== "op" || !workspace) return;
  workspace.then((ws) => run(ws, m)).then(
    (value) => scope.postMessage({ type: "done", id: m.id, value }),
    (err) =>
      scope.postMessage({
        type: "failed",
        id: m.id,
        message: err instanceof Error ? err.message : String(err),
      }),
  );
};
