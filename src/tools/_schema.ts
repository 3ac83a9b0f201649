/** Shared JSON Schema fragments for tool arguments. @module */
import type { JsonSchema } from "./types.ts";

/** A workspace-relative path. */
export const PATH: JsonSchema = {
  type: "string",
  minLength: 1,
  description: 'Path relative to the workspace root, e.g. "src/main.ts"',
};

/** The version (SHA-256) the caller last read. */
export const EXPECTED_VERSION: JsonSchema = {
  type: "string",
  pattern: "^[0-9a-fA-F]{1,64}$",
  description:
    "Version returned by read_file (all 64 characters, or its first 12 or more); the call is refused with stale_base if the file changed since",
};

/** Preview without writing. */
export const DRY_RUN: JsonSchema = {
  type: "boolean",
  description: "Return the diff that would be applied, write nothing",
};

/** An object schema with no unknown properties. */
export function objectSchema(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: "object", properties, required, additionalProperties: false };
}
