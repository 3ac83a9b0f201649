import assert from "node:assert/strict";
import { inProcess, json, project } from "./_cli.ts";

Deno.test("graver call --checkpoints records; graver checkpoints lists; graver undo reverts it", async () => {
  const dir = await project({ "gyp/MSVSUserFile.py": "fixtures/real/MSVSUserFile.py" });
  try {
    const file = `${dir}/gyp/MSVSUserFile.py`;
    const before = await Deno.readTextFile(file);
    const edit = await inProcess([
      "call",
      "--checkpoints",
      "edit_file",
      JSON.stringify({
        path: "gyp/MSVSUserFile.py",
        old_string: "import re\n",
        new_string: "import re  # regexps\n",
      }),
    ], { cwd: dir });
    assert.equal(edit.code, 0, edit.stdout);
    const list = json(await inProcess(["checkpoints", "--json"], { cwd: dir }));
    assert.equal(list.data.checkpoints.length, 1);
    assert.equal(list.data.checkpoints[0].tool, "edit_file");
    const undo = await inProcess(["undo"], { cwd: dir });
    assert.equal(undo.code, 0, undo.stdout);
    assert.match(undo.stdout, /undid [0-9a-f]{10}: gyp\/MSVSUserFile\.py/);
    assert.equal(await Deno.readTextFile(file), before);
    const again = await inProcess(["undo"], { cwd: dir });
    assert.equal(again.code, 1, "nothing left to undo");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
