import assert from "node:assert/strict";
import { createWasmLoader } from "../../src/adapters/deno/mod.ts";
import { BackendFs, createMemoryBackend, Grammars } from "../../src/mod.ts";
import { commitChanges } from "../../src/fs/commit.ts";
import { Sandbox } from "../../src/fs/sandbox.ts";
import { Stage } from "../../src/fs/stage.ts";
import { MemoryTelemetry, NOOP_TELEMETRY } from "../../src/telemetry.ts";
import { createWorkspace, type SyntaxGuardMode } from "../../src/workspace.ts";
import { enc, fixtureUrl, snapshot } from "../_helpers.ts";
import { faultyBackend } from "../conformance/fault_backend.ts";

const GRAMMARS = new Grammars(createWasmLoader());
const BROKEN = "export const a = ;\n";

Deno.test("createWorkspace() defaults: root /, refuse guard, no grammars, no-op telemetry, nothing recovered", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({ "/a.txt": "a" }) });
  assert.equal(ws.sandbox.root, "/");
  assert.equal(ws.syntaxGuard, "refuse");
  assert.equal(ws.grammars, null);
  assert.equal(ws.trees, null);
  assert.equal(ws.telemetry, NOOP_TELEMETRY);
  assert.equal(ws.recovered, "none");
  assert.deepEqual(ws.lock, {});
});

Deno.test("createWorkspace() with root maps tool paths under it and refuses paths outside", async () => {
  const backend = createMemoryBackend({ "/w/in.txt": "in\n", "/out.txt": "out\n" });
  const ws = await createWorkspace({ backend, root: "/w" });
  assert.ok((await ws.call("write_file", { path: "sub/new.txt", content: "n\n" })).ok);
  const escape = await ws.call("read_file", { path: "../out.txt" });
  assert.ok(!escape.ok && escape.error.code === "sandbox_violation", JSON.stringify(escape));
  const listed = await ws.call("list_files", { recursive: true });
  assert.ok(listed.ok);
  assert.deepEqual(listed.data["entries"], ["in.txt", "sub/", "sub/new.txt"]);
  assert.deepEqual(await snapshot(backend), {
    "/out.txt": "out\n",
    "/w/in.txt": "in\n",
    "/w/sub/new.txt": "n\n",
  });
});

Deno.test("createWorkspace() accepts an already wrapped backend and a shared grammar registry", async () => {
  const fs = BackendFs.wrap(createMemoryBackend({ "/a.ts": "export {};\n" }));
  const one = await createWorkspace({ backend: fs, grammars: GRAMMARS });
  const two = await createWorkspace({ backend: fs, grammars: GRAMMARS, wasm: createWasmLoader() });
  assert.equal(one.fs, fs);
  assert.equal(one.grammars, GRAMMARS);
  assert.equal(two.grammars, GRAMMARS);
  assert.notEqual(one.trees, two.trees);
});

const GUARD: { mode: SyntaxGuardMode; ok: boolean; warned: boolean; written: boolean }[] = [
  { mode: "refuse", ok: false, warned: false, written: false },
  { mode: "warn", ok: true, warned: true, written: true },
  { mode: "off", ok: true, warned: false, written: true },
];

for (const c of GUARD) {
  Deno.test(`createWorkspace() with syntaxGuard "${c.mode}" handles an edit that breaks the parse`, async () => {
    const backend = createMemoryBackend({ "/a.ts": "export const a = 1;\n" });
    const ws = await createWorkspace({ backend, wasm: createWasmLoader(), syntaxGuard: c.mode });
    assert.equal(ws.syntaxGuard, c.mode);
    const r = await ws.call("write_file", { path: "a.ts", content: BROKEN });
    assert.equal(r.ok, c.ok, JSON.stringify(r));
    if (!r.ok) assert.equal(r.error.code, "syntax_error");
    else assert.equal(r.warnings.some((w) => /syntax errors at "a.ts" line 1/.test(w)), c.warned);
    assert.equal((await snapshot(backend))["/a.ts"], c.written ? BROKEN : "export const a = 1;\n");
  });
}

Deno.test("createWorkspace() stands aside from a live commit lock and its lock options apply to calls", async () => {
  const backend = createMemoryBackend({ "/a.txt": "a" });
  await BackendFs.wrap(backend).write("/.graver/lock", enc(`${Date.now()} other-process`));
  const telemetry = new MemoryTelemetry();
  const ws = await createWorkspace({ backend, telemetry, lock: { waitMs: 0 } });
  assert.equal(ws.recovered, "busy");
  assert.deepEqual(telemetry.events, [{ name: "graver.journal.recovered", attributes: { outcome: "busy" } }]);
  const r = await ws.call("write_file", { path: "a.txt", content: "b" });
  assert.ok(!r.ok && r.error.code === "limit_exceeded", JSON.stringify(r));
  assert.equal((await snapshot(backend))["/a.txt"], "a");
});

