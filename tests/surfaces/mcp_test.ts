import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { ROOT } from "../runtimes/_harness.ts";
import { startServer } from "./_servers.ts";

const TOKEN = "mcp-test-token-0123456789";

interface Connected {
  client: Client;
  logs: { level: string; data: Record<string, unknown> }[];
  /** The MCP session id (Streamable HTTP), if any. */
  sessionId(): string | undefined;
  close(): Promise<void>;
}

type Connect = () => Promise<Connected>;

async function withClient(
  transport: StdioClientTransport | StreamableHTTPClientTransport,
): Promise<Connected> {
  const client = new Client({ name: "graver-test", version: "1.0.0" });
  const logs: Connected["logs"] = [];
  client.setNotificationHandler(
    LoggingMessageNotificationSchema,
    (n: { params: { level: string; data: Record<string, unknown> } }) => {
      logs.push({ level: n.params.level, data: n.params.data });
    },
  );
  await client.connect(transport);
  return {
    client,
    logs,
    sessionId: () => (transport as { sessionId?: string }).sessionId,
    close: async () => {
      if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession();
      await client.close();
    },
  };
}

interface Structured {
  ok: boolean;
  status?: string;
  changes?: { path: string; diff: string }[];
  data?: Record<string, unknown>;
  error?: { code: string; message: string; hint: string };
}

async function call(c: Connected, name: string, args: Record<string, unknown>) {
  const res = await c.client.callTool({ name, arguments: args });
  const structured = res.structuredContent as Structured;
  // The text content is a compact rendering for models that read text only, not the JSON again.
  const text = (res.content as { text: string }[])[0]!.text;
  if (structured.ok) assert.ok(text.startsWith(`${name}: ${structured.status}`), text);
  else {assert.ok(
      text.startsWith(`${name} refused (${structured.error!.code}): ${structured.error!.message}`),
      text,
    );}
  for (const c of structured.changes ?? []) assert.ok(text.includes(`${c.path}: `), text);
  return { isError: res.isError === true, result: structured };
}

const SOURCE = "export class Square {\n  constructor(readonly side: number) {}\n\n" +
  "  area(): number {\n    return this.side * this.side;\n  }\n}\n";

