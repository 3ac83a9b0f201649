import assert from "node:assert/strict";
import { sizeText } from "../../../src/fs/size_text.ts";

Deno.test("sizeText() names a size in the largest unit it reaches, one decimal at most", () => {
  assert.equal(sizeText(0), "0 bytes");
  assert.equal(sizeText(1023), "1023 bytes");
  assert.equal(sizeText(1024), "1 KiB");
  assert.equal(sizeText(1536), "1.5 KiB");
  assert.equal(sizeText(8 * 1024 * 1024), "8 MiB");
  assert.equal(sizeText(16_888_897), "16.1 MiB");
});
