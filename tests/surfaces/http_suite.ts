/**
 * The HTTP API's expectations, written once against a fetch function: run
 * against the hono app in-process (`app.request`, tests/unit/surfaces/) and
 * against real servers on 127.0.0.1 in Deno, Node, Bun and workerd
 * (tests/surfaces/http_runtimes_test.ts). The server under test must use the
 * given bearer token, the default body limit, an empty or scratch workspace
 * with the TypeScript grammar, and an event feed.
 *
 * @module
 */
import { check, equal } from "../conformance/assert.ts";

/** How the suite reaches the server. */
export interface HttpTarget {
  /** Fetch a path (e.g. `/v1/health`) on the server. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** The server's bearer token. */
  token: string;
  /** The server's body limit (default 4 MiB). */
  maxBodyBytes?: number;
}

/** One expectation's outcome. */
export interface CaseResult {
  /** The case. */
  name: string;
  /** Its failure, if any. */
  error?: string;
}

type Call = (tool: string, args: unknown, session?: string) => Promise<{
  status: number;
  session: string | null;
  body: Record<string, unknown> & {
    ok: boolean;
    error?: Record<string, unknown>;
    data?: Record<string, unknown>;
  };
}>;

function lowerHeaders(h: Headers): string {
  return (h.get("content-type") ?? "").toLowerCase().replaceAll(" ", "");
}

/** Read server-sent events from a response until `until` says stop; returns the frames and the raw text. */
async function readEvents(
  res: Response,
  until: (frames: { event: string; data: Record<string, unknown> }[]) => boolean,
): Promise<{ frames: { event: string; data: Record<string, unknown> }[]; raw: string }> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const frames: { event: string; data: Record<string, unknown> }[] = [];
  let raw = "";
  let buffer = "";
  const deadline = setTimeout(() => reader.cancel().catch(() => {}), 10_000);
  try {
    while (!until(frames)) {
      const { value, done } = await reader.read();
      if (done) break;
      raw += value;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf("\n\n")) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: ?(.*)$/m.exec(block)?.[1];
        const data = /^data: ?(.*)$/m.exec(block)?.[1];
        if (event !== undefined && data !== undefined) frames.push({ event, data: JSON.parse(data) });
      }
    }
  } finally {
    clearTimeout(deadline);
    await reader.cancel().catch(() => {});
  }
  return { frames, raw };
}

/**
 * Run every HTTP expectation against a server.
 *
 * @param target How to reach it.
 * @returns One result per case.
 */
