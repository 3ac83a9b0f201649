/** The edit guard's decisions, through a real workspace (dispatch, real tools, a real source file). */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  createMemoryBackend,
  createWorkspace,
  MemoryTelemetry,
  type ToolResult,
  type Workspace,
} from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { textLines } from "../../../src/fs/lines.ts";
import type { ReadGuardOptions } from "../../../src/guards/read_guard.ts";

/** jsdiff's base.js: 253 lines of real JavaScript. */
const SOURCE = await Deno.readTextFile(
  fileURLToPath(
    new URL("../../../node_modules/.deno/diff@9.0.0/node_modules/diff/libesm/diff/base.js", import.meta.url),
  ),
);
const LINES = textLines(SOURCE);
/** Line (1-based) of the first line containing `text`. */
function lineOf(text: string): number {
  const i = LINES.findIndex((l) => l.includes(text));
  assert.ok(i >= 0, text);
  return i + 1;
}
const S = { session: "agent" };

async function open(guard: ReadGuardOptions["mode"] | ReadGuardOptions = "refuse") {
  const telemetry = new MemoryTelemetry();
  const backend = createMemoryBackend({ "/w/base.js": SOURCE });
  const ws = await createWorkspace({
    backend,
    root: "/w",
    wasm: createWasmLoader(),
    telemetry,
    readGuard: guard,
    definitionGate: "off", // these edits are judged by the read guard alone
  });
  return { ws, telemetry, backend };
}

/** An edit_file call replacing line `n` (unique text) with itself plus a comment. */
function touch(n: number, note = "touched"): Record<string, unknown> {
  return { path: "base.js", old_text: LINES[n - 1], new_text: `${LINES[n - 1]} // ${note}` };
}

function err(r: ToolResult) {
  assert.ok(!r.ok, `expected a refusal, got ${JSON.stringify(r).slice(0, 300)}`);
  return r.error;
}

function applied(r: ToolResult) {
  assert.ok(r.ok && r.status === "applied", JSON.stringify(r).slice(0, 600));
  return r;
}

async function read(ws: Workspace, start: number, end: number) {
  const r = await ws.call("read_file", { path: "base.js", start_line: start, end_line: end }, S);
  assert.ok(r.ok);
  return r;
}

const CAST = lineOf("castInput(value, options) {"); // 190
const REMOVE = lineOf("removeEmpty(array) {"); // 180
const TOKENIZE = lineOf("tokenize(value, options) {"); // 194

Deno.test("guard: lines fully covered by the session's reads proceed", async () => {
  const { ws, telemetry } = await open();
  await read(ws, 150, 200);
  applied(await ws.call("edit_file", touch(CAST), S));
  assert.equal(telemetry.total("graver.guard.checks"), 1);
  assert.equal(telemetry.total("graver.guard.triggers"), 0);
});

Deno.test("guard: a partial overlap is refused naming exactly the unread lines (no auto-expand: read them first)", async () => {
  const { ws, telemetry } = await open({ autoExpand: false });
  await read(ws, 50, 100);
  // Replace lines 80–120 in one edit.
  const old = LINES.slice(79, 120).join("\n");
  const gone = { path: "base.js", old_text: old, new_text: "// gone", syntax_guard: "off" };
  const e = err(await ws.call("edit_file", gone, S));
  assert.equal(e.code, "unread_range");
  assert.equal(e.message, 'Cannot edit "base.js": lines 101–120 were not read');
  assert.deepEqual(e.details?.["lines"], [{ start_line: 101, end_line: 120 }]);
  assert.deepEqual(e.suggested_call, {
    tool: "read_file",
    args: { path: "base.js", start_line: 101, end_line: 120 },
  });
  assert.match(e.hint, /^Read that range first: read_file/);
  assert.equal(telemetry.total("graver.guard.triggers", { reason: "unread_range", outcome: "refused" }), 1);
  // Reading the range it named makes the same edit land.
  await read(ws, 101, 120);
  applied(await ws.call("edit_file", gone, S));
});

Deno.test("guard: an edit of a file the session never read is refused", async () => {
  const { ws, telemetry } = await open({ autoExpand: false });
  const e = err(await ws.call("edit_file", touch(CAST), S));
  assert.equal(e.code, "unread_range");
  assert.equal(
    e.message,
    `Cannot edit "base.js": the session has not read it (the edit changes line ${CAST})`,
  );
  assert.equal(telemetry.total("graver.guard.triggers", { reason: "never_read" }), 1);
});

Deno.test("guard: new files and the session's own files are allowed without a read", async () => {
  const { ws } = await open();
  applied(
    await ws.call("create_file", {
      path: "src/new.ts",
      content: "export const a = 1;\nexport const b = 2;\n",
    }, S),
  );
  applied(await ws.call("write_file", { path: "other.ts", content: "export const c = 3;\n" }, S));
  assert.equal(ws.ledger("agent").view("src/new.ts").state, "model_authored");
  // Never read, but written by this session: it knows the content.
  applied(await ws.call("edit_file", { path: "src/new.ts", old_text: "b = 2", new_text: "b = 22" }, S));
  applied(await ws.call("edit_file", { path: "other.ts", old_text: "c = 3", new_text: "c = 33" }, S));
  // Deleting or moving edits no line.
  applied(await ws.call("move_file", { from: "base.js", to: "moved.js" }, S));
  applied(await ws.call("delete_file", { path: "moved.js" }, S));
});

