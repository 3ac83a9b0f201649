import assert from "node:assert/strict";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { EventHub, type FeedEvent, publicAttributes } from "../../../src/surfaces/events.ts";
import { MemoryTelemetry } from "../../../src/telemetry.ts";
import { createWorkspace } from "../../../src/workspace.ts";

Deno.test("EventHub publishes a workspace's commits and refusals with their session, forwards everything", async () => {
  const forward = new MemoryTelemetry();
  const hub = new EventHub({ forward });
  const ws = await createWorkspace({ backend: createMemoryBackend(), telemetry: hub });
  const all: FeedEvent[] = [];
  const sub = hub.subscribe((e) => all.push(e));
  await ws.call("create_file", { path: "a.txt", content: "top secret\n" }, { session: "s1" });
  await ws.call("create_file", { path: "a.txt", content: "again\n" }, { session: "s2" });
  sub.close();
  await ws.call("read_file", { path: "nope" });
  assert.deepEqual(all.map((e) => [e.id, e.name, e.session, e.attributes["tool"]]), [
    [1, "graver.commit", "s1", "create_file"],
    [2, "graver.refusal", "s2", "create_file"],
  ]);
  assert.equal(all[1]!.attributes["code"], "already_exists");
  assert.ok(!JSON.stringify(all).includes("secret"));
  // the forwarded sink sees every event and counter, the one after the subscription closed included
  assert.equal(forward.events.length, 3);
  assert.equal(forward.total("graver.tool.calls"), 3);
  assert.equal(hub.subscribers, 0);
});

Deno.test("EventHub evicts the oldest subscriber beyond its bound and survives a throwing one", () => {
  const hub = new EventHub({ maxSubscribers: 2 });
  const evicted: string[] = [];
  const got: string[] = [];
  hub.subscribe(() => {
    throw new Error("broken subscriber");
  }, { onEvicted: () => evicted.push("first") });
  hub.subscribe((e) => got.push(`second ${e.name}`));
  hub.event("graver.commit", { tool: "write_file", files: 1 });
  hub.subscribe((e) => got.push(`third ${e.name}`));
  hub.event("graver.route", { from: "edit_file", to: "replace_symbol" });
  assert.deepEqual(evicted, ["first"]);
  assert.deepEqual(got, ["second graver.commit", "second graver.route", "third graver.route"]);
  assert.equal(hub.subscribers, 2);
});

Deno.test("publicAttributes() drops content-like attributes and cuts long strings", () => {
  const out = publicAttributes("graver.step.failed", {
    step: "ledger",
    error: "x".repeat(500),
    content: "file body",
    diff: "-a\n+b",
    code: "let a = 1",
  });
  assert.deepEqual(Object.keys(out), ["step", "error"]);
  assert.equal(String(out["error"]).length, 201);
  assert.equal(publicAttributes("graver.refusal", { code: "no_match" })["code"], "no_match");
});
