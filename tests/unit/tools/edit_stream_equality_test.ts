/**
 * The equality test of the edit stream: every input the text engine's suites apply (tests/unit/text/*, the
 * conformance suite's apply_edits/apply_patch/edit_file calls; captured into edit_stream_corpus.json with the
 * files each applied to), streamed in seeded random chunk sizes down to one character, ends in the one-shot
 * call's result, and the stream's last decision on each block agrees with that result's block reports.
 */
import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace, type StreamEvent, type ToolResult } from "../../../src/mod.ts";
import type { StreamTool } from "../../../src/tools/edit_stream.ts";
import { randomChunks, seededRandom } from "../../_helpers.ts";

interface Corpus {
  blobs: Record<string, { text?: string; base64?: string }>;
  cases: { tool: StreamTool; args: Record<string, unknown>; files: Record<string, string> }[];
}

const corpus = JSON.parse(
  await Deno.readTextFile(new URL("./edit_stream_corpus.json", import.meta.url)),
) as Corpus;

function filesOf(files: Record<string, string>): Record<string, string | Uint8Array> {
  const out: Record<string, string | Uint8Array> = {};
  for (const [path, id] of Object.entries(files)) {
    const blob = corpus.blobs[id]!;
    out[`/${path}`] = blob.text ?? Uint8Array.from(atob(blob.base64!), (c) => c.charCodeAt(0));
  }
  return out;
}

/** The stream's text and other arguments for a case. */
function streamed(
  tool: StreamTool,
  args: Record<string, unknown>,
): { text: string; rest: Record<string, unknown> } {
  if (tool === "apply_edits") {
    const { text, ...rest } = args;
    return { text: String(text), rest };
  }
  return { text: JSON.stringify(args), rest: {} };
}

interface Report {
  block: number;
  status: string;
  tier?: string;
  lines?: { start: number; end: number };
  new_lines?: { start: number; end: number };
  error?: { code: string; message: string };
}

function reportsOf(result: ToolResult): Report[] | null {
  const data = result.ok ? result.data : undefined;
  const blocks = data?.["blocks"] ?? (data?.["block"] ? [data["block"]] : undefined) ??
    (result.ok ? undefined : result.error.details?.["blocks"]);
  return Array.isArray(blocks) ? blocks as Report[] : null;
}

/** The stream's decisions agree with the result: the last event of each block says what its report says. */
function assertAgree(events: StreamEvent[], result: ToolResult, label: string): void {
  const last = new Map<number, StreamEvent & { type: "placed" | "refused" }>();
  for (const e of events) if (e.type === "placed" || e.type === "refused") last.set(e.block, e);
  const parseError = events.find((e) => e.type === "parse_error");
  if (parseError && parseError.type === "parse_error") {
    assert.ok(!result.ok, `${label}: a parse error, yet the call succeeded`);
    assert.equal(parseError.error.message, result.error.message, label);
  }
  const reports = reportsOf(result);
  if (reports === null) {
    // One refusal for the whole call (edit_file's, or a guard's): a decided block says the same.
    const only = last.get(1);
    if (!result.ok && only?.type === "refused") assert.equal(only.error.message, result.error.message, label);
    return;
  }
  for (const r of reports) {
    const e = last.get(r.block);
    assert.ok(e, `${label}: no event for block ${r.block}`);
    if (r.status === "applied") {
      assert.equal(e.type, "placed", `${label}: block ${r.block} ${JSON.stringify(e)}`);
      if (e.type !== "placed") continue;
      assert.equal(e.tier, r.tier, `${label}: block ${r.block} tier`);
      assert.deepEqual(
        e.lines,
        r.lines ?? r.new_lines ?? { start: 0, end: 0 },
        `${label}: block ${r.block} lines`,
      );
    } else {
      assert.equal(e.type, "refused", `${label}: block ${r.block} ${JSON.stringify(e)}`);
      if (e.type === "refused") assert.deepEqual(e.error, r.error, `${label}: block ${r.block} error`);
    }
  }
  assert.deepEqual([...last.keys()].filter((b) => !reports.some((r) => r.block === b)), [], label);
}

const GROUP = 50;
for (let from = 0; from < corpus.cases.length; from += GROUP) {
  const group = corpus.cases.slice(from, from + GROUP);
  Deno.test(`streamed in random chunks, cases ${from + 1}-${from + group.length} of the text suites end in the one-shot result`, async () => {
    for (const [k, c] of group.entries()) {
      const label = `case ${from + k + 1} (${c.tool})`;
      const files = filesOf(c.files);
      const whole = await (await createWorkspace({ backend: createMemoryBackend(files) })).call(
        c.tool,
        c.args,
      );
      const { text, rest } = streamed(c.tool, c.args);
      const rand = seededRandom(from + k + 1);
      for (const max of [1, 4, 64]) {
        const ws = await createWorkspace({ backend: createMemoryBackend(files) });
        const events: StreamEvent[] = [];
        const stream = ws.stream({ tool: c.tool, args: rest, onEvent: (e) => events.push(e) });
        for (const piece of randomChunks(text, rand, max)) await stream.write(piece);
        const result = await stream.end();
        assert.deepEqual(result, whole, `${label}, chunks up to ${max}`);
        assertAgree(events, result, `${label}, chunks up to ${max}`);
      }
    }
  });
}
