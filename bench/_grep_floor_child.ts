/**
 * One fresh process of bench/grep_floor.ts: the least a JavaScript grep can do in Deno — walk the current
 * folder with `Deno.readDirSync` (names starting with "." and `node_modules` left out, as rg and graver leave
 * them out of hono's package), read each file with `Deno.readFileSync`, decode it, find a fixed string with
 * `indexOf` and print `path:line:column:text` for each matched line. No `.gitignore`, no guard against links,
 * FIFOs or hung mounts, no binary check, no versions: a floor, not a grep to use. With `--guarded`, each file
 * is read as graver's disk backend reads it on a local mount (`node:fs` `openSync` with `O_NONBLOCK` and
 * `O_NOFOLLOW`, the descriptor's type checked through `/proc/self/fd`, `readSync`, `closeSync`): what that
 * guard costs over a plain `Deno.readFileSync`. The time of the work itself (the walk, reads and scan, up to the
 * lines written) goes to stderr as `{"work": ms, "node_fs": ms}`, the second the import of `node:fs`.
 *
 *   deno run -A bench/_grep_floor_child.ts PATTERN [--guarded]
 *
 * @module
 */
const pattern = Deno.args[0] ?? "createElement";
const guarded = Deno.args.includes("--guarded");
const loading = performance.now();
const fs = guarded ? await import("node:fs") : null; // graver's CLI loads it at start, --version too
const started = performance.now();
const decoder = new TextDecoder();
const lines: string[] = [];

/** Every matched line of one file's text, as rg prints it (the column of the line's first match). */
function scan(path: string, text: string): void {
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf(pattern); at !== -1;) {
    for (let nl = text.indexOf("\n", lineStart); nl !== -1 && nl < at; nl = text.indexOf("\n", lineStart)) {
      line++;
      lineStart = nl + 1;
    }
    const end = text.indexOf("\n", at);
    const lineEnd = end === -1 ? text.length : end;
    lines.push(`${path}:${line}:${at - lineStart + 1}:${text.slice(lineStart, lineEnd)}`);
    at = end === -1 ? -1 : text.indexOf(pattern, lineEnd + 1);
  }
}

/** Walk a folder depth first, names in order. */
function walk(dir: string): void {
  const entries = Array.from(Deno.readDirSync(dir)).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0
  );
  for (const e of entries) {
    if (e.name.startsWith(".") || e.name === "node_modules") continue;
    const path = dir === "." ? e.name : `${dir}/${e.name}`;
    if (e.isDirectory) walk(path);
    else if (e.isFile) scan(path, decoder.decode(fs ? readGuarded(fs, path) : Deno.readFileSync(path)));
  }
}

/** A file read with graver's guard: never follows a link, never waits on a FIFO, refuses what is not a file. */
function readGuarded(fs: typeof import("node:fs"), path: string): Uint8Array {
  const { O_RDONLY, O_NONBLOCK, O_NOFOLLOW } = fs.constants;
  const fd = fs.openSync(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
  try {
    const st = Deno.statSync(`/proc/self/fd/${fd}`);
    if (!st.isFile) throw new Error(`${path} is not a regular file`);
    const bytes = new Uint8Array(st.size);
    for (let at = 0, n; at < st.size && (n = fs.readSync(fd, bytes, at, st.size - at, null)) > 0;) at += n;
    return bytes;
  } finally {
    fs.closeSync(fd);
  }
}

walk(".");
Deno.stdout.writeSync(new TextEncoder().encode(lines.length > 0 ? lines.join("\n") + "\n" : ""));
console.error(JSON.stringify({ work: performance.now() - started, node_fs: started - loading }));
