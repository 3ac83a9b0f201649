/**
 * The example worker in workerd (miniflare, from tools/): built by build.ts,
 * served with its WORKSPACES Durable Object namespace persisted in a temp
 * directory. Over one object's workspace: read, an edit, a structural edit, a
 * stale write refused, two concurrent commits serialised (one lands, the other
 * is refused stale_base); another object is another workspace; the scratch
 * workspace answers at /v1; and after workerd restarts the state is read back
 * from the object's storage.
 *
 *   deno test -A examples/worker/worker_test.ts   (after deno task setup:all)
 */
import assert from "node:assert/strict";
import { buildWorker } from "./build.ts";
import { ROOT } from "../../tests/runtimes/_harness.ts";

const TOKEN = "example-worker-token-0123456789";

interface Server {
  url: string;
  stop(): Promise<void>;
}

async function serve(dist: string, wasm: string[], persist: string): Promise<Server> {
  const child = new Deno.Command("node", {
    args: ["examples/worker/drive.mjs", ROOT.replace(/\/$/, ""), dist, TOKEN, persist, ...wasm],
    cwd: ROOT,
    env: { TMPDIR: persist },
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  clearTimeout(timer);
  const drain = (async () => {
    while (!(await reader.read()).done) { /* drop */ }
  })().catch(() => {});
  let url: string;
  try {
    url = JSON.parse(text.split("\n")[0]!).url;
  } catch {
    child.kill("SIGKILL");
    await child.status;
    throw new Error(
      `Cannot start the example worker: drive.mjs printed ${JSON.stringify(text.slice(0, 300))}`,
    );
  }
  return {
    url,
    async stop() {
      await child.stdin.close().catch(() => {});
      const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await child.status;
      clearTimeout(killer);
      await drain;
    },
  };
}

type Body = {
  ok: boolean;
  status?: string;
  data?: Record<string, unknown>;
  error?: { code: string; message: string; hint: string };
};

function caller(server: Server) {
  return async (prefix: string, tool: string, args: unknown): Promise<{ status: number; body: Body }> => {
    const res = await fetch(`${server.url}${prefix}/v1/tools/${tool}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify(args),
    });
    return { status: res.status, body: await res.json() as Body };
  };
}

const APP = [
  "export function greet(name: string): string {",
  '  return "hello " + name;',
  "}",
  "",
  "export const answer = 41;",
  "",
].join("\n");

Deno.test("example worker in workerd: a Durable Object workspace edits, serialises commits and persists", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "graver-example-worker-" });
  const persist = `${tmp}/state`;
  await Deno.mkdir(persist);
  try {
    const { dir, wasm } = await buildWorker({ out: `${tmp}/dist`, grammars: ["typescript"] });
    let server = await serve(dir, wasm, persist);
    let final = "";
    try {
      const call = caller(server);
      const A = "/objects/alpha";
      const health = await fetch(`${server.url}${A}/v1/health`);
      assert.equal(health.status, 200);
      await health.body?.cancel();

      let r = await call(A, "create_file", { path: "src/app.ts", content: APP });
      assert.equal(r.body.status, "applied", JSON.stringify(r.body));
      r = await call(A, "read_file", { path: "src/app.ts" });
      assert.ok(r.body.ok, JSON.stringify(r.body));
      const v1 = r.body.data!["version"] as string;
      assert.match(r.body.data!["content"] as string, /return "hello " \+ name;/);

      // an edit, then a structural edit by name
      r = await call(A, "edit_file", {
        path: "src/app.ts",
        old_string: "export const answer = 41;",
        new_string: "export const answer = 42;",
        expected_version: v1,
      });
      assert.equal(r.body.status, "applied", JSON.stringify(r.body));
      r = await call(A, "replace_symbol", {
        path: "src/app.ts",
        name_path: "greet",
        new_text: "export function greet(name: string): string {\n  return `hello ${name}!`;\n}",
      });
      assert.equal(r.body.status, "applied", JSON.stringify(r.body));

      // a write against the first version is refused: nothing lost
      r = await call(A, "write_file", { path: "src/app.ts", content: "lost\n", expected_version: v1 });
      assert.equal(r.status, 409);
      assert.equal(r.body.error?.code, "stale_base", JSON.stringify(r.body));

      // two commits at once against the same version: one lands, the other is refused stale_base
      r = await call(A, "read_file", { path: "src/app.ts" });
      const v2 = r.body.data!["version"] as string;
      const contents = ["export const winner = 1;\n", "export const winner = 2;\n"];
      const both = await Promise.all(
        contents.map((content) =>
          call(A, "write_file", { path: "src/app.ts", content, expected_version: v2 })
        ),
      );
      const applied = both.filter((b) => b.body.status === "applied");
      const stale = both.filter((b) => b.body.error?.code === "stale_base");
      assert.equal(applied.length, 1, JSON.stringify(both.map((b) => b.body)));
      assert.equal(stale.length, 1, JSON.stringify(both.map((b) => b.body)));
      final = contents[both.indexOf(applied[0]!)]!;
      // and commits to different files of one object all land
      const many = await Promise.all(
        [1, 2, 3, 4].map((i) => call(A, "create_file", { path: `notes/n${i}.md`, content: `# ${i}\n` })),
      );
      for (const m of many) assert.equal(m.body.status, "applied", JSON.stringify(m.body));

      // another object is another workspace; the scratch workspace lives at /v1
      r = await call("/objects/beta", "read_file", { path: "src/app.ts" });
      assert.equal(r.body.error?.code, "not_found", JSON.stringify(r.body));
      r = await call("", "read_file", { path: "src/hello.ts" });
      assert.ok(r.body.ok, JSON.stringify(r.body));
      r = await call("", "read_file", { path: "src/app.ts" });
      assert.equal(r.body.error?.code, "not_found");
      // every call but health carries the token
      const anon = await fetch(`${server.url}${A}/v1/tools/read_file`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ path: "src/app.ts" }),
      });
      assert.equal(anon.status, 401);
      await anon.body?.cancel();
    } finally {
      await server.stop();
    }

    // a new workerd over the same storage: the object's files are read back from it
    server = await serve(dir, wasm, persist);
    try {
      const call = caller(server);
      let r = await call("/objects/alpha", "read_file", { path: "src/app.ts" });
      assert.ok(r.body.ok, JSON.stringify(r.body));
      assert.equal(r.body.data!["content"], `1\t${final.trimEnd()}`);
      r = await call("/objects/alpha", "list_files", { path: "notes" });
      assert.ok(r.body.ok, JSON.stringify(r.body));
      assert.match(JSON.stringify(r.body.data), /n4\.md/);
      r = await call("/objects/alpha", "edit_file", {
        path: "notes/n1.md",
        old_string: "# 1",
        new_string: "# one",
      });
      assert.equal(r.body.status, "applied", JSON.stringify(r.body));
    } finally {
      await server.stop();
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
