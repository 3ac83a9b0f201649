import assert from "node:assert/strict";
import { inProcess } from "./_cli.ts";

const CLI = new URL("../../../src/adapters/deno/cli.ts", import.meta.url).pathname;

const SOURCE =
  "def total(rows):\n    s = 0\n    for r in rows:\n        s += r\n    return s\n\n\ndef name():\n    return 'x'\n";

/** Two blocks of a model's response, cut where its tokens might fall. */
const CHUNKS = [
  "Here:\n\ncalc.py\n<<<<<<< SEA",
  "RCH\n    s = 0\n    for r in rows:\n        s += r\n    return s\n",
  "=======\n    return sum(rows)\n>>>>>>> REPLACE\n\ncalc.py\n<<<<<<< SEARCH\n    return 'x'\n",
  "=======\n    return 'y'\n>>>>>>> REPLACE\n",
];

/** `graver apply` as a real process with stdin and stdout piped: lines are read as they are printed. */
function spawnApply(args: string[]) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, "apply", ...args],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
    env: { NO_COLOR: "1" },
  }).spawn();
  const writer = child.stdin.getWriter();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return {
    write: (text: string) => writer.write(new TextEncoder().encode(text)),
    closeStdin: () => writer.close(),
    /** The next line of stdout, or null at its end. */
    async line(): Promise<string | null> {
      for (;;) {
        const end = buffer.indexOf("\n");
        if (end !== -1) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 1);
          return line;
        }
        const { value, done } = await reader.read();
        if (done) return buffer === "" ? null : buffer;
        buffer += value;
      }
    },
    status: () => child.status,
  };
}

async function project(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "graver-stream-" });
  await Deno.writeTextFile(`${dir}/calc.py`, SOURCE);
  return dir;
}

Deno.test("graver apply - --stream --json: reads a pipe as it comes, one JSON line per event, the result last and equal to apply --json", async () => {
  const dir = await project();
  try {
    const cli = spawnApply(["-", "--stream", "--json", "--root", dir]);
    const lines: Record<string, unknown>[] = [];
    // Block 1's search part closes in the third chunk: its placement is printed before stdin closes.
    for (const chunk of CHUNKS.slice(0, 3)) await cli.write(chunk);
    for (let line = await cli.line(); line !== null; line = await cli.line()) {
      lines.push(JSON.parse(line));
      if (lines.at(-1)!["type"] === "placed") break;
    }
    assert.deepEqual(lines.at(-1), {
      type: "placed",
      block: 1,
      path: "calc.py",
      lines: { start: 2, end: 5 },
      tier: "exact",
      input_line: 4,
    });
    await cli.write(CHUNKS[3]!);
    await cli.closeStdin();
    for (let line = await cli.line(); line !== null; line = await cli.line()) lines.push(JSON.parse(line));
    assert.equal((await cli.status()).code, 0);
    const last = lines.at(-1)!;
    assert.equal(last["type"], "result");
    assert.ok(lines.slice(0, -1).every((l) => l["type"] !== "result"), "one result, last");
    const streamed = last["result"] as Record<string, unknown>;
    assert.equal(streamed["ok"], true, JSON.stringify(streamed));
    assert.equal(
      await Deno.readTextFile(`${dir}/calc.py`),
      SOURCE.replace(/ {4}s = 0[^]*?return s\n/, "    return sum(rows)\n").replace("'x'", "'y'"),
    );

    // The same response through apply --json, on the same file: the same result.
    await Deno.writeTextFile(`${dir}/calc.py`, SOURCE);
    const whole = spawnApply(["-", "--json", "--root", dir]);
    await whole.write(CHUNKS.join(""));
    await whole.closeStdin();
    let text = "";
    for (let line = await whole.line(); line !== null; line = await whole.line()) text += line + "\n";
    assert.equal((await whole.status()).code, 0);
    assert.deepEqual(JSON.parse(text), streamed);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver apply - --stream --stop-on-refusal: the result comes at the first refused block, while stdin is still open", async () => {
  const dir = await project();
  try {
    const cli = spawnApply(["-", "--stream", "--stop-on-refusal", "--root", dir]);
    await cli.write("calc.py\n<<<<<<< SEARCH\n    return 'nope'\n=======\n    return 1\n>>>>>>> REPLACE\n\n");
    let out = "";
    for (let line = await cli.line(); line !== null; line = await cli.line()) out += line + "\n";
    // stdout ended and the process exited with stdin never closed: it stopped reading at the refusal.
    assert.equal((await cli.status()).code, 1, out);
    assert.match(out, /^✗ block 1 refused in calc\.py: no_match: /m);
    assert.match(out, /^■ stopped early \(refusal at block 1\)/m);
    assert.match(out, /^error no_match: The apply_edits stream stopped at block 1/m);
    await cli.closeStdin().catch(() => {});
    assert.equal(await Deno.readTextFile(`${dir}/calc.py`), SOURCE);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver apply - --stream: apply's exit codes (1 refused, 3 partial, 2 usage) and a human line per event", async () => {
  const dir = await project();
  try {
    const missing = "calc.py\n<<<<<<< SEARCH\n    return 'nope'\n=======\n    return 1\n>>>>>>> REPLACE\n";
    const refused = spawnApply(["-", "--stream", "--root", dir]);
    await refused.write(CHUNKS.join("") + "\n" + missing);
    await refused.closeStdin();
    let out = "";
    for (let line = await refused.line(); line !== null; line = await refused.line()) out += line + "\n";
    assert.equal((await refused.status()).code, 1, out);
    assert.match(out, /^error no_match: /m);
    assert.match(out, /^✓ block 1 placed at calc\.py:2-5 \(exact\)$/m);
    assert.match(out, /^✗ block 3 refused in calc\.py: no_match: /m);
    assert.equal(await Deno.readTextFile(`${dir}/calc.py`), SOURCE, "nothing written");

    const partial = spawnApply(["-", "--stream", "--partial", "--root", dir]);
    await partial.write(CHUNKS.join("") + "\n" + missing);
    await partial.closeStdin();
    while (await partial.line() !== null) { /* drain */ }
    assert.equal((await partial.status()).code, 3);
    assert.match(await Deno.readTextFile(`${dir}/calc.py`), /return sum\(rows\)/);

    const usage = spawnApply(["-", "--stop-on-refusal", "--root", dir]);
    await usage.closeStdin();
    while (await usage.line() !== null) { /* drain */ }
    assert.equal((await usage.status()).code, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver apply - --stream on a host that reads stdin only whole: fed line by line, the same result", async () => {
  const dir = await project();
  try {
    const run = await inProcess(["apply", "-", "--stream", "--json", "--root", dir, "--dry-run"], {
      stdin: CHUNKS.join(""),
    });
    assert.equal(run.code, 0, run.stdout);
    const last = JSON.parse(run.stdout.trimEnd().split("\n").at(-1)!);
    assert.equal(last.type, "result");
    assert.equal(last.result.status, "dry_run");
    assert.equal(await Deno.readTextFile(`${dir}/calc.py`), SOURCE);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
