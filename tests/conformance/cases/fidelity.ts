/**
 * Bytes are the truth: BOM, CRLF/mixed endings, tabs and a missing final
 * newline survive read/write/move untouched; binary and invalid UTF-8 are
 * refused for text reads, never mangled.
 *
 * @module
 */
import { BackendFs, createWorkspace, versionOf } from "../../../src/mod.ts";
import { equal, sameBytes } from "../assert.ts";
import { snapshot } from "../snapshot.ts";
import type { Case } from "../types.ts";
import { field, refused, succeeded } from "./_calls.ts";

const enc = new TextEncoder();

/** Text files whose exact bytes must survive. */
const TEXTS: Record<string, string> = {
  "bom_crlf.txt": "\uFEFFfirst\r\nsecond\r\n",
  "mixed.txt": "a\r\nb\nc\r\nd\n",
  "no_final_newline.txt": "x\ny",
  "tabs.txt": "\tindented\n\t\tdeeper \t\n",
  "lone_cr.txt": "one\rtwo\n",
};

/** Byte-fidelity cases. */
export const FIDELITY_CASES: Case[] = [
  {
    name: "fidelity.text_round_trip",
    async run(ctx) {
      const files: Record<string, Uint8Array> = {};
      for (const [name, text] of Object.entries(TEXTS)) files[`/t/${name}`] = enc.encode(text);
      const backend = ctx.backend(files);
      const fs = BackendFs.wrap(backend);
      const ws = await createWorkspace({ backend, grammars: ctx.grammars });
      const facts: Record<string, unknown> = {};
      for (const [name, text] of Object.entries(TEXTS)) {
        const path = `t/${name}`;
        const read = succeeded(await ws.call("read_file", { path }), "read");
        equal(field(read, "version"), await versionOf(enc.encode(text)), `version of ${name}`);
        // Writing the same text back is a no-op; the bytes are untouched.
        succeeded(await ws.call("write_file", { path, content: text }), "no_change");
        sameBytes(await fs.read(`/${path}`), enc.encode(text), `${name} after an identical write`);
        // A changed text lands exactly as given (BOM, endings, tabs included).
        const changed = text.replace(/[a-z]+/, (w) => w.toUpperCase());
        const res = succeeded(await ws.call("write_file", { path, content: changed }), "applied");
        sameBytes(await fs.read(`/${path}`), enc.encode(changed), `${name} after a write`);
        facts[name] = {
          content: field(read, "content"),
          total_lines: read.data["total_lines"],
          diff: res.changes[0]!.diff,
        };
      }
      // Moving keeps every byte.
      const moved = await fs.read("/t/mixed.txt");
      succeeded(await ws.call("move_file", { from: "t/mixed.txt", to: "u/mixed.txt" }), "applied");
      sameBytes(await fs.read("/u/mixed.txt"), moved, "moved bytes");
      return facts;
    },
  },
  {
    name: "fidelity.binary_and_invalid_utf8_refused",
    async run(ctx) {
      const binary = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
      const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]); // "café\n" in Latin-1
      const truncated = new Uint8Array([0x61, 0xe2, 0x82]); // a cut-off 3-byte sequence
      const backend = ctx.backend({ "/img.png": binary, "/latin1.txt": latin1, "/cut.txt": truncated });
      const ws = await createWorkspace({ backend, grammars: ctx.grammars });
      const before = await snapshot(backend);
      const png = refused(await ws.call("read_file", { path: "img.png" }), "binary_file");
      const l1 = refused(await ws.call("read_file", { path: "latin1.txt" }), "encoding");
      const cut = refused(await ws.call("read_file", { path: "cut.txt" }), "encoding");
      equal(await snapshot(backend), before, "store after refused reads");
      // A binary file can still be moved whole, byte for byte.
      succeeded(await ws.call("move_file", { from: "img.png", to: "assets/img.png" }), "applied");
      sameBytes(await BackendFs.wrap(backend).read("/assets/img.png"), binary, "moved binary bytes");
      return {
        binary: { message: png.error.message, details: png.error.details },
        latin1: { message: l1.error.message, details: l1.error.details },
        truncated: { message: cut.error.message, details: cut.error.details },
      };
    },
  },
];
