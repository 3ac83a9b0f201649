import assert from "node:assert/strict";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { SessionTable } from "../../../src/surfaces/http_sessions.ts";
import { createWorkspace } from "../../../src/workspace.ts";
import { type RealServer, startRealServer } from "./_real_server.ts";

/** The parts of a ToolResult these tests read. */
interface CallBody {
  data: { version: string };
  error?: { code: string };
}

const FILE = "one\ntwo\nthree\n";

/** POST a tool call to a real server, with a session header when given. */
async function call(
  server: RealServer,
  tool: string,
  args: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; session: string | null; body: CallBody }> {
  const res = await fetch(`${server.url}/v1/tools/${tool}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(args),
  });
  return { status: res.status, session: res.headers.get("graver-session"), body: await res.json() };
}

Deno.test("one-shot calls (no Graver-Session) leave no session behind in the server", async () => {
  const server = await startRealServer({}, { "a.txt": FILE });
  try {
    const ids = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const res = await call(server, "read_file", { path: "a.txt" });
      assert.equal(res.status, 200);
      ids.add(res.session!);
    }
    assert.equal(ids.size, 200, "each one-shot call is offered an id of its own");
    assert.equal(server.workspace.sessionCount, 0, "no ledger outlives a one-shot call");
    assert.equal(server.workspace.compass.sessions, 0, "no compass state outlives a one-shot call");
  } finally {
    await server.stop();
  }
});

Deno.test("named sessions over the count are dropped, least recently used first", async () => {
  const server = await startRealServer({ sessions: { maxSessions: 3 } }, { "a.txt": FILE });
  try {
    for (let i = 0; i < 10; i++) {
      const res = await call(server, "read_file", { path: "a.txt" }, { "graver-session": `s${i}` });
      assert.equal(res.status, 200);
    }
    // s7 is used again: s8 is now the least recently used.
    await call(server, "read_file", { path: "a.txt" }, { "graver-session": "s7" });
    await call(server, "read_file", { path: "a.txt" }, { "graver-session": "s10" });
    assert.equal(server.workspace.sessionCount, 3);
    const held = ["s7", "s8", "s9", "s10"].filter((s) => server.workspace.readGuard.ledgers.has(s));
    assert.deepEqual(held, ["s7", "s9", "s10"]);
    const health = await (await fetch(`${server.url}/v1/health`)).json();
    assert.equal(health.sessions, 3);
  } finally {
    await server.stop();
  }
});

Deno.test("a named session idle past the idle time is dropped: its next edit is judged as unread", async () => {
  let now = 1_000_000;
  const server = await startRealServer({ sessions: { idleMs: 60_000, now: () => now } }, { "a.txt": FILE });
  try {
    const s = { "graver-session": "idle-1" };
    const read = await call(server, "read_file", { path: "a.txt" }, s);
    now += 61_000;
    // Another session's call applies the bounds: idle-1 has been idle past the idle time.
    await call(server, "read_file", { path: "a.txt" }, { "graver-session": "busy" });
    assert.equal(server.workspace.readGuard.ledgers.has("idle-1"), false);
    assert.equal(server.workspace.sessionCount, 1);
    const edit = await call(server, "edit_file", {
      path: "a.txt",
      old_text: "two",
      new_text: "TWO",
      expected_version: read.body.data.version,
    }, s);
    assert.equal(edit.body.error?.code, "unread_range", "a dropped session starts with an empty ledger");
    assert.equal(await Deno.readTextFile(`${server.root}/a.txt`), FILE, "nothing written on the refusal");
  } finally {
    await server.stop();
  }
});

Deno.test("a named session that asks to persist keeps its ledger across being dropped", async () => {
  const server = await startRealServer({ sessions: { maxSessions: 1 } }, { "a.txt": FILE });
  try {
    const keep = { "graver-session": "keep:1", "graver-session-persist": "true" };
    const read = await call(server, "read_file", { path: "a.txt" }, keep);
    await call(server, "read_file", { path: "a.txt" }, { "graver-session": "other" });
    assert.equal(server.workspace.readGuard.ledgers.has("keep:1"), false, "dropped from memory");
    const saved = JSON.parse(await Deno.readTextFile(`${server.root}/.graver/sessions/keep%3A1.json`));
    assert.ok(saved, "its ledger was written under .graver/sessions/");
    const edit = await call(server, "edit_file", {
      path: "a.txt",
      old_text: "two",
      new_text: "TWO",
      expected_version: read.body.data.version,
    }, keep);
    assert.equal(edit.status, 200, JSON.stringify(edit.body.error));
    assert.equal(await Deno.readTextFile(`${server.root}/a.txt`), "one\nTWO\nthree\n");
  } finally {
    await server.stop();
  }
});

Deno.test("a persisted ledger that is not a graver ledger is ignored: the session starts empty", async () => {
  const workspace = await createWorkspace({
    backend: createMemoryBackend({ "/a.txt": FILE, "/.graver/sessions/x.json": '{"files": 7}' }),
  });
  const table = new SessionTable(workspace);
  await table.begin("x", { persist: true });
  await table.end("x");
  assert.equal(workspace.readGuard.ledgers.has("x"), false);
  assert.deepEqual(table.ids(), ["x"]);
});

Deno.test("a session's ledger is never persisted through a .graver that is a link out of the root", async () => {
  const root = await Deno.makeTempDir({ prefix: "graver-sessions-root-" });
  const elsewhere = await Deno.makeTempDir({ prefix: "graver-sessions-elsewhere-" });
  try {
    await Deno.writeTextFile(`${root}/a.txt`, FILE);
    await Deno.symlink(elsewhere, `${root}/.graver`);
    const workspace = await createWorkspace({ backend: createDiskBackend(), root });
    const table = new SessionTable(workspace, { maxSessions: 1 });
    await table.begin("s1", { persist: true });
    await workspace.call("read_file", { path: "a.txt" }, { session: "s1" });
    await table.end("s1");
    await table.begin("s2");
    await table.end("s2");
    assert.equal(workspace.readGuard.ledgers.has("s1"), false, "dropped");
    const written = [];
    for await (const entry of Deno.readDir(elsewhere)) written.push(entry.name);
    assert.deepEqual(written, [], "nothing written through the link");
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(elsewhere, { recursive: true });
  }
});