Deno.test("guard: a file changed outside the session is allowed with a warning; a stale expected_version stays stale_base", async () => {
  const { ws, backend, telemetry } = await open();
  const first = await read(ws, 1, 253);
  await ws.call("list_files", {}, S);
  await ws.call("list_files", {}, S);
  // Another process inserts a header.
  await backend.writeFile("/w/base.js", new TextEncoder().encode("// header\n" + SOURCE));
  const r = applied(await ws.call("edit_file", touch(CAST), S));
  assert.match(r.warnings.join("\n"), /You last saw "base\.js" 3 calls ago; it has changed since/);
  assert.equal(telemetry.total("graver.guard.triggers", { reason: "stale", outcome: "warned" }), 1);
  // The edit's own expected_version is the old one: the handler refuses it as stale_base.
  const stale = await ws.call(
    "edit_file",
    { ...touch(TOKENIZE), expected_version: first.data["version"] },
    S,
  );
  assert.equal(err(stale).code, "stale_base");
  // After the session's own write the ledger is current again: the remapped ranges still count.
  assert.equal(ws.ledger("agent").view("base.js").state, "partial_read");
  assert.deepEqual(ws.ledger("agent").view("base.js").seen, [{ start: 2, end: 254 }]);
});

Deno.test("guard: overwriting an existing file whole needs all of it read", async () => {
  const { ws } = await open({ autoExpand: false });
  await read(ws, 1, 200);
  const whole = { path: "base.js", content: SOURCE.replace("castInput", "castIt") };
  const e = err(await ws.call("write_file", whole, S));
  assert.equal(e.code, "unread_range");
  assert.equal(
    e.message,
    `Cannot overwrite "base.js" whole: lines 201–${LINES.length} of it were not read (replacing an existing file needs all of it read)`,
  );
  assert.equal(e.details?.["reason"], "whole_file");
  await read(ws, 201, LINES.length);
  assert.equal(ws.ledger("agent").view("base.js").state, "fully_read");
  applied(await ws.call("write_file", whole, S));
  assert.equal(ws.ledger("agent").view("base.js").state, "model_authored");
});

Deno.test("guard: scoped auto-expand shows the missing lines, marks them read, and the identical retry succeeds", async () => {
  const { ws, telemetry } = await open();
  await read(ws, 1, 40);
  const edit = touch(CAST);
  const e = err(await ws.call("edit_file", edit, S));
  assert.equal(e.message, `Cannot edit "base.js": line ${CAST} was not read`);
  const unread = (e.details?.["unread"] as Record<string, unknown>[])[0]!;
  assert.equal(unread["content"], `${CAST}\t${LINES[CAST - 1]}`);
  assert.deepEqual(e.suggested_call, { tool: "edit_file", args: edit });
  assert.match(e.hint, /now count as read: check the edit against them, then send the same call again/);
  applied(await ws.call("edit_file", edit, S));
  assert.equal(telemetry.total("graver.guard.auto_expanded"), 1);
  assert.equal(telemetry.total("graver.guard.auto_expand_resolved"), 1);
  // The expansion is bounded: a long unread span shows its first lines, and says to read the rest.
  const big = await open({ expandLines: 10 });
  await read(big.ws, 1, 10);
  const old = LINES.slice(99, 140).join("\n");
  const e2 = err(
    await big.ws.call(
      "edit_file",
      { path: "base.js", old_text: old, new_text: "//", syntax_guard: "off" },
      S,
    ),
  );
  const u2 = (e2.details?.["unread"] as Record<string, unknown>[])[0]!;
  assert.deepEqual(u2["shown"], [{ start_line: 100, end_line: 109 }]);
  assert.equal(String(u2["content"]).split("\n").length, 10);
  assert.deepEqual(e2.suggested_call, {
    tool: "read_file",
    args: { path: "base.js", start_line: 100, end_line: 140 },
  });
});

