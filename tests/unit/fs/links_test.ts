/**
 * Symbolic links and special files on a real disk, through every project-wide tool: a link whose target
 * leaves the root is never read, listed or written (and is counted as skipped); a link inside the root is
 * followed once and written at its target, never replaced; FIFOs, sockets and devices are never opened.
 */
import assert from "node:assert/strict";
import { createWorkspace, type Workspace } from "../../../src/mod.ts";
import { createDiskBackend, createWasmLoader } from "../../../src/adapters/deno/mod.ts";

const SECRET = 'export const TOKEN = "s3cr3t-token";\n';

/** A root with an outside directory beside it; `root/src/out.ts` links to `outside/victim.ts`. */
async function withLinks(fn: (ws: Workspace, dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "graver-links-" });
  try {
    await Deno.mkdir(`${dir}/root/src`, { recursive: true });
    await Deno.mkdir(`${dir}/root/vendor`);
    await Deno.mkdir(`${dir}/outside`);
    await Deno.writeTextFile(`${dir}/root/.gitignore`, "vendor/\n");
    await Deno.writeTextFile(
      `${dir}/root/src/a.ts`,
      "export function helper() {\n  return 1;\n}\nhelper();\n",
    );
    await Deno.writeTextFile(
      `${dir}/outside/victim.ts`,
      `import { helper } from "./a.ts";\n${SECRET}helper();\n`,
    );
    await Deno.writeTextFile(`${dir}/root/vendor/v.ts`, 'import { helper } from "../src/a.ts";\nhelper();\n');
    await Deno.symlink(`${dir}/outside/victim.ts`, `${dir}/root/src/out.ts`);
    await Deno.symlink("../outside", `${dir}/root/outdir`); // relative, to a directory outside
    await Deno.symlink("../vendor/v.ts", `${dir}/root/src/in.ts`); // inside the root, to an ignored file
    await Deno.symlink("..", `${dir}/root/src/loop`); // a cycle inside the root
    const ws = await createWorkspace({
      backend: createDiskBackend(),
      root: `${dir}/root`,
      wasm: createWasmLoader(),
    });
    await fn(ws, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("find_symbol never reads a file behind a link that leaves the root, and counts it as skipped", async () => {
  await withLinks(async (ws) => {
    const r = await ws.call("find_symbol", { name_path: "TOKEN", include_body: true });
    assert.equal(r.ok, false, JSON.stringify(r));
    assert.doesNotMatch(JSON.stringify(r), /s3cr3t/);
    if (!r.ok) {
      assert.equal(r.error.code, "not_found");
      assert.deepEqual(r.error.details?.["skipped"], { outside_root: 2 });
    }
    const found = await ws.call("find_symbol", { name_path: "helper" });
    assert.ok(found.ok, JSON.stringify(found));
    assert.deepEqual((found.data["matches"] as { path: string }[]).map((m) => m.path), ["src/a.ts"]);
    assert.deepEqual(found.data["skipped"], { outside_root: 2 });
  });
});

Deno.test("list_files leaves out links that leave the root, follows a link inside it once (no cycle)", async () => {
  await withLinks(async (ws) => {
    const r = await ws.call("list_files", { recursive: true });
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.data["entries"], [".gitignore", "src/", "src/a.ts", "src/in.ts"]);
    assert.deepEqual(r.data["skipped"], { outside_root: 2 });
    assert.equal(r.data["ignored"], 1);
  });
});

Deno.test("find_references lists no line of a file behind an outward link; a link inside the root is its target", async () => {
  await withLinks(async (ws) => {
    const r = await ws.call("find_references", { path: "src/a.ts", target: "helper" });
    assert.ok(r.ok, JSON.stringify(r));
    const files = (r.data["files"] as { path: string }[]).map((f) => f.path);
    assert.deepEqual(files, ["src/a.ts", "vendor/v.ts"]);
    assert.doesNotMatch(JSON.stringify(r), /s3cr3t|out\.ts/);
    assert.deepEqual(r.data["skipped"], { outside_root: 2 });
  });
});

Deno.test("edit_rename_symbol writes a link's target inside the root, never the link, never outside", async () => {
  await withLinks(async (ws, dir) => {
    const r = await ws.call("edit_rename_symbol", { path: "src/a.ts", target: "helper", new_name: "assist" });
    assert.ok(r.ok && r.status === "applied", JSON.stringify(r));
    assert.deepEqual(r.changes.map((c) => c.path), ["src/a.ts", "vendor/v.ts"]);
    // The outside file is untouched and both links are still links.
    assert.equal(
      await Deno.readTextFile(`${dir}/outside/victim.ts`),
      `import { helper } from "./a.ts";\n${SECRET}helper();\n`,
    );
    assert.ok((await Deno.lstat(`${dir}/root/src/out.ts`)).isSymlink);
    assert.ok((await Deno.lstat(`${dir}/root/src/in.ts`)).isSymlink);
    assert.equal(
      await Deno.readTextFile(`${dir}/root/vendor/v.ts`),
      'import { assist } from "../src/a.ts";\nassist();\n',
    );
  });
});

Deno.test("a tsconfig.json that links out of the root is skipped, not fatal, by find_references", async () => {
  await withLinks(async (ws, dir) => {
    await Deno.writeTextFile(
      `${dir}/outside/tsconfig.json`,
      '{"compilerOptions": {"paths": {"@x/*": ["./*"]}}}\n',
    );
    await Deno.symlink(`${dir}/outside/tsconfig.json`, `${dir}/root/tsconfig.json`);
    const r = await ws.call("find_references", { path: "src/a.ts", target: "helper" });
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual((r.data["files"] as { path: string }[]).map((f) => f.path), ["src/a.ts", "vendor/v.ts"]);
  });
});
