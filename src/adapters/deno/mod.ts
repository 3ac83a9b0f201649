/**
 * The deno adapter: disk backend (`node:fs/promises`) and wasm from the
 * vendored files.
 *
 * ```ts ignore
 * import { createDiskBackend, createWasmLoader } from "@graver/core/adapters/deno";
 * ```
 *
 * @module
 */
export { createDiskBackend, createWasmLoader, cwd, type DiskWasmOptions } from "../_posix.ts";

/** Which runtime this adapter is for. */
export const RUNTIME = "deno";
