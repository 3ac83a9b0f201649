import assert from "node:assert/strict";
import { landedElsewhere, landingIn, landsAsAsked, refuseLandedElsewhere } from "../../../src/fs/landing.ts";
import { Sandbox } from "../../../src/fs/sandbox.ts";
import { BackendFs } from "../../../src/fs/backend.ts";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";

Deno.test("landing: the same path, or the same path under the root's real path, and nothing else", async () => {
  const real = await Deno.makeTempDir({ prefix: "graver-landing-" });
  const links = await Deno.makeTempDir({ prefix: "graver-landing-links-" });
  try {
    await Deno.symlink(real, `${links}/root`);
    const sandbox = new Sandbox(`${links}/root`);
    await sandbox.learnRealRoot(BackendFs.wrap(createDiskBackend()));
    const landing = landingIn(sandbox);
    const asked = `${links}/root/src/a.ts`;
    assert.equal(landsAsAsked(asked, asked, undefined), true);
    assert.equal(
      landsAsAsked(`${real}/src/a.ts`, asked, undefined),
      false,
      "no landing: only the path asked",
    );
    assert.equal(landsAsAsked(`${real}/src/a.ts`, asked, landing), true, "the root's real path");
    assert.equal(landsAsAsked(`${real}/src/b.ts`, asked, landing), false, "another file of the root");
    assert.equal(landsAsAsked("/etc/passwd", asked, landing), false);
    refuseLandedElsewhere({ at: `${real}/src`, asked: `${links}/root/src` }, landing); // no throw
    assert.throws(
      () => refuseLandedElsewhere({ at: "/etc", asked: `${links}/root/src` }, landing),
      (e: Error & { code?: string }) =>
        e.code === "ELOOP" && e.message.includes('was opened as "/etc"') && e.message.endsWith("not listed"),
    );
    const read = landedElsewhere({ at: "/etc/passwd", asked, what: "read" });
    assert.equal((read as Error & { code?: string }).code, "ELOOP");
    assert.match(read.message, /a folder on its way is a link now; not read$/);
  } finally {
    await Deno.remove(real, { recursive: true });
    await Deno.remove(links, { recursive: true });
  }
});
