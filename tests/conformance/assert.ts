/**
 * A tiny runtime-neutral assert for the conformance suite (web standards
 * only: it runs in Deno, Node, Bun, Chromium and workerd).
 *
 * @module
 */

/** Thrown when a conformance check fails. */
export class CheckError extends Error {
  /** @param message What was expected and what was found. */
  constructor(message: string) {
    super(message);
    this.name = "CheckError";
  }
}

/**
 * Fail unless `condition` holds.
 *
 * @param condition The fact to check.
 * @param message What was expected.
 */
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckError(message);
}

/**
 * Fail unless two values have the same canonical JSON.
 *
 * @param actual What the code produced.
 * @param expected What the spec says.
 * @param what A label for the message.
 */
export function equal(actual: unknown, expected: unknown, what: string): void {
  const a = canonicalJson(actual);
  const e = canonicalJson(expected);
  if (a !== e) throw new CheckError(`Expected ${what} to be ${clip(e)}, found ${clip(a)}`);
}

/**
 * Fail unless two byte arrays are identical.
 *
 * @param actual Bytes read back.
 * @param expected Bytes written.
 * @param what A label for the message.
 */
export function sameBytes(actual: Uint8Array | null, expected: Uint8Array | null, what: string): void {
  if (actual === null || expected === null) {
    if (actual !== expected) {
      throw new CheckError(`Expected ${what} to be ${expected ? "present" : "absent"}`);
    }
    return;
  }
  if (actual.length !== expected.length) {
    throw new CheckError(`Expected ${what} to hold ${expected.length} bytes, found ${actual.length}`);
  }
  for (let i = 0; i < actual.length; i++) {
    if (actual[i] !== expected[i]) {
      throw new CheckError(`Expected ${what} byte ${i} to be ${expected[i]}, found ${actual[i]}`);
    }
  }
}

/**
 * Run `fn` and return the error it throws, failing if it does not throw.
 *
 * @param fn The call expected to throw.
 * @param what A label for the message.
 * @returns The thrown value.
 */
export async function rejects(fn: () => unknown, what: string): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  throw new CheckError(`Expected ${what} to throw`);
}

function clip(s: string): string {
  return s.length > 300 ? `${s.slice(0, 300)}…` : s;
}

/**
 * JSON with object keys sorted at every level, so equal values always give
 * equal text (the digest input).
 *
 * @param value A JSON-compatible value.
 * @returns Its canonical JSON text.
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return "null";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(",")}]`;
  const keys = Object.keys(value as Record<string, unknown>).filter((k) =>
    (value as Record<string, unknown>)[k] !== undefined
  ).sort();
  return `{${
    keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")
  }}`;
}

/**
 * SHA-256 of a string's UTF-8 bytes, as lowercase hex (WebCrypto).
 *
 * @param text The input.
 * @returns 64 hex characters.
 */
export async function sha256Text(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}
