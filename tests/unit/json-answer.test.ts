import { describe, expect, it } from "vitest";
import { asResponse, jsonAnswer, JsonAnswer } from "#server/http/json-answer";
import { privately } from "#server/http/rest";

// Decision 0069: the API's JSON answers are sent by the write door without a fetch Response, and
// every other door gets the Response that Response.json would have made.
describe("a JSON answer", () => {
  it("is, as a Response, what Response.json makes", async () => {
    const answer = jsonAnswer({ count: 2, items: ["a", "é"] }, { status: 201, headers: { "Cache-Control": "no-store" } });
    const made = asResponse(answer);
    const expected = Response.json({ count: 2, items: ["a", "é"] }, { status: 201, headers: { "Cache-Control": "no-store" } });
    expect(made.status).toBe(expected.status);
    expect([...made.headers]).toEqual([...expected.headers]);
    expect(await made.text()).toBe(await expected.text());
  });

  it("keeps every Set-Cookie, with header names in lower case", () => {
    const headers = new Headers();
    headers.append("Set-Cookie", "a=1");
    headers.append("Set-Cookie", "b=2");
    const answer = new JsonAnswer({}, 200, headers);
    expect(answer.headers).toEqual([
      ["set-cookie", "a=1"],
      ["set-cookie", "b=2"],
    ]);
    expect(new JsonAnswer({}, 200, [["X-Pair", "1"]]).headers).toEqual([["x-pair", "1"]]);
    expect(asResponse(answer).headers.getSetCookie()).toEqual(["a=1", "b=2"]);
  });

  it("throws where Response.json throws: a value JSON cannot hold", () => {
    expect(() => jsonAnswer(undefined)).toThrow(TypeError);
    expect(() => jsonAnswer(10n)).toThrow(TypeError);
  });

  it("is made private unless it already says who may keep it", () => {
    expect(privately(jsonAnswer({})).headers).toEqual([["cache-control", "private, no-store"]]);
    const publicOne = jsonAnswer({}, { headers: { "Cache-Control": "public, max-age=5" } });
    expect(privately(publicOne).headers).toEqual([["cache-control", "public, max-age=5"]]);
  });
});