Deno.test("guard modes: warn writes with a warning, off writes silently, previews are only warned", async () => {
  const warn = await open("warn");
  const w = applied(await warn.ws.call("edit_file", touch(CAST), S));
  assert.match(
    w.warnings.join("\n"),
    new RegExp(`Line ${CAST} of "base\\.js" was not read by this session`),
  );
  assert.equal(warn.telemetry.total("graver.guard.triggers", { outcome: "warned" }), 1);
  const off = await open("off");
  assert.deepEqual(applied(await off.ws.call("edit_file", touch(CAST), S)).warnings, []);
  // A per-call mode overrides the workspace's (graver apply's "off").
  const refuse = await open();
  applied(await refuse.ws.call("edit_file", touch(CAST), { ...S, readGuard: "off" }));
  const dry = await refuse.ws.call("edit_file", touch(TOKENIZE), { ...S, dryRun: true });
  assert.ok(dry.ok && dry.status === "dry_run");
  assert.match(dry.warnings.join("\n"), /(was|were) not read by this session \(a preview/);
});

Deno.test("guard: calls without a session are never guarded and answer exactly as with the guard off", async () => {
  const on = await open();
  const off = await open("off");
  for (const args of [touch(CAST), { path: "base.js", content: "x\n" }]) {
    const tool = "content" in args ? "write_file" : "edit_file";
    assert.deepEqual(await on.ws.call(tool, args), await off.ws.call(tool, args));
  }
  assert.equal(on.telemetry.total("graver.guard.checks"), 0);
  assert.deepEqual(on.ws.exportSession("default").files, {}, "nothing recorded for an unnamed session");
});

Deno.test("guard: find_symbol bodies count as read, an outline does not", async () => {
  const { ws } = await open({ autoExpand: false });
  const o = await ws.call("outline", { path: "base.js" }, S);
  assert.ok(o.ok);
  assert.equal(ws.ledger("agent").view("base.js").state, "never_read");
  assert.equal(ws.ledger("agent").view("base.js").outlined, true);
  const edit = touch(CAST);
  assert.equal(err(await ws.call("edit_file", edit, S)).code, "unread_range");
  const found = await ws.call(
    "find_symbol",
    { name_path: "castInput", path: "base.js", include_body: true },
    S,
  );
  assert.ok(found.ok, JSON.stringify(found));
  applied(await ws.call("edit_file", edit, S));
  // A structural edit of a body the session saw passes too.
  await ws.call("find_symbol", { name_path: "removeEmpty", path: "base.js", include_body: true }, S);
  applied(
    await ws.call("replace_symbol", {
      path: "base.js",
      name_path: "Diff/removeEmpty",
      new_text: "removeEmpty(array) {\n    return array.filter(Boolean);\n}",
    }, S),
  );
});

Deno.test("guard: lines a did-you-mean window showed count as read", async () => {
  const { ws } = await open({ autoExpand: false });
  const wrong = { path: "base.js", old_text: LINES[CAST - 1]!.replace("options", "opts"), new_text: "x" };
  const miss = err(await ws.call("edit_file", wrong, S));
  assert.equal(miss.code, "no_match");
  assert.deepEqual(ws.ledger("agent").view("base.js").seen, [{ start: CAST, end: CAST }]);
  applied(await ws.call("edit_file", touch(CAST), S));
});

Deno.test("guard: an insertion next to a seen line passes; seen-but-evicted lines pass with a warning", async () => {
  const { ws, telemetry } = await open({ autoExpand: false });
  await read(ws, REMOVE, CAST);
  const line = LINES[CAST - 1]!;
  applied(
    await ws.call("edit_file", { path: "base.js", old_text: line, new_text: `${line}\n        // first` }, S),
  );
  ws.ledger("agent").markEvicted();
  const r = applied(await ws.call("edit_file", touch(REMOVE), S));
  assert.match(
    r.warnings.join("\n"),
    new RegExp(`Line ${REMOVE} of "base\\.js" was seen before your context was compacted`),
  );
  assert.equal(telemetry.total("graver.guard.triggers", { reason: "evicted" }), 1);
});

Deno.test("exportSession/importSession carry a session's ledger to another workspace", async () => {
  const a = await open({ autoExpand: false });
  await read(a.ws, 150, 200);
  const data = JSON.parse(JSON.stringify(a.ws.exportSession("agent")));
  const b = await open({ autoExpand: false });
  assert.equal(err(await b.ws.call("edit_file", touch(CAST), S)).code, "unread_range");
  b.ws.importSession("agent", data);
  applied(await b.ws.call("edit_file", touch(CAST), S));
});

Deno.test("guard: a plan's preview judges its ops without touching the ledger", async () => {
  const { ws } = await open();
  await read(ws, REMOVE, TOKENIZE);
  const before = ws.exportSession("agent");
  const plan = await ws.call("edit_dry_run", {
    plan: [
      { tool: "edit_file", args: touch(CAST, "one") },
      { tool: "edit_file", args: touch(TOKENIZE, "two") },
      { tool: "edit_file", args: touch(lineOf("join(chars) {"), "unread") },
    ],
  }, S);
  assert.ok(plan.ok, JSON.stringify(plan).slice(0, 400));
  assert.match(plan.warnings.join("\n"), /(was|were) not read by this session \(a preview/);
  assert.doesNotMatch(plan.warnings.join("\n"), /You last saw/);
  const after = ws.exportSession("agent");
  assert.deepEqual(after.files, before.files, "the ledger's files are as they were");
  const r = applied(await ws.call("edit_file", touch(CAST), S));
  assert.deepEqual(r.warnings, []);
});
