/**
 * A long agent session over MCP, as a harness drives one: the SDK's client over stdio to a real `graver mcp`
 * on a git repository of real code (jsdiff's ES modules), 200 calls — reads, searches, outlines, edits, a
 * replacement across files, undos — checked against a model of what each call should leave. At the end every
 * file is as the model says, `git status` lists exactly the files the model changed and nothing of `.graver/`,
 * and no single result was over the 100,000-character budget.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ROOT } from "../runtimes/_harness.ts";

const JSDIFF = Deno.realPathSync(new URL("../../node_modules/diff/libesm", import.meta.url));
const CALLS = 200;
const BUDGET = 100_000;

/** A small deterministic generator (the session is the same every run). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

/** The repository: jsdiff's sources under src/, committed. */
async function repository(): Promise<{ root: string; files: Map<string, string> }> {
  const root = await Deno.makeTempDir({ prefix: "graver-mcp-session-" });
  await new Deno.Command("cp", { args: ["-r", JSDIFF, `${root}/src`] }).output();
  const files = new Map<string, string>();
  const walk = (dir: string, rel: string) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) walk(`${dir}/${e.name}`, `${rel}${e.name}/`);
      else if (e.name.endsWith(".js")) {
        files.set(`${rel}${e.name}`, Deno.readTextFileSync(`${dir}/${e.name}`));
      }
    }
  };
  walk(`${root}/src`, "src/");
  await git(root, "init", "-q");
  await git(root, "add", "-A");
  await git(root, "commit", "-q", "-m", "jsdiff");
  return { root, files };
}

/** One committed operation of the model: each file's text before and after it. */
type Op = Map<string, { before: string; after: string }>;

/** A line of `text` that occurs exactly once and is worth editing, or null. */
function uniqueLine(text: string, pick: number): string | null {
  const lines = text.split("\n").filter((l) => l.trim().length > 12 && !l.includes("*"));
  for (let k = 0; k < lines.length; k++) {
    const line = lines[(pick + k) % lines.length]!;
    if (text.indexOf(line) === text.lastIndexOf(line)) return line;
  }
  return null;
}

Deno.test({
  name: "a 200-call MCP session on a real repository: every file as expected, git status clean of .graver/",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { root, files } = await repository();
    const model = new Map(files);
    const done: Op[] = [];
    const client = new Client({ name: "graver-session-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: Deno.execPath(),
        args: ["run", "-A", "src/adapters/deno/cli.ts", "mcp", "--root", root],
        cwd: ROOT,
        stderr: "inherit",
      }),
    );
    const random = rng(27);
    const paths = [...files.keys()].sort();
    let largest = 0;
    const counts: Record<string, number> = {};
    type Result = { ok: boolean; status?: string; data: Record<string, unknown>; error?: { code: string } };
    const once = async (name: string, args: Record<string, unknown>) => {
      const res = await client.callTool({ name, arguments: args });
      // What the client received: the text for the model and the structured result together.
      largest = Math.max(
        largest,
        JSON.stringify({ content: res.content, structuredContent: res.structuredContent }).length,
      );
      counts[name] = (counts[name] ?? 0) + 1;
      return res.structuredContent as Result;
    };
    // As an agent does: an edit of lines it never read is refused with those lines, and the same call again lands.
    const call = async (name: string, args: Record<string, unknown>) => {
      const first = await once(name, args);
      return first.error?.code === "unread_range" ? await once(name, args) : first;
    };
    try {
      for (let i = 0; i < CALLS; i++) {
        const path = paths[Math.floor(random() * paths.length)]!;
        const kind = i % 10;
        if (kind <= 3) {
          const lines = model.get(path)!.split("\n").length;
          const r = await call("read_file", {
            path,
            start_line: 1 + Math.floor(random() * Math.min(20, lines - 1)),
          });
          assert.ok(r.ok, JSON.stringify(r.error));
          assert.equal(r.data["version"] !== undefined, true);
        } else if (kind === 4) {
          const word = (model.get(path)!.match(/\b[a-z][A-Za-z]{5,}\b/g) ?? ["function"])[0]!;
          const r = await call("search_text", { pattern: word, word: true, max_results: 20 });
          assert.ok(r.ok, JSON.stringify(r.error));
        } else if (kind === 5) {
          const r = await call("outline", { path, max_results: 50 });
          assert.ok(r.ok || r.error?.code === "unsupported_language", JSON.stringify(r.error));
        } else if (kind === 6 || kind === 7) {
          const text = model.get(path)!;
          const line = uniqueLine(text, Math.floor(random() * 1000));
          if (line === null) continue;
          const next = text.replace(line, `${line} // edit ${i}`);
          const r = await call("edit_file", { path, old_string: line, new_string: `${line} // edit ${i}` });
          assert.ok(r.ok && r.status === "applied", `${i}: ${JSON.stringify(r.error)}`);
          done.push(new Map([[path, { before: text, after: next }]]));
          model.set(path, next);
        } else if (kind === 8) {
          if (done.length === 0) continue;
          const r = await call("checkpoint_undo", {});
          assert.ok(r.ok && r.status === "applied", `${i}: ${JSON.stringify(r.error)}`);
          for (const [p, { before }] of done.pop()!) model.set(p, before);
        } else {
          // A replacement across files: every `// edit N` marker of the session so far becomes `// done N`.
          const marked = [...model].filter(([, t]) => /\/\/ edit \d+/.test(t));
          if (marked.length === 0) continue;
          const r = await call("edit_replace_text", { pattern: "// edit (\\d+)", replacement: "// done $1" });
          assert.ok(r.ok && r.status === "applied", `${i}: ${JSON.stringify(r.error)}`);
          const op: Op = new Map();
          for (const [p, t] of marked) {
            const after = t.replace(/\/\/ edit (\d+)/g, "// done $1");
            op.set(p, { before: t, after });
            model.set(p, after);
          }
          done.push(op);
        }
      }
    } finally {
      await client.close();
    }
    for (const [path, text] of model) {
      assert.equal(await Deno.readTextFile(`${root}/${path}`), text, `${path} is as the session left it`);
    }
    const changed = [...model].filter(([p, t]) => files.get(p) !== t).map(([p]) => ` M ${p}`).sort();
    const status = (await git(root, "status", "--porcelain")).split("\n").filter((l) => l !== "");
    assert.deepEqual(status.sort(), changed, "git status shows the intended changes only, no .graver/");
    assert.ok(changed.length > 0 && counts["checkpoint_undo"]! > 5, JSON.stringify(counts));
    assert.ok(Object.values(counts).reduce((a, b) => a + b, 0) >= CALLS - 20, JSON.stringify(counts));
    assert.ok(largest <= BUDGET, `the largest result held ${largest} characters`);
    await Deno.remove(root, { recursive: true });
  },
});
