/**
 * The one table from graver's error codes to HTTP statuses. The HTTP API
 * answers a refused tool call with its ToolResult and this status; MCP
 * reports every refusal as a tool result with `isError: true` (the model
 * sees the code, message and hint), so it needs no table.
 *
 * @module
 */
import type { ErrorCode } from "../errors.ts";

/** HTTP status per error code. */
export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  invalid_args: 400,
  invalid_query: 400,
  unauthorized: 401,
  sandbox_violation: 403,
  permission_denied: 403,
  not_found: 404,
  stale_base: 409,
  ambiguous: 409,
  already_applied: 409,
  already_exists: 409,
  is_directory: 409,
  name_clash: 409,
  destination_conflict: 409,
  import_cycle: 409,
  overrides_present: 409,
  unread_range: 428,
  binary_file: 415,
  encoding: 415,
  no_match: 422,
  definition_gate: 422,
  syntax_error: 422,
  unsupported_language: 422,
  unresolved: 422,
  control_flow_escapes: 422,
  types_required: 422,
  parameter_in_use: 422,
  value_reference: 422,
  unsupported_call_site: 422,
  visibility_required: 422,
  limit_exceeded: 422,
  internal: 500,
};

/**
 * The HTTP status of an error code (500 for a code this table does not know yet).
 *
 * @example
 * ```ts
 * import { httpStatusOf } from "./http_status.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(httpStatusOf("stale_base"), 409);
 * assert.equal(httpStatusOf("invalid_args"), 400);
 * ```
 *
 * @param code A wire error code.
 * @returns The status.
 */
export function httpStatusOf(code: string): number {
  return (HTTP_STATUS as Record<string, number>)[code] ?? 500;
}
