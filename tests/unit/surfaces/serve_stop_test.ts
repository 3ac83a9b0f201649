import assert from "node:assert/strict";

const CHILD = new URL("./_stop_guard_child.ts", import.meta.url).pathname;
const CLI = new URL("../../../src/adapters/deno/cli.ts", import.meta.url).pathname;

// How long a test waits for an outcome the code under test owes well before; never reached when it works.
const OUTCOME_WITHIN_MS = 20_000;

/** A child's exit, or "running" when it has not exited within `waitMs` (it is then killed). */
async function exitOf(child: Deno.ChildProcess, waitMs: number): Promise<Deno.CommandStatus | "running"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"running">((r) => timer = setTimeout(() => r("running"), waitMs));
  const outcome = await Promise.race([child.status, late]);
  clearTimeout(timer);
  if (outcome === "running") {
    child.kill("SIGKILL");
    await child.status;
  }
  return outcome;
}

/** Read a child's stdout until `line` is printed. */
async function waitForLine(reader: ReadableStreamDefaultReader<string>, line: RegExp): Promise<string> {
  let text = "";
  while (!line.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the child ended before printing ${line}: ${JSON.stringify(text)}`);
    text += value;
  }
  return text;
}

function spawnChild(args: string[]): { child: Deno.ChildProcess; out: ReadableStreamDefaultReader<string> } {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  return { child, out: child.stdout.pipeThrough(new TextDecoderStream()).getReader() };
}

async function stderrOf(child: Deno.ChildProcess): Promise<string> {
  return await new Response(child.stderr).text();
}

Deno.test("SIGTERM ends the process after the grace even while its main thread is blocked", async () => {
  const { child, out } = spawnChild(["run", "-A", CHILD, "term"]);
  const err = stderrOf(child);
  await waitForLine(out, /ready/);
  child.kill("SIGTERM");
  const status = await exitOf(child, OUTCOME_WITHIN_MS);
  out.cancel().catch(() => {});
  assert.notEqual(status, "running");
  assert.equal(
    status !== "running" && status.signal,
    "SIGKILL",
    "ended by the guard, not by the block ending",
  );
  assert.match(await err, /still not stopped 300 ms after SIGTERM/);
});

Deno.test("an event loop blocked past the stall limit ends the process, saying why", async () => {
  const { child, out } = spawnChild(["run", "-A", CHILD, "stall"]);
  const err = stderrOf(child);
  await waitForLine(out, /ready/);
  const status = await exitOf(child, OUTCOME_WITHIN_MS);
  const rest = await out.read().then((r) => r.value ?? "", () => "");
  assert.equal(status !== "running" && status.signal, "SIGKILL");
  assert.doesNotMatch(rest, /unblocked/);
  assert.match(await err, /event loop has been blocked for \d+ ms/);
});

Deno.test("graver serve stops on SIGTERM with an event stream open: the stream ends with graver.shutdown", async () => {
  const root = await Deno.makeTempDir({ prefix: "graver-serve-stop-" });
  // --shutdown-grace 0: no forced exit, so only a clean shutdown can end it.
  const { child, out } = spawnChild([
    "run",
    "-A",
    CLI,
    "serve",
    "--root",
    root,
    "--port",
    "0",
    "--shutdown-grace",
    "0",
  ]);
  const err = stderrOf(child);
  try {
    const url = JSON.parse((await waitForLine(out, /\n/)).split("\n")[0]!).url;
    const events = await fetch(`${url}/v1/events`);
    const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
    await waitForLine(reader, /graver\.ready/);
    child.kill("SIGTERM");
    const status = await exitOf(child, OUTCOME_WITHIN_MS);
    assert.notEqual(status, "running", "the open stream held the shutdown");
    assert.equal(status !== "running" && status.code, 0);
    const tail = await waitForLine(reader, /graver\.shutdown/).catch((e) => String(e));
    assert.match(tail, /graver\.shutdown/);
    await reader.cancel().catch(() => {});
  } finally {
    out.cancel().catch(() => {});
    await err;
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("graver serve answers MCP and tool calls without Deno's warning about request.signal on stderr", async () => {
  const root = await Deno.makeTempDir({ prefix: "graver-serve-signal-" });
  await Deno.writeTextFile(`${root}/a.ts`, "export const a = 1;\n");
  const { child, out } = spawnChild(["run", "-A", CLI, "serve", "--root", root, "--port", "0"]);
  const err = stderrOf(child);
  try {
    const url = JSON.parse((await waitForLine(out, /\n/)).split("\n")[0]!).url;
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const mcp = await fetch(`${url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(init),
    });
    assert.match(await mcp.text(), /"serverInfo"/);
    const call = await fetch(`${url}/v1/tools/search_text`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ pattern: "const a" }),
    });
    assert.equal((await call.json()).ok, true);
    child.kill("SIGTERM");
    assert.notEqual(await exitOf(child, OUTCOME_WITHIN_MS), "running");
    // A request body copied from the served request followed (and so touched) its abort signal.
    assert.doesNotMatch(await err, /request\.signal|legacy behavior/);
  } finally {
    out.cancel().catch(() => {});
    await err;
    await Deno.remove(root, { recursive: true });
  }
});
