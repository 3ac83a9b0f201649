/**
 * The real ≥ 20k-line Python file the per-call benchmarks share: CPython's
 * standard library modules (of the `python3` on PATH), concatenated in name
 * order, whole modules only, each one compiling on its own.
 *
 * @module
 */

/** The concatenated file. */
export interface CPythonFile {
  /** Its text (LF, final newline). */
  text: string;
  /** How many stdlib modules it holds. */
  files: number;
}

/**
 * Build the file: CPython's `*.py` modules that compile, concatenated until `lines` lines, cut at the last
 * top-level statement before that.
 *
 * @param lines How many lines (about; default 20,000).
 * @returns The text and how many modules went in.
 * @throws Error when `python3` is missing.
 */
export async function buildCPythonFile(lines = 20000): Promise<CPythonFile> {
  const probe = await new Deno.Command("python3", {
    args: [
      "-c",
      `import glob, sysconfig
out, n = [], 0
for f in sorted(glob.glob(sysconfig.get_paths()["stdlib"] + "/*.py")):
    try:
        t = open(f, encoding="utf-8").read()
        compile(t, f, "exec")
    except Exception:
        continue
    out.extend(t.rstrip("\\n").split("\\n"))
    n += 1
    if len(out) >= ${lines}:
        break
import sys
sys.stdout.write(str(n) + "\\n" + "\\n".join(out) + "\\n")`,
    ],
    stdout: "piped",
  }).output();
  if (!probe.success) throw new Error("bench: python3 is needed for the corpus (CPython's stdlib)");
  const all = new TextDecoder().decode(probe.stdout);
  const nl = all.indexOf("\n");
  // Whole modules only: cut at the last top-level statement before `lines`.
  const split = all.slice(nl + 1).split("\n");
  let cut = Math.min(lines, split.length);
  while (cut > 0 && /^[ \t]/.test(split[cut] ?? "")) cut--;
  return { text: split.slice(0, cut).join("\n") + "\n", files: Number(all.slice(0, nl)) };
}
