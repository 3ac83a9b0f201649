/**
 * Memory of a search session over 100,000 files (issue 24: "searching 100,000 files keeps only what the walk
 * needs plus caches with stated bounds; peak RSS reported"). The tree: hono's published sources (577 real
 * files, node_modules/hono) copied round-robin into 1,000 folders of 100 files in a temporary folder
 * (`--files N` to change the count). Measured in the same run, each a fresh process under `/usr/bin/time -f
 * "%e %M"` (wall seconds, peak RSS):
 *
 * - graver's `search_text` session (`bench/_search_100k_child.ts DIR text`: three `search_text` calls of a
 *   literal in `count` mode, each scanning every file through the session's read cache), beside `rg -c -F`;
 * - graver's `search_structural` session (`... DIR structural`: three searches of `c.req.header($A)` in the
 *   JavaScript files, each parsing the files that hold its literals through the workspace's parse cache),
 *   beside `ast-grep run -p` when it is installed (`tools/node_modules/.bin/ast-grep`, or `AST_GREP`).
 *
 * Each child also reports, after each search, the process's resident set, V8's heap (used and reserved) and
 * the memory outside it (byte arrays), and what the caches hold. The files scanned are checked equal to the
 * files written, and each count of matched files equal to the other tool's.
 *
 *   deno run -A bench/search_100k.ts [--files 100000] [--keep] [--dir D] [--only text|structural] [--v8-flags=...]
 *
 * `--keep` leaves the tree in place, and `--dir D` searches such a tree again instead of writing one. *
 * `--v8-flags=...` is passed to the graver children (e.g. `--v8-flags=--max-old-space-size=600`), and
 * `GRAVER_TEXT_MIB=N` in the environment sets their decoded texts' budget (`decodedTexts.setMaxBytes`).
 *
 * @module
 */
import { join } from "node:path";
import { RACY_MS } from "../src/project/read_cache.ts";
import { astGrepPath } from "../tests/unit/search/_astgrep.ts";
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

/** One graver child's report. */
interface ChildReport {
  runs: {
    ms: number;
    scanned: number;
    matched: number;
    parsed?: number;
    rssMiB: number;
    heapUsedMiB: number;
    heapTotalMiB: number;
    externalMiB: number;
  }[];
  cache: { files: number; bytes: number; folders: number };
  texts: { texts: number; bytes: number; decodes: number };
  trees: { size: number; heldChars?: number } | null;
}

const V8_FLAGS = Deno.args.filter((a) => a.startsWith("--v8-flags="));
const ONLY = flag("only", "");
const MiB = 2 ** 20;

/** Run the graver child in `mode` over `dir`: its report, wall seconds and peak RSS. */
async function graverSession(
  dir: string,
  mode: string,
): Promise<ChildReport & { wall: number; rssMiB: number }> {
  const child = join(ROOT, "bench/_search_100k_child.ts");
  const g = await measured(
    [Deno.execPath(), "run", "-A", ...V8_FLAGS, "--config", join(ROOT, "deno.json"), child, dir, mode],
    ROOT,
  );
  const report = JSON.parse(g.out.trim().split("\n").at(-1)!) as ChildReport;
  // A text search reads every file; a structural one those of its language (the others are out of scope).
  const expected = mode === "text" ? FILES : report.runs[0]!.scanned;
  for (const r of report.runs) {
    if (r.scanned !== expected) throw new Error(`graver (${mode}) scanned ${r.scanned} of ${expected} files`);
  }
  return { ...report, wall: g.wall, rssMiB: g.rssMiB };
}

/** The session's line: each search's time, what it held after, the process's peak. */
function describeSession(name: string, s: ChildReport & { wall: number; rssMiB: number }): string {
  const runs = s.runs.map((r) =>
    `${r.ms} ms (rss ${r.rssMiB}, heap ${r.heapUsedMiB}/${r.heapTotalMiB}, outside ${r.externalMiB} MiB)`
  );
  const trees = s.trees === null
    ? ""
    : `, parse cache ${s.trees.size} trees${
      s.trees.heldChars === undefined ? "" : ` (${(s.trees.heldChars / MiB).toFixed(0)} MiB of source)`
    }`;
  return `${name}: searches ${runs.join(", ")} (cold, warm, warm); ${s.runs[0]!.matched} files matched${
    s.runs[0]!.parsed === undefined ? "" : `, ${s.runs[0]!.parsed} parsed`
  }; read cache ${s.cache.files} files, ${
    (s.cache.bytes / MiB).toFixed(0)
  } MiB, ${s.cache.folders} listings; ` +
    `texts held ${s.texts.texts} (${
      (s.texts.bytes / MiB).toFixed(0)
    } MiB, ${s.texts.decodes} decodes)${trees}; ` +
    `process ${s.wall.toFixed(1)} s, peak RSS ${s.rssMiB.toFixed(0)} MiB`;
}