export async function runHttpSuite(target: HttpTarget): Promise<CaseResult[]> {
  const auth = { authorization: `Bearer ${target.token}` };
  const run = `t${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const call: Call = async (tool, args, session) => {
    const res = await target.fetch(`/v1/tools/${tool}`, {
      method: "POST",
      headers: {
        ...auth,
        "content-type": "application/json",
        ...(session ? { "graver-session": session } : {}),
      },
      body: JSON.stringify(args),
    });
    check(lowerHeaders(res.headers).startsWith("application/json"), `${tool}: JSON answer`);
    return { status: res.status, session: res.headers.get("graver-session"), body: await res.json() };
  };
  const results: CaseResult[] = [];
  const cases: [string, () => Promise<void>][] = [
    ["GET /v1/health answers without a token", async () => {
      const res = await target.fetch("/v1/health");
      equal(res.status, 200, "status");
      const body = await res.json();
      equal(body.ok, true, "ok");
      equal(body.name, "graver", "name");
      check(typeof body.version === "string" && body.tools > 10, "version and tool count");
    }],
    ["a missing or wrong token is 401 unauthorized, as JSON", async () => {
      const none = await target.fetch("/v1/tools");
      equal(none.status, 401, "no token");
      equal((await none.json()).error.code, "unauthorized", "code");
      const wrong = await target.fetch("/v1/tools", { headers: { authorization: "Bearer nope" } });
      equal(wrong.status, 401, "wrong token");
      const body = await wrong.json();
      equal(body.ok, false, "ok");
      check(typeof body.error.hint === "string" && body.error.hint.length > 0, "a hint");
    }],
    ["GET /v1/tools lists the catalogue with JSON Schemas", async () => {
      const res = await target.fetch("/v1/tools", { headers: auth });
      equal(res.status, 200, "status");
      const { tools } = await res.json();
      const read = tools.find((t: { name: string }) => t.name === "read_file");
      check(read && read.inputSchema.type === "object" && "path" in read.inputSchema.properties, "read_file");
      check(tools.some((t: { name: string }) => t.name === "replace_symbol"), "replace_symbol");
    }],
    ["a session is made on the first call, returned, and kept when sent back", async () => {
      const first = await call("list_files", {});
      equal(first.status, 200, "status");
      check(first.session && first.session.length >= 8, "a session id is returned");
      const again = await call("list_files", {}, first.session!);
      equal(again.session, first.session, "the same session comes back");
      const bad = await call("list_files", {}, "bad session id!");
      equal(bad.status, 400, "a malformed session id");
      equal(bad.body.error?.["code"], "invalid_args", "code");
    }],
    ["create, read, edit and structurally edit a TypeScript file", async () => {
      const path = `${run}/shapes.ts`;
      const s = `s-${run}`;
      const source = "export class Square {\n  constructor(readonly side: number) {}\n\n" +
        "  area(): number {\n    return this.side * this.side;\n  }\n}\n";
      const created = await call("create_file", { path, content: source }, s);
      equal(created.status, 200, `create_file: ${JSON.stringify(created.body.error)}`);
      equal(created.body["status"], "applied", "created");
      const read = await call("read_file", { path }, s);
      equal(read.status, 200, "read_file");
      check(String(read.body.data?.["content"]).includes("return this.side * this.side;"), "content read");
      const edited = await call("edit_file", {
        path,
        old_string: "return this.side * this.side;",
        new_string: "const s = this.side; // square it\n    return s * s;",
        expected_version: read.body.data?.["version"],
      }, s);
      equal(edited.status, 200, `edit_file: ${JSON.stringify(edited.body.error)}`);
      const changes = edited.body["changes"] as { diff: string; path: string }[];
      check(
        changes[0]?.diff.includes("+    return s * s;"),
        "the edit's diff",
      );
      const structural = await call("replace_symbol", {
        path,
        name_path: "Square/constructor",
        new_text:
          'constructor(readonly side: number) {\n    if (side < 0) throw new RangeError("square");\n  }',
      }, s);
      equal(structural.status, 200, `replace_symbol: ${JSON.stringify(structural.body.error)}`);
      const after = await call("read_file", { path }, s);
      const content = String(after.body.data?.["content"]);
      check(
        content.includes("return s * s;") && content.includes('RangeError("square")'),
        "both edits",
      );
    }],
    ["refusals: the ToolResult with its code, hint, and a status from the table", async () => {
      const path = `${run}/stale.txt`;
      await call("create_file", { path, content: "one\n" });
      const stale = await call("write_file", { path, content: "two\n", expected_version: "0".repeat(64) });
      equal(stale.status, 409, "stale_base status");
      equal(stale.body.ok, false, "ok");
      equal(stale.body["tool"], "write_file", "tool");
      equal(stale.body.error?.["code"], "stale_base", "code");
      check(typeof stale.body.error?.["hint"] === "string", "hint");
      const escape = await call("read_file", { path: "../outside.txt" });
      equal(escape.status, 403, "sandbox_violation status");
      equal(escape.body.error?.["code"], "sandbox_violation", "code");
      const unknown = await call("raed_file", { path });
      equal(unknown.status, 404, "unknown tool");
      equal(unknown.body.error?.["code"], "not_found", "code");
      check(JSON.stringify(unknown.body.error).includes("read_file"), "did you mean read_file");
      const badArgs = await call("read_file", { pth: path });
      equal(badArgs.status, 400, "invalid_args status");
      equal(badArgs.body.error?.["code"], "invalid_args", "code");
      const still = await call("read_file", { path });
      check(String(still.body.data?.["content"]).includes("one"), "nothing written");
    }],
    ["malformed requests: not JSON (400), wrong content type (415), unknown route (404)", async () => {
      const bad = await target.fetch("/v1/tools/read_file", {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: "{not json",
      });
      equal(bad.status, 400, "bad JSON");
      equal((await bad.json()).error.code, "invalid_args", "code");
      const form = await target.fetch("/v1/tools/read_file", {
        method: "POST",
        headers: { ...auth, "content-type": "text/plain" },
        body: '{"path":"a"}',
      });
      equal(form.status, 415, "text/plain");
      equal((await form.json()).error.code, "invalid_args", "code");
      const route = await target.fetch("/v2/nothing", { headers: auth });
      equal(route.status, 404, "route");
      equal((await route.json()).error.code, "not_found", "code");
    }],
    ["a body over the limit is 413 limit_exceeded and nothing is written", async () => {
      const limit = target.maxBodyBytes ?? 4 * 1024 * 1024;
      const path = `${run}/big.txt`;
      const res = await target.fetch("/v1/tools/create_file", {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ path, content: "x".repeat(limit + 1024) }),
      });
      equal(res.status, 413, "status");
      equal((await res.json()).error.code, "limit_exceeded", "code");
      const read = await call("read_file", { path });
      equal(read.body.error?.["code"], "not_found", "nothing written");
    }],
    ["a browser request from an origin not allowed is refused (CORS off)", async () => {
      const res = await target.fetch("/v1/tools", { headers: { ...auth, origin: "https://evil.example" } });
      equal(res.status, 403, "status");
      equal((await res.json()).error.code, "unauthorized", "code");
    }],
    ["GET /v1/events streams one session's commits and refusals, never contents", async () => {
      const s = `ev-${run}`;
      const res = await target.fetch(`/v1/events?session=${s}`, { headers: auth });
      equal(res.status, 200, "status");
      check(lowerHeaders(res.headers).startsWith("text/event-stream"), "an event stream");
      const secret = `secret-${run}`;
      const stream = readEvents(res, (f) => f.some((e) => e.event === "graver.refusal"));
      // Wait for the subscription before calling: the first frame is graver.ready.
      await new Promise((r) => setTimeout(r, 200));
      await call("create_file", { path: `${run}/other.txt`, content: secret }, `other-${run}`);
      await call("create_file", { path: `${run}/ev.txt`, content: secret }, s);
      await call("read_file", { path: `${run}/missing.txt` }, s);
      const { frames, raw } = await stream;
      equal(frames[0]?.event, "graver.ready", "first frame");
      const names = frames.slice(1).map((f) => f.event);
      equal(names, ["graver.commit", "graver.refusal"], "this session's events only");
      equal(frames[1]?.data["session"], s, "session");
      equal((frames[1]?.data["attributes"] as Record<string, unknown>)["tool"], "create_file", "commit tool");
      equal((frames[2]?.data["attributes"] as Record<string, unknown>)["code"], "not_found", "refusal code");
      check(!raw.includes(secret), "no file contents in events");
    }],
    [
      "POST /v1/stream/apply_edits answers server-sent events, then the result POST /v1/tools gives",
      async () => {
        const path = `${run}/stream.txt`;
        const text = `${path}\n<<<<<<< SEARCH\ntwo\n=======\n2\n>>>>>>> REPLACE\n`;
        await call("create_file", { path, content: "one\ntwo\n" });
        const res = await target.fetch("/v1/stream/apply_edits?dry_run=true", {
          method: "POST",
          headers: { ...auth, "content-type": "text/plain" },
          body: text,
        });
        equal(res.status, 200, "status");
        check(lowerHeaders(res.headers).startsWith("text/event-stream"), "an event stream");
        const { frames } = await readEvents(res, (f) => f.some((e) => e.event === "result"));
        equal(frames[0]?.event, "ready", "first frame");
        const result = frames.at(-1)!;
        equal(result.event, "result", "last frame");
        for (const frame of frames.slice(1, -1)) equal(frame.data["type"], frame.event, "a stream event");
        const whole = await call("apply_edits", { text, dry_run: true });
        equal(result.data, whole.body, "the same result as the one-shot call");
        equal(result.data["status"], "dry_run", "dry run");
        const unstreamable = await target.fetch("/v1/stream/read_file", {
          method: "POST",
          headers: auth,
          body: "x",
        });
        equal(unstreamable.status, 404, "a tool that takes no model text");
      },
    ],
  ];
  for (const [name, fn] of cases) {
    try {
      await fn();
      results.push({ name });
    } catch (err) {
      results.push({ name, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return results;
}
