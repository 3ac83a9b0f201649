import assert from "node:assert/strict";
import { lendNodeSha256, nodeSha256 } from "../../../src/adapters/_node_sha256.ts";
import { sha256 } from "../../../src/fs/_sha256.ts";
import { lendSha256, versionOf, versionOfNow } from "../../../src/fs/version.ts";

/** WebCrypto's digest as hex: the reference. */
async function webCryptoHex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Real files of this repository, an empty array, a subarray of a larger buffer, and bytes past 8 MiB. */
async function samples(): Promise<Uint8Array[]> {
  const real = await Promise.all(
    ["deno.json", "README.md", "src/fs/version.ts", "grammars/manifest.json"].map((p) =>
      Deno.readFile(new URL(`../../../${p}`, import.meta.url))
    ),
  );
  const big = new Uint8Array(9 * 1024 * 1024).map((_, i) => (i * 31) & 0xff);
  return [...real, new Uint8Array(), real[1]!.subarray(5, 300), big];
}

Deno.test("nodeSha256 gives WebCrypto's SHA-256 of the exact bytes, a view's included", async () => {
  for (const bytes of await samples()) {
    assert.equal(nodeSha256(bytes), await webCryptoHex(bytes), `${bytes.length} bytes`);
  }
});

Deno.test("once lent, versions are hashed without a promise and are the same versions", async () => {
  const all = await samples();
  lendSha256(null);
  try {
    const before = await Promise.all(all.map((b) => versionOf(b)));
    assert.equal(versionOfNow(all[0]!), undefined);
    lendNodeSha256();
    assert.deepEqual(all.map((b) => versionOfNow(b)), before);
    assert.deepEqual(await Promise.all(all.map((b) => versionOf(b))), before);
    assert.equal(before[6], [...sha256(all[6]!)].map((b) => b.toString(16).padStart(2, "0")).join(""));
  } finally {
    lendNodeSha256(); // as the posix adapters leave it
  }
});

Deno.test("the posix adapters lend it on load: a disk workspace hashes without a promise", async () => {
  lendSha256(null);
  try {
    const before = await versionOf(new TextEncoder().encode("x"));
    await import(`../../../src/adapters/_posix.ts?fresh=${Date.now()}`); // a fresh instance of the module
    assert.equal(versionOfNow(new TextEncoder().encode("x")), before);
  } finally {
    lendNodeSha256();
  }
});
