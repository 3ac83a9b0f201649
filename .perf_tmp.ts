import { createMemoryBackend, createWorkspace, Grammars } from "./src/mod.ts";
import { createWasmLoader } from "./src/adapters/deno/mod.ts";
const text = await Deno.readTextFile("/tmp/perf/big.py");
const lines = text.split("\n");
const grammars = new Grammars(createWasmLoader());
function block(i: number) {
  const b = lines.slice(i, i + 4);
  return "big.py\n```\n<<<<<<< SEARCH\n" + b.join("\n") + "\n=======\n" + b.join("\n") + "\n# x" + i +
    "\n>>>>>>> REPLACE\n```\n";
}
const t = () => performance.now();
async function run(label: string, guard: "refuse" | "off", warm: boolean, n = 8) {
  const times: number[] = [];
  for (let k = 0; k < n; k++) {
    const ws = await createWorkspace({
      backend: createMemoryBackend({ "/big.py": text }),
      grammars,
      syntaxGuard: guard,
    });
    if (warm) {
      await ws.call("read_file", { path: "big.py" });
      await ws.call("outline", { path: "big.py" });
    }
    const s = t();
    const r = await ws.call("apply_edits", { text: block(5000 + k * 997) });
    times.push(t() - s);
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    await ws.close();
  }
  times.sort((a, b) => a - b);
  console.log(label, times.map((x) => x.toFixed(1)).join(" "), "median", times[n >> 1]!.toFixed(1));
}
// warm up grammar
{
  const ws = await createWorkspace({ backend: createMemoryBackend({ "/big.py": text }), grammars });
  await ws.call("outline", { path: "big.py" });
  await ws.close();
}
await run("guard off, new ws ", "off", false);
await run("guard on,  new ws ", "refuse", false);
await run("guard on,  warm ws", "refuse", true);
const parser = await grammars.parser("python");
let s = t();
const tree = parser.parse(text)!;
console.log("full parse", (t() - s).toFixed(1));
tree.delete();
