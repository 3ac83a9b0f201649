/**
 * `graver sg --stdin`: ast-grep's search of code read from standard input, for pipes and editor integrations.
 * The text becomes the one file of a workspace in memory (`STDIN` with its language's extension), searched or
 * rewritten as a file on disk is, and printed as `STDIN`: matches as `STDIN:line:column:text`; a rewrite prints
 * the whole rewritten text (ast-grep's `--stdin -U`: the code to pipe on), or its diff with `--dry-run`. The
 * language must be named (`-l LANG`, or a scan's rules' own `language`), as ast-grep asks: a text has no
 * extension to tell it by. Nothing on disk is read or written. The bytes are taken as they come (where the
 * host streams them), so a text that is not UTF-8 is refused by a rewrite as a file would be, and a BOM kept.
 *
 * @module
 */
import type { Backend } from "../fs/backend.ts";
import { createMemoryBackend } from "../fs/mod.ts";
import { languagesOfType } from "../search/file_types.ts";
import { GRAMMARS } from "../syntax/grammars.ts";
import { createWorkspace, type Workspace } from "../workspace.ts";
import type { CliHost } from "./_cli_contract.ts";
import type { CliScope } from "./_cli_scope.ts";

/** How the text is named in what is printed, as ast-grep names it. */
export const STDIN_NAME = "STDIN";

/** The text from standard input, in a workspace of its own, and how its path is printed. */
export interface StdinSource {
  /** The workspace holding the text as its one file. */
  ws: Workspace;
  /** Its backend, in memory. */
  backend: Backend;
  /** The file's path in it (`STDIN.js`). */
  file: string;
  /** The one scope to search: the whole workspace, its file printed as `STDIN`. */
  scope: CliScope;
  /** Set once a rewrite has changed the text (the command then prints it whole). */
  written?: boolean;
}

/**
 * The file name the text takes for a language (`-l js` → `STDIN.js`), or the problem: none named, or one
 * graver has no grammar for.
 *
 * @example
 * ```ts
 * import { stdinFileName } from "./_sg_stdin.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(stdinFileName(["ts"]), "STDIN.ts");
 * assert.match((stdinFileName([]) as { problem: string }).problem, /--stdin needs the code's language/);
 * ```
 *
 * @param languages The languages given (`-l`, repeatable; a scan's rule's `language`).
 * @returns The name, or the problem.
 */
export function stdinFileName(languages: readonly string[]): string | { problem: string } {
  if (languages.length !== 1) {
    return {
      problem: languages.length === 0
        ? "--stdin needs the code's language: give -l LANG (js, ts, py, go, rust …), as ast-grep asks for --lang"
        : `--stdin reads one text, in one language: give one -l, not ${languages.join(", ")}`,
    };
  }
  const id = languagesOfType(languages[0]!.toLowerCase())?.[0];
  const ext = id === undefined ? undefined : GRAMMARS[id]?.extensions[0];
  if (ext === undefined) {
    return { problem: `--stdin: "${languages[0]}" is not a language graver has a grammar for` };
  }
  return `${STDIN_NAME}${ext}`;
}

/**
 * The text read from standard input as the one file of a workspace in memory.
 *
 * @param host The command's host (its stdin and wasm).
 * @param file The file's name ({@linkcode stdinFileName}).
 * @returns The workspace, the file and the scope that prints it as `STDIN`.
 */
export async function stdinSource(host: CliHost, file: string): Promise<StdinSource> {
  const content = await stdinContent(host);
  const backend = createMemoryBackend({ [`/${file}`]: content });
  const ws = await createWorkspace({ backend, wasm: host.wasm });
  return {
    ws,
    backend,
    file,
    scope: { root: undefined, path: undefined, shown: (p) => p === file ? STDIN_NAME : p },
  };
}

/**
 * All of stdin: its bytes where the host streams them, so that the workspace judges them as it judges a file
 * on disk (a text that is not UTF-8 is searched as a file would be, and refused `not_utf8` by a rewrite,
 * rather than decoded with replacement characters and printed back so); else the host's text.
 */
async function stdinContent(host: CliHost): Promise<string | Uint8Array> {
  if (host.stdinStream === undefined) return await host.readStdin();
  return new Uint8Array(await new Response(host.stdinStream()).arrayBuffer());
}

/**
 * The text after a rewrite, as `ast-grep --stdin -U` prints it: the whole file, from the workspace that holds
 * it.
 *
 * @param source The text's workspace and file.
 * @returns The file's text now.
 */
export async function rewrittenText(source: StdinSource): Promise<string> {
  const bytes = await source.backend.readFile(`/${source.file}`);
  // A BOM the text came with goes out with it (the decoder would drop it).
  return typeof bytes === "string" ? bytes : new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
}

/**
 * The text of `--stdin` in its workspace, or the problem: `--stdin` takes no PATH, and the language comes from
 * `-l`, else from the rules (a scan's, when they share one).
 *
 * @param host The command's host.
 * @param given `languages`: `-l`'s values; `rules`: a scan's rules' languages; `paths`: the PATHs given.
 * @returns The source, or the problem.
 */
export async function openStdin(
  host: CliHost,
  given: { languages: readonly string[]; rules: readonly (string | undefined)[]; paths: readonly string[] },
): Promise<StdinSource | { problem: string }> {
  if (given.paths.length > 0) {
    return {
      problem: `--stdin searches the code read from standard input: give no PATH (got ${
        given.paths.join(" ")
      })`,
    };
  }
  const fromRules = [...new Set(given.rules.filter((l): l is string => l !== undefined))];
  const name = stdinFileName(given.languages.length > 0 ? given.languages : fromRules);
  if (typeof name !== "string") return name;
  return await stdinSource(host, name);
}
