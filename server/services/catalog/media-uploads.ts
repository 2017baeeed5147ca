import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { MEDIA_MAX_BYTES, MEDIA_MESSAGES, type MediaKind } from "#server/contracts/admin-settings";
import type { AppContext } from "#server/context";
import { Invalid } from "#server/errors";

/**
 * Background video and music uploads (docs/spec.md §4 "Media upload", §5, §9: 50MB). The type is read
 * from the file's first bytes, never from its name or declared type (DESIGN.md), and the bytes go
 * to disk as they arrive: a 50MB upload never sits in memory.
 */

export type MediaRejection = "tooLarge" | "wrongType" | "missing";

/** A refused upload. The REST doors answer 413, 415 and 400 for the three reasons. */
export class MediaRejected extends Invalid {
  constructor(
    readonly kind: MediaKind,
    readonly reason: MediaRejection,
  ) {
    const { field, tooLarge, wrongType } = MEDIA_MESSAGES[kind];
    const message = reason === "tooLarge" ? tooLarge : wrongType;
    super(message, { [field]: [message] });
  }
}

/** Room for the multipart boundaries and part headers around the file itself. */
const MULTIPART_SLACK = 64 * 1024;
/** Other form fields are a few bytes; anything big there is not a form this door sends. */
const OTHER_FIELDS_MAX = 64 * 1024;
/** Enough for every signature below, including a few of an MP4's compatible brands. */
const HEAD_BYTES = 64;

const ascii = (bytes: Uint8Array, start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));

/** ISO base media (MP4, MOV, M4A): the first box is 'ftyp'; its major and compatible brands say what it is. */
function ftypBrands(head: Uint8Array): string[] | null {
  if (head.length < 12 || ascii(head, 4, 8) !== "ftyp") return null;
  const boxEnd = Math.min(head.length, new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(0));
  const brands = [ascii(head, 8, 12)];
  for (let at = 16; at + 4 <= boxEnd; at += 4) brands.push(ascii(head, at, at + 4));
  return brands;
}

// iTunes-style audio (AAC/ALAC in MP4): M4A, audiobooks (M4B), protected (M4P), Flash audio (F4A).
const AUDIO_BRANDS = new Set(["M4A ", "M4B ", "M4P ", "F4A "]);

/** An MPEG audio frame header: 11 sync bits, a valid version and layer, a valid bitrate. */
function isMpegAudioFrame(head: Uint8Array): boolean {
  const [b0 = 0, b1 = 0, b2 = 0] = head;
  const version = (b1 >> 3) & 0b11;
  const layer = (b1 >> 1) & 0b11;
  return b0 === 0xff && (b1 & 0xe0) === 0xe0 && version !== 0b01 && layer !== 0b00 && b2 >> 4 !== 0b1111;
}

/**
 * The extension to store the file under, or null when the bytes are not that kind of media.
 * Extensions are the ones /uploads serves with a media type: QuickTime MOV and M4A share MP4's
 * container and play from ".mp4"; Matroska (MKV) shares WebM's and plays from ".webm".
 */
export function sniffMedia(kind: MediaKind, head: Uint8Array): ".mp4" | ".webm" | ".mp3" | ".ogg" | ".wav" | null {
  const brands = ftypBrands(head);
  if (kind === "video") {
    if (brands && !AUDIO_BRANDS.has(brands[0]!)) return ".mp4";
    if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return ".webm";
    return null;
  }
  if (brands?.some((brand) => AUDIO_BRANDS.has(brand))) return ".mp4";
  if (ascii(head, 0, 3) === "ID3" || isMpegAudioFrame(head)) return ".mp3";
  if (ascii(head, 0, 4) === "OggS") return ".ogg";
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 12) === "WAVE") return ".wav";
  return null;
}

/** Refuses before reading a byte when the declared request size is already over the limit. */
export function refuseOversizedRequest(kind: MediaKind, contentLength: string | null): void {
  const declared = Number(contentLength);
  if (contentLength && Number.isFinite(declared) && declared > MEDIA_MAX_BYTES + MULTIPART_SLACK) {
    throw new MediaRejected(kind, "tooLarge");
  }
}

