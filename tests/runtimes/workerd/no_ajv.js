// Bundled in place of ajv and ajv-formats in the graver worker: the MCP SDK imports ajv as its default
// JSON Schema validator, but graver always passes the eval-free @cfworker/json-schema one (ajv generates
// code at run time, which workerd forbids). Constructing it is a bug, said loudly.
export default function noAjv() {
  throw new Error(
    "Cannot use ajv in the graver worker: the MCP server is given the @cfworker/json-schema validator",
  );
}
