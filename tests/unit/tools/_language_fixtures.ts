/**
 * Shared set-up for the Go, Rust and file-local language rename tests: real
 * code bases from tests/fixtures/bindings (go-cmp 0.5.9 and semver 1.0.14 as
 * Debian ships them) and tests/conformance/samples, read into memory
 * workspaces, and the expected text of a file after hand-checked edits.
 *
 * @module
 */
import assert from "node:assert/strict";

function readTree(dir: URL, prefix: string, out: Record<string, string>): void {
  for (const e of Deno.readDirSync(dir)) {
    if (e.isDirectory) readTree(new URL(`${e.name}/`, dir), `${prefix}${e.name}/`, out);
    else if (/\.(go|rs|mod|toml)$/.test(e.name)) {
      out[`/${prefix}${e.name}`] = Deno.readTextFileSync(new URL(e.name, dir));
    }
  }
}

/** go-cmp 0.5.9 (`go.mod`, `cmp/`, `cmp/internal/…`), path -> text. */
export const GO_CMP: Record<string, string> = {};
readTree(new URL("../../fixtures/bindings/go-cmp/", import.meta.url), "", GO_CMP);

/** The semver crate 1.0.14 (`Cargo.toml`, `src/*.rs`), path -> text. */
export const SEMVER: Record<string, string> = {};
readTree(new URL("../../fixtures/bindings/semver/", import.meta.url), "", SEMVER);

/** The value-bag crate 1.0.0-alpha.9, a trimmed copy (grouped and nested `use crate::{a::{self, B}, C}`). */
export const VALUE_BAG: Record<string, string> = {};
readTree(new URL("../../fixtures/bindings/value-bag/", import.meta.url), "", VALUE_BAG);

/**
 * ripgrep's ignore crate 0.4.18, a trimmed copy whose `use` declarations are grouped as ripgrep now writes them
 * (`use crate::{pathutil::{is_hidden, strip_prefix}, …, Error, Match, PartialErrorBuilder}`).
 */
export const IGNORE_CRATE: Record<string, string> = {};
readTree(new URL("../../fixtures/bindings/ignore/", import.meta.url), "", IGNORE_CRATE);

/** cobra 1.6.1, a trimmed copy (`go.mod`, `command.go`, `args.go`): methods called on typed parameters. */
export const COBRA: Record<string, string> = {};
readTree(new URL("../../fixtures/bindings/cobra/", import.meta.url), "", COBRA);

/** A conformance sample's text (tests/conformance/samples/<language>/<name>). */
export function sample(language: string, name: string): string {
  return Deno.readTextFileSync(new URL(`../../conformance/samples/${language}/${name}`, import.meta.url));
}

/**
 * `text` with each (1-based line, 1-based column, old, new) edit applied; each `old` must be at its place.
 *
 * @param text The original text.
 * @param edits The edits.
 * @returns The edited text.
 */
export function edited(text: string, edits: [number, number, string, string][]): string {
  const lines = text.split("\n");
  const sorted = [...edits].sort((a, b) => b[0] - a[0] || b[1] - a[1]);
  for (const [line, column, before, after] of sorted) {
    const l = lines[line - 1]!;
    assert.equal(
      l.slice(column - 1, column - 1 + before.length),
      before,
      `line ${line} column ${column}: ${l}`,
    );
    lines[line - 1] = l.slice(0, column - 1) + after + l.slice(column - 1 + before.length);
  }
  return lines.join("\n");
}
