import assert from "node:assert/strict";
import { versionOf } from "../../../src/mod.ts";
import { shortVersion } from "../../../src/fs/version.ts";

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
