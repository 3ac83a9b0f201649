import assert from "node:assert/strict";
import { Hono } from "hono";
import { jsonArgs } from "../../../src/surfaces/http_json_args.ts";

function post(body: string, type: string | null = "application/json"): Promise<Response> {
  const app = new Hono().post("/v1/tools/:name", jsonArgs(), (c) => c.json({ args: c.get("graverArgs") }));
  return Promise.resolve(
    app.request("/v1/tools/read_file", {
      method: "POST",
      headers: type === null ? {} : { "content-type": type },
      body,
    }),
  );
}

Deno.test("jsonArgs() hands the route the parsed body, with any charset", async () => {
  const res = await post('{"path":"a.txt","start_line":3}', "application/json; charset=utf-8");
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { args: { path: "a.txt", start_line: 3 } });
});

Deno.test("jsonArgs() reads an empty or blank body as no arguments", async () => {
  assert.deepEqual(await (await post("")).json(), { args: {} });
  assert.deepEqual(await (await post(" \n\t")).json(), { args: {} });
});

Deno.test("jsonArgs() refuses a body not declared JSON with 415 invalid_args", async () => {
  for (const type of ["text/plain", null]) {
    const res = await post("{}", type);
    assert.equal(res.status, 415);
    const body = await res.json();
    assert.equal(body.error.code, "invalid_args");
    assert.match(
      body.error.message,
      /^Cannot read the arguments: Content-Type is ".*", not application\/json$/,
    );
    assert.equal(
      body.error.hint,
      "Send the tool's args as one JSON object with Content-Type: application/json",
    );
  }
});

Deno.test("jsonArgs() refuses a body that is not JSON with 400 invalid_args and the parser's reason", async () => {
  const res = await post('{"path": ');
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.equal(body.error.code, "invalid_args");
  assert.match(body.error.message, /^Cannot read the arguments: not valid JSON \(.+\)$/);
  assert.equal(body.error.hint, "Send the tool's args as one JSON object");
});
