/**
 * Build `samples.json` (every sample's exact text, so that the samples reach
 * runtimes without a filesystem) from `samples/origins.json` and the files
 * under `samples/`.
 *
 *   deno run -A tests/conformance/gen_samples.ts           rewrite samples.json
 *   deno run -A tests/conformance/gen_samples.ts --check   exit 1 when it is out of date
 *
 * @module
 */
import type { Sample } from "./types.ts";

const HERE = new URL("./", import.meta.url);
const DECODER = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The expected content of `samples.json`.
 *
 * @returns The JSON text (formatted as `deno fmt` leaves it).
 */
export async function buildSamplesJson(): Promise<string> {
  const origins = JSON.parse(await Deno.readTextFile(new URL("samples/origins.json", HERE))) as Omit<
    Sample,
    "text"
  >[];
  const out: Sample[] = [];
  for (const o of origins) {
    const bytes = await Deno.readFile(new URL(`samples/${o.file}`, HERE));
    out.push({ language: o.language, file: o.file, origin: o.origin, text: DECODER.decode(bytes) });
  }
  return JSON.stringify(out, null, 2) + "\n";
}

if (import.meta.main) {
  const target = new URL("samples.json", HERE);
  const want = await buildSamplesJson();
  if (Deno.args.includes("--check")) {
    let have = "";
    try {
      have = await Deno.readTextFile(target);
    } catch {
      // missing: out of date
    }
    if (have !== want) {
      console.error(
        "tests/conformance/samples.json is out of date: run deno run -A tests/conformance/gen_samples.ts",
      );
      Deno.exit(1);
    }
  } else {
    await Deno.writeTextFile(target, want);
  }
}
