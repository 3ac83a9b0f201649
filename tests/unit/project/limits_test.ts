/** The walk's limit sets and the constants the tools have always exported from them. */
import assert from "node:assert/strict";
import { PROJECT_LIMITS } from "../../../src/project/limits.ts";
import { MAX_PROJECT_FILES } from "../../../src/structural/shared/project_files.ts";
import { MAX_SEARCH_FILE_BYTES, MAX_SEARCH_FILES } from "../../../src/tools/find_symbol.ts";

Deno.test("the exported limits are the walk's limit sets, with the values they always had", () => {
  assert.equal(MAX_PROJECT_FILES, 20000);
  assert.equal(PROJECT_LIMITS.resolve.files, MAX_PROJECT_FILES);
  // Import updates list every file, data files included: four times the source-file limit.
  assert.equal(PROJECT_LIMITS.everyFile.files, 4 * MAX_PROJECT_FILES);
  assert.equal(MAX_SEARCH_FILES, PROJECT_LIMITS.search.files);
  assert.equal(MAX_SEARCH_FILE_BYTES, PROJECT_LIMITS.search.fileBytes);
  assert.deepEqual(PROJECT_LIMITS.hint, { files: 300, fileBytes: 512 * 1024, totalBytes: Infinity });
});
