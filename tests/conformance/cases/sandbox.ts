/**
 * Sandbox refusals: every way out of the root is refused with
 * `sandbox_violation`, naming the path, and nothing is written.
 *
 * @module
 */
import { BackendFs, createWorkspace } from "../../../src/mod.ts";
import { Sandbox } from "../../../src/fs/sandbox.ts";
import { check, equal } from "../assert.ts";
import { snapshot } from "../snapshot.ts";
import type { Case } from "../types.ts";
import { refused, succeeded } from "./_calls.ts";

const ESCAPES = [
  "../secret.txt",
  "src/../../secret.txt",
  "/secret.txt",
  "/etc/passwd",
  "/workspace/x.txt",
  "in\0.txt",
  "C:\\Windows\\win.ini",
  "c:/x.txt",
  "\\\\server\\share\\x.txt",
  ".graver/journal.json",
  ".graver",
  "src/../.graver/tx/x",
];

interface SymlinkCapable {
  symlink(target: string, path: string): Promise<void>;
}

/** Sandbox cases. */
export const SANDBOX_CASES: Case[] = [
  {
    name: "sandbox.refusals",
    async run(ctx) {
      const backend = ctx.backend({
        "/work/src/a.txt": "inside\n",
        "/work/in.txt": "in\n",
        "/secret.txt": "top secret\n",
      });
      const ws = await createWorkspace({ backend, root: "/work", grammars: ctx.grammars });
      const before = await snapshot(backend);
      const messages: Record<string, string> = {};
      for (const path of ESCAPES) {
        const res = refused(await ws.call("read_file", { path }), "sandbox_violation");
        check(
          res.error.message.includes("Cannot use path"),
          `Expected the refusal of "${path}" to name the path`,
        );
        messages[path] = res.error.message;
        refused(await ws.call("write_file", { path, content: "pwned\n" }), "sandbox_violation");
      }
      refused(await ws.call("move_file", { from: "in.txt", to: "../moved.txt" }), "sandbox_violation");
      refused(await ws.call("delete_file", { path: "../secret.txt" }), "sandbox_violation");
      equal(await snapshot(backend), before, "store after refused calls");
      // Absolute paths inside the root and harmless ".." are fine.
      succeeded(await ws.call("read_file", { path: "/work/in.txt" }), "read");
      succeeded(await ws.call("read_file", { path: "src/../in.txt" }), "read");
      // The Sandbox class refuses lexically, before any backend call.
      const sb = new Sandbox("/work");
      equal(sb.lexical("src/./a.txt").abs, "/work/src/a.txt", "lexical resolution");
      let lexical = "";
      try {
        sb.lexical("../x");
      } catch (err) {
        lexical = (err as { code?: string }).code ?? "";
      }
      equal(lexical, "sandbox_violation", "Sandbox.lexical refusal code");
      return { messages };
    },
  },
  {
    name: "sandbox.symlinks",
    async run(ctx) {
      const backend = ctx.backend({ "/work/src/a.txt": "inside\n", "/secret.txt": "top secret\n" });
      const links = backend as unknown as Partial<SymlinkCapable>;
      check(typeof links.symlink === "function", "Expected the in-memory backend to support symbolic links");
      await links.symlink!("/", "/work/root_link");
      await links.symlink!("../secret.txt", "/work/rel_out");
      await links.symlink!("/work/src", "/work/src_link");
      await links.symlink!("src/a.txt", "/work/a_link.txt");
      const ws = await createWorkspace({ backend, root: "/work", grammars: ctx.grammars });
      const before = await snapshot(BackendFs.wrap(backend).raw, "/");
      const out = refused(await ws.call("read_file", { path: "root_link/secret.txt" }), "sandbox_violation");
      const rel = refused(await ws.call("read_file", { path: "rel_out" }), "sandbox_violation");
      refused(await ws.call("write_file", { path: "rel_out", content: "pwned\n" }), "sandbox_violation");
      refused(
        await ws.call("write_file", { path: "root_link/new.txt", content: "pwned\n" }),
        "sandbox_violation",
      );
      equal(await snapshot(backend, "/"), before, "store after refused symlink escapes");
      const inside = succeeded(await ws.call("read_file", { path: "src_link/a.txt" }), "read");
      const file = succeeded(await ws.call("read_file", { path: "a_link.txt" }), "read");
      return {
        absolute_escape: out.error.message,
        relative_escape: rel.error.message,
        inside_dir_link: inside.data["path"],
        inside_file_link: file.data["path"],
      };
    },
  },
];
