import { describe, expect, it } from "vitest";
import { fetchRequestFor, NodeRequestHead } from "#server/http/requests/request-head";

// Decision 0070: the write door's requests are read from node's own headers, as a fetch Headers
// made from the same request reads them; a Request is made only for a reader that asks for one.
describe("a request head made from node's request", () => {
  const raw = { cookie: "bag=1; pass=2", "x-forwarded-for": "203.0.113.9", "x-empty": "", "x-many": ["a", "b"] };
  const made: Request[] = [];
  const head = new NodeRequestHead("https://shop.example/api/cart", "POST", raw, () => {
    const request = new Request("https://shop.example/api/cart", { method: "POST", headers: { cookie: raw.cookie } });
    made.push(request);
    return request;
  });

  it("reads a header in any case, repeated ones joined, an empty one absent", () => {
    expect(head.headers.get("Cookie")).toBe("bag=1; pass=2");
    expect(head.headers.get("X-FORWARDED-FOR")).toBe("203.0.113.9");
    expect(head.headers.get("x-many")).toBe(
      new Headers([
        ["x-many", "a"],
        ["x-many", "b"],
      ]).get("x-many"),
    );
    expect(head.headers.get("x-empty")).toBeNull();
    expect(head.headers.has("x-empty")).toBe(false);
    expect(head.headers.get("Origin")).toBeNull();
    // The object's own inheritance is no header a client sent.
    expect(head.headers.get("constructor")).toBeNull();
    expect(head.headers.has("toString")).toBe(false);
    expect(head.headers.has("cookie")).toBe(true);
    expect(head.url).toBe("https://shop.example/api/cart");
    expect(head.method).toBe("POST");
  });

  it("makes its fetch Request once, when first asked, and a Request is its own", () => {
    expect(made).toHaveLength(0);
    const request = fetchRequestFor(head);
    expect(fetchRequestFor(head)).toBe(request);
    expect(made).toHaveLength(1);
    expect(request.headers.get("cookie")).toBe("bag=1; pass=2");
    const plain = new Request("https://shop.example/");
    expect(fetchRequestFor(plain)).toBe(plain);
  });
});
