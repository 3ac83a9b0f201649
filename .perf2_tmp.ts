import { Grammars, TreeCache } from "./src/syntax/mod.ts";
import { createWasmLoader } from "./src/adapters/deno/mod.ts";
import { syntaxProblems } from "./src/syntax/trees.ts";
import { versionOf } from "./src/fs/version.ts";
const text = await Deno.readTextFile("/tmp/perf/big.py");
const grammars = new Grammars(createWasmLoader());
const trees = new TreeCache(grammars);
const t = () => performance.now();
const lines = text.split("\n");
for (let k = 0; k < 5; k++) {
  const after = [...lines.slice(0, 5000 + k), "# x", ...lines.slice(5000 + k)].join("\n");
  let s = t();
  const v0 = await versionOf(new TextEncoder().encode(text));
  const v1 = await versionOf(new TextEncoder().encode(after));
  const hash = t() - s;
  s = t();
  const p0 = await trees.parse("big.py", "python", v0, text);
  const full = t() - s;
  s = t();
  syntaxProblems(p0.tree.rootNode, 500);
  const probs = t() - s;
  s = t();
  const e0 = p0.tree.rootNode.descendantsOfType(["block"]).length;
  const empt = t() - s;
  s = t();
  const p1 = await trees.parse("big.py", "python", v1, after);
  const inc = t() - s;
  s = t();
  syntaxProblems(p1.tree.rootNode, 500);
  const probs1 = t() - s;
  console.log({
    hash: hash.toFixed(1),
    full: full.toFixed(1),
    probs: probs.toFixed(1),
    emptyWalk: empt.toFixed(1),
    blocks: e0,
    inc: inc.toFixed(1),
    probs1: probs1.toFixed(1),
  });
  trees.clear();
}
