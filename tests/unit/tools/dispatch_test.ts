import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace, MemoryTelemetry } from "../../../src/mod.ts";

Deno.test("dispatch() refuses bad args with the schema's property list", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({ "/a.txt": "a" }) });
  const r = await ws.call("read_file", { paht: "a.txt" });
  assert.ok(!r.ok);
  assert.equal(r.error.code, "invalid_args");
  assert.match(r.error.message, /unknown property "paht"/);
  assert.match(r.error.hint, /path \(required\)/);
  const r2 = await ws.call("read_file", "a.txt");
  assert.ok(!r2.ok && r2.error.code === "invalid_args");
});

Deno.test("dispatch() names an unknown property of a nested object, and a top-level one put inside it", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({ "/a.ts": "f(1);\n" }) });
  const r = await ws.call("edit_apply_node", {
    path: "a.ts",
    selector: { pattern: "f($X)", select: "all", colour: "red" },
    new_text: "g()",
  });
  assert.ok(!r.ok);
  assert.equal(r.error.code, "invalid_args");
  assert.match(r.error.message, /unknown property "selector\/select": "select" belongs at the top level/);
  assert.match(r.error.message, /unknown property "selector\/colour"/);
  assert.doesNotMatch(r.error.message, /colour" belongs/);
});

Deno.test("dispatch() names the known tools for an unknown one, and counts it as a call and a refusal", async () => {
  const telemetry = new MemoryTelemetry();
  const ws = await createWorkspace({ backend: createMemoryBackend({}), telemetry });
  const r = await ws.call("reed_file", { path: "a.txt" });
  assert.ok(!r.ok && r.error.code === "not_found" && r.error.hint.includes("read_file"));
  assert.match(r.error.message, /did you mean read_file/);
  assert.deepEqual(r.error.suggested_call, { tool: "read_file", args: { path: "a.txt" } });
  assert.equal(telemetry.total("graver.tool.calls", { tool: "reed_file" }), 1);
  assert.equal(telemetry.total("graver.tool.refusals", { tool: "reed_file" }), 1);
});

Deno.test("dispatch() turns an unexpected exception into `internal` and writes nothing", async () => {
  const backend = createMemoryBackend({ "/a.txt": "a" });
  const broken = { ...backend, rename: () => Promise.reject(new TypeError("disk on fire")) };
  const telemetry = new MemoryTelemetry();
  const ws = await createWorkspace({ backend: broken, telemetry });
  const r = await ws.call("write_file", { path: "a.txt", content: "b" });
  assert.ok(!r.ok && r.error.code === "internal" && r.error.message.includes("disk on fire"));
  assert.equal(new TextDecoder().decode(await backend.readFile("/a.txt") as Uint8Array), "a");
  assert.equal(telemetry.total("graver.tool.internal_errors"), 1);
});

Deno.test("dispatch() says which argument is wrong, what it must be, and what it got", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({ "/a.txt": "a\n" }) });
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ["read_file", { path: 3 }, /"path" must be string, not number/],
    ["read_file", { path: "" }, /"path" is empty \(Path relative to the workspace root/],
    ["read_file", {}, /"path" is required/],
    ["apply_edits", { text: "" }, /"text" is empty/],
    [
      "write_file",
      { path: "a.txt", content: "x", syntax_guard: "maybe" },
      /"syntax_guard" must be one of "refuse", "warn", "off", not "maybe"/,
    ],
    [
      "read_file",
      { path: "a.txt", start_lin: 2 },
      /unknown property "start_lin" \(did you mean "start_line"\?\)/,
    ],
  ];
  for (const [tool, args, want] of cases) {
    const r = await ws.call(tool, args);
    assert.ok(!r.ok && r.error.code === "invalid_args", tool);
    assert.match(r.error.message, want);
    assert.doesNotMatch(r.error.message, /Instance type|String is too short/);
  }
});

Deno.test("dispatch() gives every mutating tool syntax_guard, and honours it", async () => {
  const { TOOLS } = await import("../../../src/mod.ts");
  for (const t of TOOLS) {
    const props = t.inputSchema["properties"] as Record<string, unknown>;
    assert.equal("syntax_guard" in props, t.mutates && !t.previewOnly, t.name);
  }
  const { createWasmLoader } = await import("../../../src/adapters/deno/mod.ts");
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/a.ts": "export const a = 1;\n" }),
    wasm: createWasmLoader(),
  });
  const broken = { path: "a.ts", content: "export const a = (1;\n" };
  const refusedCall = await ws.call("write_file", broken);
  assert.ok(!refusedCall.ok && refusedCall.error.code === "syntax_error");
  const warned = await ws.call("write_file", { ...broken, syntax_guard: "warn" });
  assert.ok(warned.ok && warned.status === "applied");
  assert.match(warned.warnings.join("\n"), /syntax errors/);
});

Deno.test("dispatch() folds argument aliases into their schema name, and refuses both given differently", async () => {
  const { findTool } = await import("../../../src/mod.ts");
  const tool = findTool("write_file")!;
  const aliased = { ...tool, aliases: { text: "content" } };
  const { validateArgs } = await import("../../../src/mod.ts");
  assert.deepEqual(validateArgs(aliased, { path: "a", text: "x" }), { path: "a", content: "x" });
  assert.deepEqual(validateArgs(aliased, { path: "a", text: "x", content: "x" }), {
    path: "a",
    content: "x",
  });
  assert.throws(
    () => validateArgs(aliased, { path: "a", text: "x", content: "y" }),
    (e: unknown) => e instanceof Error && /"text" and "content" name the same argument/.test(e.message),
  );
});