/** Counts (and for the file, sniffs) the bytes as they pass to disk; stops at the limit. */
async function* checked(kind: MediaKind, chunks: AsyncIterable<Uint8Array>, onType: (ext: string) => void) {
  let size = 0;
  let head: Uint8Array | null = new Uint8Array(0);
  const release = (): Uint8Array => {
    const ext = sniffMedia(kind, head!);
    if (!ext) throw new MediaRejected(kind, head!.length ? "wrongType" : "missing");
    onType(ext);
    const bytes = head!;
    head = null;
    return bytes;
  };
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    if (size > MEDIA_MAX_BYTES) throw new MediaRejected(kind, "tooLarge");
    if (!head) {
      yield chunk;
      continue;
    }
    head = Buffer.concat([head, chunk]);
    if (head.length >= HEAD_BYTES) yield release();
  }
  if (head) yield release();
}

/**
 * Streams one file to DATA_DIR/uploads/media/<random><ext> and returns its public URL
 * (/uploads/media/...). Random names: an upload never replaces a file a setting still points at.
 * A refused or broken upload leaves nothing behind.
 */
export async function storeMedia(ctx: AppContext, kind: MediaKind, chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const dir = path.join(ctx.config.uploadsDir, "media");
  await fs.promises.mkdir(dir, { recursive: true });
  const name = `${kind}-${crypto.randomBytes(12).toString("hex")}`;
  const partial = path.join(dir, `.${name}.part`);
  let ext = "";
  // Opened before the body is read: a stream left to open the file itself could create it after
  // a refused upload's clean-up had run, leaving an empty part behind (seen once in CI).
  const file = await fs.promises.open(partial, "wx");
  try {
    await pipeline(Readable.from(checked(kind, chunks, (found) => (ext = found))), file.createWriteStream());
    await fs.promises.rename(partial, path.join(dir, name + ext));
  } catch (error) {
    await file.close().catch(() => undefined);
    await fs.promises.rm(partial, { force: true });
    throw error;
  }
  return `/uploads/media/${name}${ext}`;
}

/** One part of a multipart body, as Remix's parser hands it over. */
export interface UploadPart {
  name: string;
  data: AsyncIterable<Uint8Array>;
}

/**
 * For `unstable_parseMultipartFormData`: stores the first part named `video` (or `audio`) and
 * yields its URL as that field's value. Other parts are read and dropped, within a small budget,
 * because the parser would otherwise hold them in memory.
 */
export function mediaPartHandler(ctx: AppContext, kind: MediaKind) {
  const field = MEDIA_MESSAGES[kind].field;
  let stored = false;
  let otherBytes = 0;
  return async (part: UploadPart): Promise<string | undefined> => {
    if (part.name === field && !stored) {
      stored = true;
      return storeMedia(ctx, kind, part.data);
    }
    for await (const chunk of part.data) {
      otherBytes += chunk.byteLength;
      if (otherBytes > OTHER_FIELDS_MAX) throw new MediaRejected(kind, "tooLarge");
    }
    return undefined;
  };
}

/** An upload waits this long for its URL to be saved as a setting before it counts as abandoned. */
export const UNUSED_MEDIA_GRACE_MS = 60 * 60_000;

/**
 * Uploaded videos and music that no setting points at any more (replaced, or uploaded and never
 * saved) are deleted after the grace period: each can be 50 MB, and a small host's disk is small.
 * Run by the sweeper. Returns the names removed.
 */
export async function removeUnusedMedia(ctx: AppContext): Promise<string[]> {
  const dir = path.join(ctx.config.uploadsDir, "media");
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  if (names.length === 0) return [];
  const settings = await ctx.db
    .selectFrom("appSettings")
    .select("value")
    .where("key", "in", ["background_video", "background_music"])
    .execute();
  const inUse = new Set(settings.map((s) => /\/uploads\/media\/([^/?#]+)/.exec(s.value)?.[1]).filter(Boolean));
  const cutoff = ctx.clock.now().getTime() - UNUSED_MEDIA_GRACE_MS;
  const removed: string[] = [];
  for (const name of names) {
    if (inUse.has(name)) continue;
    const file = path.join(dir, name);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat?.isFile() || stat.mtimeMs > cutoff) continue;
    await fs.promises.rm(file, { force: true });
    removed.push(name);
  }
  return removed;
}
