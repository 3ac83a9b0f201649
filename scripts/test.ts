/**
 * `deno task test`: every test, every runtime.
 *   1. set-up (idempotent): npm deps, vendored wasm, runtime tools
 *   2. house checks: `deno fmt --check`, `deno lint`, core type-checked without Deno/Node types,
 *      benches, scripts and examples type-checked
 *   3. unit and doc tests (`deno test --doc`), then the served surfaces end to end (tests/surfaces/),
 *      the Worker example in workerd (examples/worker/), the npm package from Node and Bun (tests/npm/),
 *      the browser playground (tests/playground/: its model in Deno, the page in headless Chromium)
 *   4. the conformance suite in Deno, Node, Bun, Chromium and workerd; all
 *      digests must agree
 * Ends with one line "N passed, N failed": unit/doc tests plus every runtime's
 * conformance cases (a runtime that crashes or a digest mismatch counts as a failure).
 *
 * @module
 */
const ROOT = new URL("../", import.meta.url).pathname;
const RUNTIMES = ["deno", "node", "bun", "browser", "workerd"] as const;

async function run(args: string[], capture = false): Promise<{ code: number; out: string }> {
  const cmd = new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdout: capture ? "piped" : "inherit",
    stderr: "inherit",
  });
  const result = await cmd.output();
  if (!capture) return { code: result.code, out: "" };
  const out = new TextDecoder().decode(result.stdout);
  console.log(out.trimEnd());
  return { code: result.code, out };
}

const started = performance.now();
let passed = 0;
let failed = 0;
const failures: string[] = [];

const setup = await run(["run", "-A", "scripts/setup.ts", "--all"]);
if (setup.code !== 0) {
  console.error("test: set-up failed");
  console.log("0 passed, 1 failed");
  Deno.exit(1);
}

// House checks first: formatting, lint and the web-standards-only core.
for (
  const [name, args] of [
    ["deno fmt --check", ["fmt", "--check"]],
    ["deno lint", ["lint"]],
    ["core without Deno/Node types", ["run", "-A", "scripts/check_core.ts"]],
    // Benches, scripts and examples are not run by the tests: type-check them so a moved export can't rot them.
    ["deno check bench/ scripts/ examples/", ["check", "bench/", "scripts/", "examples/"]],
  ] as const
) {
  const res = await run([...args], true);
  if (res.code === 0) passed++;
  else {
    failed++;
    failures.push(name);
  }
}

/** Run `deno test` and add its summary to the counts. */
async function denoTest(label: string, args: string[]): Promise<void> {
  const res = await run(["test", "-A", ...args], true);
  // deno test's summary: "ok | 360 passed | 0 failed (16s)" (colours stripped).
  // deno-lint-ignore no-control-regex -- strips ANSI colour codes from deno test's output
  const summary = /(\d+) passed[^|]*\| (\d+) failed/.exec(res.out.replace(/\x1b\[[0-9;]*m/g, ""));
  if (summary) {
    passed += Number(summary[1]);
    failed += Number(summary[2]);
  }
  if (res.code !== 0) {
    if (!summary || summary[2] === "0") failed++;
    failures.push(label);
  }
}

await denoTest("unit/doc tests", ["--doc", "--parallel", "src/", "tests/unit/"]);
// The served surfaces end to end: the HTTP suite against real servers in Deno, Node, Bun and workerd, and
// MCP through the SDK's own Client over stdio (a `graver mcp` subprocess) and Streamable HTTP.
await denoTest("surfaces (HTTP in 4 runtimes, MCP)", ["tests/surfaces/"]);
// The Cloudflare Worker example in workerd (a Durable Object workspace persisted across restarts) and its
// storage backend.
await denoTest("example worker (workerd)", ["examples/worker/"]);
// The npm package: built, packed, installed into a temporary project, run from Node and Bun.
await denoTest("npm package (Node, Bun)", ["tests/npm/"]);

// The browser playground (examples/playground): its model and highlighting in Deno, then the page end to end
// in headless Chromium (load, apply, a structural edit, undo, reload), screenshots under build/playground-test/.
await denoTest("playground (model, highlighting)", ["tests/playground/"]);
{
  const t0 = performance.now();
  const res = await run(["run", "-A", "tests/playground/run.ts"], true);
  const m = /^playground browser (\d+)\/(\d+)$/m.exec(res.out);
  const ok = res.code === 0 && m !== null && m[1] === m[2];
  if (m) {
    passed += Number(m[1]);
    failed += Number(m[2]) - Number(m[1]);
  }
  if (!ok) {
    if (!m || m[1] === m[2]) failed++;
    failures.push("playground in Chromium");
  }
  console.log(
    `test: playground in Chromium ${ok ? "ok" : "FAILED"} in ${
      ((performance.now() - t0) / 1000).toFixed(1)
    } s`,
  );
}

const digests = new Map<string, string>();
for (const rt of RUNTIMES) {
  const t0 = performance.now();
  const res = await run(["run", "-A", `tests/runtimes/${rt}/run.ts`], true);
  const line = res.out.split("\n").find((l) => l.startsWith(`conformance ${rt} `));
  const m = line ? /^conformance \S+ ([0-9a-f]{64}) (\d+)\/(\d+)$/.exec(line.trim()) : null;
  const ok = res.code === 0 && m !== null && m[2] === m[3];
  if (m) {
    passed += Number(m[2]);
    failed += Number(m[3]) - Number(m[2]);
  }
  console.log(
    `test: ${rt} conformance ${ok ? "ok" : "FAILED"} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  if (m) digests.set(rt, m[1]!);
  if (!ok) {
    if (!m || m[2] === m[3]) failed++;
    failures.push(`${rt} conformance`);
  }
}
const distinct = new Set(digests.values());
if (distinct.size > 1) {
  failed++;
  failures.push(`digests differ: ${[...digests].map(([r, d]) => `${r}=${d.slice(0, 12)}`).join(" ")}`);
} else if (digests.size === RUNTIMES.length) {
  console.log(`test: all ${RUNTIMES.length} runtimes agree on digest ${[...distinct][0]}`);
}

console.log(`test: finished in ${((performance.now() - started) / 1000).toFixed(1)} s`);
if (failures.length > 0) console.log(`test: failed: ${failures.join("; ")}`);
console.log(`${passed} passed, ${failed} failed`);
Deno.exit(failed === 0 ? 0 : 1);
