/**
 * Shared types of the conformance suite.
 *
 * @module
 */
import type { Backend, Grammars, WasmLoader } from "../../src/mod.ts";

/** A real source file to parse (from `samples.json`). */
export interface Sample {
  /** Language id from `grammars/manifest.json`. */
  language: string;
  /** Path under `tests/conformance/samples/`. */
  file: string;
  /** package@version/path it was copied from. */
  origin: string;
  /** Its exact content. */
  text: string;
}

/** What a runtime harness injects. */
export interface ConformanceFixture {
  /** The runtime's wasm loader (bytes, URL or precompiled modules). */
  wasm: WasmLoader;
  /** A fresh backend seeded with files (default: memfs via `createMemoryBackend`). */
  makeBackend?: (files: Record<string, string | Uint8Array>) => Backend;
  /** Only run cases whose name starts with one of these prefixes (default: all). */
  only?: string[];
}

/** What every case receives. */
export interface CaseContext {
  /** One grammar registry shared by the whole run. */
  grammars: Grammars;
  /** A fresh seeded backend. */
  backend(files?: Record<string, string | Uint8Array>): Backend;
  /** The real source samples. */
  samples: Sample[];
}

/** One conformance case: returns the deterministic facts it checked, throws on failure. */
export interface Case {
  /** Stable dotted name, e.g. "commit.round_trip". */
  name: string;
  /** The spec. */
  run(ctx: CaseContext): Promise<Record<string, unknown>>;
}

/** One case's outcome (part of the digest: no timings, ids or runtime names). */
export interface CaseResult {
  /** Case name. */
  name: string;
  /** Whether every check held. */
  ok: boolean;
  /** The facts checked (present when ok). */
  facts?: Record<string, unknown>;
  /** The failure message (present when not ok). */
  error?: string;
}

/** The whole run. */
export interface ConformanceReport {
  /** Every case, in suite order. */
  results: CaseResult[];
  /** Cases that passed. */
  passed: number;
  /** Cases run. */
  total: number;
  /** SHA-256 of the canonical JSON of `results`. */
  digest: string;
}