Deno.test("dispatch() runs route steps before guard steps; a route may rewrite the call, which is validated again", async () => {
  const order: string[] = [];
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/a.txt": "one\n" }),
    steps: [
      {
        name: "guard",
        stage: "guard",
        run(call) {
          order.push(`guard:${call.tool.name}`);
        },
      },
      {
        name: "router",
        stage: "route",
        run(call) {
          order.push(`route:${call.tool.name}`);
          if (call.tool.name === "write_file") {
            call.args = { ...call.args, dry_run: true };
            call.reminders.push({ provider: "test", text: "previewed", preserve_on_compact: false });
          }
        },
      },
    ],
  });
  const r = await ws.call("write_file", { path: "a.txt", content: "two\n" });
  assert.deepEqual(order, ["route:write_file", "guard:write_file"]);
  assert.ok(r.ok && r.status === "dry_run", "the rewritten dry_run held");
  assert.deepEqual(r.reminders.map((x) => x.text), ["previewed"]);
  assert.equal(new TextDecoder().decode((await ws.fs.read("/a.txt"))!), "one\n");
});

Deno.test("dispatch() runs review steps on the staged changes, then after hooks on the final result", async () => {
  const seen: string[] = [];
  const { RecoverableError } = await import("../../../src/mod.ts");
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/a.txt": "one\n", "/b.txt": "b\n" }),
    steps: [
      {
        name: "reviewer",
        stage: "review",
        run(call) {
          seen.push(`review:${call.tool.name}:${call.changes.map((c) => c.path).join(",")}`);
          if (call.changes.some((c) => c.path === "b.txt")) {
            throw new RecoverableError("unread_range", "b.txt was not read", { hint: "Read b.txt first" });
          }
        },
        after(call, result) {
          seen.push(
            `after:${call.tool.name}:${result.ok ? result.status : result.error.code}:${call.nested}`,
          );
        },
      },
    ],
  });
  const ok = await ws.call("write_file", { path: "a.txt", content: "two\n" });
  assert.ok(ok.ok && ok.status === "applied");
  const refused = await ws.call("write_file", { path: "b.txt", content: "c\n" });
  assert.ok(!refused.ok && refused.error.code === "unread_range");
  assert.equal(new TextDecoder().decode((await ws.fs.read("/b.txt"))!), "b\n", "nothing written");
  const read = await ws.call("read_file", { path: "a.txt" });
  assert.ok(read.ok);
  await ws.call("read_file", { paht: "a.txt" }); // invalid args: no call was built, no after
  const plan = await ws.call("edit_dry_run", {
    plan: [{ tool: "write_file", args: { path: "a.txt", content: "x\n" } }],
  });
  assert.ok(plan.ok, JSON.stringify(plan));
  assert.deepEqual(seen, [
    "review:write_file:a.txt",
    "after:write_file:applied:false",
    "review:write_file:b.txt",
    "after:write_file:unread_range:false",
    "review:read_file:",
    "after:read_file:read:false",
    "review:write_file:a.txt", // the plan's op, on its forked stage
    "review:edit_dry_run:a.txt",
    "after:edit_dry_run:dry_run:false",
  ]);
});

Deno.test("dispatch() answers a mistyped tool name with deeply nested arguments without overflowing the stack", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({ "/a.txt": "a" }) });
  let deep: unknown = "leaf";
  for (let i = 0; i < 20000; i++) deep = { a: deep };
  const r = await ws.call("read_fle", { path: "a.txt", extra: deep });
  assert.ok(!r.ok);
  assert.equal(r.error.code, "not_found");
  assert.deepEqual(r.error.suggested_call, { tool: "read_file", args: {} });
  assert.ok(JSON.stringify(r).length < 5000); // what every surface does with it
  const shallow = await ws.call("read_fle", { path: "a.txt" });
  assert.ok(!shallow.ok);
  assert.deepEqual(shallow.error.suggested_call, { tool: "read_file", args: { path: "a.txt" } });
});

Deno.test("dispatch() refuses a lone surrogate in a string argument, naming the argument, and writes nothing", async () => {
  const backend = createMemoryBackend({ "/a.txt": "a\n" });
  const ws = await createWorkspace({ backend });
  const r = await ws.call("write_file", { path: "a.txt", content: "smile \uD83D here\n" });
  assert.ok(!r.ok);
  assert.equal(r.error.code, "invalid_args");
  assert.match(r.error.message, /argument "content" holds a lone surrogate \(U\+D83D at character 6\)/);
  assert.equal(new TextDecoder().decode(await backend.readFile("/a.txt") as Uint8Array), "a\n");
  const nested = await ws.call("edit_file", {
    path: "a.txt",
    edits: [{ oldText: "a", newText: "b" }, { oldText: "b", newText: "\uDE00" }],
  });
  assert.ok(!nested.ok);
  assert.equal(nested.error.code, "invalid_args");
  assert.match(nested.error.message, /argument "edits\[1\]\.newText"/);
  const paired = await ws.call("write_file", { path: "a.txt", content: "smile \uD83D\uDE00\n" });
  assert.ok(paired.ok, JSON.stringify(paired));
});
