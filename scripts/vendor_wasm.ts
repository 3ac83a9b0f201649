/**
 * Vendor the tree-sitter runtime and grammar wasm from the pinned npm
 * packages into `wasm/` and `grammars/wasm/`, verifying each file's package
 * version and SHA-256 against the manifests. A mismatch is a hard error.
 *
 *   deno run -A scripts/vendor_wasm.ts            verify + copy
 *   deno run -A scripts/vendor_wasm.ts --record   (maintainers) write the hashes into the manifests
 *
 * @module
 */
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { createHash } from "node:crypto";

const ROOT = new URL("../", import.meta.url).pathname;
const record = Deno.args.includes("--record");

interface Pinned {
  package: string;
  version: string;
  file: string;
  sha256: string;
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

async function verify(name: string, pin: Pinned, dest: string): Promise<boolean> {
  const dir = `${ROOT}node_modules/${pin.package}`;
  let pkg: { version: string };
  try {
    pkg = JSON.parse(await readFile(`${dir}/package.json`, "utf8"));
  } catch {
    throw new Error(
      `Cannot vendor "${name}": package "${pin.package}" is not installed; run "deno install" first`,
    );
  }
  if (pkg.version !== pin.version) {
    throw new Error(
      `Cannot vendor "${name}": expected ${pin.package}@${pin.version}, found ${pkg.version}`,
    );
  }
  const bytes = await readFile(`${dir}/${pin.file}`);
  const actual = sha256(bytes);
  if (record) {
    const changed = pin.sha256 !== actual;
    pin.sha256 = actual;
    await copyFile(`${dir}/${pin.file}`, dest);
    return changed;
  }
  if (actual !== pin.sha256) {
    throw new Error(
      `Cannot vendor "${name}": ${pin.package}@${pin.version}/${pin.file} has SHA-256 ${actual}, manifest says ${pin.sha256}`,
    );
  }
  let existing: Uint8Array | null = null;
  try {
    existing = await readFile(dest);
  } catch { /* absent */ }
  if (!existing || sha256(existing) !== actual) await copyFile(`${dir}/${pin.file}`, dest);
  return false;
}

const runtimePath = `${ROOT}wasm/manifest.json`;
const grammarPath = `${ROOT}grammars/manifest.json`;
const runtime = JSON.parse(await readFile(runtimePath, "utf8")) as { runtime: Pinned };
const grammars = JSON.parse(await readFile(grammarPath, "utf8")) as {
  languages: Record<string, Pinned>;
};
await mkdir(`${ROOT}grammars/wasm`, { recursive: true });
let changed = await verify("runtime", runtime.runtime, `${ROOT}wasm/web-tree-sitter.wasm`);
for (const [id, pin] of Object.entries(grammars.languages)) {
  changed = (await verify(id, pin, `${ROOT}grammars/wasm/${id}.wasm`)) || changed;
}
if (record && changed) {
  await writeFile(runtimePath, JSON.stringify(runtime, null, 2) + "\n");
  await writeFile(grammarPath, JSON.stringify(grammars, null, 2) + "\n");
  console.log("vendor: recorded new hashes in the manifests");
}
console.log(
  `vendor: ${1 + Object.keys(grammars.languages).length} wasm files verified (SHA-256) and in place`,
);
