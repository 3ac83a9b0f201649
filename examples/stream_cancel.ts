/**
 * A harness that cancels a model's generation when graver refuses a block mid-stream: a canned model
 * response (three SEARCH/REPLACE blocks, the second written against code that is not there) arrives a few
 * characters at a time; graver places each block as it closes, refuses the second one at its `=======` line
 * (or when its replacement closes), and the harness aborts the generation there instead of paying for the
 * rest of it. Nothing is written: the file is as it was, and `end()` says which block to fix.
 *
 *   deno run -A examples/stream_cancel.ts
 *
 * @module
 */
import { createMemoryBackend, createWorkspace, type StreamEvent } from "../src/mod.ts";

const FILE = [
  "export function total(items: number[]): number {",
  "  let sum = 0;",
  "  for (const item of items) sum += item;",
  "  return sum;",
  "}",
  "",
].join("\n");

const RESPONSE = [
  "I'll rename the accumulator and add a guard.",
  "",
  "src/total.ts",
  "<<<<<<< SEARCH",
  "  let sum = 0;",
  "  for (const item of items) sum += item;",
  "  return sum;",
  "=======",
  "  let total = 0;",
  "  for (const item of items) total += item;",
  "  return total;",
  ">>>>>>> REPLACE",
  "",
  "<<<<<<< SEARCH",
  "export function total(items: Array<number>): number {",
  "=======",
  "export function total(items: readonly number[]): number {",
  "  if (items.length === 0) return 0;",
  ">>>>>>> REPLACE",
  "",
  "And a note at the end of the file:",
  "",
  "<<<<<<< SEARCH",
  "}",
  "=======",
  "}",
  "// totals are integers here",
  ">>>>>>> REPLACE",
  "",
].join("\n");

/** A model's response arriving a few characters at a time, until the harness cancels it. */
async function* generation(text: string, signal: AbortSignal): AsyncGenerator<string> {
  for (let i = 0; i < text.length && !signal.aborted; i += 7) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    yield text.slice(i, i + 7);
  }
}

const ws = await createWorkspace({ backend: createMemoryBackend({ "/src/total.ts": FILE }) });
const cancel = new AbortController();
const stream = ws.stream({
  tool: "apply_edits",
  stopOnRefusal: true,
  onEvent(event: StreamEvent) {
    if (event.type === "placed") {
      console.log(
        `block ${event.block} placed at lines ${event.lines.start}-${event.lines.end} (${event.tier})`,
      );
    }
    if (event.type === "refused") console.log(`block ${event.block} refused: ${event.error.code}`);
    if (event.type === "stopped") cancel.abort(); // stop paying for tokens that cannot land
  },
});

let sent = 0;
for await (const tokens of generation(RESPONSE, cancel.signal)) {
  sent += tokens.length;
  await stream.write(tokens);
}
const result = await stream.end();
console.log(`generation cancelled after ${sent} of ${RESPONSE.length} characters`);
console.log(
  result.ok ? "applied" : `${result.error.code}: ${result.error.message}\nhint: ${result.error.hint}`,
);
const read = await ws.call("read_file", { path: "src/total.ts" });
console.log(`file unchanged: ${JSON.stringify(read).includes("let sum = 0;")}`);
