import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace, openEditStream, type StreamEvent } from "../../../src/mod.ts";
import { Stage } from "../../../src/fs/stage.ts";

const BLOCKS = "a.txt\n<<<<<<< SEARCH\ntwo\n=======\n2\n>>>>>>> REPLACE\n";

async function workspace() {
  return await createWorkspace({ backend: createMemoryBackend({ "/a.txt": "one\ntwo\n" }) });
}

Deno.test("an edit stream fed one character at a time gives the one-shot call's result", async () => {
  const streamed = await workspace();
  const stream = streamed.stream({ tool: "apply_edits", dispatch: { dryRun: true } });
  const seen: StreamEvent[] = [];
  const reader = (async () => {
    for await (const e of stream.events()) seen.push(e);
  })();
  for (const ch of BLOCKS) await stream.write(ch);
  const result = await stream.end();
  await reader;
  const whole = await (await workspace()).call("apply_edits", { text: BLOCKS }, { dryRun: true });
  assert.deepEqual(result, whole);
  assert.deepEqual(seen.at(-1), { type: "result", result });
});

Deno.test("an aborted stream writes nothing and says so", async () => {
  const ws = await workspace();
  const stream = ws.stream({ tool: "apply_edits" });
  await stream.write(BLOCKS);
  stream.abort("the model was cancelled");
  const result = await stream.end();
  assert.equal(result.ok, false);
  assert.match(!result.ok ? result.error.message : "", /aborted.*nothing was written/);
  const read = await ws.call("read_file", { path: "a.txt" });
  assert.match(JSON.stringify(read), /two/);
});

Deno.test("streamed edit_file arguments that are not a JSON object are refused, not guessed", async () => {
  const ws = await workspace();
  const stream = ws.stream({ tool: "edit_file" });
  await stream.write('{"path": "a.txt", "old_text": "two"');
  const result = await stream.end();
  assert.equal(result.ok, false);
  assert.equal(!result.ok && result.error.code, "invalid_args");
});

/** Feed `pieces` to a new stream and collect its events and result. */
async function run(
  ws: Awaited<ReturnType<typeof workspace>>,
  options: Parameters<Awaited<ReturnType<typeof workspace>>["stream"]>[0],
  pieces: string[],
) {
  const events: StreamEvent[] = [];
  const stream = ws.stream({ ...options, onEvent: (e) => events.push(e) });
  const afterWrite: number[] = [];
  for (const p of pieces) {
    await stream.write(p);
    afterWrite.push(events.length);
  }
  const result = await stream.end();
  return { events, result, afterWrite, stream };
}

const TWO_FILES = { "/a.txt": "one\ntwo\nthree\n", "/b.txt": "x\ny\n" };
const BAD_SECOND = [
  "a.txt",
  "<<<<<<< SEARCH",
  "two",
  "=======",
  "2",
  ">>>>>>> REPLACE",
  "<<<<<<< SEARCH",
  "four",
  "=======",
  "4",
  ">>>>>>> REPLACE",
  "b.txt",
  "<<<<<<< SEARCH",
  "y",
  "=======",
  "Y",
  ">>>>>>> REPLACE",
  "",
].join("\n");

Deno.test("an edit stream places a block when its ======= closes the search side, before its replacement", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend(TWO_FILES) });
  const { events } = await run(ws, { tool: "apply_edits" }, [
    "a.txt\n<<<<<<< SEARCH\ntwo\n=======\n",
    "2\n>>>>>>> REPLACE\n",
  ]);
  assert.deepEqual(events.slice(0, 2), [
    { type: "file", path: "a.txt", op: "edit", input_line: 2 },
    { type: "placed", block: 1, path: "a.txt", lines: { start: 2, end: 2 }, tier: "exact", input_line: 2 },
  ]);
  const replaced = events.find((e) => e.type === "replaced");
  assert.deepEqual(replaced, {
    type: "replaced",
    block: 1,
    path: "a.txt",
    diff: "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n",
  });
});

Deno.test("without stopOnRefusal a refused block is reported and the stream goes on to the whole call's refusal", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend(TWO_FILES) });
  const { events, result } = await run(ws, { tool: "apply_edits" }, [...BAD_SECOND]);
  const decisions = events.filter((e) => e.type === "placed" || e.type === "refused");
  assert.deepEqual(decisions.map((e) => `${e.type} ${(e as { block: number }).block}`), [
    "placed 1",
    "refused 2",
    "placed 3",
  ]);
  assert.equal(events.some((e) => e.type === "stopped"), false);
  const whole = await (await createWorkspace({ backend: createMemoryBackend(TWO_FILES) })).call(
    "apply_edits",
    {
      text: BAD_SECOND,
    },
  );
  assert.deepEqual(result, whole);
  const refused = decisions[1] as StreamEvent & { type: "refused" };
  const blocks = !whole.ok ? whole.error.details?.["blocks"] as { error: unknown }[] : [];
  assert.deepEqual(refused.error, blocks[1]!.error);
});