/** The scenario both transports pass. */
async function scenario(connect: Connect, t: Deno.TestContext): Promise<void> {
  const a = await connect();
  try {
    await t.step("initialize: server info and session-start instructions", () => {
      assert.equal(a.client.getServerVersion()?.name, "graver");
      assert.match(a.client.getInstructions() ?? "", /expected_version/);
      assert.ok(a.client.getServerCapabilities()?.logging, "logging capability");
    });
    await t.step("list tools: catalogue schemas and annotations", async () => {
      const { tools } = await a.client.listTools();
      const byName = new Map(tools.map((x: { name: string }) => [x.name, x]));
      const read = byName.get("read_file") as { inputSchema: { properties: object }; annotations: object };
      assert.ok("path" in read.inputSchema.properties);
      assert.deepEqual(read.annotations, {
        title: "Read file",
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
      const del = byName.get("delete_file") as { annotations: Record<string, boolean> };
      assert.equal(del.annotations["readOnlyHint"], false);
      assert.equal(del.annotations["destructiveHint"], true);
      const ins = byName.get("insert_code") as { annotations: Record<string, boolean> };
      assert.equal(ins.annotations["destructiveHint"], false);
      assert.equal(ins.annotations["idempotentHint"], false);
    });
    let version = "";
    await t.step("read a file", async () => {
      const created = await call(a, "create_file", { path: "src/shapes.ts", content: SOURCE });
      assert.equal(created.isError, false, JSON.stringify(created.result.error));
      const read = await call(a, "read_file", { path: "src/shapes.ts" });
      assert.equal(read.isError, false);
      assert.match(String(read.result.data?.["content"]), /return this\.side \* this\.side;/);
      version = String(read.result.data?.["version"]);
    });
    await t.step("an edit, with its commit as a logging notification", async () => {
      a.logs.length = 0;
      const edit = await call(a, "edit_file", {
        path: "src/shapes.ts",
        old_string: "return this.side * this.side;",
        new_string: "const s = this.side; // square it\n    return s * s;",
        expected_version: version,
      });
      assert.equal(edit.isError, false, JSON.stringify(edit.result.error));
      assert.equal(edit.result.status, "applied");
      assert.ok(edit.result.changes![0]!.diff.includes("+    return s * s;"));
      const commit = a.logs.find((l) => l.data["event"] === "graver.commit");
      assert.ok(commit, JSON.stringify(a.logs));
      assert.equal(commit.level, "info");
      assert.equal(commit.data["tool"], "edit_file");
      assert.ok(!JSON.stringify(a.logs).includes("square"), "no contents in notifications");
    });
    await t.step("a structural edit (replace_symbol)", async () => {
      const res = await call(a, "replace_symbol", {
        path: "src/shapes.ts",
        name_path: "Square/constructor",
        new_text:
          'constructor(readonly side: number) {\n    if (side < 0) throw new RangeError("square");\n  }',
      });
      assert.equal(res.isError, false, JSON.stringify(res.result.error));
      const read = await call(a, "read_file", { path: "src/shapes.ts" });
      assert.match(String(read.result.data?.["content"]), /throw new RangeError\("square"\);/);
    });
    await t.step("undo is on by default: checkpoint_undo reverts the structural edit", async () => {
      const listed = await call(a, "checkpoint_list", {});
      assert.equal(listed.isError, false, JSON.stringify(listed.result.error));
      assert.ok((listed.result.data?.["checkpoints"] as unknown[]).length >= 2, "the create, the edits");
      const undo = await call(a, "checkpoint_undo", {});
      assert.equal(undo.isError, false, JSON.stringify(undo.result.error));
      const read = await call(a, "read_file", { path: "src/shapes.ts" });
      assert.doesNotMatch(String(read.result.data?.["content"]), /RangeError/);
      assert.match(String(read.result.data?.["content"]), /return s \* s;/);
    });
    await t.step("a refusal: isError with the error shape, and a warning notification", async () => {
      a.logs.length = 0;
      const res = await call(a, "write_file", {
        path: "src/shapes.ts",
        content: "export {};\n",
        expected_version: "0".repeat(64),
      });
      assert.equal(res.isError, true);
      assert.equal(res.result.ok, false);
      assert.equal(res.result.error?.code, "stale_base");
      assert.match(res.result.error?.message ?? "", /src\/shapes\.ts/);
      assert.ok((res.result.error?.hint ?? "").length > 0);
      const refusal = a.logs.find((l) => l.data["event"] === "graver.refusal");
      assert.equal(refusal?.level, "warning");
      assert.equal(refusal?.data["code"], "stale_base");
      const bad = await call(a, "read_file", { pth: "x" });
      assert.equal(bad.isError, true);
      assert.equal(bad.result.error?.code, "invalid_args");
    });
    await t.step(
      "apply_edits with a progress token streams: progress notifications, then the plain call's result",
      async () => {
        const text = "src/shapes.ts\n<<<<<<< SEARCH\n    const s = this.side; // square it\n=======\n" +
          "    const s = this.side; // the side, squared below\n>>>>>>> REPLACE\n";
        const progress: { progress: number; message?: string }[] = [];
        const streamed = await a.client.callTool(
          { name: "apply_edits", arguments: { text, dry_run: true } },
          undefined,
          {
            onprogress: (p: { progress: number; message?: string }) => void progress.push(p),
          },
        );
        const plain = await a.client.callTool({ name: "apply_edits", arguments: { text, dry_run: true } });
        assert.equal(streamed.isError, false, JSON.stringify(streamed.structuredContent));
        assert.deepEqual(streamed.structuredContent, plain.structuredContent);
        assert.deepEqual(progress.map((p) => p.progress), progress.map((_, i) => i + 1));
        assert.ok(progress.every((p) => (p.message ?? "").length > 0));
        assert.ok(
          progress.some((p) => /^block 1 placed at src\/shapes\.ts:\d+-\d+ \(exact\)$/.test(p.message ?? "")),
          JSON.stringify(progress),
        );
      },
    );
    await t.step("two sessions are kept apart", async () => {
      const b = await connect();
      try {
        a.logs.length = 0;
        b.logs.length = 0;
        assert.equal((await call(b, "create_file", { path: "b.txt", content: "b\n" })).isError, false);
        assert.equal((await call(a, "read_file", { path: "missing.txt" })).isError, true);
        assert.deepEqual(b.logs.map((l) => l.data["event"]), ["graver.commit"]);
        assert.deepEqual(a.logs.map((l) => l.data["event"]), ["graver.refusal"]);
        // Each MCP session is its own graver session: the events name it.
        const sa = a.logs[0]!.data["session"];
        const sb = b.logs[0]!.data["session"];
        assert.ok(typeof sa === "string" && typeof sb === "string" && sa !== sb);
        if (a.sessionId() !== undefined) {
          assert.equal(sa, a.sessionId());
          assert.equal(sb, b.sessionId());
        }
      } finally {
        await b.close();
      }
    });
  } finally {
    await a.close();
  }
}

Deno.test({
  name: "MCP over stdio: a real `graver mcp` subprocess driven by the SDK's Client",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const root = await Deno.makeTempDir({ prefix: "graver-mcp-stdio-" });
    try {
      await scenario(() =>
        withClient(
          new StdioClientTransport({
            command: Deno.execPath(),
            args: ["run", "-A", "src/adapters/deno/cli.ts", "mcp", "--root", root],
            cwd: ROOT,
            stderr: "inherit",
          }),
        ), t);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "MCP over Streamable HTTP: `graver serve` on 127.0.0.1 driven by the SDK's Client",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const root = await Deno.makeTempDir({ prefix: "graver-mcp-http-" });
    const server = await startServer("deno", root, TOKEN);
    try {
      await scenario(() =>
        withClient(
          new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
            requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
          }),
        ), t);
      // Without the token the endpoint is closed, with a JSON error.
      const res = await fetch(`${server.url}/mcp`, { method: "POST", body: "{}" });
      assert.equal(res.status, 401);
      assert.equal((await res.json()).error.code, "unauthorized");
    } finally {
      await server.stop();
      await Deno.remove(root, { recursive: true });
    }
  },
});
