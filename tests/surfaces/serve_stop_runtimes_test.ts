/**
 * The stop guard of the Node and Bun adapters against a real server in that runtime: SIGTERM while a
 * multi-file commit runs lets the request finish (its commit lands whole and it is answered), then the process
 * exits 0; a request that never finishes is cut by the grace (the process is killed, SIGKILL); an event loop
 * blocked past the stall limit ends the process, saying why.
 */
import assert from "node:assert/strict";
import { bundle, NODE_BANNER, toolBin } from "../runtimes/_harness.ts";
import { haveTools, type HttpRuntime, startServer } from "./_servers.ts";

const TOKEN = "stop-test-token-0123456789";
const tools = await haveTools();
const FILES = 300;

/** How long a test waits for an outcome the code under test owes well before; never reached when it works. */
const OUTCOME_WITHIN_MS = 30_000;

/** A root with FILES small modules, and the SEARCH/REPLACE text that changes every one of them. */
async function manyFiles(root: string): Promise<string> {
  await Deno.mkdir(`${root}/src`);
  let edits = "";
  for (let i = 0; i < FILES; i++) {
    await Deno.writeTextFile(`${root}/src/f${i}.ts`, `export const v${i} = 1;\n`);
    edits += `src/f${i}.ts\n<<<<<<< SEARCH\nexport const v${i} = 1;\n=======\n` +
      `export const v${i} = 2;\n>>>>>>> REPLACE\n`;
  }
  return edits;
}

/** How many of the files hold the old and the new line. */
async function census(root: string): Promise<{ old: number; new: number }> {
  const out = { old: 0, new: 0 };
  for (let i = 0; i < FILES; i++) {
    const text = await Deno.readTextFile(`${root}/src/f${i}.ts`);
    if (text === `export const v${i} = 1;\n`) out.old++;
    else if (text === `export const v${i} = 2;\n`) out.new++;
  }
  return out;
}

/** Resolves once `path` exists (the commit took its lock) or `done` settles, whichever comes first. */
async function untilExists(path: string, done: Promise<unknown>): Promise<void> {
  let settled = false;
  done.finally(() => settled = true).catch(() => {});
  while (!settled) {
    try {
      await Deno.lstat(path);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 1));
    }
  }
}

/** The child's exit, or "running" after `waitMs` (it is then killed). */
async function exitWithin(
  server: { status: Promise<Deno.CommandStatus>; kill(s: Deno.Signal): void },
  waitMs: number,
): Promise<Deno.CommandStatus | "running"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"running">((r) => timer = setTimeout(() => r("running"), waitMs));
  const outcome = await Promise.race([server.status, late]);
  clearTimeout(timer);
  if (outcome === "running") {
    server.kill("SIGKILL");
    await server.status;
  }
  return outcome;
}

for (const runtime of ["node", "bun"] as HttpRuntime[]) {
  Deno.test({
    name:
      `${runtime}: SIGTERM during a 300-file commit lets it land whole and be answered, then the server exits 0`,
    ignore: !tools,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const root = await Deno.makeTempDir({ prefix: `graver-stop-${runtime}-` });
      const edits = await manyFiles(root);
      const server = await startServer(runtime, root, TOKEN, { graceMs: 20_000 });
      try {
        const answer = fetch(`${server.url}/v1/tools/apply_edits`, {
          method: "POST",
          headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
          body: JSON.stringify({ text: edits, syntax_guard: "off" }),
        }).then(async (res) => ({ status: res.status, body: await res.json() }));
        // The lock file appears when the commit starts: the signal lands while it runs.
        await untilExists(`${root}/.graver`, answer);
        server.kill("SIGTERM");
        const { status, body } = await answer;
        assert.equal(status, 200, JSON.stringify(body).slice(0, 500));
        assert.equal(body.ok, true, JSON.stringify(body).slice(0, 500));
        const exit = await exitWithin(server, OUTCOME_WITHIN_MS);
        assert.notEqual(exit, "running", "the server did not exit after SIGTERM");
        assert.equal(exit !== "running" && exit.code, 0);
        assert.deepEqual(await census(root), { old: 0, new: FILES });
        assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name), ["src"], "nothing left in .graver/");
      } finally {
        await server.stop().catch(() => {});
        await Deno.remove(root, { recursive: true });
      }
    },
  });

  Deno.test({
    name: `${runtime}: a request that never finishes is cut by the stop guard's grace (SIGKILL)`,
    ignore: !tools,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const root = await Deno.makeTempDir({ prefix: `graver-stop-${runtime}-` });
      const server = await startServer(runtime, root, TOKEN, { graceMs: 300 });
      const { port } = new URL(server.url);
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) });
      try {
        // A body that stops arriving halfway: the request stays in flight (its body time limit is 30 s).
        await conn.write(new TextEncoder().encode(
          `POST /v1/tools/read_file HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\n` +
            `Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"path":`,
        ));
        await new Promise((r) => setTimeout(r, 200)); // let the server take the request in (not asserted)
        server.kill("SIGTERM");
        const exit = await exitWithin(server, OUTCOME_WITHIN_MS);
        assert.notEqual(exit, "running", "the grace did not end the server");
        assert.equal(exit !== "running" && exit.signal, "SIGKILL");
      } finally {
        conn.close();
        await server.stop().catch(() => {});
        await Deno.remove(root, { recursive: true });
      }
    },
  });

  Deno.test({
    name: `${runtime}: an event loop blocked past the stall limit ends the process, saying why`,
    ignore: !tools,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      let cmd: string;
      let args: string[];
      if (runtime === "node") {
        await bundle("tests/runtimes/_stall_child.ts", "build/node/stall_child.mjs", [
          "--platform=node",
          "--target=node20",
          `--banner:js=${NODE_BANNER}`,
        ]);
        [cmd, args] = ["node", ["build/node/stall_child.mjs"]];
      } else [cmd, args] = [toolBin("bun"), ["run", "tests/runtimes/_stall_child.ts"]];
      const child = new Deno.Command(cmd, {
        args,
        cwd: new URL("../../", import.meta.url).pathname,
        env: { BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0", DO_NOT_TRACK: "1" },
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const [out, err] = [new Response(child.stdout).text(), new Response(child.stderr).text()];
      const exit = await exitWithin({ status: child.status, kill: (s) => child.kill(s) }, OUTCOME_WITHIN_MS);
      assert.notEqual(exit, "running");
      assert.equal(exit !== "running" && exit.signal, "SIGKILL");
      assert.equal(await out, "ready\n", "killed while blocked, before it got out");
      assert.match(await err, /event loop has been blocked for \d+ ms/);
    },
  });
}
