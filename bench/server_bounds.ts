/**
 * The served surface's memory and connection bounds, measured against a real
 * `graver serve` process on 127.0.0.1 (its resident set from
 * `/proc/<pid>/status`, Linux only):
 *
 * 1. 6,000 `read_file` calls without a session header (one-shot calls);
 * 2. 3,000 named sessions, one `read_file` each;
 * 3. 64 `/v1/events` clients that never read, while 20,000 events are
 *    emitted (refused calls), then after they disconnect;
 * 4. 300 connections declaring `Content-Length: 100 MB` and sending nothing:
 *    how many are answered 413, and how long the slowest answer took.
 *
 * ```sh
 * deno run -A bench/server_bounds.ts                   # this checkout
 * deno run -A bench/server_bounds.ts --repo ../other   # another checkout (its src/ and deno.json)
 * deno run -A bench/server_bounds.ts --scale 0.1       # a tenth of every count
 * ```
 *
 * Not a `*.bench.ts`: `deno task bench` does not run it (it takes about a minute and much memory when the
 * bounds are missing). Figures are reported, never asserted.
 *
 * @module
 */
import { ROOT } from "./_util.ts";

const args = Deno.args;
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const repo = (flag("--repo") ?? ROOT).replace(/\/$/, "");
const scale = Number(flag("--scale") ?? 1);
const n = (count: number) => Math.max(1, Math.round(count * scale));

/** The server's resident set in MB. */
async function rssMb(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startServer(root: string): Promise<{ url: string; port: number; child: Deno.ChildProcess }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--config",
      `${repo}/deno.json`,
      `${repo}/src/adapters/deno/cli.ts`,
      "serve",
      "--root",
      root,
      "--port",
      "0",
    ],
    stdout: "piped",
    stderr: "null",
    stdin: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) text += (await reader.read()).value ?? "";
  void (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  const url = JSON.parse(text.split("\n")[0]!).url as string;
  return { url, port: Number(new URL(url).port), child };
}

async function call(url: string, tool: string, body: unknown, session?: string): Promise<number> {
  const res = await fetch(`${url}/v1/tools/${tool}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(session ? { "graver-session": session } : {}) },
    body: JSON.stringify(body),
  });
  await res.body?.cancel();
  return res.status;
}

/** Run `count` calls, `parallel` at a time. */
async function many(count: number, parallel: number, one: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (next < count) await one(next++);
  }));
}

/** Open a raw connection and send `text`. */
async function rawSend(port: number, text: string): Promise<Deno.TcpConn> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(new TextEncoder().encode(text));
  return conn;
}

/** Wait for an HTTP status line on a raw connection, at most `waitMs`; 0 when none came. */
async function statusOn(conn: Deno.TcpConn, waitMs: number): Promise<number> {
  const buf = new Uint8Array(4096);
  const late = sleep(waitMs).then(() => "late" as const);
  const got = await Promise.race([conn.read(buf).catch(() => null), late]);
  if (got === "late" || got === null) return 0;
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(new TextDecoder().decode(buf.subarray(0, got)))?.[1] ?? 0);
}

const root = await Deno.makeTempDir({ prefix: "graver-bounds-" });
await Deno.writeTextFile(`${root}/a.ts`, "export const a = 1;\n".repeat(200));
const server = await startServer(root);
const pid = server.child.pid;
const lines: string[] = [];
const report = (line: string) => {
  lines.push(line);
  console.log(line);
};

try {
  report(
    `# graver serve bounds (${repo === ROOT.replace(/\/$/, "") ? "this checkout" : repo}, scale ${scale})`,
  );
  for (let i = 0; i < 50; i++) await call(server.url, "read_file", { path: "a.ts" });
  const base = await rssMb(pid);
  report(`baseline RSS after 50 warm-up calls: ${base.toFixed(0)} MB`);

  const oneShot = n(6000);
  await many(oneShot, 8, () => call(server.url, "read_file", { path: "a.ts" }));
  const afterOneShot = await rssMb(pid);
  const health1 = await (await fetch(`${server.url}/v1/health`)).json();
  report(
    `RESULT one-shot: ${oneShot} read_file calls without a session: ${base.toFixed(0)} → ${
      afterOneShot.toFixed(0)
    } MB; sessions held: ${health1.sessions ?? "not reported"}`,
  );

  const named = n(3000);
  await many(named, 8, (i) => call(server.url, "read_file", { path: "a.ts" }, `bench-${i}`));
  const afterNamed = await rssMb(pid);
  const health2 = await (await fetch(`${server.url}/v1/health`)).json();
  report(
    `RESULT named: ${named} named sessions: ${afterOneShot.toFixed(0)} → ${
      afterNamed.toFixed(0)
    } MB; sessions held: ${health2.sessions ?? "not reported"}`,
  );

  const stalled = 64;
  const events = n(20000);
  const sse: Deno.TcpConn[] = [];
  for (let i = 0; i < stalled; i++) {
    sse.push(await rawSend(server.port, "GET /v1/events HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n"));
  }
  await sleep(500);
  const beforeEvents = await rssMb(pid);
  const subscribed = (await (await fetch(`${server.url}/v1/health`)).json()).event_subscribers ?? "?";
  // Each refused call emits one graver.refusal event to every subscriber.
  await many(events, 8, (i) => call(server.url, "read_file", { path: `missing-${i}.ts` }));
  const withStalled = await rssMb(pid);
  const stillSubscribed = (await (await fetch(`${server.url}/v1/health`)).json()).event_subscribers ?? "?";
  for (const c of sse) c.close();
  await sleep(3000);
  const afterDisconnect = await rssMb(pid);
  const leftSubscribed = (await (await fetch(`${server.url}/v1/health`)).json()).event_subscribers ?? "?";
  report(
    `RESULT sse: ${stalled} stalled subscribers + ${events} events: ${beforeEvents.toFixed(0)} → ${
      withStalled.toFixed(0)
    } MB; ${
      afterDisconnect.toFixed(0)
    } MB 3 s after they disconnected; subscribers ${subscribed} → ${stillSubscribed} under load → ${leftSubscribed} after`,
  );

  const big = n(300);
  const conns: Deno.TcpConn[] = [];
  const t0 = performance.now();
  for (let i = 0; i < big; i++) {
    conns.push(
      await rawSend(
        server.port,
        "POST /v1/tools/write_file HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n" +
          `content-length: ${100 * 1024 * 1024}\r\n\r\n`,
      ),
    );
  }
  const statuses = await Promise.all(conns.map((c) => statusOn(c, 15_000)));
  const slowest = performance.now() - t0;
  const answered = statuses.filter((s) => s === 413).length;
  const afterBig = await rssMb(pid);
  for (const c of conns) c.close();
  report(
    `RESULT body: ${big} connections declaring Content-Length 100 MB, no body sent: ${answered} answered 413 (${
      statuses.filter((s) => s === 0).length
    } unanswered after 15 s), all within ${(slowest / 1000).toFixed(1)} s; RSS ${afterBig.toFixed(0)} MB`,
  );
} finally {
  server.child.kill("SIGTERM");
  const killer = setTimeout(() => server.child.kill("SIGKILL"), 20_000);
  await server.child.status;
  clearTimeout(killer);
  await Deno.remove(root, { recursive: true });
}
