/**
 * Content versions are SHA-256 of the exact bytes, identical in every
 * runtime, and read_file reports the same version.
 *
 * @module
 */
import { createWorkspace, versionOf } from "../../../src/mod.ts";
import { equal } from "../assert.ts";
import type { Case } from "../types.ts";
import { field, succeeded } from "./_calls.ts";

const KNOWN: [string, Uint8Array, string][] = [
  ["empty", new Uint8Array(), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
  [
    "ascii",
    new TextEncoder().encode("hello\n"),
    "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03",
  ],
  [
    "bom",
    new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69, 0x0a]),
    "6f6dd753736cf20980444f88ca28e2539375957c93f3bb357fc897e12b20e39f",
  ],
  [
    "crlf",
    new TextEncoder().encode("a\r\nb\r\n"),
    "58055bdcc73787eb88c78d36f0b4939e9c5dc1c3ad17e25cc85a6833cf1a0cab",
  ],
  [
    "non_utf8",
    new Uint8Array([0xff, 0xfe, 0x00, 0x80, 0x41]),
    "80d7d634bfeb962bd511534fffecb2d99acfaac03082ee0d5e806345641e13f4",
  ],
  [
    "utf8_multibyte",
    new TextEncoder().encode("h\u00e9llo \u2603 \u{1F600}\n"),
    "f6709b139a43b85d032bef5743cc3e91fab88449ae384c9b9093d1cb4b6777e2",
  ],
];

/** Version cases. */
export const VERSION_CASES: Case[] = [
  {
    name: "version.known_bytes",
    async run() {
      const out: Record<string, string> = {};
      for (const [name, bytes, expected] of KNOWN) {
        const v = await versionOf(bytes);
        equal(v, expected, `versionOf(${name})`);
        out[name] = v;
      }
      return { versions: out };
    },
  },
  {
    name: "version.read_file_reports_it",
    async run(ctx) {
      const text = KNOWN.filter(([n]) => n !== "non_utf8");
      const files: Record<string, Uint8Array> = {};
      for (const [name, bytes] of text) files[`/v/${name}.txt`] = bytes;
      const ws = await createWorkspace({ backend: ctx.backend(files) });
      const out: Record<string, string> = {};
      for (const [name, , expected] of text) {
        const read = succeeded(await ws.call("read_file", { path: `v/${name}.txt` }), "read");
        equal(field(read, "version"), expected, `read_file version of ${name}`);
        out[name] = field(read, "content");
      }
      return { contents: out };
    },
  },
];
