import assert from "node:assert/strict";
import { versionOf } from "../../../src/mod.ts";
import { IN_PLACE_HASH_BYTES, shortVersion } from "../../../src/fs/version.ts";
import { sha256 } from "../../../src/fs/_sha256.ts";

Deno.test("versionOf() is SHA-256 of the exact bytes", async () => {
  assert.equal(
    await versionOf(new Uint8Array()),
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  );
  const lf = await versionOf(new TextEncoder().encode("a\n"));
  const crlf = await versionOf(new TextEncoder().encode("a\r\n"));
  assert.notEqual(lf, crlf);
  assert.equal(shortVersion(lf), lf.slice(0, 12));
});

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

Deno.test("sha256() agrees with WebCrypto at every padding boundary", async () => {
  for (const n of [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 65536]) {
    const bytes = crypto.getRandomValues(new Uint8Array(n));
    const web = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    assert.equal(hex(sha256(bytes)), hex(web), `${n} bytes`);
    // A view into a larger buffer hashes only its own bytes.
    const padded = new Uint8Array(n + 10);
    padded.set(bytes, 5);
    assert.equal(hex(sha256(padded.subarray(5, 5 + n))), hex(web), `${n} bytes at an offset`);
  }
});

Deno.test("versionOf() of a large file (hashed in place) is its SHA-256 too", async () => {
  const bytes = new Uint8Array(IN_PLACE_HASH_BYTES + 3);
  for (let i = 0; i < bytes.length; i += 4096) bytes[i] = i % 251;
  const web = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  assert.equal(await versionOf(bytes), hex(web));
});
