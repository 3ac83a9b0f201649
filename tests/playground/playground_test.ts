import assert from "node:assert/strict";
import { BackendFs, createMemoryBackend } from "../../src/mod.ts";
import { createWasmLoader } from "../../src/adapters/deno/mod.ts";
import { type KeyValueStore, Playground } from "../../examples/playground/playground.ts";
import {
  SAMPLE_FILES,
  SAMPLE_RESPONSES,
  SAMPLE_ROOT,
  STREAM_RESPONSE,
  STREAM_RESPONSE_FRESH,
} from "../../examples/playground/sample.ts";
import { lineSource } from "../../src/surfaces/stream_feed.ts";
import type { StreamEvent } from "../../src/mod.ts";

function memoryStore(): KeyValueStore {
  const map = new Map<string, string>();
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

const wasm = createWasmLoader();

async function text(backend: ReturnType<typeof createMemoryBackend>, rel: string): Promise<string | null> {
  const bytes = await BackendFs.wrap(backend).read(`${SAMPLE_ROOT}/${rel}`);
  return bytes && new TextDecoder().decode(bytes);
}

Deno.test("Playground seeds the sample project once, then finds it again", async () => {
  const backend = createMemoryBackend();
  const pg = await Playground.open({ backend, wasm });
  for (const [rel, body] of Object.entries(SAMPLE_FILES)) assert.equal(await text(backend, rel), body);
  await BackendFs.wrap(backend).write(`${SAMPLE_ROOT}/README.md`, new TextEncoder().encode("mine\n"));
  await pg.workspace.close();
  await Playground.open({ backend, wasm });
  assert.equal(await text(backend, "README.md"), "mine\n");
});

Deno.test("Playground: every sample response previews and applies through dispatch, and undo reverts it", async () => {
  const backend = createMemoryBackend();
  const pg = await Playground.open({ backend, wasm });
  // The read guard is on: the session reads each file first, as the page's code view does.
  for (const path of Object.keys(SAMPLE_FILES)) await pg.call("read_file", { path });
  for (const [name, response] of Object.entries(SAMPLE_RESPONSES)) {
    const preview = await pg.call("apply_edits", { text: response }, { dryRun: true });
    if (name.includes("gate refuses")) {
      assert.ok(!preview.ok && preview.error.code === "definition_gate", name);
      assert.equal(preview.error.suggested_call?.tool, "remove_symbol");
      continue;
    }
    assert.ok(preview.ok && preview.status === "dry_run", `${name}: ${JSON.stringify(preview)}`);
    const blocks = preview.data["blocks"] as { tier: string }[];
    assert.ok(blocks.every((b) => typeof b.tier === "string"), name);
    const applied = await pg.call("apply_edits", { text: response });
    assert.ok(applied.ok && applied.status === "applied", name);
  }
  assert.match((await text(backend, "src/cart.ts"))!, /this\.items\.reduce\(/);
  const list = await pg.call("checkpoint_list", {});
  assert.ok(list.ok);
  assert.equal(list.data["total"], 3);
  const undo = await pg.call("checkpoint_undo", {});
  assert.ok(undo.ok && undo.status === "applied");
  assert.equal(await text(backend, "tools/report.py"), SAMPLE_FILES["tools/report.py"]);
  // The feed saw the commits and the gate's refusal; the counters the guard trigger.
  const names = pg.feed.map((e) => `${e.name}${e.attributes["code"] ? ` ${e.attributes["code"]}` : ""}`);
  assert.ok(names.includes("graver.commit"));
  assert.ok(names.includes("graver.refusal definition_gate"));
  assert.ok(pg.counters.series().some((s) => s.name.startsWith("graver.guard.trigger")));
});

Deno.test("Playground keeps the session's ledger and settings across a reload, and reset restores the sample", async () => {
  const backend = createMemoryBackend();
  const store = memoryStore();
  const pg = await Playground.open({ backend, wasm, store });
  await pg.call("read_file", { path: "src/money.ts" });
  await pg.configure({ gate: "warn" });
  assert.equal(pg.ledgerView("src/money.ts").state, "fully_read");
  const renamed = await pg.call("edit_rename_symbol", {
    path: "src/money.ts",
    target: "formatPrice",
    new_name: "formatCents",
  });
  assert.ok(renamed.ok && renamed.status === "applied");
  await pg.workspace.close();

  const again = await Playground.open({ backend, wasm, store });
  assert.equal(again.settings.gate, "warn");
  // Restored, not fresh: the file is still fully read, at the version the rename wrote.
  const view = again.ledgerView("src/money.ts");
  assert.equal(view.state, "fully_read");
  assert.equal(view.version, renamed.changes.find((c) => c.path === "src/money.ts")!.after_version);
  const list = await again.call("checkpoint_list", {});
  assert.ok(list.ok && list.data["total"] === 1);

  await again.reset();
  assert.equal(await text(backend, "src/money.ts"), SAMPLE_FILES["src/money.ts"]);
  const after = await again.call("checkpoint_list", {});
  assert.ok(after.ok && after.data["total"] === 0);
  assert.equal(again.ledgerView("src/money.ts").state, "never_read");
});

Deno.test("Playground: the compass names no structural tool for a one-line body edit, and edit_rename_symbol only for a definition", async () => {
  const backend = createMemoryBackend();
  const pg = await Playground.open({ backend, wasm });
  for (const path of Object.keys(SAMPLE_FILES)) await pg.call("read_file", { path });
  const router = (r: { reminders: { provider: string; text: string }[] }) =>
    r.reminders.filter((x) => x.provider === "compass_router").map((x) => x.text).join("\n");
  // The sample apply_patch changes one print line inside report()'s body.
  const body = await pg.call("apply_edits", { text: SAMPLE_RESPONSES["Codex apply_patch"]! }, {
    dryRun: true,
  });
  assert.ok(body.ok, JSON.stringify(body));
  assert.doesNotMatch(router(body), /edit_apply_node|edit_rename_symbol|replace_symbol/);
  const line = await pg.call("edit_file", {
    path: "src/cart.ts",
    old_string: "    this.items.push(item);",
    new_string: "    this.items.unshift(item);",
  }, { dryRun: true });
  assert.ok(line.ok);
  assert.doesNotMatch(router(line), /edit_apply_node|edit_rename_symbol/);
  // A call site renamed by text renames no definition; the definition itself does.
  const call = await pg.call("edit_file", {
    path: "src/cart.ts",
    old_string: "formatPrice(this.total())",
    new_string: "formatPrice(this.sum())",
  }, { dryRun: true });
  assert.doesNotMatch(router(call), /edit_rename_symbol/);
  const def = await pg.call("edit_file", {
    path: "src/cart.ts",
    old_string: "  total(): number {",
    new_string: "  sum(): number {",
  }, { dryRun: true });
  assert.match(router(def), /edit_rename_symbol/);
});

Deno.test("Playground.streamApply: the replay's sample is refused at its stale block and lands without it, as the one-shot call", async () => {
  const backend = createMemoryBackend();
  const streamed = await Playground.open({ backend, wasm });
  const plain = await Playground.open({ backend: createMemoryBackend(), wasm });
  for (const pg of [streamed, plain]) {
    for (const path of ["src/money.ts", "src/main.ts"]) await pg.call("read_file", { path });
  }
  for (const text of [STREAM_RESPONSE, STREAM_RESPONSE_FRESH]) {
    const events: StreamEvent[] = [];
    const result = await streamed.streamApply(lineSource(text), (e) => events.push(e));
    assert.deepEqual(result, await plain.call("apply_edits", { text }));
    assert.equal(events.at(-1)?.type, "result");
  }
  const money = await text(backend, "src/money.ts");
  assert.match(money!, /toLocaleString/);
  assert.doesNotMatch(money!, /Math\.min\(percent/, "the stale block never landed");
  assert.match(
    (await text(backend, "src/main.ts"))!,
    /console\.log\("total", formatPrice\(cart\.total\(\)\)\);/,
  );
});
