/**
 * Shared by the Deno, Node and Bun adapters: `node:fs/promises` as a disk
 * backend, and wasm read from the vendored files on disk.
 *
 * @module
 */
import * as fsp from "node:fs/promises";
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { fileURLToPath } from "node:url";
import type { Backend } from "../fs/backend.ts";
import type { ProcessIdentity } from "../fs/process_identity.ts";
import type { GrammarEntry, WasmLoader } from "../syntax/grammars.ts";

/**
 * Whether process `pid` is alive on this machine: signal 0 probes it
 * (ESRCH: gone; EPERM: alive, not ours); a zombie (killed, not yet reaped)
 * counts as gone where `/proc` tells.
 */
function isAlive(pid: number): boolean | null {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return code === "ESRCH" ? false : code === "EPERM" ? true : null;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true; // no /proc (macOS) or it vanished just now: the probe said alive
  }
}

/** This process as a commit-lock holder: pid, host, start time, and a liveness probe for others. */
export function posixProcessIdentity(): ProcessIdentity {
  return { pid: process.pid, host: hostname(), started: Math.round(performance.timeOrigin), isAlive };
}

/** One backend object per process: commits over it share one in-process queue. */
const DISK: Backend = { ...(fsp as unknown as Backend), processIdentity: posixProcessIdentity() };

/** The disk as a backend (paths are absolute backend paths), carrying this process's identity for the commit lock. */
export function createDiskBackend(): Backend {
  return DISK;
}

/** Options for {@linkcode createWasmLoader}. */
export interface DiskWasmOptions {
  /** The repository (or package) root holding `wasm/` and `grammars/wasm/`. */
  baseUrl?: URL;
}

/** The repository root as seen from this file. */
export const DEFAULT_BASE: URL = new URL("../../", import.meta.url);

/**
 * Read vendored wasm from disk as bytes.
 *
 * @param options Where the vendored wasm lives.
 * @returns A loader for `Grammars`.
 */
export function createWasmLoader(options: DiskWasmOptions = {}): WasmLoader {
  const base = options.baseUrl ?? DEFAULT_BASE;
  const read = async (rel: string, what: string) => {
    const path = fileURLToPath(new URL(rel, base));
    try {
      return new Uint8Array(await fsp.readFile(path));
    } catch (cause) {
      throw new Error(
        `Cannot load ${what} from "${path}": run "deno task setup" to vendor the wasm files`,
        { cause },
      );
    }
  };
  return {
    runtime: () => read("wasm/web-tree-sitter.wasm", "the tree-sitter runtime"),
    grammar: (id: string, _entry: GrammarEntry) => read(`grammars/wasm/${id}.wasm`, `grammar "${id}"`),
  };
}

/** The process's current directory as an absolute posix path. */
export function cwd(): string {
  return process.cwd();
}
