/**
 * Special files on a real disk: a FIFO, a link to one, a character device. graver refuses them
 * (`binary_file`, saying what the file is) before anything opens them, so a read can neither block (a FIFO
 * without a writer) nor run on (`/dev/zero`).
 *
 * A test that would block on the code as it was does not hang: a watchdog opens the FIFO's writing end after
 * a while (non-blocking, so it does nothing when no one reads), writes a line and closes it, which ends the
 * blocked read; the test then fails on its outcome.
 */
import assert from "node:assert/strict";
import { constants } from "node:fs";
import * as fsp from "node:fs/promises";
import { createDiskBackend, createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { BackendFs } from "../../../src/fs/backend.ts";
import { createWorkspace } from "../../../src/mod.ts";

async function withFifo(fn: (root: string) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "graver-special-" });
  const made = await new Deno.Command("mkfifo", { args: [`${root}/pipe.ts`] }).output();
  assert.ok(made.success, "mkfifo failed");
  await Deno.symlink("pipe.ts", `${root}/to-pipe.ts`);
  await Deno.writeTextFile(`${root}/a.ts`, "export const a = 1;\n");
  // Unblock a reader stuck on the FIFO (the code as it was), so that the test fails instead of hanging.
  const watchdog = setInterval(() => {
    fsp.open(`${root}/pipe.ts`, constants.O_WRONLY | constants.O_NONBLOCK)
      .then(async (h) => {
        await h.write(new TextEncoder().encode("unblocked by the watchdog\n"));
        await h.close();
      })
      .catch(() => {}); // ENXIO: nobody reads it, as it should be
  }, 500);
  try {
    await fn(root);
  } finally {
    clearInterval(watchdog);
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("read_file refuses a FIFO and a link to one before opening it, and the next call answers", async () => {
  await withFifo(async (root) => {
    const ws = await createWorkspace({ backend: createDiskBackend(), root, wasm: createWasmLoader() });
    for (const path of ["pipe.ts", "to-pipe.ts"]) {
      const r = await ws.call("read_file", { path });
      assert.equal(r.ok, false, JSON.stringify(r));
      if (!r.ok) {
        assert.equal(r.error.code, "binary_file");
        assert.match(r.error.message, /"pipe\.ts": it is a named pipe \(FIFO\), not a regular file/); // the link's target
      }
    }
    const next = await ws.call("read_file", { path: "a.ts" });
    assert.ok(next.ok, JSON.stringify(next));
  });
});

Deno.test("find_symbol and list_files skip a FIFO and a link to one, count them, and answer", async () => {
  await withFifo(async (root) => {
    const ws = await createWorkspace({ backend: createDiskBackend(), root, wasm: createWasmLoader() });
    const found = await ws.call("find_symbol", { name_path: "a" });
    assert.ok(found.ok, JSON.stringify(found));
    assert.deepEqual((found.data["matches"] as { path: string }[]).map((m) => m.path), ["a.ts"]);
    assert.deepEqual(found.data["skipped"], { special_file: 2 });
    const listed = await ws.call("list_files", {});
    assert.ok(listed.ok, JSON.stringify(listed));
    assert.deepEqual(listed.data["entries"], ["a.ts"]);
    assert.deepEqual(listed.data["skipped"], { special_file: 2 });
  });
});

Deno.test("write_file and edits refuse a FIFO instead of replacing it", async () => {
  await withFifo(async (root) => {
    const ws = await createWorkspace({ backend: createDiskBackend(), root, wasm: createWasmLoader() });
    const r = await ws.call("write_file", { path: "pipe.ts", content: "x\n" });
    assert.equal(r.ok, false, JSON.stringify(r));
    if (!r.ok) assert.equal(r.error.code, "binary_file");
    assert.ok((await Deno.lstat(`${root}/pipe.ts`)).isFifo);
  });
});

Deno.test("the disk backend's readFile refuses a FIFO swapped in after an lstat (checked on the open descriptor)", async () => {
  await withFifo(async (root) => {
    const fs = BackendFs.wrap(createDiskBackend());
    await assert.rejects(
      fs.read(`${root}/pipe.ts`),
      (e: { code?: string; message: string }) => e.code === "binary_file" && /named pipe/.test(e.message),
    );
  });
});

Deno.test("the disk backend's readFile refuses a character device without reading it", async () => {
  const fs = BackendFs.wrap(createDiskBackend());
  await assert.rejects(
    fs.read("/dev/zero"),
    (e: { code?: string; message: string }) => e.code === "binary_file" && /character device/.test(e.message),
  );
  // Inside a root (needs mknod, i.e. root; skipped elsewhere): refused by read_file too.
  const root = await Deno.makeTempDir({ prefix: "graver-special-" });
  try {
    const made = await new Deno.Command("mknod", { args: [`${root}/zero`, "c", "1", "5"], stderr: "null" })
      .output()
      .catch(() => ({ success: false }));
    if (!made.success) return;
    const ws = await createWorkspace({ backend: createDiskBackend(), root, wasm: createWasmLoader() });
    const r = await ws.call("read_file", { path: "zero" });
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.error.code, "binary_file");
      assert.match(r.error.message, /character device/);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("graver serve (a real process) answers read_file of a FIFO with 415, keeps serving, and stops on SIGTERM", async () => {
  await withFifo(async (root) => {
    const cli = new URL("../../../src/adapters/deno/cli.ts", import.meta.url).pathname;
    const config = new URL("../../../deno.json", import.meta.url).pathname;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--config", config, cli, "serve", "--port", "0", "--root", root],
      stdout: "piped",
      stderr: "null",
    }).spawn();
    try {
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      let printed = "";
      while (!printed.includes("\n")) {
        const { value, done } = await reader.read();
        if (done) break;
        printed += value;
      }
      reader.releaseLock();
      const { url } = JSON.parse(printed.split("\n")[0]!);
      const call = async (path: string) => {
        const res = await fetch(`${url}/v1/tools/read_file`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ path }),
        });
        return { status: res.status, body: await res.json() };
      };
      const fifo = await call("pipe.ts");
      assert.equal(fifo.status, 415, JSON.stringify(fifo.body));
      assert.equal(fifo.body.error.code, "binary_file");
      const next = await call("a.ts");
      assert.equal(next.status, 200, JSON.stringify(next.body));
    } finally {
      child.kill("SIGTERM");
      const status = await child.status; // the outcome: the server stops (it hung before)
      assert.ok(status.success || status.signal === "SIGTERM", JSON.stringify(status));
    }
  });
});
