import fs from "node:fs";
import path from "node:path";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as uploadsRoute from "#app/routes/uploads.$";
import { MEDIA_MAX_BYTES } from "#server/contracts/admin-settings";
import { useAppContextForTests } from "#server/boot";
import { removeUnusedMedia, sniffMedia } from "#server/services/catalog/media-uploads";
import { setSetting } from "#server/services/store/settings";
import { ensureAdmin, resetLoginLimits } from "#server/services/accounts/users";
import { createTestContext } from "../setup/context";
import { api, CookieJar, send } from "../setup/http";

const ctx = createTestContext();
const admin = new CookieJar();
const shopper = new CookieJar();
const mediaDir = path.join(ctx.config.uploadsDir, "media");

beforeAll(async () => {
  useAppContextForTests(ctx);
  await resetLoginLimits(ctx);
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
  await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin });
  await api("POST", "/api/register", { body: { username: "shopper", password: "shopper1", email: "s@example.com" }, jar: shopper });
});
beforeEach(() => fs.rmSync(mediaDir, { recursive: true, force: true }));

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part, "latin1") : Buffer.from(part))));
const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
/** The start of an ISO media file: an 'ftyp' box with its brands, then an empty 'mdat'. */
const ftyp = (major: string, ...compatible: string[]) =>
  bytes(u32(16 + 4 * compatible.length), "ftyp", major, [0, 0, 2, 0], ...compatible, u32(8), "mdat", Buffer.alloc(48).toString("latin1"));

// Real file headers, cut short: what each format's first bytes look like.
const SAMPLES = {
  mp4: ftyp("isom", "isom", "iso2", "avc1", "mp41"),
  mov: ftyp("qt  ", "qt  "),
  webm: bytes(
    [0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01, 0x42, 0x82, 0x84],
    "webm",
    Buffer.alloc(60).toString("latin1"),
  ),
  mkv: bytes([0x1a, 0x45, 0xdf, 0xa3, 0xa3, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x88], "matroska", Buffer.alloc(60).toString("latin1")),
  mp3Id3: bytes("ID3", [4, 0, 0, 0, 0, 0, 0], [0xff, 0xfb, 0x90, 0x64], Buffer.alloc(80).toString("latin1")),
  mp3Frame: bytes([0xff, 0xfb, 0x90, 0x64], Buffer.alloc(120).toString("latin1")),
  wav: bytes(
    "RIFF",
    [36, 0, 0, 0],
    "WAVEfmt ",
    [16, 0, 0, 0, 1, 0, 1, 0, 0x44, 0xac, 0, 0, 0x88, 0x58, 1, 0, 2, 0, 16, 0],
    "data",
    [0, 0, 0, 0],
  ),
  ogg: bytes("OggS", [0, 2], Buffer.alloc(22).toString("latin1"), [1, 0x1e, 1], "vorbis", Buffer.alloc(40).toString("latin1")),
  m4a: ftyp("M4A ", "M4A ", "mp42", "isom"),
  text: Buffer.from("This is a plain text file that somebody renamed to look like a clip.\n".repeat(3)),
};

function multipart(field: string, file: Buffer, filename: string, type: string) {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(file)], { type }), filename);
  return form;
}

const uploadVideo = "/api/admin/upload-video";
const uploadAudio = "/api/admin/upload-audio";

async function upload(route: string, body: BodyInit | FormData, jar: CookieJar | null = admin, headers: Record<string, string> = {}) {
  const all = new Headers(headers);
  if (jar) all.set("Cookie", jar.header());
  return send(new Request(`http://localhost${route}`, { method: "POST", body, headers: all, duplex: "half" } as RequestInit));
}

const storedFiles = () => (fs.existsSync(mediaDir) ? fs.readdirSync(mediaDir) : []);

