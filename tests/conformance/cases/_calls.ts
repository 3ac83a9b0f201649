/**
 * Helpers for checking tool results in conformance cases.
 *
 * @module
 */
import type { ToolFailure, ToolResult, ToolSuccess } from "../../../src/mod.ts";
import { check, equal } from "../assert.ts";

/**
 * Fail unless the call succeeded.
 *
 * @param res A tool result.
 * @param status The expected status.
 * @returns The success envelope.
 */
export function succeeded(res: ToolResult, status?: ToolSuccess["status"]): ToolSuccess {
  check(res.ok, `Expected ${res.tool} to succeed, got ${JSON.stringify(res.ok ? null : res.error)}`);
  if (status) equal(res.status, status, `${res.tool} status`);
  return res;
}

/**
 * Fail unless the call was refused with `code`.
 *
 * @param res A tool result.
 * @param code The expected error code.
 * @returns The failure envelope.
 */
export function refused(res: ToolResult, code: string): ToolFailure {
  check(!res.ok, `Expected ${res.tool} to be refused with "${code}", but it succeeded`);
  equal(res.error.code, code, `${res.tool} error code`);
  check(res.error.hint.length > 0, `Expected the "${code}" refusal to carry a hint`);
  return res;
}

/** The string field `key` of a result's data. */
export function field(res: ToolSuccess, key: string): string {
  const v = res.data[key];
  check(typeof v === "string", `Expected ${res.tool} data.${key} to be a string`);
  return v;
}
