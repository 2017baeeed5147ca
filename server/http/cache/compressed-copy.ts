import zlib from "node:zlib";

export type Encoding = "br" | "gzip";

/** Bytes kept in memory and sent many times, compressed on first demand per encoding. */
export interface CompressedCopy {
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
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