Deno.test("createWorkspace() rolls back a crashed commit and reports it in recovered and telemetry", async () => {
  const outcomes = new Set<string>();
  for (let failAt = 1; failAt <= 40; failAt++) {
    const raw = createMemoryBackend({ "/a.txt": "one\n", "/b.txt": "two\n" });
    const before = await snapshot(raw);
    const stage = new Stage(BackendFs.wrap(raw), new Sandbox("/"));
    await stage.write("a.txt", enc("ONE\n"));
    await stage.write("b.txt", enc("TWO\n"));
    const crashed = faultyBackend(raw, { failAt, crash: true });
    const landed = await commitChanges(
      { fs: BackendFs.wrap(crashed.backend), sandbox: new Sandbox("/") },
      stage.changes(),
    )
      .then(() => true, () => false);
    if (landed) break; // past the last operation: nothing crashed
    const telemetry = new MemoryTelemetry();
    const ws = await createWorkspace({ backend: raw, telemetry, lock: { now: () => Date.now() + 60_000 } });
    outcomes.add(ws.recovered);
    if (ws.recovered === "rolled_back") {
      assert.deepEqual(await snapshot(raw), before, `crash at ${failAt}`);
      assert.deepEqual(telemetry.events, [{
        name: "graver.journal.recovered",
        attributes: { outcome: "rolled_back" },
      }]);
    }
    if (ws.recovered === "none") assert.deepEqual(telemetry.events, []);
  }
  assert.ok(outcomes.has("rolled_back"), `outcomes seen: ${[...outcomes].join(", ")}`);
});

Deno.test("Workspace.call() commits and emits graver.commit; a dry run emits nothing", async () => {
  const telemetry = new MemoryTelemetry();
  const backend = createMemoryBackend({ "/a.txt": "a\n" });
  const ws = await createWorkspace({ backend, telemetry });
  const dry = await ws.call("write_file", { path: "a.txt", content: "b\n" }, { dryRun: true });
  assert.ok(dry.ok && dry.status === "dry_run");
  assert.deepEqual(telemetry.events, []);
  const r = await ws.call("move_file", { from: "a.txt", to: "c.txt" });
  assert.ok(r.ok && r.status === "applied");
  assert.deepEqual(telemetry.events, [{
    name: "graver.commit",
    attributes: { tool: "move_file", files: 1, session: "default" },
  }]);
  assert.deepEqual(await snapshot(backend), { "/c.txt": "a\n" });
});

Deno.test("Workspace.close() frees the cached trees and the workspace keeps working", async () => {
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/a.py": "def f():\n    return 1\n" }),
    wasm: createWasmLoader(),
  });
  const before = await ws.call("outline", { path: "a.py" });
  assert.ok(before.ok);
  assert.equal(ws.trees!.size, 1);
  await ws.close();
  assert.equal(ws.trees!.size, 0);
  const after = await ws.call("replace_symbol", {
    path: "a.py",
    name_path: "f",
    new_body: "def f():\n    return 2",
  });
  assert.ok(after.ok, JSON.stringify(after));
  assert.equal(new TextDecoder().decode((await ws.fs.read("/a.py"))!), "def f():\n    return 2\n");
});

Deno.test("Workspace.call() runs calls made together one after another: no call walks a tree another freed", async () => {
  // Regression: outline, find_symbol and edits fired together on one file re-parsed (and freed) each other's
  // trees, failing a third of them with `internal` errors.
  const text = await Deno.readTextFile(fixtureUrl("structural", "validate.ts"));
  const ws = await createWorkspace({
    backend: createMemoryBackend({ "/a.ts": text }),
    wasm: createWasmLoader(),
  });
  const first = await ws.call("outline", { path: "a.ts" });
  assert.ok(first.ok);
  const names = (first.data["symbols"] as { name_path: string }[]).map((s) => s.name_path).slice(0, 6);
  const calls: Promise<{ ok: boolean; tool: string }>[] = [];
  for (let round = 0; round < 5; round++) {
    for (const n of names) {
      calls.push(ws.call("outline", { path: "a.ts" }));
      calls.push(ws.call("find_symbol", { name_path: n }));
      calls.push(
        ws.call("insert_code", {
          path: "a.ts",
          name_path: n,
          position: "after",
          code: "const x = 1;",
          dry_run: true,
        }),
      );
    }
    calls.push(
      ws.call("insert_code", {
        path: "a.ts",
        name_path: names[0],
        position: "before",
        code: `// round ${round}`,
      }),
    );
  }
  const results = await Promise.all(calls);
  assert.deepEqual(results.filter((r) => !r.ok), []);
  const after = new TextDecoder().decode((await ws.fs.read("/a.ts"))!);
  for (let round = 0; round < 5; round++) assert.ok(after.includes(`// round ${round}\n`), `round ${round}`);
});
