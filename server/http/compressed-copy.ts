import zlib from "node:zlib";

export type Encoding = "br" | "gzip";

/** Bytes kept in memory and sent many times, compressed on first demand per encoding. */
export interface CompressedCopy {
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

const chosen = new Map<string, Encoding | null>();
// Browsers' headers are short; a longer one is a stranger's and is judged without being remembered.
const REMEMBERED_CHARS = 128;

function choose(acceptEncoding: string): Encoding | null {
  if (/\bbr\b(?!;q=0(\.0*)?\b)/.test(acceptEncoding)) return "br";
  if (/\bgzip\b(?!;q=0(\.0*)?\b)/.test(acceptEncoding)) return "gzip";
  return null;
}

/**
 * br, else gzip, else none, as the Accept-Encoding header allows. Browsers send a handful of
 * distinct headers, so each is judged once.
 */
export function encodingFor(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  if (acceptEncoding.length > REMEMBERED_CHARS) return choose(acceptEncoding);
  let encoding = chosen.get(acceptEncoding);
  if (encoding === undefined) {
    encoding = choose(acceptEncoding);
    if (chosen.size >= 256) chosen.clear();
    chosen.set(acceptEncoding, encoding);
  }
  return encoding;
}

const gzipChosen = new Map<string, boolean>();
const GZIP = /\bgzip\b(?!;q=0(\.0*)?\b)/;

/** Whether the Accept-Encoding header takes gzip (pages with a nonce per answer: decision 0028). */
export function gzipAccepted(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  if (acceptEncoding.length > REMEMBERED_CHARS) return GZIP.test(acceptEncoding);
  let accepted = gzipChosen.get(acceptEncoding);
  if (accepted === undefined) {
    accepted = GZIP.test(acceptEncoding);
    if (gzipChosen.size >= 256) gzipChosen.clear();
    gzipChosen.set(acceptEncoding, accepted);
  }
  return accepted;
}

// Each copy is compressed once per version and reused for many answers, so a middle level pays
// off; the one-off copies (a flash) are rare.
export function compressOnce(copy: CompressedCopy, encoding: Encoding): Buffer {
  if (encoding === "br") {
    copy.br ??= zlib.brotliCompressSync(copy.identity, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: copy.identity.length },
    });
    return copy.br;
  }
  copy.gzip ??= zlib.gzipSync(copy.identity, { level: 6 });
  return copy.gzip;
}
