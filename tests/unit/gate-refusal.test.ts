import { describe, expect, it } from "vitest";
import { gateRefusal, refusedAddToBag, refusedCartChange } from "#app/lib/gate-refusal";

// What a clientAction gets from serverAction when the waiting room refuses a purchase: an error
// response with the gate's JSON body (server/http/gate/waiting-room-gate.ts busyResponse).
const refused = (status: number, data: unknown) => ({ status, statusText: "", internal: false, data });

describe("Add To Bag refused by the waiting room", () => {
  it("becomes the notice beside the button, in the gate's words, with the store's own line to join", () => {
    const body = { message: "The drop is busy. Please join the line.", waitingRoomUrl: "//elsewhere.example/x" };
    expect(refusedAddToBag(refused(429, body))).toEqual({
      ok: false,
      notice: { kind: "error", title: "Error", description: "The drop is busy. Please join the line." },
      waitingRoomUrl: "/waiting-room",
    });
  });

  it("words a 429 without a readable body as the line's own message", () => {
    expect(gateRefusal(refused(429, "<!doctype html>…"))).toEqual({
      message: "The drop is busy. Please join the line.",
      waitingRoomUrl: "/waiting-room",
    });
  });

  it("leaves every other failure to the route's error page", () => {
    const failure = refused(500, { message: "Something went wrong on our side. Please try again." });
    expect(gateRefusal(failure)).toBeNull();
    expect(() => refusedAddToBag(failure)).toThrow();
    const offline = new TypeError("Failed to fetch");
    expect(() => refusedAddToBag(offline)).toThrow(offline);
  });
});

describe("the bag's plus, minus and remove refused by the waiting room", () => {
  it("becomes the bag's toast, in the gate's words, with the store's own line and no bag", () => {
    const body = { message: "The drop is busy. Please join the line.", waitingRoomUrl: "//elsewhere.example/x" };
    expect(refusedCartChange(refused(429, body))).toEqual({
      ok: false,
      intent: null,
      cart: null,
      notice: { kind: "error", title: "Error", description: "The drop is busy. Please join the line." },
      waitingRoomUrl: "/waiting-room",
    });
  });

  it("leaves every other failure to the route's error page", () => {
    const failure = refused(500, { message: "Something went wrong on our side. Please try again." });
    expect(() => refusedCartChange(failure)).toThrow();
    const invalid = refused(400, { message: "Quantity must be a whole number" });
    expect(() => refusedCartChange(invalid)).toThrow();
    const offline = new TypeError("Failed to fetch");
    expect(() => refusedCartChange(offline)).toThrow(offline);
  });
});