Deno.test("with stopOnRefusal the stream stops at the first refused block, ignores the rest and writes nothing", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend(TWO_FILES) });
  const { events, result, stream } = await run(ws, { tool: "apply_edits", stopOnRefusal: true }, [
    ...BAD_SECOND,
  ]);
  const types = events.map((e) => e.type);
  assert.deepEqual(types, ["file", "placed", "replaced", "refused", "stopped", "result"]);
  assert.equal(stream.stopped, true);
  const stopped = events[4] as StreamEvent & { type: "stopped" };
  assert.equal(stopped.reason, "refusal");
  assert.equal(stopped.block, 2);
  assert.equal(result.ok, false);
  if (!result.ok) {
    assert.equal(result.error.code, "no_match");
    assert.match(result.error.message, /stream stopped at block 2 \(input line 7\), so nothing was written/);
    assert.match(result.error.hint, /send the whole edit again/);
    assert.deepEqual(result.error.details?.["stopped"], { reason: "refusal", block: 2 });
  }
  const read = await ws.call("read_file", { path: "a.txt" });
  assert.match(JSON.stringify(read), /two/);
});

Deno.test("with stopOnRefusal an ambiguous search side stops the stream at its =======, before the replacement", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({ "/a.txt": "x\ny\nx\n" }) });
  const stream = ws.stream({ tool: "apply_edits", stopOnRefusal: true });
  await stream.write("a.txt\n<<<<<<< SEARCH\nx\n=======\n");
  assert.equal(stream.stopped, true);
  const result = await stream.end();
  assert.equal(!result.ok && result.error.code, "ambiguous");
});

Deno.test("with stopOnRefusal a parse error stops the stream with the parser's refusal", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend(TWO_FILES) });
  const bad = "a.txt\n<<<<<<< SEARCH\ntwo\n>>>>>>> REPLACE\n";
  const { events, result } = await run(ws, { tool: "apply_edits", stopOnRefusal: true }, [
    bad,
    "more text\n",
  ]);
  assert.deepEqual(events.map((e) => e.type), ["file", "parse_error", "stopped", "result"]);
  const whole = await ws.call("apply_edits", { text: bad });
  assert.equal(!result.ok && result.error.code, "invalid_args");
  assert.ok(!whole.ok);
  assert.ok(!result.ok && result.error.message.endsWith(whole.error.message));
  assert.match(!result.ok ? result.error.message : "", /stopped at a parse error \(input line 4\)/);
});

Deno.test("with stopOnRefusal a parse error only the end of the text shows is the call's own refusal", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend(TWO_FILES) });
  const text = "a.txt\n>>>>>>> REPLACE\n";
  const { events, result, stream } = await run(ws, { tool: "apply_edits", stopOnRefusal: true }, [text]);
  assert.deepEqual(events.map((e) => e.type), ["parse_error", "result"]);
  assert.equal(stream.stopped, false);
  assert.deepEqual(result, await ws.call("apply_edits", { text }));
});

Deno.test("an aborted stream emits stopped, ignores later writes, and refuses at end", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend(TWO_FILES) });
  const events: StreamEvent[] = [];
  const stream = ws.stream({ tool: "apply_edits", onEvent: (e) => events.push(e) });
  await stream.write("a.txt\n<<<<<<< SEARCH\ntwo\n");
  stream.abort("the user cancelled");
  await stream.write("=======\n2\n>>>>>>> REPLACE\n");
  const result = await stream.end();
  assert.deepEqual(events.map((e) => e.type), ["file", "stopped", "result"]);
  assert.match(!result.ok ? result.error.message : "", /the user cancelled/);
});