describe("sniffing by content", () => {
  it.each([
    ["video", "mp4", ".mp4"],
    ["video", "mov", ".mp4"],
    ["video", "webm", ".webm"],
    ["video", "mkv", ".webm"],
    ["video", "m4a", null],
    ["video", "mp3Id3", null],
    ["video", "text", null],
    ["audio", "mp3Id3", ".mp3"],
    ["audio", "mp3Frame", ".mp3"],
    ["audio", "wav", ".wav"],
    ["audio", "ogg", ".ogg"],
    ["audio", "m4a", ".mp4"],
    ["audio", "mp4", null],
    ["audio", "webm", null],
    ["audio", "text", null],
  ] as const)("%s from %s bytes → %s", (kind, sample, ext) => {
    expect(sniffMedia(kind, SAMPLES[sample])).toBe(ext);
  });

  it("does not take an AAC ADTS header (layer 00) or junk after 0xFF for MP3", () => {
    expect(sniffMedia("audio", Buffer.from([0xff, 0xf1, 0x50, 0x80, 0, 0]))).toBeNull();
    expect(sniffMedia("audio", Buffer.from([0xff, 0x00, 0x00, 0x00]))).toBeNull();
  });
});

describe("POST /api/admin/upload-video and upload-audio", () => {
  it.each([
    [uploadVideo, "video", "mp4", "clip.mp4", "video/mp4", ".mp4"],
    [uploadVideo, "video", "mov", "clip.mov", "video/quicktime", ".mp4"],
    [uploadVideo, "video", "webm", "clip.webm", "video/webm", ".webm"],
    [uploadAudio, "audio", "mp3Id3", "theme.mp3", "audio/mpeg", ".mp3"],
    [uploadAudio, "audio", "wav", "theme.wav", "audio/wav", ".wav"],
    [uploadAudio, "audio", "m4a", "theme.m4a", "audio/mp4", ".mp4"],
  ] as const)("stores a real %s header sent as %s (%s) and serves it", async (route, field, sample, name, type, ext) => {
    const response = await upload(route, multipart(field, SAMPLES[sample], name, type));
    expect(response.status).toBe(201);
    const body = await response.json();
    const url: string = body[field === "video" ? "videoUrl" : "audioUrl"];
    expect(url).toMatch(new RegExp(`^/uploads/media/${field}-[0-9a-f]{24}\\${ext}$`));
    const file = path.join(ctx.config.uploadsDir, url.slice("/uploads/".length));
    expect(fs.readFileSync(file).equals(SAMPLES[sample])).toBe(true);
    expect(storedFiles()).toEqual([path.basename(url)]);

    const served = await uploadsRoute.loader({
      request: new Request(`http://localhost${url}`),
      params: { "*": url.slice("/uploads/".length) },
      context: {},
    });
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toMatch(ext === ".mp3" ? "audio/mpeg" : ext === ".wav" ? "audio/wav" : /^video\//);
  });

  it("refuses a text file renamed to .mp4 with 415, whatever type the browser declared", async () => {
    const response = await upload(uploadVideo, multipart("video", SAMPLES.text, "clip.mp4", "video/mp4"));
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ message: "Please select a video file.", errors: { video: ["Please select a video file."] } });
    const audio = await upload(uploadAudio, multipart("audio", SAMPLES.text, "theme.mp3", "audio/mpeg"));
    expect(audio.status).toBe(415);
    expect((await audio.json()).message).toBe("Please select an audio file.");
    expect(storedFiles()).toEqual([]);
  });

  it("refuses a video as music and music as a video", async () => {
    expect((await upload(uploadAudio, multipart("audio", SAMPLES.mp4, "theme.m4a", "audio/mp4"))).status).toBe(415);
    expect((await upload(uploadVideo, multipart("video", SAMPLES.mp3Id3, "clip.mp4", "video/mp4"))).status).toBe(415);
    expect(storedFiles()).toEqual([]);
  });

  it("refuses at once, with 413, a request whose Content-Length is over 50MB", async () => {
    // The body is tiny: the door must refuse on the declared size, before reading it.
    const response = await upload(uploadVideo, multipart("video", SAMPLES.mp4, "clip.mp4", "video/mp4"), admin, {
      "Content-Length": String(MEDIA_MAX_BYTES + 1024 * 1024),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      message: "Video size should be less than 50MB.",
      errors: { video: ["Video size should be less than 50MB."] },
    });
  });

  it("stops a streamed upload at 50MB with 413 and leaves no file behind", async () => {
    const boundary = "----media-test-boundary";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="long.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`,
    );
    const block = Buffer.alloc(1024 * 1024, 0x55); // one MiB, sent again and again: nothing big is allocated
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(Buffer.concat([head, SAMPLES.mp3Id3]));
        if (sent > MEDIA_MAX_BYTES + 2 * block.length) {
          controller.enqueue(Buffer.from(`\r\n--${boundary}--\r\n`));
          return controller.close();
        }
        controller.enqueue(block);
        sent += block.length;
      },
    });
    const response = await upload(uploadAudio, body, admin, { "Content-Type": `multipart/form-data; boundary=${boundary}` });
    expect(response.status).toBe(413);
    expect((await response.json()).message).toBe("Audio size should be less than 50MB.");
    expect(storedFiles()).toEqual([]);
  }, 60_000);

  it("answers 400 when no file is sent, or the body is not multipart", async () => {
    const form = new FormData();
    form.append("note", "no file here");
    const none = await upload(uploadVideo, form);
    expect(none.status).toBe(400);
    expect((await none.json()).message).toBe("Please select a video file.");
    const empty = await upload(uploadVideo, multipart("video", Buffer.alloc(0), "empty.mp4", "video/mp4"));
    expect(empty.status).toBe(400);
    const json = await upload(uploadAudio, JSON.stringify({ audio: "x" }), admin, { "Content-Type": "application/json" });
    expect(json.status).toBe(400);
    expect(storedFiles()).toEqual([]);
  });

  it("refuses visitors (401) and shoppers (403) before reading the body", async () => {
    for (const route of [uploadVideo, uploadAudio]) {
      const anonymous = await upload(route, multipart("video", SAMPLES.mp4, "clip.mp4", "video/mp4"), null);
      expect(anonymous.status).toBe(401);
      const ordinary = await upload(route, multipart("video", SAMPLES.mp4, "clip.mp4", "video/mp4"), shopper);
      expect(ordinary.status).toBe(403);
    }
    expect(storedFiles()).toEqual([]);
  });
});

