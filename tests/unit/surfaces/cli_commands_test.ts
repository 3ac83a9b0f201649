import assert from "node:assert/strict";
import { inProcess, stripAnsi } from "./_cli.ts";
import { startGraph } from "../_start_graph.ts";

Deno.test("importing cli_commands registers every built-in command, each with its help", async () => {
  const help = stripAnsi((await inProcess(["--help"])).stdout);
  for (const command of ["call", "apply", "checkpoints", "grep", "read", "sg", "stats", "tools"]) {
    assert.match(help, new RegExp(`\\b${command}\\b`), command);
    const own = await inProcess([command, "--help"]);
    assert.equal(own.code, 0, command);
  }
});

Deno.test("the Deno CLI entry registers every command but loads the server, the stream feed, the stats walk and the search engines only with theirs", async () => {
  const graph = await startGraph("adapters/deno/cli.ts");
  assert.ok(graph.has("surfaces/cli_grep.ts") && graph.has("surfaces/cli_serve.ts"));
  const lazy = [
    "adapters/deno/serve.ts",
    "adapters/deno/stop_guard.ts",
    "adapters/deno/call_worker.ts",
    "surfaces/cli_stream.ts",
    "surfaces/stream_feed.ts",
    "surfaces/_stats.ts",
    "surfaces/http.ts",
    "surfaces/mcp_http.ts",
    // The engines each command loads on its need (a start that loaded them cost each command 17–60 ms):
    "fs/memory_backend.ts", // memfs
    "syntax/linear_regex.ts", // re2js
    "search/rule_text.ts", // js-yaml
    "structural/search/pattern_matcher.ts",
    "surfaces/_sg_stdin.ts",
    "surfaces/_sg_validate.ts",
  ];
  assert.deepEqual(lazy.filter((f) => graph.has(f)), []);
});
