import assert from "node:assert/strict";
import { DEFAULT_PORT, portFrom } from "../../examples/playground/serve.ts";

const noEnv = () => undefined;

Deno.test("portFrom() reads --port, --port=, -p, then GRAVER_PLAYGROUND_PORT, else 8787", () => {
  assert.equal(portFrom([], noEnv), DEFAULT_PORT);
  assert.equal(DEFAULT_PORT, 8787);
  assert.equal(portFrom(["--port", "9000"], noEnv), 9000);
  assert.equal(portFrom(["--port=0"], noEnv), 0);
  assert.equal(portFrom(["-p", "8080"], noEnv), 8080);
  const env = (name: string) => name === "GRAVER_PLAYGROUND_PORT" ? "9100" : undefined;
  assert.equal(portFrom([], env), 9100);
  assert.equal(portFrom(["--port", "9000"], env), 9000);
});

Deno.test("portFrom() refuses what is not a port", () => {
  for (const bad of ["abc", "-1", "70000", "80.5"]) {
    assert.throws(() => portFrom(["--port", bad], noEnv), TypeError, bad);
  }
});
