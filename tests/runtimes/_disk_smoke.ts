/**
 * A cheap smoke test of the disk backend (`node:fs/promises`) that the Deno,
 * Node and Bun harnesses run after the suite (the suite itself runs on
 * memfs): a real temp directory, the backend round trip, a symlink escape and
 * a listing. Not part of the digest.
 *
 * @module
 */
import { mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Backend, createWorkspace } from "../../src/mod.ts";
import { check } from "../conformance/assert.ts";
import { refused, succeeded } from "../conformance/cases/_calls.ts";
import { backendSmoke } from "./_backend_smoke.ts";

/**
 * Run the smoke test in a fresh temp directory (removed afterwards).
 *
 * @param backend The runtime adapter's disk backend.
 * @returns "disk smoke ok".
 */
export async function diskSmoke(backend: Backend): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "graver-disk-smoke-"));
  try {
    await backendSmoke(backend, root);
    const ws = await createWorkspace({ backend, root });
    await symlink(tmpdir(), join(root, "out"));
    refused(await ws.call("read_file", { path: "out/x.txt" }), "sandbox_violation");
    succeeded(await ws.call("create_file", { path: "kept.txt", content: "kept\n" }), "applied");
    const listed = succeeded(await ws.call("list_files", { path: "." }), "read");
    const text = JSON.stringify(listed.data);
    check(
      text.includes("kept.txt") && !text.includes(".graver"),
      "Expected list_files to show kept.txt and hide .graver/",
    );
    return "disk smoke ok";
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
