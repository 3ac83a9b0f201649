/**
 * Memory of a search session over 100,000 files (issue 24: "searching 100,000 files keeps only what the walk
 * needs plus caches with stated bounds; peak RSS reported"). The tree: hono's published sources (577 real
 * files, node_modules/hono) copied round-robin into 1,000 folders of 100 files in a temporary folder
 * (`--files N` to change the count). Measured in the same run, each a fresh process under `/usr/bin/time -f
 * "%e %M"` (wall seconds, peak RSS): graver's child (`bench/_search_100k_child.ts`: one session, three
 * `search_text` calls of a literal in `count` mode, each scanning every file through the session's read cache,
 * bounded at 256 MiB of contents) and `rg -c -F` over the same tree. The files scanned are checked equal to
 * the files written.
 *
 *   deno run -A bench/search_100k.ts [--files 100000] [--keep]
 *
 * @module
 */
import { join } from "node:path";
import { RACY_MS } from "../src/project/read_cache.ts";
import { machine, ROOT, walkFiles } from "./_util.ts";

function flag(name: string, fallback: string): string {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 && Deno.args[i + 1] !== undefined ? Deno.args[i + 1]! : fallback;
}

const FILES = Number(flag("files", "100000"));
const PER_DIR = 100;

/** The real files the tree is made of: hono's published package. */
async function sources(): Promise<{ ext: string; bytes: Uint8Array }[]> {
  const hono = Deno.realPathSync(join(ROOT, "node_modules/hono"));
  const out: { ext: string; bytes: Uint8Array }[] = [];
  for (const path of await walkFiles(hono, (name) => /\.(?:[cm]?js|ts|json|md)$/.test(name))) {
    out.push({ ext: path.slice(path.lastIndexOf(".")), bytes: await Deno.readFile(path) });
  }
  return out;
}

/** Write `count` files under `dir`, PER_DIR to a folder, cycling through `from`; returns the bytes written. */
async function generate(
  dir: string,
  count: number,
  from: { ext: string; bytes: Uint8Array }[],
): Promise<number> {
  let total = 0;
  for (let d = 0; d * PER_DIR < count; d++) {
    const folder = join(dir, `pkg${String(d).padStart(4, "0")}`);
    await Deno.mkdir(folder, { recursive: true });
    const writes: Promise<void>[] = [];
    for (let i = 0; i < PER_DIR && d * PER_DIR + i < count; i++) {
      const src = from[(d * PER_DIR + i) % from.length]!;
      total += src.bytes.length;
      writes.push(Deno.writeFile(join(folder, `f${i}${src.ext}`), src.bytes));
    }
    await Promise.all(writes);
  }
  return total;
}

/** Run a command under `/usr/bin/time`: its stdout, wall seconds and peak RSS in MiB. */
async function measured(cmd: string[], cwd: string): Promise<{ out: string; wall: number; rssMiB: number }> {
  const res = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "%e %M", ...cmd],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const lines = new TextDecoder().decode(res.stderr).trim().split("\n");
  const [wall, kib] = lines.at(-1)!.split(" ").map(Number);
  return { out: new TextDecoder().decode(res.stdout), wall: wall!, rssMiB: kib! / 1024 };
}

const dir = await Deno.makeTempDir({ prefix: "graver-search-100k-" });
try {
  console.log(`# search_text over ${FILES.toLocaleString("en")} files (${machine()})`);
  const written = await generate(dir, FILES, await sources());
  console.log(
    `tree: ${dir}, ${FILES} files in ${Math.ceil(FILES / PER_DIR)} folders, ${
      (written / 2 ** 20).toFixed(0)
    } MiB`,
  );
  // Files changed in the last RACY_MS are read again by a session's cache: wait them out, as a tree at rest.
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 100));
  const child = join(ROOT, "bench/_search_100k_child.ts");
  const g = await measured(
    [Deno.execPath(), "run", "-A", "--config", join(ROOT, "deno.json"), child, dir],
    ROOT,
  );
  const report = JSON.parse(g.out.trim().split("\n").at(-1)!);
  for (const r of report.runs) {
    if (r.scanned !== FILES) throw new Error(`graver scanned ${r.scanned} of ${FILES} files`);
  }
  const rg = await measured(["rg", "-c", "-F", "createElement", "--no-config", "--no-ignore", "."], dir);
  const rgFiles = rg.out.trim().split("\n").filter((l) => l !== "").length;
  console.log(
    `graver: searches ${report.runs.map((r: { ms: number }) => `${r.ms} ms`).join(", ")} ` +
      `(cold, warm, warm); ${
        report.runs[0].matched
      } files matched; cache holds ${report.cache.files} files, ` +
      `${(report.cache.bytes / 2 ** 20).toFixed(0)} MiB, ${report.cache.folders} folder listings; ` +
      `process ${g.wall.toFixed(1)} s, peak RSS ${g.rssMiB.toFixed(0)} MiB`,
  );
  if (rgFiles !== report.runs[0].matched) {
    throw new Error(`rg matched ${rgFiles} files, graver ${report.runs[0].matched}`);
  }
  console.log(
    `rg -c -F: ${rgFiles} files matched; process ${rg.wall.toFixed(2)} s, peak RSS ${
      rg.rssMiB.toFixed(0)
    } MiB`,
  );
  console.log(
    `RESULT search_100k: graver peak RSS ${g.rssMiB.toFixed(0)} MiB for ${FILES} files (${
      (written / 2 ** 20).toFixed(0)
    } MiB), rg ${rg.rssMiB.toFixed(0)} MiB`,
  );
} finally {
  if (!Deno.args.includes("--keep")) await Deno.remove(dir, { recursive: true });
}