Deno.test("a chunk boundary inside <<<<<<< SEARCH, a CRLF and a surrogate pair changes nothing", async () => {
  const files = { "/a.txt": "one\r\nsmile 😀\r\nthree\r\n" };
  const text = "a.txt\r\n<<<<<<< SEARCH\r\nsmile 😀\r\n=======\r\nsmile 😃\r\n>>>>>>> REPLACE\r\n";
  const cut = (at: number[]) => at.map((a, i) => text.slice(a, at[i + 1]));
  const searchCut = text.indexOf("SEARCH") - 3;
  const crlfCut = text.indexOf("\r\n", 5) + 1;
  const pairCut = text.indexOf("😀") + 1;
  const whole = await (await createWorkspace({ backend: createMemoryBackend(files) })).call("apply_edits", {
    text,
  });
  assert.ok(whole.ok, JSON.stringify(whole));
  for (const at of [[0, searchCut], [0, crlfCut], [0, pairCut], [0, crlfCut, searchCut, pairCut]]) {
    const ws = await createWorkspace({ backend: createMemoryBackend(files) });
    const { events, result } = await run(ws, { tool: "apply_edits" }, cut(at));
    assert.deepEqual(result, whole);
    const placed = events.find((e) => e.type === "placed");
    assert.deepEqual(placed && placed.type === "placed" && placed.lines, { start: 2, end: 2 });
  }
});

Deno.test("streamed edit_file arguments place old_text as soon as its string closes, escapes split anywhere", async () => {
  const files = { "/a.txt": 'say "hi"\nline é 😀\nend\n' };
  const args = { path: "a.txt", old_text: 'say "hi"\nline é 😀\n', new_text: "said\tit\n" };
  const json = JSON.stringify(args).replace("é", "\\u00e9").replace("😀", "\\ud83d\\ude00");
  assert.deepEqual(JSON.parse(json), args);
  const whole = await (await createWorkspace({ backend: createMemoryBackend(files) })).call(
    "edit_file",
    args,
  );
  assert.ok(whole.ok, JSON.stringify(whole));
  for (const size of [1, 2, 3, 5]) {
    const pieces: string[] = [];
    for (let i = 0; i < json.length; i += size) pieces.push(json.slice(i, i + size));
    const ws = await createWorkspace({ backend: createMemoryBackend(files) });
    const { events, result, afterWrite } = await run(ws, { tool: "edit_file" }, pieces);
    assert.deepEqual(result, whole);
    const placedAt = events.findIndex((e) => e.type === "placed");
    assert.ok(placedAt >= 0, JSON.stringify(events));
    // Placed before the new text was written: by the write that closed the old text's string.
    const closed = json.indexOf('","new_text"') + 1;
    const writeNo = Math.floor(closed / size);
    assert.ok(afterWrite[writeNo]! > placedAt, `placed by write ${writeNo}`);
    assert.deepEqual(events[placedAt], {
      type: "placed",
      block: 1,
      path: "a.txt",
      lines: { start: 1, end: 3 },
      tier: "exact",
      input_line: 1,
    });
    assert.equal(events.filter((e) => e.type === "replaced").length, 1);
  }
});

Deno.test("streamed str_replace arguments are refused when new_str closes; an ambiguous old_string waits for start_line", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({ "/a.txt": "x\ny\nx\n" }) });
  const missing = JSON.stringify({ command: "str_replace", path: "a.txt", old_str: "w", new_str: "z" });
  const early = ws.stream({ tool: "str_replace_based_edit_tool", stopOnRefusal: true });
  await early.write(missing.slice(0, -1));
  assert.equal(early.stopped, true);
  assert.equal((await early.end()).ok, false);

  // start_line after the texts picks one of the two places: no refusal until the object closes.
  const args = { path: "a.txt", old_string: "x", new_string: "z", start_line: 3 };
  const json = JSON.stringify(args);
  const { events, result } = await run(ws, { tool: "edit_file", stopOnRefusal: true }, [
    json.slice(0, json.indexOf('"start_line"')),
    json.slice(json.indexOf('"start_line"')),
  ]);
  assert.equal(events.some((e) => e.type === "refused"), false, JSON.stringify(events));
  const placed = events.filter((e) => e.type === "placed");
  assert.deepEqual(placed.at(-1) && placed.at(-1)!.type === "placed" && placed.at(-1)!.lines, {
    start: 3,
    end: 3,
  });
  assert.equal(result.ok, true);
});

Deno.test("a numbered diff hunk is placed once it has the lines its @@ header counts, before the diff ends", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend(TWO_FILES) });
  const diff = "--- a/a.txt\n+++ b/a.txt\n@@ -2,1 +2,1 @@\n-two\n+2\n";
  const events: StreamEvent[] = [];
  const stream = ws.stream({ tool: "apply_edits", onEvent: (e) => events.push(e) });
  await stream.write(diff);
  assert.deepEqual(events.map((e) => e.type), ["file", "placed"]);
  const result = await stream.end();
  assert.equal(result.ok, true);
  // The hunk closes only at the end: its decision is not repeated, the result follows.
  assert.deepEqual(events.map((e) => e.type), ["file", "placed", "result"]);
});