/** `search_text`'s session beside rg; the RESULT line's part. */
async function textSession(dir: string): Promise<string> {
  const g = await graverSession(dir, "text");
  const rg = await measured(["rg", "-c", "-F", "createElement", "--no-config", "--no-ignore", "."], dir);
  const rgFiles = rg.out.trim().split("\n").filter((l) => l !== "").length;
  console.log(describeSession("graver search_text", g));
  if (rgFiles !== g.runs[0]!.matched) {
    throw new Error(`rg matched ${rgFiles} files, graver ${g.runs[0]!.matched}`);
  }
  console.log(
    `rg -c -F: ${rgFiles} files matched; process ${rg.wall.toFixed(2)} s, peak RSS ${
      rg.rssMiB.toFixed(0)
    } MiB`,
  );
  return `search_text peak RSS ${g.rssMiB.toFixed(0)} MiB (rg ${rg.rssMiB.toFixed(0)} MiB)`;
}

/** `search_structural`'s session beside ast-grep (when installed); the RESULT line's part. */
async function structuralSession(dir: string): Promise<string> {
  const g = await graverSession(dir, "structural");
  console.log(describeSession("graver search_structural", g));
  const bin = Deno.env.get("AST_GREP") ?? await astGrepPath();
  if (bin === null) return `search_structural peak RSS ${g.rssMiB.toFixed(0)} MiB`;
  const sg = await measured(
    [bin, "run", "-p", "c.req.header($A)", "--lang", "js", "--json=compact", "."],
    dir,
  );
  const sgFiles = new Set((JSON.parse(sg.out || "[]") as { file: string }[]).map((m) => m.file)).size;
  if (sgFiles !== g.runs[0]!.matched) {
    throw new Error(`ast-grep matched ${sgFiles} files, graver ${g.runs[0]!.matched}`);
  }
  console.log(
    `ast-grep run -p: ${sgFiles} files matched; process ${sg.wall.toFixed(2)} s, peak RSS ${
      sg.rssMiB.toFixed(0)
    } MiB`,
  );
  return `search_structural peak RSS ${g.rssMiB.toFixed(0)} MiB (ast-grep ${sg.rssMiB.toFixed(0)} MiB)`;
}

/** The total size of the files under `dir`. */
async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const path of await walkFiles(dir, () => true)) total += (await Deno.stat(path)).size;
  return total;
}

// `--dir D` searches a tree an earlier run left (`--keep`) instead of writing one.
const GIVEN = flag("dir", "");
const dir = GIVEN || await Deno.makeTempDir({ prefix: "graver-search-100k-" });
try {
  console.log(
    `# search sessions over ${FILES.toLocaleString("en")} files (${machine()}${
      V8_FLAGS.length ? `, ${V8_FLAGS.join(" ")}` : ""
    })`,
  );
  const written = GIVEN ? await sizeOf(dir) : await generate(dir, FILES, await sources());
  console.log(
    `tree: ${dir}, ${FILES} files in ${Math.ceil(FILES / PER_DIR)} folders, ${
      (written / MiB).toFixed(0)
    } MiB`,
  );
  // Files changed in the last RACY_MS are read again by a session's cache: wait them out, as a tree at rest.
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 100));
  const parts: string[] = [];
  if (ONLY !== "structural") parts.push(await textSession(dir));
  if (ONLY !== "text") parts.push(await structuralSession(dir));
  console.log(`RESULT search_100k: ${FILES} files (${(written / MiB).toFixed(0)} MiB): ${parts.join("; ")}`);
} finally {
  if (!GIVEN && !Deno.args.includes("--keep")) await Deno.remove(dir, { recursive: true });
}
