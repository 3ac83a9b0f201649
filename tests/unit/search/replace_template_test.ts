import assert from "node:assert/strict";
import { RecoverableError } from "../../../src/errors.ts";
import { expandTemplate, parseTemplate } from "../../../src/search/replace_template.ts";

Deno.test("parseTemplate() reads $1, ${1}, $name, ${name}, $0 and $$ as ripgrep's --replace does", () => {
  const groups = { count: 2, names: { key: 1, value: 2 } };
  const expand = (template: string, occurrence: (string | null)[]) =>
    expandTemplate(parseTemplate(template, groups), occurrence);
  const occurrence = ["a=1", "a", "1"];
  assert.equal(expand("$2=$1", occurrence), "1=a");
  assert.equal(expand("${1}x and $key", occurrence), "ax and a");
  assert.equal(expand("[$0] costs $$5", occurrence), "[a=1] costs $5");
  assert.equal(expand("${value}!", occurrence), "1!");
  // a group that took no part expands to nothing
  assert.equal(expand("<$2>", ["a", "a", null]), "<>");
});

Deno.test("parseTemplate() refuses a group the pattern does not have, and takes a literal template as it is", () => {
  assert.throws(
    () => parseTemplate("`${name}`", { count: 1, names: {} }),
    (e: unknown) =>
      e instanceof RecoverableError && e.code === "invalid_args" &&
      /group "name".*it has \$0, \$1/.test(e.message),
  );
  // `$1a` names a group "1a"
  assert.throws(() => parseTemplate("$1a", { count: 1, names: {} }), /group "1a"/);
  assert.equal(expandTemplate(parseTemplate("${name} $1", null), ["x"]), "${name} $1");
});
