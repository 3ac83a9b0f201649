/**
 * The deno adapter: disk backend (`node:fs/promises`) and wasm from the
 * vendored files, and the match pool of structural searches (workers).
 *
 * ```ts ignore
 * import { createDiskBackend, createWasmLoader } from "@graver/core/adapters/deno";
 * ```
 *
 * @module
 */
export { createDiskBackend, createWasmLoader, cwd, type DiskWasmOptions } from "../_posix.ts";
export { createMatchPool, type DenoMatchPoolOptions } from "./match_pool.ts";

/** Which runtime this adapter is for. */
export const RUNTIME = "deno";
