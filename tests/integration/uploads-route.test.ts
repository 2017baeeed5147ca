import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import * as uploadsRoute from "#app/routes/uploads.$";
import { parseRange } from "#server/http/doors/uploads-door";
import { useAppContextForTests } from "#server/boot";
import { createTestContext } from "../setup/context";

const ctx = createTestContext();
const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));

beforeAll(() => {
  useAppContextForTests(ctx);
  fs.mkdirSync(path.join(ctx.config.uploadsDir, "media"), { recursive: true });
  fs.writeFileSync(path.join(ctx.config.uploadsDir, "media", "clip.mp4"), bytes);
});

const get = (file: string, headers: Record<string, string> = {}) =>
  uploadsRoute.loader({ request: new Request(`http://localhost/uploads/${file}`, { headers }), params: { "*": file }, context: {} });

describe("GET /uploads/*", () => {
  it("serves the whole file with long caching and its type", async () => {
    const response = await get("media/clip.mp4");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("video/mp4");
    expect(response.headers.get("Accept-Ranges")).toBe("bytes");
    expect(response.headers.get("Cache-Control")).toContain("immutable");
    expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes);
  });

  it("answers a byte range with 206, as Safari needs for video", async () => {
    const response = await get("media/clip.mp4", { Range: "bytes=100-199" });
    expect(response.status).toBe(206);
    expect(response.headers.get("Content-Range")).toBe("bytes 100-199/1000");
    expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes.subarray(100, 200));
  });

  it("refuses a range past the end with 416", async () => {
    const response = await get("media/clip.mp4", { Range: "bytes=5000-" });
    expect(response.status).toBe(416);
  });

  it("never serves outside the uploads folder or unknown types", async () => {
    expect(await get("../store.db")).toMatchObject({ status: 404 });
    expect(await get("../.session-secret")).toMatchObject({ status: 404 });
    // Encoded slashes reach the door still encoded, and are decoded before the folder check.
    expect(await get("..%2fstore.db")).toMatchObject({ status: 404 });
    expect(await get("media%2f..%2f..%2fstore.db")).toMatchObject({ status: 404 });
    expect(await get("media%2fclip.mp4")).toMatchObject({ status: 200 });
  });

  it("parses suffix and open-ended ranges", () => {
    expect(parseRange("bytes=-100", 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange("bytes=990-", 1000)).toEqual({ start: 990, end: 999 });
    expect(parseRange("bytes=0-5000", 1000)).toEqual({ start: 0, end: 999 });
    expect(parseRange("items=0-1", 1000)).toBeNull();
  });
});