Deno.test("a hunk placed on its counts but refused by the call at the end gets the call's decision last", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({ "/a.txt": "a\nb\n" }) });
  // The hunk adds "a" above "b": already there, so the call refuses it (already_applied).
  const diff = "--- a/a.txt\n+++ b/a.txt\n@@ -2,1 +2,2 @@\n+a\n b\n";
  const { events, result } = await run(ws, { tool: "apply_edits" }, [diff]);
  assert.equal(!result.ok && result.error.code, "already_applied");
  const decisions = events.filter((e) => e.type === "placed" || e.type === "refused");
  assert.deepEqual(decisions.map((e) => e.type), ["placed", "refused"]);
  const last = decisions.at(-1)!;
  assert.equal(last.type === "refused" && last.error.code, "already_applied");
});

Deno.test("examples/stream_cancel.ts cancels the generation at the refused second block and writes nothing", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../../../examples/stream_cancel.ts", import.meta.url).pathname],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.match(text, /^block 1 placed at lines 2-4 \(exact\)\nblock 2 refused: no_match\n/);
  assert.match(text, /generation cancelled after \d+ of \d+ characters/);
  assert.doesNotMatch(text, /block 3/);
  assert.match(text, /file unchanged: true/);
});

Deno.test("a file a *** Begin Patch adds is placed and its lines shown as its change", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend(TWO_FILES) });
  const patch =
    "*** Begin Patch\n*** Add File: c.txt\n+hello\n+world\n*** Delete File: b.txt\n*** End Patch\n";
  const { events, result } = await run(ws, { tool: "apply_patch" }, [patch]);
  assert.equal(result.ok, true, JSON.stringify(result));
  assert.deepEqual(events.filter((e) => e.type !== "result"), [
    { type: "file", path: "c.txt", op: "create", input_line: 2 },
    { type: "placed", block: 1, path: "c.txt", lines: { start: 1, end: 2 }, tier: "create", input_line: 2 },
    {
      type: "replaced",
      block: 1,
      path: "c.txt",
      diff: "--- a/c.txt\n+++ b/c.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n",
    },
    { type: "file", path: "b.txt", op: "delete", input_line: 5 },
    { type: "placed", block: 2, path: "b.txt", lines: { start: 0, end: 0 }, tier: "delete", input_line: 5 },
  ]);
});

Deno.test("the events end when the host's call throws, and end() rejects with its error", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend(TWO_FILES) });
  const stream = openEditStream({
    call: () => Promise.reject(new Error("the dispatch broke")),
    openStage: () => new Stage(ws.fs, ws.sandbox),
  }, { tool: "apply_edits" });
  const seen: string[] = [];
  const reader = (async () => {
    for await (const e of stream.events()) seen.push(e.type);
  })();
  await stream.write("a.txt\n<<<<<<< SEARCH\ntwo\n=======\n2\n>>>>>>> REPLACE\n");
  await assert.rejects(stream.end(), /the dispatch broke/);
  await reader;
  assert.deepEqual(seen, ["file", "placed", "replaced"]);
});

Deno.test("an apply_edits stream past the one call's size limit stops reading and is refused limit_exceeded", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({ "/a.txt": "one\ntwo\n" }) });
  const events: StreamEvent[] = [];
  const stream = ws.stream({ tool: "apply_edits", onEvent: (e) => events.push(e) });
  await stream.write("a.txt\n<<<<<<< SEARCH\ntwo\n=======\n");
  const line = "x".repeat(1023) + "\n";
  for (let i = 0; i < 8 * 1024 + 1 && !stream.stopped; i++) await stream.write(line);
  assert.equal(stream.stopped, true);
  await stream.write(">>>>>>> REPLACE\n"); // ignored after the stop
  const result = await stream.end();
  assert.equal(!result.ok && result.error.code, "limit_exceeded");
  assert.match(!result.ok ? result.error.message : "", /stopped at its size limit, so nothing was written/);
  assert.deepEqual(events.find((e) => e.type === "stopped"), {
    type: "stopped",
    reason: "limit_exceeded",
    error: {
      code: "limit_exceeded",
      message: "the text is over 8388608 characters, the limit of one apply_edits call",
      hint: "Split the edits into several apply_edits calls, or replace whole files with write_file",
    },
  });
  assert.match(JSON.stringify(await ws.call("read_file", { path: "a.txt" })), /two/);
});