describe("removing media nothing uses", () => {
  it("deletes replaced and abandoned uploads after an hour, never the ones a setting points at", async () => {
    fs.mkdirSync(mediaDir, { recursive: true });
    const file = (name: string, minutesOld: number) => {
      const full = path.join(mediaDir, name);
      fs.writeFileSync(full, "media");
      const when = new Date(ctx.clock.now().getTime() - minutesOld * 60_000);
      fs.utimesSync(full, when, when);
    };
    file("video-inuse.mp4", 600);
    file("audio-inuse.mp3", 600);
    file("video-replaced.mp4", 120);
    file("audio-just-uploaded.mp3", 10);
    file(".video-broken.part", 120);
    await setSetting(ctx, "background_video", "/uploads/media/video-inuse.mp4");
    await setSetting(ctx, "background_music", "https://shop.example/uploads/media/audio-inuse.mp3");

    expect((await removeUnusedMedia(ctx)).sort()).toEqual([".video-broken.part", "video-replaced.mp4"]);
    expect(fs.readdirSync(mediaDir).sort()).toEqual(["audio-inuse.mp3", "audio-just-uploaded.mp3", "video-inuse.mp4"]);

    // An hour later the upload nobody saved goes too.
    ctx.clock.advance(60 * 60_000);
    try {
      expect(await removeUnusedMedia(ctx)).toEqual(["audio-just-uploaded.mp3"]);
    } finally {
      ctx.clock.advance(-60 * 60_000);
    }
  });
});
